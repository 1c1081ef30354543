# The kinds of parts a board is built from, in the one place both sides import: the board
# (boards/mcu.py) for what it needs to drive them, the host (chessclock.parts: validation,
# wiring, BOM, current draw) for the names it knows and the wiring the board expects.
# The host keys its own data on each kind by these names, and a test fails when a kind here
# has none there (tests/host/test_parts.py). A new display or MCU starts here
# (docs/EXTENDING.md).
#
# Plain dicts of tuples and strings: a few hundred bytes on the board, no classes.

BUS_PINS = "pins"   # on its own GPIOs, driven as outputs: driver(Pin(d[k]), ...) for k in keys
BUS_I2C = "i2c"     # on a hardware I2C bus of board.json's "i2c": driver(i2c, d["addr"])

# display type (boards.toml / board.json "type") -> (display module, its display class,
# bus, the board.json keys of its pins in the constructor's order (BUS_PINS only))
DISPLAYS = {
    "tm1637": ("clockapp.displays.tm1637", "TM1637Display", BUS_PINS, ("clk", "dio")),
    "ssd1306": ("clockapp.displays.ssd1306", "SSD1306Display", BUS_I2C, ()),
}
# display type -> {sys.platform: (module, class)}: the display's pin bus at register level on
# that port, made with its pins' GPIO numbers (the keys' order above); the driver is given
# its `frame` (BUS_PINS only). The RP2040's TM1637 frames in viper: ~10x the Python's pace.
PIN_FRAMES = {
    "tm1637": {"rp2": ("drivers.tm1637_rp2", "Rp2Frames")},
}

# MCU (boards.toml / board.json "mcu") -> (MicroPython's sys.platform on it, whether its pin
# IRQs can be hard (Pin.irq(hard=True)), whether its ADC is read calibrated at 11 dB
# attenuation (read_uv(), range about 0.15..2.45 V) rather than read_u16() against 3.3 V),
# whether the serial link's code is loaded at boot: where the heap has room for it (the
# RP2040's 245 KB), loading it at a host's first byte would hold one pass for the import
# (~230 ms measured on the emulated Pico: a press in that pass waits); the ESP32's heap is
# the tightest (docs/FIRMWARE.md, "Images and deploying"), so a clock with no host there
# does not carry it.
MCUS = {
    "rp2040": ("rp2", True, False, True),
    "esp32": ("esp32", False, True, False),
}
