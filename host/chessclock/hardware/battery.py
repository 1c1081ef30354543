"""The battery-life model: assumed discharge curves, the load per current case, the hours
from full and after the low-battery warning, and the warning that would leave 10 h."""

from typing import Any

from chessclock.board import displays as displaysmod
from chessclock.board.profiles import Profile
from chessclock.hardware.model import LED_VF, led_ma

# Assumed discharge curves at a C/10..C/20 load: (cell volts, state of charge %), falling.
NIMH_CURVE = [(1.40, 100), (1.30, 90), (1.27, 80), (1.23, 50), (1.20, 20), (1.17, 10),
              (1.12, 5), (1.05, 2), (1.00, 0)]
LIPO_CURVE = [(4.20, 100), (4.10, 90), (4.00, 80), (3.92, 70), (3.87, 60), (3.82, 50),
              (3.79, 40), (3.77, 30), (3.74, 20), (3.68, 10), (3.45, 5), (3.00, 0)]
CELLS = {"nimh-3aa": (NIMH_CURVE, 3, 2000), "nimh-4aa": (NIMH_CURVE, 4, 2000),
         "lipo-1s": (LIPO_CURVE, 1, 2000)}


def soc_at(curve: Any, cell_v: float) -> float:
    """State of charge (%) at a cell voltage, linear between the curve's points."""
    for (v1, s1), (v2, s2) in zip(curve, curve[1:], strict=False):
        if v2 <= cell_v <= v1:
            return s2 + (s1 - s2) * (cell_v - v2) / (v1 - v2)
    return 100.0 if cell_v > curve[0][0] else 0.0


def cell_v_at(curve: Any, soc: float) -> float:
    for (v1, s1), (v2, s2) in zip(curve, curve[1:], strict=False):
        if s2 <= soc <= s1:
            return v2 + (v1 - v2) * (soc - s2) / (s1 - s2)
    return curve[0][0] if soc > 100 else curve[-1][0]


def battery_life(profile: Profile, chemistry_name: str, chemistry: dict[str, Any]) -> dict[str,
                 Any]:
    """Estimate per case (low, typical, high current): battery mA, hours from full, hours
    after the low-battery warning, and the warning that would leave 10 h.

    Without a fuel gauge the warning is at low_mv: the charge left then is read off the
    assumed discharge curve, and 10 h would need the low_mv given. With one (boards.toml
    `fuel_gauge`) the warning comes at low_pct percent state of charge (low_mv stays as a
    backstop): low_pct % of the pack is left, no curve needed, and 10 h would need the
    state of charge given (low_pct_for_10h)."""
    curve, cells, mah = CELLS[chemistry_name]
    mcu = profile.mcu
    kinds = [displaysmod.get(d["type"]) for d in profile.config["displays"]]
    leds = bool(profile.config["leds"])
    gauge = profile.config.get("fuel_gauge")
    low_v = chemistry["low_mv"] / 1000 / cells
    reserve_pct = gauge["low_pct"] if gauge else soc_at(curve, low_v)
    out = []
    for i, case in enumerate(("low", "typical", "high")):
        load_ma = mcu.board_ma[i] + sum(k.ma[i] for k in kinds)
        if leds:
            load_ma += led_ma(LED_VF[i])   # one LED lit while a clock runs (the game)
        bat_ma = mcu.battery_ma(load_ma, chemistry["low_mv"])   # at the warning's voltage
        need_pct = 100 * 10 * bat_ma / mah
        need_mv = (round(cell_v_at(curve, need_pct) * cells * 1000) if need_pct <= 100
                   else None)
        case_out = {"case": case, "load_ma": round(load_ma, 1),
                    "battery_ma": round(bat_ma),
                    "full_h": round(mah / bat_ma, 1),
                    "reserve_pct": round(reserve_pct, 1),
                    "after_low_h": round(mah * reserve_pct / 100 / bat_ma, 1),
                    "low_mv_for_10h": need_mv}
        if gauge:
            case_out["low_pct_for_10h"] = round(need_pct, 1) if need_pct <= 100 else None
        out.append(case_out)
    life = {"capacity_mah": mah, "cells": cells, "low_mv": chemistry["low_mv"],
            "cases": out}
    if gauge:
        life["fuel_gauge"] = {"type": gauge["type"], "low_pct": gauge["low_pct"],
                              "low_mv_reserve_pct": round(soc_at(curve, low_v), 1)}
    return life
