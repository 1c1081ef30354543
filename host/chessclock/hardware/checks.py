"""The checks of hardware/ against boards.toml: a wiring file read back on its own, a BOM,
and check_all over every profile (generated files, rendered pictures' sidecar)."""

import csv
import io
import re
from pathlib import Path
from typing import Any

from chessclock.board import profiles as boardsmod
from chessclock.board.profiles import Profile
from chessclock.hardware.bom import BOM_COLUMNS
from chessclock.hardware.files import (
    RENDERED,
    SIDECAR,
    generated_files,
    load_models,
    read_sidecar,
    root_dir,
    sha256,
)
from chessclock.hardware.model import (
    GAUGE,
    GROUND_PINS,
    LED_PARTS,
    LED_R,
    SUPPLY_PINS,
    functions,
    i2c_bus,
    signal_of,
)
from chessclock.hardware.trace import WiringError, trace_nets


def _gauge_bus(profile: Profile) -> Any:
    """The I2C bus id of the profile's fuel gauge, or None (no gauge)."""
    g = profile.config.get("fuel_gauge")
    return g["i2c"] if g else None


def _display_info(profile: Profile) -> tuple[dict[str, str], dict[str, Any]]:
    cfg = profile.config
    types = {s: d["type"] for s, d in zip(boardsmod.SIDES, cfg["displays"], strict=True)}
    buses = {s: d.get("i2c") for s, d in zip(boardsmod.SIDES, cfg["displays"], strict=True)}
    return types, buses


def check_wiring(profile: Profile, text: str) -> list[str]:
    """Problems of one wiring file against its profile (a list of strings; [] is good)."""
    import yaml
    where = "hardware/%s/wiring.yaml" % profile.name
    try:
        doc = yaml.safe_load(text)
        connectors = doc["connectors"]
        nets = trace_nets(connectors, doc["connections"])
    except (yaml.YAMLError, KeyError, TypeError, WiringError) as e:
        return ["%s: cannot read: %s" % (where, e)]
    mcu = connectors.get("MCU") or {}
    problems = _check_parts(where, profile, connectors, mcu)
    labels = dict(zip(mcu.get("pins", []), mcu.get("pinlabels", []), strict=False))
    want = functions(profile)
    got = {}     # function -> gpio
    for name, members in nets:
        problems += _check_net(where, profile, name, members, labels, want, got)
    problems += _check_functions(where, profile, want, got)
    problems += _check_gauge(where, profile, connectors, nets, labels)
    problems += _check_passives(where, profile, connectors)
    return problems


def _check_parts(where: str, profile: Profile, connectors: dict[str, Any],
                 mcu: dict[str, Any]) -> list[str]:
    """The MCU module and the displays are the profile's."""
    problems = []
    board = profile.mcu
    if mcu.get("type") != board.board_type:
        problems.append("%s: MCU is %r, the profile's MCU is on a %r"
                        % (where, mcu.get("type"), board.board_type))
    types, _buses = _display_info(profile)
    for side in boardsmod.SIDES:
        des = "DISPLAY_" + side[0].upper()
        t = (connectors.get(des) or {}).get("type", "")
        if types[side].upper() not in t.upper():
            problems.append("%s: %s is %r, boards.toml has a %s there"
                            % (where, des, t, types[side]))
    return problems


def _net_gpios(where: str, profile: Profile, members: Any, labels: dict[Any, Any],
               problems: list[str]) -> list[int]:
    """The GPIOs of the MCU pins on a net (a pin's label checked against the header)."""
    header = profile.mcu.header
    power = {pid: name for name, ids in profile.mcu.power.items() for pid in ids}
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
    return gpios


def _check_net(where: str, profile: Profile, name: str, members: Any, labels: dict[Any, Any],
               want: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """One net: one MCU pin at most, wired to one function of boards.toml that the pin
    can do; the functions found go into `got`."""
    problems = []
    gpios = _net_gpios(where, profile, members, labels, problems)
    types, buses = _display_info(profile)
    gauge_bus = _gauge_bus(profile)
    parts = [(d, str(p)) for d, p in members if d != "MCU"]
    sigs = sorted({s for d, p in parts
                   if (s := signal_of(d, p, types, buses, gauge_bus)) is not None})
    if len(gpios) > 1:
        problems.append("%s: MCU pins %s are wired together (net %s)"
                        % (where, ", ".join(profile.mcu.pin_name(g) for g in gpios), name))
    if not gpios:
        if sigs:
            problems.append("%s: %s not wired to an MCU pin" % (where, ", ".join(sigs)))
        return problems
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
    return problems


def _check_functions(where: str, profile: Profile, want: dict[str, Any],
                     got: dict[str, Any]) -> list[str]:
    """Every function of boards.toml wired, to its pin, and nothing else."""
    problems = []
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
    return problems


def _check_passives(where: str, profile: Profile, connectors: dict[str, Any]) -> list[str]:
    """The LEDs' series resistors and the battery divider, as boards.toml has them."""
    problems = []
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


def _check_gauge(where: str, profile: Profile, connectors: dict[str, Any], nets: Any,
                 labels: dict[Any, Any]) -> list[str]:
    """The fuel gauge of boards.toml against the wiring: the part, its bus pins (from
    boards.toml, shared with the displays), 3V3 and GND, and the cell before the switch."""
    gauge = profile.config.get("fuel_gauge")
    part = connectors.get(GAUGE)
    if not gauge:
        return (["%s: %s is wired, but boards.toml has no fuel_gauge" % (where, GAUGE)]
                if part is not None else [])
    bus = i2c_bus(profile.config, gauge["i2c"])
    if part is None:
        return ["%s: %s is missing: boards.toml has a %s fuel gauge on i2c%d (%s, %s)"
                % (where, GAUGE, gauge["type"], bus["id"], profile.mcu.pin_name(bus["sda"]),
                   profile.mcu.pin_name(bus["scl"]))]
    problems = []
    if gauge["type"].upper() not in str(part.get("type", "")).upper():
        problems.append("%s: %s is %r, boards.toml has a %s"
                        % (where, GAUGE, part.get("type"), gauge["type"]))
    net_of = {(d, str(p)): members for _name, members in nets for d, p in members}

    def mcu_labels(pin: Any) -> Any:
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


def check_bom(profile: Profile, text: str) -> list[str]:
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

    def qty(*words: str) -> int:
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


def check_all(root: Any = None) -> list[str]:
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
