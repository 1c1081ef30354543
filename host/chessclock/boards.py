"""Board profiles: boards.toml -> validated profiles -> board.json for the firmware.

`boards.toml` (repo root) is the one source of truth for the pins and parts of each clock
build; its header comment lists the keys. This module loads it (tomllib), validates it
against what each MCU's pins can do (small per-MCU classes below, in the manner of
esptool's per-chip classes), and turns one profile into the small JSON file the board
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
      "levers": [2, 3],                 # [left, right]: switches to GND, internal pull-up
      "buttons": [6, 7, 8, 9],          # [start, menu, plus, minus] (clockapp.board order)
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
still loads under schema 1; "fuel_gauge" likewise.
"""

import json
import re
import tomllib
from pathlib import Path

SCHEMA = 1

ROLE_INPUT = "input"      # a switch to GND read with the internal pull-up (levers, buttons)
ROLE_PWM = "pwm"          # a PWM output (buzzer)
ROLE_ADC = "adc"          # an analog input (battery)
ROLE_IO = "io"            # a driven line with an external pull-up (TM1637 CLK/DIO, I2C)
ROLE_OUT = "out"          # a plain push-pull output with a load to GND (running-side LEDs)

LEVERS = ("left", "right")
LEDS = ("left", "right")
BUTTONS = ("start", "menu", "plus", "minus")  # bit order of clockapp.board BTN_*
SIDES = ("left", "right")
DISPLAY_TYPES = ("tm1637", "ssd1306")
SSD1306_ADDRS = (0x3C, 0x3D)
FUEL_GAUGE_TYPES = {"max17048": 0x36}   # type -> its fixed I2C address
I2C_BUSES = ("i2c0", "i2c1")

DEFAULT_WATCHDOG_MS = 4000
DEFAULT_DUTY_U16 = 32768
DEFAULT_I2C_FREQ = 400_000


class BoardError(ValueError):
    """One problem in boards.toml, naming the profile (or section) and the key."""

    def __init__(self, where, key, problem):
        self.where = where
        self.key = key
        self.problem = problem
        super().__init__("%s: %s: %s" % (where, key, problem) if key else
                         "%s: %s" % (where, problem))


class BoardsFileError(ValueError):
    """All the problems found in one boards.toml (str: one per line)."""

    def __init__(self, path, errors):
        self.path = path
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


# ---- MCUs: what each pin can do -----------------------------------------------------


class Mcu:
    """Pin capabilities of one MCU (as broken out on its usual board). Subclasses fill in
    the sets; pin_problem() says why a pin cannot take a role, or returns None."""

    name = "?"
    port = "?"              # MicroPython's sys.platform on it
    mpy_arch = "?"          # mpy-cross -march
    adc_full_mv = 3300      # pin millivolts at read_u16() == 65535
    watchdog_max_ms = 8388
    i2c_ids = (0, 1)

    def pin_name(self, pin):
        return "GPIO%d" % pin

    def pin_problem(self, pin, role):
        raise NotImplementedError

    def i2c_problem(self, bus_id, sda, scl):
        """Why `sda`/`scl` cannot be hardware I2C bus `bus_id`, or None."""
        return None


class Rp2040(Mcu):
    """Raspberry Pi Pico: every GPIO has a pull-up and PWM; ADC on GP26..GP28 only;
    GP23..GP25 and GP29 are used on the board and not on the header."""

    name = "rp2040"
    port = "rp2"
    mpy_arch = "armv6m"
    adc_full_mv = 3300           # ADC_VREF is the 3.3 V rail on the Pico
    watchdog_max_ms = 8388       # the RP2040 watchdog counter limit (MicroPython clamps)
    header = frozenset(list(range(0, 23)) + [26, 27, 28])
    on_board = {23: "the SMPS power-save control", 24: "VBUS sense", 25: "the LED",
                29: "the VSYS/3 sense"}
    adc = frozenset((26, 27, 28))

    def pin_name(self, pin):
        return "GP%d" % pin

    def pin_problem(self, pin, role):
        if pin in self.on_board:
            return "%s is used on the Pico board (%s) and is not on the header" % (
                self.pin_name(pin), self.on_board[pin])
        if pin not in self.header:
            return "%s does not exist on the Pico (GP0..GP22, GP26..GP28)" % self.pin_name(pin)
        if role == ROLE_ADC and pin not in self.adc:
            return "%s has no ADC (the RP2040's ADC is on GP26..GP28 only)" % self.pin_name(pin)
        return None

    def i2c_problem(self, bus_id, sda, scl):
        # I2C0: SDA on GP 4n, SCL on 4n+1; I2C1: SDA on 4n+2, SCL on 4n+3.
        want_sda, want_scl = (0, 1) if bus_id == 0 else (2, 3)
        if sda % 4 != want_sda:
            return "%s is not an I2C%d SDA pin (those are GP%d, GP%d, ...)" % (
                self.pin_name(sda), bus_id, want_sda, want_sda + 4)
        if scl % 4 != want_scl:
            return "%s is not an I2C%d SCL pin (those are GP%d, GP%d, ...)" % (
                self.pin_name(scl), bus_id, want_scl, want_scl + 4)
        return None


class Esp32(Mcu):
    """ESP32 (DevKitC, WROOM/WROVER). Any output pin can do PWM and I2C (GPIO matrix)."""

    name = "esp32"
    port = "esp32"
    mpy_arch = "xtensawin"
    adc_full_mv = 2450           # ATTN_11DB: the calibrated range ends near 2.45 V
    watchdog_max_ms = 60_000
    exists = frozenset(list(range(0, 20)) + [21, 22, 23, 25, 26, 27] + list(range(32, 40)))
    not_on_header = frozenset((37, 38))  # SENSOR_CAPP/CAPN: on the chip, not the DevKitC
    flash = frozenset(range(6, 12))
    uart0 = frozenset((1, 3))
    strapping = frozenset((0, 2, 5, 12, 15))
    input_only = frozenset(range(34, 40))
    adc1 = frozenset(range(32, 40))
    adc2 = frozenset((0, 2, 4, 12, 13, 14, 15, 25, 26, 27))

    def pin_problem(self, pin, role):
        p = self.pin_name(pin)
        if pin not in self.exists:
            return "%s does not exist on the ESP32" % p
        if pin in self.not_on_header:
            return "%s is not broken out on the ESP32 DevKitC" % p
        if pin in self.flash:
            return "%s is wired to the SPI flash (GPIO6..GPIO11 are not usable)" % p
        if pin in self.uart0:
            return "%s is UART0, the USB serial link (REPL, deploy)" % p
        if role == ROLE_ADC:
            if pin in self.adc2:
                return ("%s is on ADC2, which cannot be read while WiFi runs; use an ADC1 "
                        "pin (GPIO32..GPIO39)" % p)
            if pin not in self.adc1:
                return "%s has no ADC; use an ADC1 pin (GPIO32..GPIO39)" % p
            return None
        if pin in self.input_only:
            if role == ROLE_INPUT:
                return ("%s is input-only without an internal pull-up (GPIO34..GPIO39); a "
                        "switch to GND needs one" % p)
            return "%s is input-only (GPIO34..GPIO39) and cannot drive an output" % p
        if role == ROLE_INPUT and pin in self.strapping:
            return ("%s is a strapping pin (0, 2, 5, 12, 15): a lever or button held at boot "
                    "would change the boot mode" % p)
        if role == ROLE_OUT and pin in self.strapping:
            return ("%s is a strapping pin (0, 2, 5, 12, 15): a LED to GND pulls it low "
                    "while the chip samples it at boot" % p)
        if pin == 12:
            return ("GPIO12 is a strapping pin (MTDI): a pull-up or a driver on it at boot "
                    "selects 1.8 V flash and the board does not start")
        return None


MCUS = {m.name: m for m in (Rp2040(), Esp32())}


# ---- loading and validation ---------------------------------------------------------

PROFILE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")

PROFILE_KEYS = {"mcu": True, "description": False, "watchdog_ms": False, "levers": True,
                "buttons": True, "buzzer": True, "leds": False, "battery": True,
                "displays": True, "i2c0": False, "i2c1": False, "fuel_gauge": False}
CHEMISTRY_KEYS = {"description": False, "full_mv": True, "low_mv": True, "critical_mv": True}


def _is_int(v):
    return type(v) is int  # not bool (TOML true is a Python bool, a subclass of int)


class _Checker:
    """Collects the errors of one profile (or chemistry)."""

    def __init__(self, where, errors):
        self.where = where
        self.errors = errors

    def err(self, key, problem):
        self.errors.append(BoardError(self.where, key, problem))

    def table(self, parent, key, prefix=""):
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

    def keys(self, table, spec, prefix=""):
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

    def int_in(self, table, key, lo, hi, prefix="", default=None):
        if key not in table:
            return default
        v = table[key]
        if not _is_int(v) or not lo <= v <= hi:
            self.err(prefix + key, "must be a whole number from %d to %d, not %r" % (lo, hi, v))
            return None
        return v

    def text(self, table, key, prefix=""):
        v = table.get(key)
        if v is not None and not isinstance(v, str):
            self.err(prefix + key, "must be text, not %r" % (v,))
            return None
        return v


class Profile:
    """One validated board profile."""

    def __init__(self, name, mcu, description, config):
        self.name = name
        self.mcu = mcu              # an Mcu instance
        self.description = description
        self.config = config        # the board.json dict

    def to_json(self):
        return json.dumps(self.config, indent=2) + "\n"


class Boards:
    def __init__(self, path, profiles, chemistries):
        self.path = path
        self.profiles = profiles          # name -> Profile, in file order
        self.chemistries = chemistries    # name -> dict

    def get(self, name):
        if name not in self.profiles:
            raise BoardError(str(self.path), None, "unknown board %r (known: %s)"
                             % (name, ", ".join(self.profiles) or "none"))
        return self.profiles[name]


def default_path():
    """boards.toml in the current folder, else the checkout's (or the installed copy)."""
    here = Path("boards.toml")
    if here.is_file():
        return here
    from chessclock import sources
    return sources.boards_toml()


def load(path=None):
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


def loads(text, path="boards.toml"):
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        err = BoardError(str(path), None, "not valid TOML: %s" % e)
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


def _chemistries(raw, errors):
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


def _profile(name, raw, chemistries, errors):
    c = _Checker(name, errors)
    n0 = len(errors)
    if not PROFILE_NAME.match(name):
        c.err(None, "a profile name is lower-case letters, digits and '-' (a build folder)")
    if not isinstance(raw, dict):
        c.err(None, "must be a table [boards.%s]" % name)
        return None
    c.keys(raw, PROFILE_KEYS)
    mcu_name = raw.get("mcu")
    if "mcu" in raw and mcu_name not in MCUS:
        c.err("mcu", "unknown MCU %r (known: %s)" % (mcu_name, ", ".join(MCUS)))
    if mcu_name not in MCUS:
        return None
    mcu = MCUS[mcu_name]
    description = c.text(raw, "description") or ""
    watchdog_ms = c.int_in(raw, "watchdog_ms", 500, mcu.watchdog_max_ms,
                           default=DEFAULT_WATCHDOG_MS)

    uses = []   # (pin, key, role)

    def pin(table, key, role, prefix):
        if key not in table:
            return None  # reported by keys()
        v = table[key]
        if not _is_int(v) or v < 0:
            c.err(prefix + key, "must be a GPIO number, not %r" % (v,))
            return None
        problem = mcu.pin_problem(v, role)
        if problem:
            c.err(prefix + key, problem)
        uses.append((v, prefix + key, role))
        return v

    levers = c.table(raw, "levers")
    lever_pins = [None, None]
    if levers is not None:
        c.keys(levers, dict.fromkeys(LEVERS, True), "levers.")
        lever_pins = [pin(levers, k, ROLE_INPUT, "levers.") for k in LEVERS]

    buttons = c.table(raw, "buttons")
    button_pins = [None] * 4
    if buttons is not None:
        c.keys(buttons, dict.fromkeys(BUTTONS, True), "buttons.")
        button_pins = [pin(buttons, k, ROLE_INPUT, "buttons.") for k in BUTTONS]

    buzzer = c.table(raw, "buzzer")
    buzzer_cfg = None
    if buzzer is not None:
        c.keys(buzzer, {"pin": True, "duty_u16": False}, "buzzer.")
        buzzer_cfg = {"pin": pin(buzzer, "pin", ROLE_PWM, "buzzer."),
                      "duty_u16": c.int_in(buzzer, "duty_u16", 1, 32768, "buzzer.",
                                           DEFAULT_DUTY_U16)}

    battery = c.table(raw, "battery")
    battery_cfg = None
    if battery is not None:
        c.keys(battery, {"pin": True, "r_top": True, "r_bottom": True, "chemistry": True},
               "battery.")
        bpin = pin(battery, "pin", ROLE_ADC, "battery.")
        r_top = c.int_in(battery, "r_top", 0, 10_000_000, "battery.")
        r_bottom = c.int_in(battery, "r_bottom", 1, 10_000_000, "battery.")
        chem = c.text(battery, "chemistry", "battery.")
        if chem is not None and chem not in chemistries:
            c.err("battery.chemistry", "unknown chemistry %r (known: %s)"
                  % (chem, ", ".join(chemistries) or "none"))
        elif chem is not None and r_top is not None and r_bottom is not None:
            th = chemistries[chem]
            at_pin = th["full_mv"] * r_bottom // (r_top + r_bottom)
            if at_pin > mcu.adc_full_mv:
                c.err("battery.r_top", "a full %s battery (%d mV) puts %d mV on the ADC pin, "
                      "above the %s ADC's %d mV: make r_top larger"
                      % (chem, th["full_mv"], at_pin, mcu.name, mcu.adc_full_mv))
            battery_cfg = {"pin": bpin, "r_top": r_top, "r_bottom": r_bottom,
                           "adc_full_mv": mcu.adc_full_mv, "chemistry": chem}
            battery_cfg.update(th)

    buses = {}
    for bus in I2C_BUSES:
        if bus not in raw:
            continue
        t = c.table(raw, bus)
        if t is None:
            continue
        pre = bus + "."
        c.keys(t, {"sda": True, "scl": True, "freq": False}, pre)
        bus_id = int(bus[-1])
        sda = pin(t, "sda", ROLE_IO, pre)
        scl = pin(t, "scl", ROLE_IO, pre)
        freq = c.int_in(t, "freq", 10_000, 1_000_000, pre, DEFAULT_I2C_FREQ)
        if sda is not None and scl is not None:
            problem = mcu.i2c_problem(bus_id, sda, scl)
            if problem:
                c.err(pre + "sda", problem)
        buses[bus] = {"id": bus_id, "sda": sda, "scl": scl, "freq": freq}

    def no_bus(key, bus):
        c.err(key, "no I2C bus %r in this profile (define [boards.%s.%s] with sda and scl)"
              % (bus, name, bus if bus in I2C_BUSES else "i2c0"))

    displays = c.table(raw, "displays")
    display_cfgs = []
    used_buses = set()
    addrs = {}   # (bus, addr) -> key
    if displays is not None:
        c.keys(displays, dict.fromkeys(SIDES, True), "displays.")
        for side in SIDES:
            pre = "displays.%s." % side
            d = c.table(displays, side, "displays.")
            if d is None:
                continue
            kind = d.get("type")
            if kind not in DISPLAY_TYPES:
                if "type" not in d:
                    c.err(pre + "type", "missing (required)")
                else:
                    c.err(pre + "type", "unknown display type %r (known: %s)"
                          % (kind, ", ".join(DISPLAY_TYPES)))
                continue
            if kind == "tm1637":
                c.keys(d, {"type": True, "clk": True, "dio": True}, pre)
                display_cfgs.append({"type": kind, "clk": pin(d, "clk", ROLE_IO, pre),
                                     "dio": pin(d, "dio", ROLE_IO, pre)})
            else:
                c.keys(d, {"type": True, "bus": True, "addr": True}, pre)
                bus = d.get("bus")
                addr = d.get("addr")
                if "bus" in d and bus not in buses:
                    no_bus(pre + "bus", bus)
                    bus = None
                if "addr" in d and addr not in SSD1306_ADDRS:
                    c.err(pre + "addr", "an SSD1306 answers at 0x3C or 0x3D, not %r" % (addr,))
                    addr = None
                if bus is not None and addr is not None:
                    used_buses.add(bus)
                    other = addrs.get((bus, addr))
                    if other:
                        c.err(pre + "addr", "0x%02X on %s is also %s (address clash)"
                              % (addr, bus, other))
                    addrs[(bus, addr)] = pre + "addr"
                    display_cfgs.append({"type": kind, "i2c": buses[bus]["id"], "addr": addr})

    # fuel gauge (optional): a state-of-charge chip on one of the I2C buses
    gauge_cfg = None
    if "fuel_gauge" in raw:
        g = c.table(raw, "fuel_gauge")
        if g is not None:
            pre = "fuel_gauge."
            c.keys(g, {"type": True, "bus": True, "low_pct": True}, pre)
            kind = g.get("type")
            bus = g.get("bus")
            if "type" in g and kind not in FUEL_GAUGE_TYPES:
                c.err(pre + "type", "unknown fuel gauge %r (known: %s)"
                      % (kind, ", ".join(FUEL_GAUGE_TYPES)))
                kind = None
            if "bus" in g and bus not in buses:
                no_bus(pre + "bus", bus)
                bus = None
            low_pct = c.int_in(g, "low_pct", 1, 99, pre)
            if kind in FUEL_GAUGE_TYPES and bus is not None and low_pct is not None:
                addr = FUEL_GAUGE_TYPES[kind]
                used_buses.add(bus)
                other = addrs.get((bus, addr))
                if other:
                    c.err(pre + "bus", "a %s answers at 0x%02X, which on %s is also %s "
                          "(address clash)" % (kind, addr, bus, other))
                addrs[(bus, addr)] = pre + "bus"
                gauge_cfg = {"type": kind, "i2c": buses[bus]["id"], "addr": addr,
                             "low_pct": low_pct}

    for bus in buses:
        if bus not in used_buses:
            c.err(bus, "no display or fuel gauge uses this I2C bus")

    # running-side LEDs (optional): last, so that a clash names the LED's key
    led_pins = None
    if "leds" in raw:
        leds = c.table(raw, "leds")
        if leds is not None:
            c.keys(leds, dict.fromkeys(LEDS, True), "leds.")
            led_pins = [pin(leds, k, ROLE_OUT, "leds.") for k in LEDS]

    # pin clashes: a pin may serve one job (an I2C bus's pins are the bus's, once)
    seen = {}
    for p, key, _role in uses:
        if p in seen:
            c.err(key, "%s is also %s (pin clash)" % (mcu.pin_name(p), seen[p]))
        else:
            seen[p] = key

    if len(errors) > n0:
        return None
    config = {
        "schema": SCHEMA,
        "board": name,
        "mcu": mcu.name,
        "levers": lever_pins,
        "buttons": button_pins,
        "buzzer": buzzer_cfg,
        "leds": led_pins,
        "battery": battery_cfg,
        "watchdog_ms": watchdog_ms,
        "i2c": [buses[b] for b in I2C_BUSES if b in buses],
        "displays": display_cfgs,
        "fuel_gauge": gauge_cfg,
    }
    return Profile(name, mcu, description, config)


# ---- `chessclock boards` ------------------------------------------------------------


def add_arguments(p):
    p.add_argument("--file", metavar="TOML", default=None,
                   help="the boards file (default: ./boards.toml, else the checkout's)")
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.add_parser("list", help="list the profiles (the default)")
    s = sub.add_parser("show", help="print a profile's board.json")
    s.add_argument("name", metavar="NAME")
    k = sub.add_parser("check", help="validate a boards file; exit 2 naming each problem")
    k.add_argument("path", metavar="FILE", nargs="?", default=None)


def run(args, stdout, stderr):
    action = args.action or "list"
    path = args.file
    if action == "check" and args.path:
        path = args.path
    try:
        boards = load(path)
        if action == "show":
            stdout.write(boards.get(args.name).to_json())
            return 0
    except BoardsFileError as e:
        for err in e.errors:
            stderr.write("chessclock boards: %s\n" % err)
        return 2
    except BoardError as e:
        stderr.write("chessclock boards: %s\n" % e)
        return 2
    if action == "check":
        stdout.write("%s: ok, %d profiles: %s\n" % (boards.path, len(boards.profiles),
                                                    ", ".join(boards.profiles)))
        return 0
    width = max(len(n) for n in boards.profiles)
    for name, prof in boards.profiles.items():
        stdout.write("%-*s  %-6s  %s\n" % (width, name, prof.mcu.name, prof.description))
    return 0
