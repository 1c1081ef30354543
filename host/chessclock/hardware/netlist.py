"""netlist.txt: every net of the wiring, and the perfboard parts' own."""

from typing import TYPE_CHECKING

from chessclock.board import displays as displaysmod
from chessclock.board import profiles as boardsmod
from chessclock.hardware.model import GAUGE, GAUGE_PART, HEADER, LED_PARTS, LED_R, i2c_bus, ohms

if TYPE_CHECKING:
    from chessclock.hardware.model import Wiring


def netlist_text(w: "Wiring") -> str:
    """Every net: the wiring's (through the cables) and the perfboard parts' own."""
    cfg = w.profile.config
    bat = cfg["battery"]
    vin = w.mcu.vin
    gauge = cfg.get("fuel_gauge")
    lines = [HEADER.replace("# ", "# netlist of %s: " % w.profile.name, 1).rstrip(),
             "# Format: `net NAME: PART.PIN ...` (MCU pins by header id and label), then the",
             "# perfboard parts as `part REF VALUE: PIN=NET ...`. Cables join wiring.yaml's "
             "pins.", ""]
    mcu = w.connectors["MCU"]
    labels = dict(zip(mcu["pins"], mcu["pinlabels"], strict=True))
    for name, members in w.nets():
        pins = " ".join("MCU.%s(%s)" % (p, labels[p]) if d == "MCU" else "%s.%s" % (d, p)
                        for d, p in members)
        lines.append("net %s: %s" % (name, pins))
    lines += ["",
              "part R1 %s (r_top): 1=POWER.BAT+ 2=POWER.SENSE" % ohms(bat["r_top"]),
              "part R2 %s (r_bottom): 1=POWER.SENSE 2=GND" % ohms(bat["r_bottom"]),
              "part C2 100n: 1=POWER.SENSE 2=GND",
              "part D1 1N5817 (Schottky): A=POWER.BAT+ K=POWER.VOUT (%s)" % vin,
              "part Q1 2N3904 (NPN): B=R3.2 C=BUZZER_DRV.BZ- E=GND",
              "part R3 1k (base): 1=BUZZER_DRV.IN 2=Q1.B",
              "part R4 1k (discharges the piezo): 1=BUZZER_DRV.BZ+ 2=BUZZER_DRV.BZ-",
              "part PIEZO: +=BUZZER_DRV.BZ+ (VCC %s) -=BUZZER_DRV.BZ- (Q1.C)" % vin,
              ] + [line for side in (boardsmod.LEDS if cfg["leds"] else ())
                   for line in _led_netlist(side)] + [
              "part SW_POWER: 1=BATTERY.+ 2=POWER.BAT+",
              ] + (_gauge_netlist(w) if gauge else [
              "part BATTERY %s: +=SW_POWER.1 -=GND" % bat["chemistry"]]) + [
              "internal pull-ups: levers and buttons (MCU), %s modules have their own on %s%s"
              % ("/".join(k.chip for k in displaysmod.KINDS),
                 " or ".join(k.pullup_pins for k in displaysmod.KINDS),
                 "; the %s module too" % GAUGE_PART[gauge["type"]][0] if gauge else ""), ""]
    return "\n".join(lines)


def _gauge_netlist(w: "Wiring") -> list[str]:
    cfg = w.profile.config
    g = cfg["fuel_gauge"]
    bus = i2c_bus(cfg, g["i2c"])
    lab = w.gpio_label
    return ["part BATTERY %s: +=SW_POWER.1 %s.CELL+ -=GND %s.CELL-"
            % (cfg["battery"]["chemistry"], GAUGE, GAUGE),
            "part %s %s module (I2C%d 0x%02X, fuel gauge): VIN=3V3 GND=GND SDA=%s SCL=%s "
            "CELL+=BATTERY.+ (before SW_POWER) CELL-=BATTERY.-"
            % (GAUGE, GAUGE_PART[g["type"]][0], bus["id"], g["addr"], lab(bus["sda"]),
               lab(bus["scl"]))]


def _led_netlist(side: str) -> list[str]:
    des, r_ref, d_ref = LED_PARTS[side]
    return ["part %s %d (%s series): 1=%s.IN 2=%s.A" % (r_ref, LED_R, d_ref, des, d_ref),
            "part %s red LED 5 mm (running side, %s): A=%s.2 K=%s.GND" % (d_ref, side, r_ref,
                                                                         des)]
