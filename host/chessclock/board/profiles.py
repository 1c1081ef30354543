"""Board profiles: boards.toml -> validated profiles -> board.json for the firmware.

`boards.toml` (repo root) is the one source of truth for the pins and parts of each clock
build; its header comment lists the keys. This module loads it (tomllib), validates it
against what each MCU's pins can do (chessclock/mcus.py) and the display registry
(chessclock/displays.py), and turns one profile into the small JSON file the board
reads at boot, because MicroPython has no TOML parser.

Validation errors name the profile and the key, e.g.

    pico-tm1637: buttons.menu: GP3 is also levers.right (pin clash)
    esp32-tm1637: battery.pin: GPIO25 is on ADC2, which cannot be read while WiFi runs;
        use an ADC1 pin (GPIO32..GPIO39)

board.json (schema 1)
---------------------
One JSON object; pins are GPIO numbers; written by `chessclock boards show NAME` and by
`make firmware BOARD=NAME` (build/NAME/board.json); read by firmware/boards/mcu.py.

    {
      "schema": 1,                      # this layout; the firmware refuses another
      "board": "pico-tm1637",           # the profile name
      "mcu": "rp2040",                  # "rp2040" or "esp32" (the firmware checks its port)
      "levers": [2, 3],                 # [left, right]: switches (see switch_idle)
      "buttons": [6, 7, 8, 9],          # [start, menu, plus, minus] (clockapp.board order)
      "switch_idle": 1,                 # what levers and buttons read when not pressed:
                                        # 1 switches to GND with the internal pull-up,
                                        # 0 switches to 3V3 with the internal pull-down
      "link_levers": false,             # true: the link's `sim press` presses the levers
                                        # (a test rig's option; no key guards it)
      "buzzer": {"pin": 15, "duty_u16": 32768},   # passive piezo on PWM; duty = loudness
      "leds": [14, 16],                 # [left, right] running-side LEDs (driven high while
                                        # that side's clock runs), or null when none is wired
      "battery": {                      # or null when no battery sense is wired
        "pin": 26,                      # ADC pin
        "r_top": 100000, "r_bottom": 100000,      # divider, ohms: mV = pin mV * (t+b)/b
        "adc_full_mv": 3300,            # pin mV at read_u16() == 65535 (MCU property)
        "chemistry": "nimh-3aa",
        "full_mv": 4200, "low_mv": 3450, "critical_mv": 3300   # battery mV thresholds
      },
      "watchdog_ms": 4000,
      "i2c": [{"id": 0, "sda": 4, "scl": 5, "freq": 400000}],  # hardware buses; may be []
      "displays": [                     # [left, right]
        {"type": "tm1637", "clk": 10, "dio": 11},
        {"type": "ssd1306", "i2c": 0, "addr": 60}              # "i2c": an id in "i2c"
      ],
      "fuel_gauge": {                   # or null: a state-of-charge chip on an I2C bus
        "type": "max17048", "i2c": 0, "addr": 54,
        "low_pct": 45                   # warn below this state of charge (percent)
      }
    }

Only these keys appear; every value is present (defaults filled in by this module). The
firmware reads "leds" with .get(), so a board.json made before the key existed (no LEDs)
still loads under schema 1; "fuel_gauge", "switch_idle" (1) and "link_levers" (false)
likewise.
"""

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chessclock.board import displays as displaysmod
from chessclock.board import mcus as mcusmod

# The per-MCU pin rules live in chessclock.board.mcus; their names are this module's vocabulary too.
from chessclock.board.mcus import (  # noqa: F401
    MCUS,
    ROLE_ADC,
    ROLE_INPUT,
    ROLE_IO,
    ROLE_OUT,
    ROLE_PWM,
    Esp32,
    Mcu,
    Rp2040,
)
from chessclock.errors import InputError

SCHEMA = 1

LEVERS = ("left", "right")
LEDS = ("left", "right")
BUTTONS = ("start", "menu", "plus", "minus")  # bit order of clockapp.board BTN_*
SIDES = ("left", "right")
DISPLAY_TYPES = displaysmod.NAMES   # the display registry (chessclock/displays.py)
FUEL_GAUGE_TYPES = {"max17048": 0x36}   # type -> its fixed I2C address
I2C_BUSES = ("i2c0", "i2c1")

DEFAULT_WATCHDOG_MS = 4000
DEFAULT_DUTY_U16 = 32768
DEFAULT_I2C_FREQ = 400_000


class BoardError(InputError):
    """One problem in boards.toml, naming the profile (or section) and the key."""

    def __init__(self, where: str, key: str | None, problem: str) -> None:
        self.where = where
        self.key = key
        self.problem = problem
        super().__init__("%s: %s: %s" % (where, key, problem) if key else
                         "%s: %s" % (where, problem))


class BoardsFileError(InputError):
    """All the problems found in one boards.toml (str: one per line)."""

    def __init__(self, path: Any, errors: list[Any]) -> None:
        self.path = path
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


# ---- loading and validation ---------------------------------------------------------

PROFILE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")

PROFILE_KEYS = {"mcu": True, "description": False, "watchdog_ms": False, "levers": True,
                "buttons": True, "switch_idle": False, "link_levers": False, "buzzer": True,
                "leds": False, "battery": False, "displays": True, "i2c0": False,
                "i2c1": False, "fuel_gauge": False}
SWITCH_IDLE = {"high": 1, "low": 0}   # boards.toml word -> the level board.json gives
CHEMISTRY_KEYS = {"description": False, "full_mv": True, "low_mv": True, "critical_mv": True}


def _is_int(v: object) -> bool:
    return type(v) is int  # not bool (TOML true is a Python bool, a subclass of int)


class _Checker:
    """Collects the errors of one profile (or chemistry)."""

    def __init__(self, where: str, errors: list[Any]) -> None:
        self.where = where
        self.errors = errors

    def err(self, key: str | None, problem: str) -> None:
        self.errors.append(BoardError(self.where, key, problem))

    def table(self, parent: dict[str, Any], key: str, prefix: str = "") -> Any:
        """The sub-table parent[key] (or None, with the error recorded)."""
        full = prefix + key
        if key not in parent:
            self.err(full, "missing (required)")
            return None
        v = parent[key]
        if not isinstance(v, dict):
            self.err(full, "must be a table, not %r" % (v,))
            return None
        return v

    def keys(self, table: dict[str, Any], spec: dict[str, bool], prefix: str = "") -> bool:
        """Unknown and missing keys of `table` against spec {key: required}."""
        ok = True
        for k in table:
            if k not in spec:
                self.err(prefix + k, "unknown key (expected one of: %s)"
                         % ", ".join(sorted(spec)))
                ok = False
        for k, required in spec.items():
            if required and k not in table:
                self.err(prefix + k, "missing (required)")
                ok = False
        return ok

    def int_in(self, table: dict[str, Any], key: str, lo: int, hi: int, prefix: str = "",
               default: int | None = None) -> Any:
        if key not in table:
            return default
        v = table[key]
        if not _is_int(v) or not lo <= v <= hi:
            self.err(prefix + key, "must be a whole number from %d to %d, not %r" % (lo, hi, v))
            return None
        return v

    def text(self, table: dict[str, Any], key: str, prefix: str = "") -> str | None:
        v = table.get(key)
        if v is not None and not isinstance(v, str):
            self.err(prefix + key, "must be text, not %r" % (v,))
            return None
        return v


@dataclass(frozen=True)
class Profile:
    """One validated board profile."""

    name: str
    mcu: Any                    # an Mcu instance
    description: str
    config: dict[str, Any]      # the board.json dict

    def to_json(self) -> str:
        return json.dumps(self.config, indent=2) + "\n"


@dataclass(frozen=True)
class Boards:
    """A boards file read and checked: its profiles and battery chemistries."""

    path: Any
    profiles: dict[str, Profile]        # name -> Profile, in file order
    chemistries: dict[str, Any]         # name -> dict

    def get(self, name: str) -> Any:
        if name not in self.profiles:
            raise BoardError(str(self.path), None, "unknown board %r (known: %s)"
                             % (name, ", ".join(self.profiles) or "none"))
        return self.profiles[name]


def default_path() -> Path:
    """boards.toml in the current folder, else the checkout's (or the installed copy)."""
    here = Path("boards.toml")
    if here.is_file():
        return here
    from chessclock import sources
    return sources.boards_toml()


def load(path: Any = None) -> Boards:
    """Read and validate boards.toml; raise BoardsFileError listing every problem."""
    path = Path(path) if path is not None else default_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise BoardsFileError(path, [BoardError(str(path), None, "cannot read: %s"
                                                % (e.strerror or e))]) from None
    except UnicodeDecodeError:
        raise BoardsFileError(path, [BoardError(str(path), None, "not a boards file "
                                                "(not UTF-8 text)")]) from None
    return loads(text, path)


def loads(text: str, path: Any = "boards.toml") -> Boards:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        err = BoardError(str(path), None, "not valid TOML: %s" % e)
        raise BoardsFileError(path, [err]) from None
    except RecursionError:   # tomllib reads nested arrays and tables by recursion
        err = BoardError(str(path), None, "not a boards file: arrays or tables nested too "
                         "deeply")
        raise BoardsFileError(path, [err]) from None
    errors = []
    for k in data:
        if k not in ("boards", "chemistry"):
            errors.append(BoardError(str(path), k, "unknown top-level key (expected "
                                     "[boards.NAME] and [chemistry.NAME] tables)"))
    chemistries = _chemistries(data.get("chemistry", {}), errors)
    raw_profiles = data.get("boards", {})
    if not isinstance(raw_profiles, dict) or not raw_profiles:
        errors.append(BoardError(str(path), "boards", "no [boards.NAME] profile"))
        raw_profiles = {}
    profiles = {}
    for name, raw in raw_profiles.items():
        p = _profile(name, raw, chemistries, errors)
        if p is not None:
            profiles[name] = p
    if errors:
        raise BoardsFileError(path, errors)
    return Boards(path, profiles, chemistries)


def _chemistries(raw: dict[str, Any], errors: list[Any]) -> dict[str, Any]:
    out = {}
    if not isinstance(raw, dict):
        errors.append(BoardError("chemistry", None, "must be tables [chemistry.NAME]"))
        return out
    for name, t in raw.items():
        c = _Checker("chemistry " + name, errors)
        if not isinstance(t, dict):
            c.err(None, "must be a table")
            continue
        n = len(errors)
        c.keys(t, CHEMISTRY_KEYS)
        vals = [c.int_in(t, k, 1000, 30000) for k in ("full_mv", "low_mv", "critical_mv")]
        c.text(t, "description")
        if len(errors) == n:
            full, low, crit = vals
            if not full > low > crit:
                c.err("low_mv", "thresholds must fall: full_mv %d > low_mv %d > critical_mv %d"
                      % (full, low, crit))
                continue
            out[name] = {"full_mv": full, "low_mv": low, "critical_mv": crit}
    return out


def _profile(name: str, raw: dict[str, Any], chemistries: dict[str, Any],
             errors: list[Any]) -> Profile | None:
    """One [boards.NAME] table -> a Profile, or None with its problems added to `errors`.
    Each part of the profile is read by its own method of _ProfileReader, in this order
    (the order the problems are listed in)."""
    c = _Checker(name, errors)
    n0 = len(errors)
    if not PROFILE_NAME.match(name):
        c.err(None, "a profile name is lower-case letters, digits and '-' (a build folder)")
    if not isinstance(raw, dict):
        c.err(None, "must be a table [boards.%s]" % name)
        return None
    c.keys(raw, PROFILE_KEYS)
    if "mcu" not in raw:
        return None  # reported by keys()
    try:
        mcu = mcusmod.get(raw["mcu"])
    except mcusmod.UnknownMcu as e:
        c.err("mcu", str(e))
        return None
    description = c.text(raw, "description") or ""
    watchdog_ms = c.int_in(raw, "watchdog_ms", 500, mcu.watchdog_max_ms,
                           default=DEFAULT_WATCHDOG_MS)
    r = _ProfileReader(name, raw, mcu, c)
    levers = r.pin_table("levers", LEVERS, ROLE_INPUT)
    buttons = r.pin_table("buttons", BUTTONS, ROLE_INPUT)
    switch_idle = r.switch_idle()
    link_levers = r.link_levers()
    buzzer = r.buzzer()
    battery = r.battery(chemistries)
    r.buses()
    display_cfgs = r.displays()
    gauge = r.fuel_gauge()
    r.unused_buses()
    # running-side LEDs (optional): last, so that a clash names the LED's key
    leds = r.pin_table("leds", LEDS, ROLE_OUT) if "leds" in raw else None
    r.pin_clashes()
    if len(errors) > n0:
        return None
    config = {
        "schema": SCHEMA,
        "board": name,
        "mcu": mcu.name,
        "levers": levers,
        "buttons": buttons,
        "switch_idle": switch_idle,
        "link_levers": link_levers,
        "buzzer": buzzer,
        "leds": leds,
        "battery": battery,
        "watchdog_ms": watchdog_ms,
        "i2c": [r.bus_cfgs[b] for b in I2C_BUSES if b in r.bus_cfgs],
        "displays": display_cfgs,
        "fuel_gauge": gauge,
    }
    return Profile(name, mcu, description, config)


def _known(name: object, names: Any) -> bool:
    """`name` is one of `names` (a TOML array or table is no name, and not hashable)."""
    return isinstance(name, str) and name in names


class _ProfileReader:
    """The parts of one profile, a method each, on the pins and I2C buses they share: every
    pin taken (for the clash check at the end), the buses and the addresses on them."""

    def __init__(self, name: str, raw: dict[str, Any], mcu: Any, checker: _Checker) -> None:
        self.name = name
        self.raw = raw
        self.mcu = mcu
        self.c = checker
        self.uses = []          # (pin, key, role), in the order they were read
        self.bus_cfgs = {}      # "i2c0" -> board.json bus {id, sda, scl, freq}
        self.used_buses = set()
        self.addrs = {}         # (bus, addr) -> the key that put a chip there

    # -- pins
    def pin(self, table: dict[str, Any], key: str, role: str, prefix: str) -> int | None:
        """The GPIO of table[key] for `role` (checked against the MCU), or None."""
        if key not in table:
            return None  # reported by keys()
        v = table[key]
        if not _is_int(v) or v < 0:
            self.c.err(prefix + key, "must be a GPIO number, not %r" % (v,))
            return None
        problem = self.mcu.pin_problem(v, role)
        if problem:
            self.c.err(prefix + key, problem)
        self.uses.append((v, prefix + key, role))
        return v

    def pin_table(self, key: str, names: Any, role: str) -> Any:
        """A table of pins, e.g. levers = { left, right }: [pin, ...] in `names` order."""
        t = self.c.table(self.raw, key)
        if t is None:
            return None   # the problem is recorded: no config is made
        pre = key + "."
        self.c.keys(t, dict.fromkeys(names, True), pre)
        return [self.pin(t, k, role, pre) for k in names]

    def pin_clashes(self) -> None:
        """A pin may serve one job (an I2C bus's pins are the bus's, once)."""
        seen = {}
        for p, key, _role in self.uses:
            if p in seen:
                self.c.err(key, "%s is also %s (pin clash)" % (self.mcu.pin_name(p), seen[p]))
            else:
                seen[p] = key

    # -- the parts
    def switch_idle(self) -> int | None:
        """The level levers and buttons read when not pressed: "high" (the default:
        switches to GND, internal pull-up) or "low" (switches to 3V3, internal pull-down)."""
        v = self.raw.get("switch_idle", "high")
        if not _known(v, SWITCH_IDLE):
            self.c.err("switch_idle", 'must be "high" (switches to GND, pull-up) or "low" '
                       '(switches to 3V3, pull-down), not %r' % (v,))
            return None
        return SWITCH_IDLE[v]

    def link_levers(self) -> bool | None:
        """true: the levers may be pressed over the serial link (a test rig; default false)."""
        v = self.raw.get("link_levers", False)
        if type(v) is not bool:
            self.c.err("link_levers", "must be true or false, not %r" % (v,))
            return None
        return v

    def buzzer(self) -> dict[str, Any] | None:
        c = self.c
        buzzer = c.table(self.raw, "buzzer")
        if buzzer is None:
            return None
        c.keys(buzzer, {"pin": True, "duty_u16": False}, "buzzer.")
        return {"pin": self.pin(buzzer, "pin", ROLE_PWM, "buzzer."),
                "duty_u16": c.int_in(buzzer, "duty_u16", 1, 32768, "buzzer.",
                                     DEFAULT_DUTY_U16)}

    def battery(self, chemistries: dict[str, Any]) -> dict[str, Any] | None:
        """The divider and its chemistry's thresholds; a full battery must stay inside the
        ADC's range at the pin."""
        c = self.c
        mcu = self.mcu
        if "battery" not in self.raw:
            return None    # no battery sense wired (a board powered from its USB)
        battery = c.table(self.raw, "battery")
        if battery is None:
            return None
        c.keys(battery, {"pin": True, "r_top": True, "r_bottom": True, "chemistry": True},
               "battery.")
        bpin = self.pin(battery, "pin", ROLE_ADC, "battery.")
        r_top = c.int_in(battery, "r_top", 0, 10_000_000, "battery.")
        r_bottom = c.int_in(battery, "r_bottom", 1, 10_000_000, "battery.")
        chem = c.text(battery, "chemistry", "battery.")
        if chem is not None and chem not in chemistries:
            c.err("battery.chemistry", "unknown chemistry %r (known: %s)"
                  % (chem, ", ".join(chemistries) or "none"))
            return None
        if chem is None or r_top is None or r_bottom is None:
            return None
        th = chemistries[chem]
        at_pin = th["full_mv"] * r_bottom // (r_top + r_bottom)
        if at_pin > mcu.adc_full_mv:
            c.err("battery.r_top", "a full %s battery (%d mV) puts %d mV on the ADC pin, "
                  "above the %s ADC's %d mV: make r_top larger"
                  % (chem, th["full_mv"], at_pin, mcu.name, mcu.adc_full_mv))
        cfg = {"pin": bpin, "r_top": r_top, "r_bottom": r_bottom,
               "adc_full_mv": mcu.adc_full_mv, "chemistry": chem}
        cfg.update(th)
        return cfg

    def buses(self) -> None:
        """The hardware I2C buses i2c0 / i2c1 (those the profile has)."""
        c = self.c
        for bus in I2C_BUSES:
            if bus not in self.raw:
                continue
            t = c.table(self.raw, bus)
            if t is None:
                continue
            pre = bus + "."
            c.keys(t, {"sda": True, "scl": True, "freq": False}, pre)
            bus_id = int(bus[-1])
            sda = self.pin(t, "sda", ROLE_IO, pre)
            scl = self.pin(t, "scl", ROLE_IO, pre)
            freq = c.int_in(t, "freq", 10_000, 1_000_000, pre, DEFAULT_I2C_FREQ)
            if sda is not None and scl is not None:
                problem = self.mcu.i2c_problem(bus_id, sda, scl)
                if problem:
                    c.err(pre + "sda", problem)
            self.bus_cfgs[bus] = {"id": bus_id, "sda": sda, "scl": scl, "freq": freq}

    def _bus(self, key: str, bus: Any) -> Any:
        """`bus` if the profile has that I2C bus, else None (the problem recorded)."""
        if _known(bus, self.bus_cfgs):
            return bus
        self.c.err(key, "no I2C bus %r in this profile (define [boards.%s.%s] with sda and "
                        "scl)" % (bus, self.name, bus if _known(bus, I2C_BUSES) else "i2c0"))
        return None

    def _on_bus(self, bus: Any, addr: int, key: str, clash: str) -> None:
        """Put a chip at `addr` on `bus`; `clash` % the other key when the address is taken."""
        self.used_buses.add(bus)
        other = self.addrs.get((bus, addr))
        if other:
            self.c.err(key, clash % other)
        self.addrs[(bus, addr)] = key

    def displays(self) -> list[dict[str, Any]]:
        """displays.left and .right: each by its kind in the display registry."""
        c = self.c
        displays = c.table(self.raw, "displays")
        if displays is None:
            return []
        c.keys(displays, dict.fromkeys(SIDES, True), "displays.")
        out = []
        for side in SIDES:
            pre = "displays.%s." % side
            d = c.table(displays, side, "displays.")
            if d is None:
                continue
            if "type" not in d:
                c.err(pre + "type", "missing (required)")
                continue
            try:
                kind = displaysmod.get(d["type"])
            except displaysmod.UnknownDisplay as e:
                c.err(pre + "type", str(e))
                continue
            cfg = self._i2c_display(kind, d, pre) if kind.on_i2c else \
                self._pins_display(kind, d, pre)
            if cfg is not None:
                out.append(cfg)
        return out

    def _pins_display(self, kind: Any, d: dict[str, Any], pre: str) -> dict[str, Any]:
        """A display on its own pins (kind.pin_keys, e.g. a TM1637's clk and dio)."""
        self.c.keys(d, dict.fromkeys(("type",) + kind.pin_keys, True), pre)
        cfg = {"type": kind.name}
        for k in kind.pin_keys:
            cfg[k] = self.pin(d, k, ROLE_IO, pre)
        return cfg

    def _i2c_display(self, kind: Any, d: dict[str, Any], pre: str) -> dict[str, Any] | None:
        """A display on an I2C bus of the profile, at one of the kind's addresses."""
        c = self.c
        c.keys(d, {"type": True, "bus": True, "addr": True}, pre)
        bus = self._bus(pre + "bus", d["bus"]) if "bus" in d else None
        addr = d.get("addr")
        if "addr" in d and addr not in kind.addrs:
            c.err(pre + "addr", "an %s answers at %s, not %r"
                  % (kind.chip, " or ".join("0x%02X" % a for a in kind.addrs), addr))
            addr = None
        if bus is None or addr is None:
            return None
        self._on_bus(bus, addr, pre + "addr",
                     "0x%02X on %s is also %%s (address clash)" % (addr, bus))
        return {"type": kind.name, "i2c": self.bus_cfgs[bus]["id"], "addr": addr}

    def fuel_gauge(self) -> dict[str, Any] | None:
        """The fuel gauge (optional): a state-of-charge chip on one of the I2C buses."""
        c = self.c
        if "fuel_gauge" not in self.raw:
            return None
        g = c.table(self.raw, "fuel_gauge")
        if g is None:
            return None
        pre = "fuel_gauge."
        c.keys(g, {"type": True, "bus": True, "low_pct": True}, pre)
        kind = g.get("type")
        if "type" in g and not _known(kind, FUEL_GAUGE_TYPES):
            c.err(pre + "type", "unknown fuel gauge %r (known: %s)"
                  % (kind, ", ".join(FUEL_GAUGE_TYPES)))
            kind = None
        bus = self._bus(pre + "bus", g["bus"]) if "bus" in g else None
        low_pct = c.int_in(g, "low_pct", 1, 99, pre)
        if not _known(kind, FUEL_GAUGE_TYPES) or bus is None or low_pct is None:
            return None
        addr = FUEL_GAUGE_TYPES[kind]
        self._on_bus(bus, addr, pre + "bus", "a %s answers at 0x%02X, which on %s is also "
                     "%%s (address clash)" % (kind, addr, bus))
        return {"type": kind, "i2c": self.bus_cfgs[bus]["id"], "addr": addr,
                "low_pct": low_pct}

    def unused_buses(self) -> None:
        for bus in self.bus_cfgs:
            if bus not in self.used_buses:
                self.c.err(bus, "no display or fuel gauge uses this I2C bus")




