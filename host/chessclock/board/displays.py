"""The display registry: the host's data on each display kind of clockcore.parts.DISPLAYS,
in one place: what validating boards.toml, the wiring, the netlist, the schematic, the BOM
and the battery model need of it. The board's part (driver module and class, bus, pin
keys) is clockcore.parts', read from there; tests/host/test_parts.py fails when a kind there
has no entry here, or one here is not there.

An unknown display type is an UnknownDisplay (a one-line message) wherever it is looked up:
there is no default kind.
"""

from typing import Any

from chessclock.errors import InputError
from clockcore import parts as core


class UnknownDisplay(InputError):
    pass


class DisplayKind:
    """One kind of display module. `signals`: (module pin, key) in the order its cable
    carries them: for a BUS_PINS kind the key is its boards.toml/board.json pin key, for a
    BUS_I2C kind the bus's pin ("sda", "scl")."""

    def __init__(self, name: str, chip: str, geometry: str, module: str,
                 module_pins: tuple[str, ...], signals: tuple[tuple[str, str], ...],
                 pullup_pins: Any, part: tuple[str, str, float], ma: tuple[int, int, int],
                 addrs: tuple[int, ...] = (), notes: str | None = None) -> None:
        if name not in core.DISPLAYS:
            raise UnknownDisplay("chessclock.board.displays: %r has no driver in "
                                 "clockcore.parts.DISPLAYS" % name)
        self.name = name
        self.module, self.cls, self.bus, self.pin_keys = core.DISPLAYS[name]
        self.chip = chip                  # "TM1637": schematic labels, the BOM check's word
        self.geometry = geometry          # digits or pixels, as the wiring names the module
        self.title = "%s %s %s" % (chip, geometry, module)   # the wiring's connector type
        self.module_pins = tuple(module_pins)   # its connector, as wiring.yaml lists them
        self.signals = tuple(signals)
        self.pullup_pins = pullup_pins    # the lines the module pulls up itself (netlist)
        self.part = part                  # BOM: description, typical part number, EUR
        self.ma = ma                      # its current at 3.3 V: low, typical, high case
        self.addrs = tuple(addrs)         # BUS_I2C: the addresses it can answer at
        self.notes = notes                # the wiring's note on the connector, or None

    @property
    def on_i2c(self) -> bool:
        return self.bus == core.BUS_I2C


KINDS = [
    DisplayKind(
        "tm1637", "TM1637", "4-digit 7-segment", "module",
        module_pins=("CLK", "DIO", "VCC", "GND"),
        signals=(("CLK", "clk"), ("DIO", "dio")), pullup_pins="CLK/DIO",
        part=("TM1637 4-digit 7-segment LED module, 0.56 in (14 mm) digits; 0.8 in or "
              "larger reads better at 3 m", "Seeed Grove 4-Digit Display 104030003", 3.50),
        ma=(20, 40, 80),
        notes="VCC from 3V3 (its pull-ups must not lift the MCU's pins above 3.3 V)"),
    DisplayKind(
        "ssd1306", "SSD1306", "128x64", "I2C OLED module",
        module_pins=("GND", "VCC", "SCL", "SDA"),
        signals=(("SCL", "scl"), ("SDA", "sda")), pullup_pins="SDA/SCL",
        part=("SSD1306 128x64 I2C OLED module, 0.96 in (1.3 in if its controller is an "
              "SSD1306, not an SH1106)", "SSD1306 0.96in I2C 4-pin module", 3.50),
        ma=(10, 15, 20),
        addrs=(0x3C, 0x3D)),   # 0x3C as delivered, 0x3D with its address jumper moved
]
DISPLAYS = {k.name: k for k in KINDS}
NAMES = tuple(DISPLAYS)


def get(name: object) -> DisplayKind:
    """The DisplayKind called `name`; UnknownDisplay for any other name."""
    if not isinstance(name, str) or name not in DISPLAYS:
        raise UnknownDisplay("unknown display type %r (known: %s)"
                             % (name, ", ".join(DISPLAYS)))
    return DISPLAYS[name]
