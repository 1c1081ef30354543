"""Per-MCU data in one place: what each MCU's pins can do (boards.toml's validation, in
the manner of esptool's per-chip classes), and the board it comes on (header, power pins,
BOM line, current draw, regulator: hardware/). The board side of an MCU (its MicroPython
port, hard IRQs, ADC) is in clockcore.parts, which MCUS here must match
(tests/host/test_parts.py).
"""

from typing import Any

from chessclock.errors import InputError
from clockcore import parts as core

ROLE_INPUT = "input"      # a switch to GND read with the internal pull-up (levers, buttons)
ROLE_PWM = "pwm"          # a PWM output (buzzer)
ROLE_ADC = "adc"          # an analog input (battery)
ROLE_IO = "io"            # a driven line with an external pull-up (TM1637 CLK/DIO, I2C)
ROLE_OUT = "out"          # a plain push-pull output with a load to GND (running-side LEDs)
ROLES = (ROLE_INPUT, ROLE_PWM, ROLE_ADC, ROLE_IO, ROLE_OUT)


class UnknownMcu(InputError):
    pass


class Mcu:
    """One MCU as broken out on its usual board: its pins' capabilities (boards.toml's
    validation), the board's header and power pins, part and current draw (hardware/).
    Subclasses fill in the sets; pin_problem() says why a pin cannot take a role, or
    returns None."""

    name = "?"
    mpy_arch = "?"          # mpy-cross -march
    adc_full_mv = 3300      # pin millivolts at read_u16() == 65535
    watchdog_max_ms = 8388
    i2c_ids = (0, 1)
    # the board it comes on (hardware/: wiring, BOM, battery model)
    board_type = "?"        # the wiring's MCU connector, the BOM's board
    board_subtype = "?"
    header: dict = {}       # GPIO -> header position (every pin boards.toml may choose)
    power: dict = {}        # "GND", "3V3", the supply input -> header positions
    vin = "?"               # the supply input the battery feeds
    part = ("?", "?", 0.0)  # BOM: description, typical part number, approx. EUR
    board_ma = (0, 0, 0)    # the board's own current at 3.3 V: low, typical, high case

    @property
    def port(self) -> Any:
        """MicroPython's sys.platform on it (clockcore.parts, which the board checks)."""
        return core.MCUS[self.name][0]

    def pin_name(self, pin: int) -> str:
        return "GPIO%d" % pin

    def battery_ma(self, load_ma: float, battery_mv: int) -> float:
        """The battery current for `load_ma` at 3.3 V, the battery at `battery_mv`."""
        raise NotImplementedError

    def pin_problem(self, pin: int, role: str) -> str | None:
        raise NotImplementedError

    def i2c_problem(self, bus_id: int, sda: int, scl: int) -> str | None:
        """Why `sda`/`scl` cannot be hardware I2C bus `bus_id`, or None."""
        return None


class Rp2040(Mcu):
    """Raspberry Pi Pico: every GPIO has a pull-up and PWM; ADC on GP26..GP28 only;
    GP23..GP25 and GP29 are used on the board and not on the header."""

    name = "rp2040"
    mpy_arch = "armv6m"
    adc_full_mv = 3300           # ADC_VREF is the 3.3 V rail on the Pico
    watchdog_max_ms = 8388       # the RP2040 watchdog counter limit (MicroPython clamps)
    on_board = {23: "the SMPS power-save control", 24: "VBUS sense", 25: "the LED",
                29: "the VSYS/3 sense"}
    adc = frozenset((26, 27, 28))
    board_type = "Raspberry Pi Pico"
    board_subtype = "RP2040, pins: header pin numbers"
    # GPIO -> header pin (1..40), and the power pins
    header = dict(zip(list(range(0, 23)) + [26, 27, 28],
                      [1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22,
                       24, 25, 26, 27, 29, 31, 32, 34], strict=True))
    power = {"GND": [3, 8, 13, 18, 23, 28, 38], "3V3": [36], "VSYS": [39]}
    vin = "VSYS"
    part = ("Raspberry Pi Pico (RP2040), with header pins", "SC0915", 4.50)
    board_ma = (20, 25, 30)
    buck_boost_eff = 0.85        # the Pico's RT6150 from VSYS to 3.3 V

    def pin_name(self, pin: int) -> str:
        return "GP%d" % pin

    def battery_ma(self, load_ma: float, battery_mv: int) -> float:
        # switching regulator: the battery gives the power, at its voltage
        return load_ma * 3.3 / (battery_mv / 1000 * self.buck_boost_eff)

    def pin_problem(self, pin: int, role: str) -> str | None:
        if pin in self.on_board:
            return "%s is used on the Pico board (%s) and is not on the header" % (
                self.pin_name(pin), self.on_board[pin])
        if pin not in self.header:
            return "%s does not exist on the Pico (GP0..GP22, GP26..GP28)" % self.pin_name(pin)
        if role == ROLE_ADC and pin not in self.adc:
            return "%s has no ADC (the RP2040's ADC is on GP26..GP28 only)" % self.pin_name(pin)
        return None

    def i2c_problem(self, bus_id: int, sda: int, scl: int) -> str | None:
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
    mpy_arch = "xtensawin"
    adc_full_mv = 2450           # ATTN_11DB (clockcore.parts): calibrated up to about 2.45 V
    watchdog_max_ms = 60_000
    board_type = "ESP32-DevKitC V4"
    board_subtype = "ESP32-WROOM-32E/WROVER-E, pins: header J2/J3 positions"
    # GPIO -> header position (J2 = the 3V3 side, J3 = the GND/IO23 side)
    header = {36: "J2-3", 39: "J2-4", 34: "J2-5", 35: "J2-6", 32: "J2-7", 33: "J2-8",
              25: "J2-9", 26: "J2-10", 27: "J2-11", 14: "J2-12", 12: "J2-13", 13: "J2-15",
              23: "J3-2", 22: "J3-3", 1: "J3-4", 3: "J3-5", 21: "J3-6", 19: "J3-8",
              18: "J3-9", 5: "J3-10", 17: "J3-11", 16: "J3-12", 4: "J3-13", 0: "J3-14",
              2: "J3-15", 15: "J3-16"}
    power = {"GND": ["J2-14", "J3-1", "J3-7"], "3V3": ["J2-1"], "5V": ["J2-19"]}
    vin = "5V"
    part = ("ESP32-DevKitC V4 (ESP32-WROOM-32E)", "ESP32-DEVKITC-32E", 9.50)
    board_ma = (40, 60, 80)
    exists = frozenset(list(range(0, 20)) + [21, 22, 23, 25, 26, 27] + list(range(32, 40)))
    not_on_header = frozenset((37, 38))  # SENSOR_CAPP/CAPN: on the chip, not the DevKitC
    flash = frozenset(range(6, 12))
    uart0 = frozenset((1, 3))
    strapping = frozenset((0, 2, 5, 12, 15))
    input_only = frozenset(range(34, 40))
    adc1 = frozenset(range(32, 40))
    adc2 = frozenset((0, 2, 4, 12, 13, 14, 15, 25, 26, 27))

    def battery_ma(self, load_ma: float, battery_mv: int) -> float:
        return load_ma + 5       # AMS1117: linear, ~5 mA of its own

    def pin_problem(self, pin: int, role: str) -> str | None:
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


def get(name: str) -> Any:
    """The Mcu called `name`; UnknownMcu (a one-line message) for any other name."""
    if not isinstance(name, str) or name not in MCUS:
        raise UnknownMcu("unknown MCU %r (known: %s)" % (name, ", ".join(MCUS)))
    return MCUS[name]
