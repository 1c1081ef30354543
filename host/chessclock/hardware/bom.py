"""bom.csv: the bill of materials of one profile."""

import csv
import io
from typing import TYPE_CHECKING, Any

from chessclock.board import displays as displaysmod
from chessclock.hardware.model import GAUGE, GAUGE_PART, LED_R, LED_VF, led_ma, ohms

if TYPE_CHECKING:
    from chessclock.hardware.model import Wiring

BOM_COLUMNS = ["ref", "part", "quantity", "typical_part_number", "approx_price_eur"]
BATTERY_PARTS = {
    "nimh-3aa": [("BATTERY", "AA NiMH cell, 1900-2000 mAh low self-discharge", 3,
                  "Panasonic eneloop BK-3MCCE", 2.50),
                 ("BATTERY", "3 x AA holder with wire leads", 1, "BH331 (generic)", 1.00)],
    "nimh-4aa": [("BATTERY", "AA NiMH cell, 1900-2000 mAh low self-discharge", 4,
                  "Panasonic eneloop BK-3MCCE", 2.50),
                 ("BATTERY", "4 x AA holder with wire leads", 1, "BH341 (generic)", 1.00)],
    "lipo-1s": [("BATTERY", "LiPo cell 3.7 V 2000 mAh with protection circuit", 1,
                 "103450 pouch cell (generic)", 7.00),
                ("BATTERY", "USB LiPo charger with protection, between cell and switch", 1,
                 "TP4056 + DW01A module (generic)", 1.00)],
}


def bom_rows(w: "Wiring") -> list[list[Any]]:
    cfg = w.profile.config
    bat = cfg["battery"]
    rows = [("MCU",) + w.mcu.part[:1] + (1,) + w.mcu.part[1:]]
    kinds = [d["type"] for d in cfg["displays"]]
    for kind in dict.fromkeys(kinds):
        part, pn, price = displaysmod.get(kind).part
        rows.append(("DISPLAY_L DISPLAY_R" if kinds.count(kind) == 2 else "DISPLAY",
                     part, kinds.count(kind), pn, price))
    rows += [
        ("LEVER_L LEVER_R", "Lever microswitch, quiet (see NOTES.md)", 2, "Omron D2F-01L", 1.80),
        ("BTN_*", "Tactile push button 12 x 12 mm with cap", 4, "Omron B3F-4055", 0.40),
        ("PIEZO", "Passive piezo transducer 12 mm", 1, "TDK PS1240P02BT", 0.60),
        ("Q1", "NPN transistor", 1, "2N3904", 0.10),
        ("R3 R4", "Resistor 1 kOhm 1/4 W", 2, "1k 1% metal film", 0.05),
    ]
    if cfg["leds"]:
        rows += [
            ("D2 D3", "LED 5 mm red, high brightness (2000 mcd or more at 20 mA), running "
             "side: seen from 10 m", 2, "generic 5 mm red 620-630 nm, 30 deg", 0.10),
            ("R5 R6", "Resistor %d Ohm 1/4 W (LED series, %.1f mA)"
             % (LED_R, led_ma(LED_VF[1])), 2, "%dR 1%% metal film" % LED_R, 0.05),
        ]
    for ref, r in (("R1", bat["r_top"]), ("R2", bat["r_bottom"])):
        rows.append((ref, "Resistor %s 1%% (battery divider)" % ohms(r), 1,
                     "%s 1%% metal film" % ohms(r), 0.05))
    rows += [
        ("C2", "Capacitor 100 nF ceramic (ADC filter)", 1, "100n X7R 50 V", 0.05),
        ("D1", "Schottky diode 1 A (battery to %s; USB can power the board too)"
         % w.mcu.vin, 1, "1N5817", 0.10),
        ("SW_POWER", "Rocker switch SPST 3 A", 1, "KCD11 (generic)", 0.40),
    ]
    rows += [r for r in BATTERY_PARTS[bat["chemistry"]]]
    gauge = cfg.get("fuel_gauge")
    if gauge:
        chip, pn, price = GAUGE_PART[gauge["type"]]
        rows.append((GAUGE, "Fuel gauge module %s (I2C 0x%02X, state of charge), on the cell "
                     "before the power switch" % (chip, gauge["addr"]), 1, pn, price))
    rows += [
        ("", "Perfboard 50 x 70 mm", 1, "generic FR4 2.54 mm", 1.00),
        ("", "Hook-up wire 0.14 mm2 / Dupont jumpers, assorted colours", 1, "generic", 2.00),
        ("", "See-saw lever: 3 mm steel rod, 2 compression springs, 2 rubber bumpers", 1,
         "generic", 2.00),
        ("", "Enclosure (3D-printed or ABS box ~ 200 x 100 x 60 mm)", 1, "generic", 6.00),
    ]
    return rows


def bom_text(w: "Wiring") -> str:
    out = io.StringIO()
    wr = csv.writer(out, lineterminator="\n")
    wr.writerow(BOM_COLUMNS)
    for ref, part, qty, pn, price in bom_rows(w):
        wr.writerow([ref, part, qty, pn, "%.2f" % price])
    return out.getvalue()
