# TM1637 4-digit 7-segment LED driver (micropython-lib style: one module, pins injected).
# The clock's view is drawn on it by clockapp/displays/tm1637.py.
#
# Protocol (TM1637 datasheet): two wires, CLK and DIO, both pulled up on the module. Not
# I2C: no device address, bytes go LSB first. A frame is START (DIO falls while CLK is
# high), bytes, STOP (DIO rises while CLK is high); DIO changes only while CLK is low, the
# chip samples it on the rising edge. After each byte the chip pulls DIO low from the 8th
# falling edge of CLK to the 9th (ACK): the driver releases DIO (input) for that clock, never
# driving it high against the chip, and counts missing ACKs in `nacks` (a display that is
# not there); it never raises.
# One update is three frames: 0x40 (data command: write, auto-increment), 0xC0|pos and the
# segment bytes, 0x88|brightness (display on).
#
# Segments: bit 0..6 = a..g, bit 7 = the dot. On the common 4-digit "clock" module the
# colon is bit 7 of digit 1 and the other dots are not wired; on "decimal" modules each
# digit's bit 7 is its decimal point (so the colon shows as the dot after digit 1).
#
# Pins: machine.Pin-like objects with init(mode), value([v]) and IN / OUT mode constants
# (machine.Pin has them). write() does not allocate.

import time

from clockcore import const


def _no_wait(us):
    pass


sleep_us = getattr(time, "sleep_us", _no_wait)  # CPython (tests): no bus timing to respect

TM1637_CMD_DATA = const(0x40)    # data command: write display data, auto-increment address
TM1637_CMD_ADDR = const(0xC0)    # address command: | digit address 0..5
TM1637_CMD_CTRL = const(0x80)    # display control: | display on | brightness
TM1637_DISPLAY_ON = const(0x08)
TM1637_DELAY_US = const(10)      # half a clock period: about 50 kHz, well inside the spec

SEG_DOT = const(0x80)            # the dot, or the colon (digit 1 on clock modules)

# ASCII -> segments. Letters that 7 segments cannot draw (K M V W X) are blank; upper and
# lower case map to the same shape where only one exists. '*' is the degree sign.
_CHARS = b"0123456789 -_=*'\"?[]AaBbCcDdEeFfGgHhIiJjLlNnOoPpQqRrSsTtUuYyZz"
_CODES = bytes((
    0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F,  # 0-9
    0x00, 0x40, 0x08, 0x48, 0x63, 0x20, 0x22, 0x53, 0x39, 0x0F,  # space - _ = * ' " ? [ ]
    0x77, 0x77, 0x7C, 0x7C, 0x39, 0x58, 0x5E, 0x5E, 0x79, 0x79,  # A a B b C c D d E e
    0x71, 0x71, 0x3D, 0x3D, 0x76, 0x74, 0x30, 0x10, 0x1E, 0x1E,  # F f G g H h I i J j
    0x38, 0x30, 0x54, 0x54, 0x3F, 0x5C, 0x73, 0x73, 0x67, 0x67,  # L l N n O o P p Q q
    0x50, 0x50, 0x6D, 0x6D, 0x78, 0x78, 0x3E, 0x1C, 0x6E, 0x6E,  # R r S s T t U u Y y
    0x5B, 0x5B,                                                  # Z z
))
SEGMENTS = bytearray(128)
for _i in range(len(_CHARS)):
    SEGMENTS[_CHARS[_i]] = _CODES[_i]
del _i


def segment(c):
    """Segments for the ASCII code c (blank for anything not in the table)."""
    return SEGMENTS[c & 0x7F]


class TM1637:
    """One TM1637. clk, dio: Pin-like objects; brightness 0..7.
    frame: what sends one frame (START, n bytes of a bytearray, an ACK clock after each,
    STOP) and returns how many bytes went unacknowledged; by default this class's own
    bit-bang on the two Pin objects. boards/mcu.py gives the RP2040 the same frames at
    register level (drivers/tm1637_rp2.py), whose Python costs ~70 us a bit here."""

    def __init__(self, clk, dio, brightness=7, delay_us=TM1637_DELAY_US, frame=None):
        self.clk = clk
        self.dio = dio
        self._in = dio.IN
        self._out = dio.OUT
        self._delay = delay_us
        self._brightness = 7 if brightness > 7 else (0 if brightness < 0 else brightness)
        self.nacks = 0  # bytes the chip did not acknowledge (no display, bad wiring)
        self._frame = frame if frame is not None else self._pin_frame
        self._buf = bytearray(7)  # a frame being sent: the address command and 6 digits
        # Idle bus: both lines high (set the level before driving, so no glitch).
        clk.value(1)
        dio.value(1)
        clk.init(clk.OUT)
        dio.init(self._out)
        self._command(TM1637_CMD_DATA)
        self._command(TM1637_CMD_CTRL | TM1637_DISPLAY_ON | self._brightness)

    # ---- bus -------------------------------------------------------------------------
    def _send(self, n):
        missing = self._frame(self._buf, n)
        if missing and self.nacks < 0x3FFFFFF:
            self.nacks += missing

    def _pin_frame(self, buf, n):
        self._start()
        missing = 0
        i = 0
        while i < n:
            missing += self._byte(buf[i])
            i += 1
        self._stop()
        return missing

    def _start(self):
        # from idle (CLK high, DIO high): DIO falls while CLK is high, then CLK low
        self.dio.value(0)
        sleep_us(self._delay)
        self.clk.value(0)
        sleep_us(self._delay)

    def _stop(self):
        # CLK is low: DIO low, CLK high, then DIO rises while CLK is high
        self.dio.value(0)
        sleep_us(self._delay)
        self.clk.value(1)
        sleep_us(self._delay)
        self.dio.value(1)
        sleep_us(self._delay)

    def _byte(self, b):
        """One byte and its ACK clock; 1 if the chip did not acknowledge it."""
        # Locals: each attribute lookup is a few us of bytecode on the M0+, and a bit here
        # costs ~70 us on the emulated RP2040 (the bus, not the chip, sets the pace).
        dio = self.dio
        clk = self.clk
        d = self._delay
        i = 0
        while i < 8:  # LSB first; DIO set while CLK is low, sampled on the rising edge
            dio.value(b & 1)
            sleep_us(d)
            clk.value(1)
            sleep_us(d)
            if i == 7:
                # Let go of DIO before the 8th falling edge, from which the chip pulls it
                # low (ACK). A last bit high: now (the pull-up keeps the line high, so this
                # is no STOP); a last bit low: only after that edge (released now, the line
                # would rise while CLK is high: a STOP).
                if b & 1:
                    dio.init(self._in)
                    clk.value(0)
                else:
                    clk.value(0)
                    dio.init(self._in)
            else:
                clk.value(0)
            b >>= 1
            i += 1
        sleep_us(d)
        clk.value(1)
        sleep_us(d)
        missing = 1 if dio.value() else 0
        clk.value(0)
        sleep_us(d)
        dio.value(0)  # drive low again (CLK is low, so this is no condition)
        dio.init(self._out)
        return missing

    def _command(self, cmd):
        self._buf[0] = cmd
        self._send(1)

    # ---- API -------------------------------------------------------------------------
    def write(self, segments, pos=0, n=-1, setup=True):
        """Write n (all: -1) segment bytes of bytearray `segments` from digit `pos` on.
        setup=False sends the address frame alone: the chip keeps the data command and
        the display control from the last write (datasheet: "command or data transferred
        before remain effective"), so a write in a hurry costs 5 bytes on the wire, not 7."""
        if setup:
            self._command(TM1637_CMD_DATA)
        if n < 0:
            n = len(segments)
        if n > 6:
            n = 6
        buf = self._buf
        buf[0] = TM1637_CMD_ADDR | (pos & 7)
        i = 0
        while i < n:
            buf[i + 1] = segments[i]
            i += 1
        self._send(n + 1)
        if setup:
            self._command(TM1637_CMD_CTRL | TM1637_DISPLAY_ON | self._brightness)

    def brightness(self, v=None):
        """Set brightness 0..7 (0 is dim, not off); with no argument, return it."""
        if v is None:
            return self._brightness
        self._brightness = 7 if v > 7 else (0 if v < 0 else v)
        self._command(TM1637_CMD_CTRL | TM1637_DISPLAY_ON | self._brightness)
