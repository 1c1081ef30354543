"""The build documents under hardware/, generated from boards.toml, and their check.

boards.toml is the one source of pins and parts. For every profile this module writes
hardware/<profile>/:

    wiring.yaml      the wiring diagram (WireViz 0.4 YAML)                  generated
    netlist.txt      every net of the circuit, perfboard parts included    generated
    bom.csv          bill of materials                                      generated
    README.md        the build guide with the pin table                     generated
    wiring.svg/png   WireViz's rendering of wiring.yaml                     rendered
    schematic.svg    the circuit drawn with schemdraw (from the netlist)    rendered
    rendered.sha256  sha256 of the inputs and of the rendered files        rendered

    python -m chessclock.hardware generate   # the four generated files of every profile
    python -m chessclock.hardware render     # needs graphviz's `dot` (make hardware)
    python -m chessclock.hardware check      # what tests/host/test_hardware.py checks

Drift is stopped three ways (check_all, without graphviz): the generated files must equal
what `generate` writes from boards.toml now; each wiring.yaml is read back on its own
(check_wiring: its nets traced from MCU pin to part pin) and compared with the profile: a
pin in one and not the other, two functions on one pin, two MCU pins on one net, a signal
on a power pin, boards.py's per-MCU pin rules, and the fuel gauge when boards.toml has one
(on its bus's pins, 3V3, GND, the cell before the power switch); rendered.sha256 must name
the current wiring.yaml and netlist.txt and the pictures beside them, so a picture not
re-rendered after a change fails.
"""

import csv
import hashlib
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

from chessclock import boards as boardsmod
from chessclock import displays as displaysmod

GENERATED = ("wiring.yaml", "netlist.txt", "bom.csv", "README.md")
RENDERED = ("wiring.svg", "wiring.png", "schematic.svg")
SIDECAR = "rendered.sha256"
BOM_COLUMNS = ["ref", "part", "quantity", "typical_part_number", "approx_price_eur"]
HEADER = ("# GENERATED from boards.toml by `python -m chessclock.hardware generate` "
          "(make hardware): do not edit.\n")


def root_dir():
    """The checkout whose hardware/ this writes (the current folder outside one)."""
    from chessclock import sources
    return sources.checkout_root() or Path.cwd()


# ---- peripherals: designator -> pins; which pin carries which signal --------------------

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


def led_ma(vf):
    """A running-side LED's current in mA at forward voltage vf (through LED_R)."""
    return (LED_SUPPLY_V - vf) / LED_R * 1000

# Part pins that are ground or a supply (every other part pin wired to the MCU is a signal).
GROUND_PINS = {"COM", "2", "GND", "CELL-"}
SUPPLY_PINS = {"VCC", "VOUT", "VIN", "CELL+"}


def signal_of(designator, pin, display_types, display_buses, gauge_bus=None):
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


def functions(profile):
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


def _gauge_bus(profile):
    """The I2C bus id of the profile's fuel gauge, or None (no gauge)."""
    g = profile.config.get("fuel_gauge")
    return g["i2c"] if g else None


def _bus(cfg, bus_id):
    return cfg["i2c"][[b["id"] for b in cfg["i2c"]].index(bus_id)]


def _bus_chips(cfg, bus_id):
    """What is on I2C bus `bus_id`, as the schematic names it: the displays ("both SSD1306"
    for two of a kind), then the fuel gauge's chip."""
    kinds = [displaysmod.get(d["type"]).chip for d in cfg["displays"]
             if d.get("i2c") == bus_id]
    names = (["both " + kinds[0]] if len(kinds) == 2 and kinds[0] == kinds[1]
             else [" and ".join(kinds)] if kinds else [])
    gauge = cfg.get("fuel_gauge")
    if gauge and gauge["i2c"] == bus_id:
        names.append(GAUGE_PART[gauge["type"]][0])
    return names


def _display_info(profile):
    cfg = profile.config
    types = {s: d["type"] for s, d in zip(boardsmod.SIDES, cfg["displays"], strict=True)}
    buses = {s: d.get("i2c") for s, d in zip(boardsmod.SIDES, cfg["displays"], strict=True)}
    return types, buses


# ---- the wiring model -----------------------------------------------------------------


class Wiring:
    """Connectors, cables and connections of one profile (WireViz's model)."""

    def __init__(self, profile, chemistry):
        self.profile = profile
        self.mcu = profile.mcu        # chessclock.mcus: pins, header, power, part
        self.chem = chemistry
        self.connectors = {}
        self.cables = {}
        self.connections = []
        self._mcu_pins = {}     # header id -> label
        self._gnd_turn = 0
        self._build()

    # -- helpers
    def _mcu_pin(self, label):
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

    def gpio_label(self, gpio):
        return self.mcu.pin_name(gpio)

    def _cable(self, name, colors, length, notes=None):
        c = {"wirecount": len(colors), "colors": colors, "length": length}
        if notes:
            c["notes"] = notes
        self.cables[name] = c

    def _wire_mcu(self, cable, colors, part, labels, part_pins, length=0.15, notes=None):
        """One cable from MCU pins (by label) to one part's pins."""
        self._cable(cable, colors, length, notes)
        ids = [self._mcu_pin(label) for label in labels]
        self.connections.append([{"MCU": ids}, {cable: list(range(1, len(ids) + 1))},
                                 {part: list(part_pins)}])

    def _wire(self, cable, colors, a, a_pins, b, b_pins, length=0.1):
        self._cable(cable, colors, length)
        self.connections.append([{a: list(a_pins)}, {cable: list(range(1, len(a_pins) + 1))},
                                 {b: list(b_pins)}])

    # -- the circuit
    def _build(self):
        p = self.profile
        cfg = p.config
        lab = self.gpio_label
        vin = self.mcu.vin
        self.connectors["MCU"] = None  # first in the file; filled in at the end
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
        for side, d in zip(boardsmod.SIDES, cfg["displays"], strict=True):
            self._display(side, d)
        # the running-side LEDs last: the other parts keep their GND pins
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
        # the fuel gauge after them: the same for the parts above, with or without a gauge
        gauge = cfg.get("fuel_gauge")
        if gauge:
            bus = _bus(cfg, gauge["i2c"])
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
        ids = sorted(self._mcu_pins, key=_pin_sort)
        self.connectors["MCU"] = {"type": self.mcu.board_type, "subtype": self.mcu.board_subtype,
                                  "pins": ids, "pinlabels": [self._mcu_pins[i] for i in ids]}

    def _display(self, side, d):
        """One display module (the display registry's kind) and its cable from the MCU:
        GND, 3V3, then its signals from its own pins or from its I2C bus's."""
        kind = displaysmod.get(d["type"])
        des = "DISPLAY_" + side[0].upper()
        conn = {"type": "%s (%s)" % (kind.title, side)}
        if kind.on_i2c:
            bus = _bus(self.profile.config, d["i2c"])
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

    def yaml_text(self):
        import yaml
        doc = {"connectors": self.connectors, "cables": self.cables,
               "connections": self.connections}
        class NoAliases(yaml.SafeDumper):
            def ignore_aliases(self, data):
                return True

        body = yaml.dump(doc, Dumper=NoAliases, sort_keys=False, default_flow_style=None,
                         width=100)
        return (HEADER + "# Wiring of board profile %r (%s). Render: make hardware.\n"
                % (self.profile.name, self.profile.description) + body)

    def nets(self):
        """[(net name, [(part, pin), ...])]: the wiring's nets plus the perfboard parts."""
        return _trace(self.connectors, self.connections)


def _pin_sort(pid):
    if isinstance(pid, int):
        return (0, pid, "")
    head, _, n = str(pid).partition("-")
    return (1, head, int(n) if n.isdigit() else 0)


# ---- tracing a wiring file (used by the check, independent of the generator) -----------


class WiringError(ValueError):
    pass


def _resolve(connectors, designator, ref):
    c = connectors.get(designator)
    if c is None:
        raise WiringError("connection names %r, which is not a connector" % designator)
    pins = c.get("pins") or list(range(1, len(c.get("pinlabels", [])) + 1))
    if ref in pins:
        return ref
    labels = c.get("pinlabels") or []
    if ref in labels:
        return pins[labels.index(ref)]
    raise WiringError("%s has no pin %r" % (designator, ref))


def _trace(connectors, connections):
    """Union-find over (connector, pin) through the cables: the nets, named by MCU label."""
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, cs in enumerate(connections):
        ends = [e for e in cs if isinstance(e, dict) and next(iter(e)) in connectors]
        if len(cs) != 3 or len(ends) != 2:
            raise WiringError("connection %d: expected [connector, cable, connector]" % (i + 1))
        (a, ap), (b, bp) = (next(iter(e.items())) for e in ends)
        if len(ap) != len(bp):
            raise WiringError("connection %d: %d pins against %d" % (i + 1, len(ap), len(bp)))
        for x, y in zip(ap, bp, strict=True):
            ra, rb = find((a, _resolve(connectors, a, x))), find((b, _resolve(connectors, b, y)))
            parent[ra] = rb
    groups = {}
    for node in list(parent):
        groups.setdefault(find(node), []).append(node)
    out = []
    mcu = connectors.get("MCU") or {}
    labels = dict(zip(mcu.get("pins", []), mcu.get("pinlabels", []), strict=False))
    for members in groups.values():
        members.sort(key=lambda n: (n[0] != "MCU", n[0], str(n[1])))
        names = sorted({labels.get(p, str(p)) for d, p in members if d == "MCU"})
        out.append(("/".join(names) or "%s.%s" % members[0], members))
    out.sort(key=lambda n: n[0])
    return out


def check_wiring(profile, text):
    """Problems of one wiring file against its profile (a list of strings; [] is good)."""
    import yaml
    where = "hardware/%s/wiring.yaml" % profile.name
    try:
        doc = yaml.safe_load(text)
        connectors = doc["connectors"]
        nets = _trace(connectors, doc["connections"])
    except (yaml.YAMLError, KeyError, TypeError, WiringError) as e:
        return ["%s: cannot read: %s" % (where, e)]
    problems = []
    board = profile.mcu
    mcu = connectors.get("MCU") or {}
    if mcu.get("type") != board.board_type:
        problems.append("%s: MCU is %r, the profile's MCU is on a %r"
                        % (where, mcu.get("type"), board.board_type))
    header = board.header
    power = {pid: name for name, ids in board.power.items() for pid in ids}
    types, buses = _display_info(profile)
    gauge_bus = _gauge_bus(profile)
    for side in boardsmod.SIDES:
        des = "DISPLAY_" + side[0].upper()
        t = (connectors.get(des) or {}).get("type", "")
        if types[side].upper() not in t.upper():
            problems.append("%s: %s is %r, boards.toml has a %s there"
                            % (where, des, t, types[side]))
    labels = dict(zip(mcu.get("pins", []), mcu.get("pinlabels", []), strict=False))
    want = functions(profile)
    got = {}     # function -> gpio
    for name, members in nets:
        gpios = []
        for d, pid in members:
            if d != "MCU":
                continue
            label = labels.get(pid, "")
            m = re.match(r"^GP(?:IO)?(\d+)$", str(label))
            if m:
                g = int(m.group(1))
                if header.get(g) != pid:
                    problems.append("%s: MCU pin %s is labelled %s, but %s is pin %s"
                                    % (where, pid, label, label, header.get(g)))
                gpios.append(g)
            elif power.get(pid) != label:
                problems.append("%s: MCU pin %s is labelled %r, but that pin is %s"
                                % (where, pid, label, power.get(pid, "not a power pin")))
        parts = [(d, str(p)) for d, p in members if d != "MCU"]
        sigs = sorted({s for d, p in parts
                       if (s := signal_of(d, p, types, buses, gauge_bus)) is not None})
        if len(gpios) > 1:
            problems.append("%s: MCU pins %s are wired together (net %s)"
                            % (where, ", ".join(profile.mcu.pin_name(g) for g in gpios),
                               name))
        if gpios:
            g = gpios[0]
            pn = profile.mcu.pin_name(g)
            powered = [d + "." + p for d, p in parts if p in GROUND_PINS | SUPPLY_PINS]
            if powered:
                problems.append("%s: %s is wired to %s, a ground or supply pin"
                                % (where, pn, ", ".join(powered)))
            if len(sigs) > 1:
                problems.append("%s: %s has two functions: %s" % (where, pn, ", ".join(sigs)))
            if not sigs and not powered:
                problems.append("%s: %s is wired to %s, which is no function of boards.toml"
                                % (where, pn, ", ".join(d + "." + p for d, p in parts)))
            for s in sigs:
                got.setdefault(s, []).append(g)
                role = want.get(s, (None, boardsmod.ROLE_IO))[1]
                why = profile.mcu.pin_problem(g, role)
                if why:
                    problems.append("%s: %s (%s): %s" % (where, s, pn, why))
        elif sigs:
            problems.append("%s: %s not wired to an MCU pin" % (where, ", ".join(sigs)))
    for key, (gpio, _role) in want.items():
        pn = profile.mcu.pin_name(gpio)
        if key not in got:
            problems.append("%s: %s (%s in boards.toml) is not wired" % (where, key, pn))
        for g in got.get(key, ()):
            if g != gpio:     # also a shared bus pin that one part has on another pin
                problems.append("%s: %s is wired to %s, boards.toml says %s"
                                % (where, key, profile.mcu.pin_name(g), pn))
    for key in got:
        if key not in want:
            problems.append("%s: %s is wired (%s) but boards.toml has no such pin"
                            % (where, key, profile.mcu.pin_name(got[key][0])))
    problems += _check_gauge(where, profile, connectors, nets, labels)
    for side in boardsmod.LEDS if profile.config["leds"] else ():
        des, r_ref, _d = LED_PARTS[side]
        notes = (connectors.get(des) or {}).get("notes", "")
        if "%s %d ohm" % (r_ref, LED_R) not in notes:
            problems.append("%s: %s's series resistor is not %s %d ohm" % (where, des, r_ref,
                                                                          LED_R))
    pw = connectors.get("POWER") or {}
    bat = profile.config["battery"]
    m = re.search(r"r_top R1 = (\d+) ohm, r_bottom R2 = (\d+) ohm", pw.get("notes", ""))
    if bat and (not m or (int(m.group(1)), int(m.group(2))) != (bat["r_top"], bat["r_bottom"])):
        problems.append("%s: POWER's divider is not r_top %d / r_bottom %d ohm as in "
                        "boards.toml" % (where, bat["r_top"], bat["r_bottom"]))
    return problems


def _check_gauge(where, profile, connectors, nets, labels):
    """The fuel gauge of boards.toml against the wiring: the part, its bus pins (from
    boards.toml, shared with the displays), 3V3 and GND, and the cell before the switch."""
    gauge = profile.config.get("fuel_gauge")
    part = connectors.get(GAUGE)
    if not gauge:
        return (["%s: %s is wired, but boards.toml has no fuel_gauge" % (where, GAUGE)]
                if part is not None else [])
    bus = _bus(profile.config, gauge["i2c"])
    if part is None:
        return ["%s: %s is missing: boards.toml has a %s fuel gauge on i2c%d (%s, %s)"
                % (where, GAUGE, gauge["type"], bus["id"], profile.mcu.pin_name(bus["sda"]),
                   profile.mcu.pin_name(bus["scl"]))]
    problems = []
    if gauge["type"].upper() not in str(part.get("type", "")).upper():
        problems.append("%s: %s is %r, boards.toml has a %s"
                        % (where, GAUGE, part.get("type"), gauge["type"]))
    net_of = {(d, str(p)): members for _name, members in nets for d, p in members}

    def mcu_labels(pin):
        return [labels.get(p, "") for d, p in net_of.get((GAUGE, pin), ()) if d == "MCU"]

    for pin in ("SDA", "SCL"):
        gpio = bus[pin.lower()]
        want = profile.mcu.pin_name(gpio)
        key = "i2c%d.%s" % (bus["id"], pin.lower())
        got = [label for label in mcu_labels(pin) if re.match(r"^GP(?:IO)?\d+$", str(label))]
        if not got:
            problems.append("%s: %s.%s is not wired to an MCU pin (boards.toml: %s = %s)"
                            % (where, GAUGE, pin, key, want))
        elif got != [want]:
            problems.append("%s: %s.%s is wired to %s, boards.toml says %s (%s)"
                            % (where, GAUGE, pin, ", ".join(got), want, key))
    for pin, supply in (("VIN", "3V3"), ("GND", "GND")):
        if supply not in mcu_labels(pin):
            problems.append("%s: %s.%s is not wired to the MCU's %s" % (where, GAUGE, pin,
                                                                         supply))
    cell_plus = {(d, str(p)) for d, p in net_of.get((GAUGE, "CELL+"), ())}
    if ("BATTERY", "+") not in cell_plus:
        problems.append("%s: %s.CELL+ is not wired to BATTERY.+ (the cell, before the power "
                        "switch)" % (where, GAUGE))
    cell_minus = {(d, str(p)) for d, p in net_of.get((GAUGE, "CELL-"), ())}
    if ("BATTERY", "-") not in cell_minus and "GND" not in mcu_labels("CELL-"):
        problems.append("%s: %s.CELL- is not wired to BATTERY.- or GND" % (where, GAUGE))
    return problems


# ---- netlist, BOM, build guide --------------------------------------------------------

def _ohms(r):
    if r >= 1_000_000 and r % 100_000 == 0:
        return "%gM" % (r / 1e6)
    if r >= 1000:
        return "%gk" % (r / 1000)
    return "%d" % r


def netlist_text(w):
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
              "part R1 %s (r_top): 1=POWER.BAT+ 2=POWER.SENSE" % _ohms(bat["r_top"]),
              "part R2 %s (r_bottom): 1=POWER.SENSE 2=GND" % _ohms(bat["r_bottom"]),
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


def _gauge_netlist(w):
    cfg = w.profile.config
    g = cfg["fuel_gauge"]
    bus = _bus(cfg, g["i2c"])
    lab = w.gpio_label
    return ["part BATTERY %s: +=SW_POWER.1 %s.CELL+ -=GND %s.CELL-"
            % (cfg["battery"]["chemistry"], GAUGE, GAUGE),
            "part %s %s module (I2C%d 0x%02X, fuel gauge): VIN=3V3 GND=GND SDA=%s SCL=%s "
            "CELL+=BATTERY.+ (before SW_POWER) CELL-=BATTERY.-"
            % (GAUGE, GAUGE_PART[g["type"]][0], bus["id"], g["addr"], lab(bus["sda"]),
               lab(bus["scl"]))]


def _led_netlist(side):
    des, r_ref, d_ref = LED_PARTS[side]
    return ["part %s %d (%s series): 1=%s.IN 2=%s.A" % (r_ref, LED_R, d_ref, des, d_ref),
            "part %s red LED 5 mm (running side, %s): A=%s.2 K=%s.GND" % (d_ref, side, r_ref,
                                                                         des)]


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


def bom_rows(w):
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
        rows.append((ref, "Resistor %s 1%% (battery divider)" % _ohms(r), 1,
                     "%s 1%% metal film" % _ohms(r), 0.05))
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


def bom_text(w):
    out = io.StringIO()
    wr = csv.writer(out, lineterminator="\n")
    wr.writerow(BOM_COLUMNS)
    for ref, part, qty, pn, price in bom_rows(w):
        wr.writerow([ref, part, qty, pn, "%.2f" % price])
    return out.getvalue()


# ---- battery life ---------------------------------------------------------------------

# Assumed discharge curves at a C/10..C/20 load: (cell volts, state of charge %), falling.
NIMH_CURVE = [(1.40, 100), (1.30, 90), (1.27, 80), (1.23, 50), (1.20, 20), (1.17, 10),
              (1.12, 5), (1.05, 2), (1.00, 0)]
LIPO_CURVE = [(4.20, 100), (4.10, 90), (4.00, 80), (3.92, 70), (3.87, 60), (3.82, 50),
              (3.79, 40), (3.77, 30), (3.74, 20), (3.68, 10), (3.45, 5), (3.00, 0)]
CELLS = {"nimh-3aa": (NIMH_CURVE, 3, 2000), "nimh-4aa": (NIMH_CURVE, 4, 2000),
         "lipo-1s": (LIPO_CURVE, 1, 2000)}


def soc_at(curve, cell_v):
    """State of charge (%) at a cell voltage, linear between the curve's points."""
    for (v1, s1), (v2, s2) in zip(curve, curve[1:], strict=False):
        if v2 <= cell_v <= v1:
            return s2 + (s1 - s2) * (cell_v - v2) / (v1 - v2)
    return 100.0 if cell_v > curve[0][0] else 0.0


def cell_v_at(curve, soc):
    for (v1, s1), (v2, s2) in zip(curve, curve[1:], strict=False):
        if s2 <= soc <= s1:
            return v2 + (v1 - v2) * (soc - s2) / (s1 - s2)
    return curve[0][0] if soc > 100 else curve[-1][0]


def battery_life(profile, chemistry_name, chemistry):
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


def _life_table(life):
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


def _life_intro(life):
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


def readme_text(w, life):
    p = w.profile
    cfg = p.config
    bat = cfg["battery"]
    chem = w.chem
    lab = w.gpio_label
    header = w.mcu.header
    rows = []
    for key, (gpio, role) in functions(p).items():
        rows.append("| %s | %s | %s | %s |" % (key, lab(gpio), header[gpio], role))
    steps = [
        "Flash MicroPython on the %s, then `make deploy BOARD=%s PORT=...` (hold MENU at "
        "power-on later for maintenance mode)." % (w.mcu.board_type, p.name),
        "Perfboard `POWER`: D1 (1N5817, stripe towards %s) from BAT+ to VOUT; divider "
        "R1 %s from BAT+ to SENSE, R2 %s from SENSE to GND, C2 100 nF across R2. The divider "
        "sits after the power switch, so it draws nothing when the clock is off."
        % (w.mcu.vin, _ohms(bat["r_top"]), _ohms(bat["r_bottom"])),
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
            % (_ohms(LED_R), LED_SUPPLY_V, LED_VF[1], _ohms(LED_R), led_ma(LED_VF[1]),
               led_ma(LED_VF[2]), led_ma(LED_VF[0]), LED_VF[2], LED_VF[0]))
    gauge = cfg.get("fuel_gauge")
    if gauge:
        bus = _bus(cfg, gauge["i2c"])
        others = ["0x%02X" % d["addr"] for d in cfg["displays"] if d.get("i2c") == bus["id"]]
        steps.append(
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
    steps.append(
        "First power it from USB with the power switch off: each button clicks, each "
        "lever starts the other side's clock%s. Then the battery: %s (the clock warns at "
        "%s, saves the game and stops writing to flash at %d mV)."
        % (" and lights its LED" if cfg["leds"] else "", chem["description"],
           "%d %% state of charge, from the fuel gauge, and at %d mV"
           % (gauge["low_pct"], chem["low_mv"])
           if gauge else "%d mV" % chem["low_mv"], chem["critical_mv"]))
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


# ---- schematic (schemdraw) ------------------------------------------------------------


def schematic_svg(w):
    import schemdraw
    import schemdraw.elements as elm
    schemdraw.use("svg")
    p = w.profile
    cfg = p.config
    lab = w.gpio_label
    bat = cfg["battery"]
    vin = w.mcu.vin
    left = [(lab(cfg["levers"][0]), "LEVER L", True), (lab(cfg["levers"][1]), "LEVER R", True)]
    left += [(lab(g), "BTN " + n.upper(), False)
             for g, n in zip(cfg["buttons"], boardsmod.BUTTONS, strict=True)]
    right = [(lab(cfg["buzzer"]["pin"]), "buzzer"), (lab(bat["pin"]), "battery")]
    for side, d in zip(boardsmod.SIDES, cfg["displays"], strict=True):
        kind = displaysmod.get(d["type"])
        right += [(lab(d[key]), "%s %s %s" % (kind.chip, side, module_pin))
                  for module_pin, key in kind.signals if not kind.on_i2c]
    gauge = cfg.get("fuel_gauge")
    for bus in cfg["i2c"]:
        on_bus = _bus_chips(cfg, bus["id"])
        text = ", ".join(on_bus)
        right += [(lab(bus["sda"]), "I2C%d SDA: %s" % (bus["id"], text)),
                  (lab(bus["scl"]), "I2C%d SCL: %s" % (bus["id"], text))]
    leds = list(zip(boardsmod.LEDS, cfg["leds"] or (), strict=False))
    right += [(lab(g), "running LED %s" % side) for side, g in leds]
    pins = [elm.IcPin(name=n, side="left", anchorname="L%d" % i) for i, (n, _t, _l)
            in enumerate(left)]
    pins += [elm.IcPin(name=n, side="right", anchorname="R%d" % i) for i, (n, _t)
             in enumerate(right)]
    n_side = max(len(left), len(right))
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=11, unit=2)
        ic = elm.Ic(pins=pins, size=(5, n_side * 1.2 + 1), pinspacing=1.2,
                    label=w.mcu.board_type + "\n(internal pull-ups\non inputs)")
        d += ic
        for i, (_n, text, is_lever) in enumerate(left):
            a = getattr(ic, "L%d" % i)
            d += elm.Line().at(a).left().length(1.5)
            sw = elm.Switch() if is_lever else elm.Button()
            d += sw.left().label(text + (" (see-saw)" if is_lever else ""), loc="top",
                                 fontsize=9)
            d += elm.Ground().right()
        for i, (_n, text) in enumerate(right):
            a = getattr(ic, "R%d" % i)
            d += elm.Line().at(a).right().length(1.5)
            d += elm.Dot(open=True).label(text, loc="right", fontsize=9)
        if gauge:
            _schematic_gauge(d, w, ic)
        # the sub-circuits below, joined to the MCU by the pin names (net labels)
        x0 = ic.bbox.xmin - 4
        y = ic.bbox.ymin - 6
        # buzzer: R3 -> Q1 base; collector -> piezo -> VIN; R4 across the piezo
        d += elm.Line().at((x0, y)).right().length(2.5).label(right[0][0] + " (buzzer)",
                                                              loc="top", fontsize=10)
        d += elm.Resistor().right().label("R3 1k", fontsize=9)
        q = elm.BjtNpn(circle=True).anchor("base").label("Q1\n2N3904", loc="right",
                                                           fontsize=9)
        d += q
        d += elm.Ground().at(q.emitter)
        d += elm.Line().at(q.collector).up().length(0.5)
        top = d.here
        d += elm.RBox(w=1.2, h=0.6).up().label("PIEZO", loc="top", fontsize=9)
        spk_top = d.here
        d += elm.Vdd().label(vin)
        d += elm.Line().at(top).right().length(1.5)
        d += elm.Resistor().up().toy(spk_top).label("R4 1k", loc="bottom", fontsize=9)
        d += elm.Line().left().tox(q.collector)
        # battery sense: the divider from the switched battery to the ADC pin
        xd = x0 + 12
        d += elm.Line().at((xd, y)).right().length(3).label(
            right[1][0] + " (battery, ADC)", loc="top", fontsize=10)
        node = d.here
        d += elm.Dot()
        d += elm.Resistor().up().label("R1 %s\nr_top" % _ohms(bat["r_top"]), loc="bottom",
                                       fontsize=9)
        d += elm.Vdd().label("BAT+ (switched)")
        d += elm.Resistor().at(node).down().label("R2 %s\nr_bottom" % _ohms(bat["r_bottom"]),
                                                  loc="bottom", fontsize=9)
        d += elm.Ground()
        d += elm.Line().at(node).right().length(2)
        d += elm.Capacitor().down().label("C2 100n", loc="bottom", fontsize=9)
        d += elm.Ground()
        # running-side LEDs: pin -> series resistor -> LED -> GND, one a side
        xl = xd + 10
        for i, (side, g) in enumerate(leds):
            _des, r_ref, d_ref = LED_PARTS[side]
            d += elm.Line().at((xl, y - 3 * i)).right().length(3).label(
                "%s (LED %s)" % (lab(g), side), loc="top", fontsize=10)
            d += elm.Resistor().right().label("%s %s" % (r_ref, _ohms(LED_R)), fontsize=9)
            d += elm.LED().down().label("%s red" % d_ref, loc="bottom", fontsize=9)
            d += elm.Ground()
        # power: battery, switch, Schottky into VIN (USB feeds VIN through the board's own)
        y -= 6
        d += elm.Ground().at((x0, y))
        d += elm.Battery().at((x0, y)).right().label("BATTERY", loc="top", fontsize=9
                                                     ).reverse()
        if gauge:   # the gauge's CELL+ joins the cell before the switch
            d += elm.Line().right().length(1.5)
            d += elm.Dot().label("BAT+ (cell)", loc="top", fontsize=9)
        d += elm.Switch().right().label("SW_POWER", fontsize=9)
        d += elm.Line().right().length(1)
        d += elm.Dot().label("BAT+ (switched)", loc="top", fontsize=9)
        d += elm.Schottky().right().label("D1 1N5817", loc="bottom", fontsize=9)
        d += elm.Line().right().length(1)
        d += elm.Dot(open=True).label(vin + " (USB also feeds it)", loc="right", fontsize=9)
        text = ("%s: %s.\nBattery: %s. Displays from 3V3; levers and buttons close to GND."
                % (p.name, p.description, w.chem["description"]))
        if gauge:
            text += ("\nFuel gauge: on the cell before SW_POWER, a few uA while the clock is "
                     "off; the clock warns below %d %% state of charge, and at %d mV."
                     % (gauge["low_pct"], w.chem["low_mv"]))
        d += elm.Label().at((x0, y - 2)).label(text, halign="left", fontsize=10)
        svg = d.get_imagedata("svg")
    return svg.decode() if isinstance(svg, bytes) else svg


def _schematic_gauge(d, w, ic):
    """The fuel gauge: a labelled box right of the MCU, its pins to net labels (the bus
    pins by name, 3V3, GND, and the cell before the power switch)."""
    import schemdraw.elements as elm
    cfg = w.profile.config
    g = cfg["fuel_gauge"]
    bus = _bus(cfg, g["i2c"])
    lab = w.gpio_label
    # bottom to top, as schemdraw numbers an Ic's pins
    left = [("GND", None), ("VIN", "3V3"),
            ("SCL", "%s (I2C%d SCL)" % (lab(bus["scl"]), bus["id"])),
            ("SDA", "%s (I2C%d SDA)" % (lab(bus["sda"]), bus["id"]))]
    right = [("CELL-", None), ("CELL+", "BAT+ (cell)")]
    pins = [elm.IcPin(name=n, side="left", anchorname="GL%d" % i)
            for i, (n, _t) in enumerate(left)]
    pins += [elm.IcPin(name=n, side="right", anchorname="GR%d" % i)
             for i, (n, _t) in enumerate(right)]
    box = elm.Ic(pins=pins, size=(6, len(left) * 1.2 + 1), pinspacing=1.2,
                 label="%s\n%s\nI2C%d 0x%02X" % (GAUGE, GAUGE_PART[g["type"]][0], bus["id"],
                                                 g["addr"]))
    d += box.at((ic.bbox.xmax + 12, ic.bbox.ymax - len(left) * 1.2 - 2))
    for side, pins_, move in (("GL", left, "left"), ("GR", right, "right")):
        for i, (_n, text) in enumerate(pins_):
            line = elm.Line().at(getattr(box, "%s%d" % (side, i))).length(1.5)
            d += line.left() if move == "left" else line.right()
            if text is None:
                d += elm.Ground()
            else:
                d += elm.Dot(open=True).label(text, loc=move, fontsize=9)


# ---- generate, render, check ----------------------------------------------------------


def load_models(root=None):
    root = Path(root) if root is not None else root_dir()
    b = boardsmod.load(root / "boards.toml")
    models = {}
    for name, prof in b.profiles.items():
        chem_name = prof.config["battery"]["chemistry"]
        chem = dict(b.chemistries[chem_name])
        chem["description"] = _chem_description(root / "boards.toml", chem_name)
        models[name] = Wiring(prof, chem)
    return b, models


def _chem_description(path, name):
    import tomllib
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    return data["chemistry"][name].get("description", name)


def generated_files(w, chem_name, b):
    life = battery_life(w.profile, chem_name, b.chemistries[chem_name])
    return {"wiring.yaml": w.yaml_text(), "netlist.txt": netlist_text(w),
            "bom.csv": bom_text(w), "README.md": readme_text(w, life)}


def generate(root=None, out=sys.stdout):
    root = Path(root) if root is not None else root_dir()
    b, models = load_models(root)
    for name, w in models.items():
        folder = root / "hardware" / name
        folder.mkdir(parents=True, exist_ok=True)
        for fname, text in generated_files(w, w.profile.config["battery"]["chemistry"],
                                           b).items():
            path = folder / fname
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                out.write("wrote %s\n" % path.relative_to(root))
    return 0


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def render(root=None, out=sys.stdout):
    root = Path(root) if root is not None else root_dir()
    if shutil.which("dot") is None:
        out.write("graphviz's `dot` is missing (apt-get install graphviz; make hardware "
                  "does it)\n")
        return 2
    wireviz = Path(sys.executable).with_name("wireviz")
    _b, models = load_models(root)
    for name, w in models.items():
        folder = root / "hardware" / name
        subprocess.run([str(wireviz) if wireviz.exists() else "wireviz", "-f", "ps",
                        "-O", "wiring", str(folder / "wiring.yaml")], check=True,
                       stdout=subprocess.DEVNULL)
        _shrink_png(folder / "wiring.png")
        (folder / "schematic.svg").write_text(schematic_svg(w), encoding="utf-8")
        write_sidecar(folder)
        out.write("rendered %s: %s\n" % (folder.relative_to(root), ", ".join(RENDERED)))
    return 0


PNG_WIDTH = 2400   # pixels: readable on a repository page, about 100 KB


def _shrink_png(path):
    """A palette PNG (the picture has few colours): a fraction of the size, same look."""
    from PIL import Image
    with Image.open(path) as im:
        im = im.convert("RGB")
        if im.width > PNG_WIDTH:
            im = im.resize((PNG_WIDTH, round(im.height * PNG_WIDTH / im.width)),
                           Image.Resampling.LANCZOS)
        small = im.quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def write_sidecar(folder):
    lines = ["%s  %s" % (sha256(folder / f), f) for f in ("wiring.yaml", "netlist.txt")
             + RENDERED]
    (folder / SIDECAR).write_text(
        "# sha256 of the inputs (wiring.yaml, netlist.txt) and of what `make hardware` "
        "rendered from them\n" + "\n".join(lines) + "\n", encoding="utf-8")


def read_sidecar(folder):
    out = {}
    for line in (folder / SIDECAR).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            digest, _, name = line.partition("  ")
            out[name] = digest
    return out


def check_bom(profile, text):
    where = "hardware/%s/bom.csv" % profile.name
    rows = list(csv.DictReader(io.StringIO(text)))
    problems = []
    if not rows or list(rows[0].keys()) != BOM_COLUMNS:
        return ["%s: columns must be %s" % (where, ",".join(BOM_COLUMNS))]
    for i, r in enumerate(rows, 2):
        try:
            if int(r["quantity"]) < 1 or float(r["approx_price_eur"]) < 0:
                raise ValueError
        except (TypeError, ValueError):
            problems.append("%s: line %d: quantity or price is not a number" % (where, i))
    text_of = [(r["part"] + " " + r["typical_part_number"]).lower() for r in rows]

    def qty(*words):
        return sum(int(r["quantity"]) for r, t in zip(rows, text_of, strict=True)
                   if all(wd in t for wd in words) and r["quantity"].isdigit())

    board = profile.mcu.board_type.lower()
    if qty(board.split(" v4")[0]) != 1:
        problems.append("%s: no %s" % (where, profile.mcu.board_type))
    for kind in dict.fromkeys(d["type"] for d in profile.config["displays"]):
        n = sum(1 for d in profile.config["displays"] if d["type"] == kind)
        if qty(kind) != n:
            problems.append("%s: %d %s display(s) expected" % (where, n, kind))
    gauge = profile.config.get("fuel_gauge")
    if gauge and qty(gauge["type"], "fuel gauge") != 1:
        problems.append("%s: needs 1 %s fuel gauge (boards.toml fuel_gauge)"
                        % (where, gauge["type"]))
    if not gauge and qty("fuel gauge"):
        problems.append("%s: lists a fuel gauge, boards.toml has none" % where)
    if profile.config["leds"]:
        if qty("led", "running side") != 2:
            problems.append("%s: needs 2 running-side LEDs" % where)
        if qty("resistor", "led series") < 2:
            problems.append("%s: needs 2 LED series resistors" % where)
    for words, n, what in ((("lever", "switch"), 2, "lever switches"),
                           (("button",), 4, "buttons"), (("piezo",), 1, "buzzer"),
                           (("npn",), 1, "buzzer transistor"), (("schottky",), 1, "diode"),
                           (("switch", "spst"), 1, "power switch")):
        if qty(*words) < n:
            problems.append("%s: needs %d %s" % (where, n, what))
    return problems


def check_all(root=None):
    """Every problem of hardware/ against boards.toml (a list of strings; [] is good)."""
    root = Path(root) if root is not None else root_dir()
    b, models = load_models(root)
    problems = []
    hw = root / "hardware"
    for folder in sorted(p for p in hw.iterdir() if p.is_dir() and not p.name.startswith(
            (".", "_"))):
        if folder.name not in models:
            problems.append("hardware/%s: no such profile in boards.toml" % folder.name)
    for name, w in models.items():
        folder = hw / name
        chem_name = w.profile.config["battery"]["chemistry"]
        for fname, text in generated_files(w, chem_name, b).items():
            path = folder / fname
            if not path.exists():
                problems.append("hardware/%s/%s: missing (make hardware)" % (name, fname))
            elif path.read_text(encoding="utf-8") != text:
                problems.append("hardware/%s/%s: differs from what boards.toml generates "
                                "(make hardware)" % (name, fname))
        if (folder / "wiring.yaml").exists():
            problems += check_wiring(w.profile, (folder / "wiring.yaml").read_text("utf-8"))
        if (folder / "bom.csv").exists():
            problems += check_bom(w.profile, (folder / "bom.csv").read_text("utf-8"))
        if not (folder / SIDECAR).exists():
            problems.append("hardware/%s/%s: missing (make hardware)" % (name, SIDECAR))
            continue
        recorded = read_sidecar(folder)
        for fname in ("wiring.yaml", "netlist.txt") + RENDERED:
            path = folder / fname
            if not path.exists():
                problems.append("hardware/%s/%s: missing (make hardware)" % (name, fname))
            elif recorded.get(fname) != sha256(path):
                problems.append("hardware/%s/%s: not what was rendered last (%s): "
                                "make hardware" % (name, fname, SIDECAR))
    return problems


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    action = argv[0] if argv else "check"
    if action == "generate":
        return generate()
    if action == "render":
        return render()
    if action == "check":
        problems = check_all()
        for pr in problems:
            print(pr)
        print("hardware/: %s" % ("ok" if not problems else "%d problems" % len(problems)))
        return 1 if problems else 0
    print("usage: python -m chessclock.hardware generate|render|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
