"""The wiring model of one profile: its parts, their pins, which pin carries which
boards.toml signal, and the cables from the MCU (WireViz's connectors, cables, connections)."""

import re
from typing import Any

from chessclock.board import displays as displaysmod
from chessclock.board import profiles as boardsmod
from chessclock.board.profiles import Profile
from chessclock.hardware.trace import trace_nets

HEADER = ("# GENERATED from boards.toml by `python -m chessclock.hardware generate` "
          "(make hardware): do not edit.\n")

# The parts' connectors: designator -> pins (a display's are in the display registry).
LEVER_PINS = ["COM", "NO"]
BUTTON_PINS = [1, 2]
BUZZER_PINS = ["IN", "VCC", "GND", "BZ+", "BZ-"]
PIEZO_PINS = ["+", "-"]
POWER_PINS = ["BAT+", "BAT-", "VOUT", "SENSE", "GND"]
BATTERY_PINS = ["+", "-"]
SWITCH_PINS = [1, 2]
LED_PINS = ["IN", "GND"]
GAUGE_PINS = ["VIN", "GND", "SCL", "SDA", "CELL+", "CELL-"]

# The fuel gauge (boards.toml `fuel_gauge`, optional): a MAX17048 breakout (Adafruit 5580 /
# SparkFun SEN-17715 style) on an I2C bus the displays may share, its CELL+ / CELL- on the
# cell itself, before the power switch: the chip runs from the cell (3 uA hibernating, which
# it does by itself when the current is small; about 23 uA awake), so it keeps tracking the
# charge while the clock is off. VIN (3V3) only feeds its I2C side.
GAUGE = "FUEL_GAUGE"
GAUGE_PART = {"max17048": ("MAX17048", "Adafruit 5580 (or SparkFun SEN-17715)", 6.00)}

# Running-side LEDs: GPIO -> series resistor -> red LED -> GND, one a side (boards.toml
# `leds`), the lit one the side whose clock runs. The resistor from the LED's current at
# 3.3 V: (3.3 V - Vf) / R, Vf of a red LED 1.8..2.2 V (2.0 V typical): 330 ohm gives
# 3.3 / 3.9 / 4.5 mA, bright enough for a high-brightness LED at 10 m and inside the
# RP2040's default 4 mA pad drive (the ESP32's default is 20 mA).
LED_R = 330                   # ohms
LED_VF = (2.2, 2.0, 1.8)      # volts: the low, typical and high current cases
LED_SUPPLY_V = 3.3
LED_PARTS = {"left": ("LED_L", "R5", "D2"), "right": ("LED_R", "R6", "D3")}


def led_ma(vf: float) -> float:
    """A running-side LED's current in mA at forward voltage vf (through LED_R)."""
    return (LED_SUPPLY_V - vf) / LED_R * 1000


# Part pins that are ground or a supply (every other part pin wired to the MCU is a signal).
GROUND_PINS = {"COM", "2", "GND", "CELL-"}
SUPPLY_PINS = {"VCC", "VOUT", "VIN", "CELL+"}


def signal_of(designator: str, pin: Any, display_types: dict[str, str],
              display_buses: dict[str, Any], gauge_bus: Any = None) -> str | None:
    """The boards.toml key a part's pin stands for, or None (not a signal pin)."""
    if designator == GAUGE and pin in ("SDA", "SCL") and gauge_bus is not None:
        return "i2c%d.%s" % (gauge_bus, pin.lower())
    if designator in ("LEVER_L", "LEVER_R") and pin == "NO":
        return "levers." + ("left" if designator == "LEVER_L" else "right")
    if designator.startswith("BTN_") and pin == "1":
        return "buttons." + designator[4:].lower()
    if designator == "BUZZER_DRV" and pin == "IN":
        return "buzzer.pin"
    if designator == "POWER" and pin == "SENSE":
        return "battery.pin"
    if designator in ("LED_L", "LED_R") and pin == "IN":
        return "leds." + ("left" if designator == "LED_L" else "right")
    if designator in ("DISPLAY_L", "DISPLAY_R"):
        side = "left" if designator == "DISPLAY_L" else "right"
        kind = displaysmod.get(display_types[side])
        for module_pin, key in kind.signals:
            if pin == module_pin:
                return ("i2c%d.%s" % (display_buses[side], key) if kind.on_i2c else
                        "displays.%s.%s" % (side, key))
    return None


def functions(profile: Profile) -> dict[str, tuple[int, str]]:
    """{boards.toml key: (gpio, role)} of one validated profile."""
    cfg = profile.config
    out = {}
    for i, side in enumerate(boardsmod.LEVERS):
        out["levers." + side] = (cfg["levers"][i], boardsmod.ROLE_INPUT)
    for i, name in enumerate(boardsmod.BUTTONS):
        out["buttons." + name] = (cfg["buttons"][i], boardsmod.ROLE_INPUT)
    out["buzzer.pin"] = (cfg["buzzer"]["pin"], boardsmod.ROLE_PWM)
    for i, side in enumerate(boardsmod.LEDS):
        if cfg["leds"]:
            out["leds." + side] = (cfg["leds"][i], boardsmod.ROLE_OUT)
    if cfg["battery"]:
        out["battery.pin"] = (cfg["battery"]["pin"], boardsmod.ROLE_ADC)
    for bus in cfg["i2c"]:
        out["i2c%d.sda" % bus["id"]] = (bus["sda"], boardsmod.ROLE_IO)
        out["i2c%d.scl" % bus["id"]] = (bus["scl"], boardsmod.ROLE_IO)
    for side, d in zip(boardsmod.SIDES, cfg["displays"], strict=True):
        for key in displaysmod.get(d["type"]).pin_keys:   # an I2C display's are its bus's
            out["displays.%s.%s" % (side, key)] = (d[key], boardsmod.ROLE_IO)
    return out


def i2c_bus(cfg: dict[str, Any], bus_id: int) -> dict[str, Any]:
    return cfg["i2c"][[b["id"] for b in cfg["i2c"]].index(bus_id)]


def ohms(r: int) -> str:
    if r >= 1_000_000 and r % 100_000 == 0:
        return "%gM" % (r / 1e6)
    if r >= 1000:
        return "%gk" % (r / 1000)
    return "%d" % r


class Wiring:
    """Connectors, cables and connections of one profile (WireViz's model)."""

    def __init__(self, profile: Profile, chemistry: dict[str, Any]) -> None:
        self.profile = profile
        self.mcu = profile.mcu        # chessclock.board.mcus: pins, header, power, part
        self.chem = chemistry
        self.connectors = {}
        self.cables = {}
        self.connections = []
        self._mcu_pins = {}     # header id -> label
        self._gnd_turn = 0
        self._build()

    # -- helpers
    def _mcu_pin(self, label: str) -> str:
        """The header id of an MCU pin label (GP2, GPIO18, GND, 3V3, VSYS, 5V)."""
        power = self.mcu.power
        if label in power:
            ids = power[label]
            if label == "GND":
                pid = ids[self._gnd_turn % len(ids)]
                self._gnd_turn += 1
            else:
                pid = ids[0]
        else:
            gpio = int(re.match(r"^GP(?:IO)?(\d+)$", label).group(1))
            pid = self.mcu.header[gpio]
        self._mcu_pins[pid] = label
        return pid

    def gpio_label(self, gpio: int) -> str:
        return self.mcu.pin_name(gpio)

    def _cable(self, name: str, colors: list[str], length: float, notes: str | None = None) -> None:
        c = {"wirecount": len(colors), "colors": colors, "length": length}
        if notes:
            c["notes"] = notes
        self.cables[name] = c

    def _wire_mcu(self, cable: str, colors: list[str], part: str, labels: list[Any],
                  part_pins: list[Any], length: float = 0.15, notes: str | None = None) -> None:
        """One cable from MCU pins (by label) to one part's pins."""
        self._cable(cable, colors, length, notes)
        ids = [self._mcu_pin(label) for label in labels]
        self.connections.append([{"MCU": ids}, {cable: list(range(1, len(ids) + 1))},
                                 {part: list(part_pins)}])

    def _wire(self, cable: str, colors: list[str], a: str, a_pins: list[Any], b: str,
              b_pins: list[Any], length: float = 0.1) -> None:
        self._cable(cable, colors, length)
        self.connections.append([{a: list(a_pins)}, {cable: list(range(1, len(a_pins) + 1))},
                                 {b: list(b_pins)}])

    # -- the circuit
    def _build(self) -> None:
        self.connectors["MCU"] = None  # first in the file; filled in at the end
        self._inputs()
        self._buzzer()
        self._power()
        for side, d in zip(boardsmod.SIDES, self.profile.config["displays"], strict=True):
            self._display(side, d)
        self._leds()
        self._gauge()
        ids = sorted(self._mcu_pins, key=_pin_sort)
        self.connectors["MCU"] = {"type": self.mcu.board_type, "subtype": self.mcu.board_subtype,
                                  "pins": ids, "pinlabels": [self._mcu_pins[i] for i in ids]}

    def _inputs(self) -> None:
        """The levers and the buttons: switches to GND."""
        cfg = self.profile.config
        lab = self.gpio_label
        for i, side in enumerate(("L", "R")):
            d = "LEVER_" + side
            self.connectors[d] = {
                "type": "Lever switch (%s end of the see-saw)" % ("left" if i == 0 else
                                                                  "right"),
                "subtype": "quiet microswitch, normally open", "pins": list(LEVER_PINS),
                "notes": "closed while the lever is pressed; internal pull-up"}
            self._wire_mcu("W_" + d, ["BK", "YE"], d, ["GND", lab(cfg["levers"][i])],
                           ["COM", "NO"], 0.2)
        for i, name in enumerate(boardsmod.BUTTONS):
            d = "BTN_" + name.upper()
            self.connectors[d] = {"type": "Push button %s" % name.upper(),
                                  "subtype": "12 mm tactile, normally open",
                                  "pins": BUTTON_PINS}
            self._wire_mcu("W_" + d, ["BK", "WH"], d, ["GND", lab(cfg["buttons"][i])],
                           [2, 1])

    def _buzzer(self) -> None:
        """The buzzer's driver and its piezo."""
        cfg = self.profile.config
        lab = self.gpio_label
        vin = self.mcu.vin
        self.connectors["BUZZER_DRV"] = {
            "type": "Buzzer driver (perfboard)", "pins": BUZZER_PINS,
            "notes": "Q1 NPN 2N3904: base via R3 1k from IN, emitter to GND, collector to "
                     "BZ-; R4 1k across the piezo (BZ+ to BZ-); BZ+ to VCC (%s)" % vin}
        self._wire_mcu("W_BUZZER", ["BK", "OG", "GN"], "BUZZER_DRV",
                       ["GND", vin, lab(cfg["buzzer"]["pin"])], ["GND", "VCC", "IN"])
        self.connectors["PIEZO"] = {"type": "Passive piezo transducer", "pins": PIEZO_PINS,
                                    "notes": "driven with PWM at the tone's frequency"}
        self._wire("W_PIEZO", ["RD", "BK"], "BUZZER_DRV", ["BZ+", "BZ-"], "PIEZO",
                   ["+", "-"], 0.05)

    def _power(self) -> None:
        """The battery, the power switch and the battery sense."""
        cfg = self.profile.config
        lab = self.gpio_label
        vin = self.mcu.vin
        bat = cfg["battery"]
        self.connectors["BATTERY"] = {"type": "Battery: %s" % self.chem["description"],
                                      "subtype": cfg["battery"]["chemistry"],
                                      "pins": BATTERY_PINS}
        self.connectors["SW_POWER"] = {"type": "Power switch", "subtype": "SPST rocker",
                                       "pins": SWITCH_PINS}
        self.connectors["POWER"] = {
            "type": "Power and battery sense (perfboard)", "pins": POWER_PINS,
            "notes": "D1 Schottky 1N5817 from BAT+ to VOUT; divider BAT+ - R1 - SENSE - R2 - "
                     "GND, r_top R1 = %d ohm, r_bottom R2 = %d ohm, C2 100 nF across R2; "
                     "BAT- to GND" % (bat["r_top"], bat["r_bottom"])}
        self._wire("W_BAT_PLUS", ["RD"], "BATTERY", ["+"], "SW_POWER", [1], 0.1)
        self._wire("W_BAT_MINUS", ["BK"], "BATTERY", ["-"], "POWER", ["BAT-"], 0.1)
        self._wire("W_SWITCHED", ["RD"], "SW_POWER", [2], "POWER", ["BAT+"], 0.1)
        self._wire_mcu("W_POWER", ["BK", "RD", "VT"], "POWER",
                       ["GND", vin, lab(bat["pin"])], ["GND", "VOUT", "SENSE"], 0.15)

    def _leds(self) -> None:
        """The running-side LEDs, after the displays: the other parts keep their GND pins."""
        cfg = self.profile.config
        lab = self.gpio_label
        for i, side in enumerate(boardsmod.LEDS):
            if not cfg["leds"]:
                break
            des, r_ref, d_ref = LED_PARTS[side]
            self.connectors[des] = {
                "type": "Running-side LED (%s), 5 mm red, high brightness" % side,
                "subtype": "%s %d ohm in series, in the lead under heat-shrink" % (r_ref, LED_R),
                "pins": list(LED_PINS),
                "notes": "IN - %s %d ohm - %s anode (long leg); cathode (flat side) to GND; "
                         "lit while the %s clock runs (about %.1f mA)"
                         % (r_ref, LED_R, d_ref, side, led_ma(LED_VF[1]))}
            self._wire_mcu("W_" + des, ["BK", "RD"], des, ["GND", lab(cfg["leds"][i])],
                           ["GND", "IN"], 0.2)

    def _gauge(self) -> None:
        """The fuel gauge, after the LEDs: the parts above are the same with or without one."""
        cfg = self.profile.config
        lab = self.gpio_label
        gauge = cfg.get("fuel_gauge")
        if not gauge:
            return
        bus = i2c_bus(cfg, gauge["i2c"])
        chip = GAUGE_PART[gauge["type"]][0]
        shared = any(d.get("i2c") == bus["id"] for d in cfg["displays"])
        self.connectors[GAUGE] = {
            "type": "%s fuel-gauge module (LiPo state of charge)" % chip,
            "subtype": "I2C%d, address 0x%02X%s" % (
                bus["id"], gauge["addr"], ", shared with the displays" if shared else ""),
            "pins": list(GAUGE_PINS),
            "notes": "CELL+ / CELL- on the cell itself, before the power switch: the chip "
                     "runs from the cell, a few uA (3 uA hibernating, which it does by "
                     "itself when idle), and keeps tracking the charge while the clock is "
                     "off; VIN from 3V3 feeds its I2C side; the clock warns below %d %%"
                     % gauge["low_pct"]}
        self._wire_mcu("W_" + GAUGE, ["BK", "RD", "BU", "GN"], GAUGE,
                       ["GND", "3V3", lab(bus["scl"]), lab(bus["sda"])],
                       ["GND", "VIN", "SCL", "SDA"], 0.2)
        self._wire("W_GAUGE_CELL", ["RD", "BK"], "BATTERY", ["+", "-"], GAUGE,
                   ["CELL+", "CELL-"], 0.1)

    def _display(self, side: str, d: Any) -> None:
        """One display module (the display registry's kind) and its cable from the MCU:
        GND, 3V3, then its signals from its own pins or from its I2C bus's."""
        kind = displaysmod.get(d["type"])
        des = "DISPLAY_" + side[0].upper()
        conn: dict = {"type": "%s (%s)" % (kind.title, side)}
        if kind.on_i2c:
            bus = i2c_bus(self.profile.config, d["i2c"])
            conn["subtype"] = "I2C%d, address 0x%02X%s" % (
                bus["id"], d["addr"],
                " (address jumper moved)" if d["addr"] != kind.addrs[0] else "")
            pins_from = bus
        else:
            pins_from = d
        conn["pins"] = list(kind.module_pins)
        if kind.notes:
            conn["notes"] = kind.notes
        self.connectors[des] = conn
        self._wire_mcu("W_" + des, ["BK", "RD", "BU", "GN"], des,
                       ["GND", "3V3"] + [self.gpio_label(pins_from[k]) for _p, k in kind.signals],
                       ["GND", "VCC"] + [p for p, _k in kind.signals], 0.2)

    def yaml_text(self) -> str:
        import yaml
        doc = {"connectors": self.connectors, "cables": self.cables,
               "connections": self.connections}
        class NoAliases(yaml.SafeDumper):
            def ignore_aliases(self, data: Any) -> bool:
                return True

        body = yaml.dump(doc, Dumper=NoAliases, sort_keys=False, default_flow_style=None,
                         width=100)
        return (HEADER + "# Wiring of board profile %r (%s). Render: make hardware.\n"
                % (self.profile.name, self.profile.description) + body)

    def nets(self) -> list[Any]:
        """[(net name, [(part, pin), ...])]: the wiring's nets plus the perfboard parts."""
        return trace_nets(self.connectors, self.connections)


def _pin_sort(pid: Any) -> Any:
    if isinstance(pid, int):
        return (0, pid, "")
    head, _, n = str(pid).partition("-")
    return (1, head, int(n) if n.isdigit() else 0)
