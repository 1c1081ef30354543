# MAX17048 fuel gauge for one Li-ion/LiPo cell (micropython-lib style: one module, the I2C
# object injected). The chip powers itself from the cell and estimates the state of charge
# from the cell's voltage with its ModelGauge algorithm, without a sense resistor; it needs
# no set-up: the defaults after its power-on are what this clock uses.
#
# Registers (datasheet, 16 bits, big-endian). Reads go into a preallocated buffer.

from clockcore import const

ADDR = const(0x36)       # fixed 7-bit address
REG_VCELL = const(0x02)  # cell voltage, 78.125 uV (5/64 mV) per bit
REG_SOC = const(0x04)    # state of charge: high byte percent, low byte 1/256 percent
REG_VERSION = const(0x08)


class MAX17048:
    def __init__(self, i2c, addr=ADDR):
        self.i2c = i2c
        self.addr = addr
        self._buf = bytearray(2)

    def _read(self, reg):
        b = self._buf
        self.i2c.readfrom_mem_into(self.addr, reg, b)
        return (b[0] << 8) | b[1]

    def soc_pct(self):
        """State of charge in whole percent, rounded down, 0..100 (the chip may report a
        little over 100 right after a charge)."""
        pct = self._read(REG_SOC) >> 8
        return pct if pct < 100 else 100

    def cell_mv(self):
        """The cell's voltage in millivolts, measured by the chip."""
        return self._read(REG_VCELL) * 5 // 64

    def version(self):
        """The production version (0x001x on a MAX17048): a check that the chip answers."""
        return self._read(REG_VERSION)
