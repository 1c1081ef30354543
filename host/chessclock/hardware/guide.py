"""README.md of hardware/<profile>/: the build guide (pin table, steps, battery life)."""

from typing import TYPE_CHECKING, Any

from chessclock.hardware.model import (
    GAUGE,
    GAUGE_PART,
    LED_R,
    LED_SUPPLY_V,
    LED_VF,
    functions,
    i2c_bus,
    led_ma,
    ohms,
)

if TYPE_CHECKING:
    from chessclock.hardware.model import Wiring


def _life_table(life: dict[str, Any]) -> str:
    rows = ["| current case | load at 3.3 V | from the battery | full pack | after the "
            "warning | warning for 10 h would be at |", "|---|---|---|---|---|---|"]
    gauge = life.get("fuel_gauge")
    for c in life["cases"]:
        if gauge:
            need = ("%.1f %% state of charge" % c["low_pct_for_10h"]
                    if c["low_pct_for_10h"] is not None else None)
        else:
            need = "%d mV" % c["low_mv_for_10h"] if c["low_mv_for_10h"] else None
        rows.append("| %s | %g mA | %d mA | %.1f h | %.1f h | %s |" % (
            c["case"], c["load_ma"], c["battery_ma"], c["full_h"], c["after_low_h"],
            need or "never (10 h needs more than the full pack)"))
    return "\n".join(rows)


def _life_intro(life: dict[str, Any]) -> str:
    gauge = life.get("fuel_gauge")
    if not gauge:
        return ("%d mAh pack, warning at %d mV (%.1f %% of the charge left on the assumed "
                "curve)." % (life["capacity_mah"], life["low_mv"],
                             life["cases"][0]["reserve_pct"]))
    return ("%d mAh pack. The clock warns at %d %% state of charge (the %s fuel gauge): "
            "%d mAh left, no voltage curve needed; it also warns at %d mV, a backstop "
            "(%.1f %% left on the assumed curve). After the warning: %d mAh / the battery "
            "current." % (life["capacity_mah"], gauge["low_pct"], gauge["type"].upper(),
                          round(life["capacity_mah"] * gauge["low_pct"] / 100),
                          life["low_mv"], gauge["low_mv_reserve_pct"],
                          round(life["capacity_mah"] * gauge["low_pct"] / 100)))


def readme_text(w: "Wiring", life: dict[str, Any]) -> str:
    p = w.profile
    lab = w.gpio_label
    header = w.mcu.header
    rows = []
    for key, (gpio, role) in functions(p).items():
        rows.append("| %s | %s | %s | %s |" % (key, lab(gpio), header[gpio], role))
    steps = _steps(w)
    return "\n".join([
        "<!-- GENERATED from boards.toml by `python -m chessclock.hardware generate` "
        "(make hardware): do not edit. -->",
        "# Build: `%s`" % p.name,
        "",
        "%s. The pins come from `boards.toml` (profile `%s`); the firmware for this build is "
        "`make firmware BOARD=%s`." % (p.description, p.name, p.name),
        "",
        "![wiring](wiring.svg)",
        "",
        "- [wiring.svg](wiring.svg) / [wiring.png](wiring.png): every wire "
        "([wiring.yaml](wiring.yaml), WireViz)",
        "- [schematic.svg](schematic.svg): the circuit; [netlist.txt](netlist.txt): every net",
        "- [bom.csv](bom.csv): what to buy; [../NOTES.md](../NOTES.md): lever, switches, "
        "displays, enclosure, battery life",
        "",
        "## Pins",
        "",
        "| function (boards.toml) | MCU pin | header | use |",
        "|---|---|---|---|",
    ] + rows + [
        "",
        "Levers and buttons are switches to GND read with the internal pull-up: no resistor.",
        "",
        "## Steps",
        "",
    ] + ["%d. %s" % (i, t) for i, t in enumerate(steps, 1)] + [
        "",
        "## Battery life (estimate; method and assumptions in ../NOTES.md)",
        "",
        _life_intro(life),
        "",
        _life_table(life),
        "",
    ])


def _steps(w: "Wiring") -> list[str]:
    """The build guide's steps, in order."""
    p = w.profile
    cfg = p.config
    bat = cfg["battery"]
    chem = w.chem
    steps = [
        "Flash MicroPython on the %s, then `make deploy BOARD=%s PORT=...` (hold MENU at "
        "power-on later for maintenance mode)." % (w.mcu.board_type, p.name),
        "Perfboard `POWER`: D1 (1N5817, stripe towards %s) from BAT+ to VOUT; divider "
        "R1 %s from BAT+ to SENSE, R2 %s from SENSE to GND, C2 100 nF across R2. The divider "
        "sits after the power switch, so it draws nothing when the clock is off."
        % (w.mcu.vin, ohms(bat["r_top"]), ohms(bat["r_bottom"])),
        "Perfboard `BUZZER_DRV`: Q1 2N3904, base through R3 1k from IN, emitter to GND, "
        "collector to the piezo's minus; the piezo's plus to %s; R4 1k across the piezo."
        % w.mcu.vin,
        "Wire the levers' microswitches (COM to GND, NO to the pin), the four buttons and "
        "the displays as in the picture; power the displays from 3V3, never from %s."
        % w.mcu.vin,
    ]
    if cfg["leds"]:
        steps.append(
            "The running-side LEDs `LED_L` and `LED_R` (D2, D3: 5 mm red, high brightness), "
            "one beside each display or in each end of the lever, facing the room: from the "
            "pin through R5/R6 %s (in the lead, under heat-shrink) to the anode (long leg), "
            "the cathode (flat side) to GND. (%.1f V - Vf %.1f V) / %s = %.1f mA (%.1f to "
            "%.1f mA over Vf %.1f to %.1f V); only the running side's is lit."
            % (ohms(LED_R), LED_SUPPLY_V, LED_VF[1], ohms(LED_R), led_ma(LED_VF[1]),
               led_ma(LED_VF[2]), led_ma(LED_VF[0]), LED_VF[2], LED_VF[0]))
    gauge = cfg.get("fuel_gauge")
    if gauge:
        steps.append(_gauge_step(w, gauge))
    steps.append(
        "First power it from USB with the power switch off: each button clicks, each "
        "lever starts the other side's clock%s. Then the battery: %s (the clock warns at "
        "%s, saves the game and stops writing to flash at %d mV)."
        % (" and lights its LED" if cfg["leds"] else "", chem["description"],
           "%d %% state of charge, from the fuel gauge, and at %d mV"
           % (gauge["low_pct"], chem["low_mv"])
           if gauge else "%d mV" % chem["low_mv"], chem["critical_mv"]))
    return steps


def _gauge_step(w: "Wiring", gauge: dict[str, Any]) -> str:
    """The fuel gauge's step: its bus, its power and where its cell wires go."""
    cfg = w.profile.config
    lab = w.gpio_label
    bus = i2c_bus(cfg, gauge["i2c"])
    others = ["0x%02X" % d["addr"] for d in cfg["displays"] if d.get("i2c") == bus["id"]]
    return (
        "The fuel gauge `%s` (a %s module, I2C%d address 0x%02X%s): VIN to 3V3, GND to "
        "GND, SDA to %s and SCL to %s%s. Its CELL+ and CELL- (its battery connector) go "
        "to the cell itself, before the power switch: the chip runs from the cell, a few "
        "uA (3 uA hibernating, which it does by itself when idle), and keeps tracking "
        "the charge while the clock is off. On a charger with protection (TP4056 + "
        "DW01A) that is B+ and OUT-: the module's CELL- is its GND, so on B- it would "
        "bridge the protection. The clock warns below %d %% state of charge."
        % (GAUGE, GAUGE_PART[gauge["type"]][0], bus["id"], gauge["addr"],
           ", no clash with the displays' %s" % " and ".join(others) if others else "",
           lab(bus["sda"]), lab(bus["scl"]),
           ", with the displays" if others else "", gauge["low_pct"]))
