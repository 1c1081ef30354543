# The MAX17048 fuel-gauge driver against a fake I2C bus (CPython and MicroPython).

from drivers.max17048 import MAX17048


class FakeI2C:
    """A MAX17048 at 0x36: 16-bit registers, big-endian."""

    def __init__(self, regs):
        self.regs = regs
        self.reads = 0

    def readfrom_mem_into(self, addr, reg, buf):
        if addr != 0x36:
            raise OSError(19)   # ENODEV: nothing answers there
        self.reads += 1
        v = self.regs[reg]
        buf[0] = v >> 8
        buf[1] = v & 0xFF


def test_state_of_charge_is_whole_percent_rounded_down():
    i2c = FakeI2C({0x04: 0x2D80})        # 45.5 %
    assert MAX17048(i2c).soc_pct() == 45
    i2c.regs[0x04] = 0x0000
    assert MAX17048(i2c).soc_pct() == 0


def test_state_of_charge_over_100_after_a_charge_reads_100():
    assert MAX17048(FakeI2C({0x04: 0x6540})).soc_pct() == 100   # 101.25 %


def test_cell_voltage_and_version():
    g = MAX17048(FakeI2C({0x02: 0xD000, 0x08: 0x0012}))
    assert g.cell_mv() == 4160           # 53248 x 78.125 uV
    assert g.version() == 0x0012


def test_a_missing_chip_raises_oserror_for_the_board_to_handle():
    g = MAX17048(FakeI2C({0x04: 0}), addr=0x37)
    try:
        g.soc_pct()
    except OSError:
        return
    raise AssertionError("no OSError")
