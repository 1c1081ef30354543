# The TM1637 bus on the RP2040 at register level: drivers/tm1637.py's frames (the same
# bits, edges and ACK handling as its Python bit-bang on two Pins), sent by a viper function
# that writes the SIO registers and times each half clock on the 1 MHz timer. In Python a
# bit costs ~70 us on the M0+ (five method calls and two sleeps): a whole write of 7 bytes
# took ~4.5 ms, a press's short write 2-3 ms. Here a bit is 2 x HALF_US (5 us: 100 kHz,
# under the datasheet's 250 kHz with room to spare; both lines driven, DIO released only
# for the ACK) and a byte ~0.1 ms.
#
# RP2040 only (register addresses: RP2040 datasheet 2.3.1.7 SIO, 4.6.5 TIMER). Compiled by
# mpy-cross -march=armv6m (chessclock build; make mpy); never imported on other ports.
# The pins are set up as SIO outputs by machine.Pin (TM1637's constructor) before the
# first frame. A hard IRQ may come between two edges: it only stretches a half clock.

import micropython

from clockcore import const

HALF_US = const(5)               # half a clock period (tests/rp2040/board.mjs checks >= 2)

_SIO_BASE = const(0xD0000000)
_TIMERAWL = const(0x40054028)    # the timer's low word, us
# SIO registers, as ptr32 indexes (offset / 4)
_GPIO_IN = const(1)              # 0x004
_GPIO_OUT_SET = const(5)         # 0x014
_GPIO_OUT_CLR = const(6)         # 0x018
_GPIO_OE_SET = const(9)          # 0x024: drive the pin
_GPIO_OE_CLR = const(10)         # 0x028: release it (an input: the module's pull-up)


@micropython.viper
def _frame(buf, n: int, clk: int, dio: int, half: int) -> int:
    """START, n bytes of buf LSB first with an ACK clock after each, STOP; clk and dio are
    pin masks. Returns how many bytes went unacknowledged."""
    sio = ptr32(_SIO_BASE)  # noqa: F821  (viper's pointer types are builtins there)
    tm = ptr32(_TIMERAWL)  # noqa: F821
    b = ptr8(buf)  # noqa: F821
    missing = 0
    # START, from idle (both high): DIO falls while CLK is high, then CLK low
    sio[_GPIO_OUT_CLR] = dio
    t0 = tm[0]
    while tm[0] - t0 < half:
        pass
    sio[_GPIO_OUT_CLR] = clk
    t0 = tm[0]
    while tm[0] - t0 < half:
        pass
    i = 0
    while i < n:
        v = b[i]
        k = 0
        while k < 8:   # DIO set while CLK is low, sampled by the chip on the rising edge
            if v & 1:
                sio[_GPIO_OUT_SET] = dio
            else:
                sio[_GPIO_OUT_CLR] = dio
            t0 = tm[0]
            while tm[0] - t0 < half:
                pass
            sio[_GPIO_OUT_SET] = clk
            t0 = tm[0]
            while tm[0] - t0 < half:
                pass
            if k == 7:
                # DIO let go before the 8th falling edge, from which the chip pulls it low
                # (ACK): a last bit high now, a last bit low only after that edge (released
                # while CLK is high, the line would rise: a STOP). As tm1637.TM1637._byte.
                if v & 1:
                    sio[_GPIO_OE_CLR] = dio
                    sio[_GPIO_OUT_CLR] = clk
                else:
                    sio[_GPIO_OUT_CLR] = clk
                    sio[_GPIO_OE_CLR] = dio
            else:
                sio[_GPIO_OUT_CLR] = clk
            v = v >> 1
            k += 1
        # the ACK clock: the chip holds DIO low while CLK is high
        t0 = tm[0]
        while tm[0] - t0 < half:
            pass
        sio[_GPIO_OUT_SET] = clk
        t0 = tm[0]
        while tm[0] - t0 < half:
            pass
        if sio[_GPIO_IN] & dio:
            missing += 1
        sio[_GPIO_OUT_CLR] = clk
        t0 = tm[0]
        while tm[0] - t0 < half:
            pass
        sio[_GPIO_OUT_CLR] = dio   # low again before it is driven (CLK low: no condition)
        sio[_GPIO_OE_SET] = dio
        i += 1
    # STOP: CLK is low; DIO low, CLK high, then DIO rises while CLK is high
    sio[_GPIO_OUT_CLR] = dio
    t0 = tm[0]
    while tm[0] - t0 < half:
        pass
    sio[_GPIO_OUT_SET] = clk
    t0 = tm[0]
    while tm[0] - t0 < half:
        pass
    sio[_GPIO_OUT_SET] = dio
    t0 = tm[0]
    while tm[0] - t0 < half:
        pass
    return missing


class Rp2Frames:
    """TM1637(frame=Rp2Frames(clk_gpio, dio_gpio).frame): GPIO numbers (clockcore.parts
    PIN_FRAMES: boards/mcu.py makes it)."""

    def __init__(self, clk, dio, delay_us=HALF_US):
        self._clk = 1 << clk
        self._dio = 1 << dio
        self._half = delay_us

    def frame(self, buf, n):
        return _frame(buf, n, self._clk, self._dio, self._half)
