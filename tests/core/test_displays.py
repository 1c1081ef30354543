# The display drivers against simulated hardware: a TM1637 on two fake pins (the bit-banged
# wire decoded back into frames of bytes) and an SSD1306 behind a fake I2C bus (commands
# and data applied to a model of the controller's RAM, then read back as pixels).
# Runs under pytest and under the MicroPython unix port (tests/mp_run.py).

import sys

from check import raises

from clockapp.displays import ssd1306 as S
from clockapp.displays import tm1637 as T
from clockapp.view import FLAG_FIRST, FLAG_SECOND, SideView
from drivers import ssd1306 as SD
from drivers import tm1637 as TD

# ---- TM1637 on fake pins ------------------------------------------------------------


class Bus:
    """Two wires with pull-ups and a TM1637 on them. Decodes START/STOP, LSB-first bytes and
    the ACK clock; records protocol errors instead of raising (checked by the tests)."""

    def __init__(self, chip=True):
        self.chip = chip          # False: nothing acknowledges
        self.clk = 1
        self.latch = {"clk": 1, "dio": 1}
        self.out = {"clk": False, "dio": False}
        self.chip_low = False     # the chip pulls DIO low (ACK)
        self.frames = []
        self.cur = None
        self.byte = 0
        self.nbits = 0
        self.ack_phase = False
        self.errors = []
        self.ops = 0

    def dio(self):
        if self.chip_low:
            return 0
        if self.out["dio"]:
            return self.latch["dio"]
        return 1  # pull-up

    def _clk_level(self):
        return self.latch["clk"] if self.out["clk"] else 1

    def _check(self):
        if self.chip_low and self.out["dio"] and self.latch["dio"]:
            self.errors.append("DIO driven high during ACK")

    def _after(self, old_clk, old_dio):
        clk = self._clk_level()
        dio = self.dio()
        if clk == old_clk and dio != old_dio and clk == 1:
            if dio == 0:  # START
                if self.cur is not None:
                    self.errors.append("START inside a frame")
                self.cur = []
                self.nbits = 0
                self.byte = 0
            else:  # STOP
                if self.cur is not None:
                    # the STOP's own clock pulse (DIO low) is the only bit allowed here
                    if self.ack_phase or self.nbits > 1 or self.byte:
                        self.errors.append("STOP inside a byte")
                    self.frames.append(self.cur)
                self.cur = None
        elif clk != old_clk and self.cur is not None:
            if clk == 1 and not self.ack_phase:
                self.byte |= dio << self.nbits
                self.nbits += 1
            elif clk == 0:
                if self.ack_phase:
                    self.ack_phase = False
                    self.chip_low = False
                elif self.nbits == 8:
                    self.cur.append(self.byte)
                    self.byte = 0
                    self.nbits = 0
                    self.ack_phase = True
                    self.chip_low = self.chip
        self._check()

    def set(self, name, v):
        self.ops += 1
        old = (self._clk_level(), self.dio())
        self.latch[name] = 1 if v else 0
        self._after(old[0], old[1])

    def mode(self, name, out):
        self.ops += 1
        old = (self._clk_level(), self.dio())
        self.out[name] = out
        self._after(old[0], old[1])

    def read(self, name):
        return self.dio() if name == "dio" else self._clk_level()

    def digits(self):
        """The chip's first 4 digits after the frames so far (auto-increment writes)."""
        mem = [0] * 6
        for f in self.frames:
            if f and f[0] & 0xC0 == 0xC0:
                a = f[0] & 7
                for b in f[1:]:
                    if a < 6:
                        mem[a] = b
                    a += 1
        return mem[:4]


class FakePin:
    IN = 0
    OUT = 1

    def __init__(self, bus, name):
        self.bus = bus
        self.name = name

    def init(self, mode):
        self.bus.mode(self.name, mode == FakePin.OUT)

    def value(self, v=None):
        if v is None:
            return self.bus.read(self.name)
        self.bus.set(self.name, v)


def tm_display(dots=False, chip=True):
    bus = Bus(chip)
    d = T.TM1637Display(FakePin(bus, "clk"), FakePin(bus, "dio"), dots=dots)
    return bus, d


_V = SideView()


def view(time=b"    4:59", **kw):
    """The one view the displays in a test draw (a display redraws on a new version, so
    it keeps a single SideView, as in the app), set to defaults, then time and fields."""
    v = _V
    d = SideView()
    for k in ("text_on", "running", "flag", "delay_ds", "periods", "moves", "stage",
              "stage_passed", "paused", "battery_low", "alert", "white", "test", "moment",
              "idle", "pair", "ctl", "inc_ms", "inc_kind", "cycle"):
        setattr(v, k, getattr(d, k))
    v.text[:] = d.text
    v.time[:] = time
    for k in kw:
        if k == "text":
            v.text[:] = kw[k]
        else:
            setattr(v, k, kw[k])
    v.touch()
    return v


def shown(bus, d, v):
    """Render v; the segment bytes written (None: nothing was sent)."""
    n = len(bus.frames)
    d.render(v)
    new = bus.frames[n:]
    assert bus.errors == [], bus.errors
    if not new:
        return None
    if len(new) == 1:   # a short write (the waiting side): the address frame alone
        a = new[0][0]
        assert a & 0xF8 == 0xC0 and 1 < len(new[0]) <= 5 - (a & 7), new
    else:
        assert len(new) == 3, new
        assert new[0] == [0x40]                    # data command: write, auto-increment
        assert new[1][0] == 0xC0 and len(new[1]) == 5  # address 0, then four digits
        assert new[2] == [0x88 | 7]                # display on, brightness 7
    return bus.digits()


def test_tm1637_init_frames_and_clear():
    bus, d = tm_display()
    assert bus.errors == []
    assert bus.frames == [[0x40], [0x8F], [0x40], [0xC0, 0, 0, 0, 0], [0x8F]]
    assert d.tm.nacks == 0
    assert bus.cur is None and bus.dio() == 1 and bus._clk_level() == 1  # idle


def test_tm1637_write_brightness_and_missing_chip():
    bus, d = tm_display()
    tm = d.tm
    tm.write(bytearray(b"\x01\x80\xff"), 2)
    assert bus.frames[-3:] == [[0x40], [0xC2, 0x01, 0x80, 0xFF], [0x8F]]
    tm.brightness(3)
    assert bus.frames[-1] == [0x8B]
    assert tm.brightness() == 3
    tm.brightness(9)
    assert bus.frames[-1] == [0x8F]
    assert bus.errors == []
    bus, d = tm_display(chip=False)
    assert d.tm.nacks == 9  # every byte of the init and the clear: no exception
    assert TD.segment(ord("8")) == 0x7F and TD.segment(ord("K")) == 0


def test_tm1637_waiting_side_writes_only_the_changed_digits_without_set_up():
    # A press in a running game: the side that pressed now waits, and its time (with the
    # increment) goes out first and short: the address frame alone, from the first digit
    # that changed to the last. Its next turn (running) writes the whole module again,
    # set-up frames included.
    bus, d = tm_display()
    assert shown(bus, d, view(b"    2:31", running=True, idle=False)) == [
        0x00, 0x5B, 0x4F, 0x06]                         # 2 31, colon off (odd second)
    n = len(bus.frames)
    d.render(view(b"    2:33", idle=False))              # waits: 2:33, colon steady
    assert bus.errors == []
    assert bus.frames[n:] == [[0xC1, 0x5B | 0x80, 0x4F, 0x4F]], bus.frames[n:]
    n = len(bus.frames)
    d.render(view(b"    2:33", idle=False))              # nothing changed: nothing sent
    assert bus.frames[n:] == []
    d.render(view(b"    2:13", idle=False))              # one digit: one byte
    assert bus.frames[n:] == [[0xC2, 0x06]], bus.frames[n:]
    # its turn again: everything, with the set-up
    assert shown(bus, d, view(b"    2:12", running=True, idle=False)) == [
        0x00, 0x5B | 0x80, 0x06, 0x5B]
    # paused, flag, menu text: whole writes too
    assert shown(bus, d, view(b"    2:12", paused=True, idle=False)) is None
    assert shown(bus, d, view(b"    2:11", paused=True, idle=False)) == [
        0x00, 0x5B | 0x80, 0x06, 0x06]
    assert shown(bus, d, view(b"    0:00", flag=FLAG_FIRST, idle=False))[0] == 0x71
    assert d.tm.nacks == 0


def test_tm1637_minutes_seconds_and_colon():
    bus, d = tm_display()
    assert shown(bus, d, view(b"    4:59")) == [0x00, 0x66 | 0x80, 0x6D, 0x6F]
    assert shown(bus, d, view(b"   59:59")) == [0x6D, 0x6F | 0x80, 0x6D, 0x6F]
    assert shown(bus, d, view(b" 1:29:59")) == [0x00, 0x06 | 0x80, 0x5B, 0x6F]  # h:mm
    assert shown(bus, d, view(b"12:34:56")) == [0x06, 0x5B | 0x80, 0x4F, 0x66]


def test_tm1637_running_side_blinks_its_colon():
    bus, d = tm_display()
    assert shown(bus, d, view(b"    4:59", running=True)) == [0x00, 0x66, 0x6D, 0x6F]
    assert shown(bus, d, view(b"    4:58", running=True)) == [0x00, 0x66 | 0x80, 0x6D, 0x7F]
    assert shown(bus, d, view(b" 1:29:59", running=True)) == [0x00, 0x06, 0x5B, 0x6F]
    # paused: steady
    assert shown(bus, d, view(b"    4:59", running=True, paused=True)) == [
        0x00, 0x66 | 0x80, 0x6D, 0x6F]


def test_tm1637_tenths():
    bus, d = tm_display(dots=True)
    assert shown(bus, d, view(b"    19.9")) == [0x00, 0x06, 0x6F | 0x80, 0x6F]
    assert shown(bus, d, view(b"     0.1")) == [0x00, 0x00, 0x3F | 0x80, 0x06]
    bus, d = tm_display(dots=False)  # colon only: whole seconds rounded up, as 0:ss
    assert shown(bus, d, view(b"    19.9")) == [0x00, 0x3F | 0x80, 0x5B, 0x3F]  # 0:20
    assert shown(bus, d, view(b"    19.0")) == [0x00, 0x3F | 0x80, 0x06, 0x6F]  # 0:19
    assert shown(bus, d, view(b"     0.1", running=True)) == [0x00, 0x3F, 0x3F, 0x06]  # 0:01
    assert shown(bus, d, view(b"     0.0")) == [0x00, 0x3F | 0x80, 0x3F, 0x3F]  # 0:00


def test_tm1637_flag_and_text():
    bus, d = tm_display()
    assert shown(bus, d, view(b"     0.0", flag=FLAG_FIRST)) == [0x71, 0x3F | 0x80, 0x3F, 0x3F]
    assert shown(bus, d, view(b"    0:00", flag=FLAG_SECOND)) is None  # same segments
    assert shown(bus, d, view(b"    0:00", text_on=True, text=b"    PLAY")) == [
        0x73, 0x38, 0x77, 0x6E]
    assert shown(bus, d, view(text_on=True, text=b"   88-*b")) == [0x7F, 0x40, 0x63, 0x7C]


def test_tm1637_menu_values_read_right_on_four_digits():
    # The menus write 8 characters for every display; the module shows what it can of
    # them without misreading: a ':' is its colon, not a digit's place (the arbiter's tImE
    # of 13:52 read "3 52"); a number's unit is left out (an increment "+3s" read "35",
    # 's' being a 5); the editing '*' before a 4-letter item, cut off, lights the colon.
    bus, d = tm_display()
    assert shown(bus, d, view(text_on=True, text=b"   13:52")) == [0x06, 0x4F | 0x80, 0x6D, 0x5B]
    assert shown(bus, d, view(text_on=True, text=b"    3:52")) == [0x00, 0x4F | 0x80, 0x6D, 0x5B]
    assert shown(bus, d, view(text_on=True, text=b"   90:00")) == [0x6F, 0x3F | 0x80, 0x3F, 0x3F]
    assert shown(bus, d, view(text_on=True, text=b"     +3s")) == [0x00, 0x00, 0x00, 0x4F]
    assert shown(bus, d, view(text_on=True, text=b"    +10s")) == [0x00, 0x00, 0x06, 0x3F]
    assert shown(bus, d, view(text_on=True, text=b"      7m")) == [0x00, 0x00, 0x00, 0x07]
    assert shown(bus, d, view(text_on=True, text=b"    PrSt")) == [0x73, 0x50, 0x6D, 0x78]
    assert shown(bus, d, view(text_on=True, text=b"   *PrSt")) == [0x73, 0x50 | 0x80, 0x6D, 0x78]
    # what fits is drawn as before: the '*' of a shorter item, words ending in S
    assert shown(bus, d, view(text_on=True, text=b"    *SEt")) == [0x63, 0x6D, 0x79, 0x78]
    assert shown(bus, d, view(text_on=True, text=b"    SEcS")) == [0x6D, 0x79, 0x58, 0x6D]
    assert shown(bus, d, view(text_on=True, text=b"     1-0")) == [0x00, 0x06, 0x40, 0x3F]


def test_tm1637_low_battery():
    bus, d = tm_display()
    # the alert moment: "bAtt" instead of the time
    assert shown(bus, d, view(b"    4:59", battery_low=True, alert=True)) == [
        0x7C, 0x77, 0x78, 0x78]
    # between alerts the time, unmarked on the colon-only clock module
    assert shown(bus, d, view(b"    4:59", battery_low=True)) == [0x00, 0x66 | 0x80, 0x6D, 0x6F]
    bus, d = tm_display(dots=True)
    # a module with dots marks it on the last digit, the time still whole
    assert shown(bus, d, view(b"    4:59", battery_low=True, running=True)) == [
        0x00, 0x66, 0x6D, 0x6F | 0x80]
    assert shown(bus, d, view(b"    19.9", battery_low=True)) == [0x00, 0x06, 0x6F | 0x80, 0xEF]
    # an alert without low battery (never set so by the app) changes nothing
    assert shown(bus, d, view(b"    19.9", alert=True)) == [0x00, 0x06, 0x6F | 0x80, 0x6F]


def test_tm1637_no_traffic_without_change():
    bus, d = tm_display()
    v = view(b"    4:59")
    shown(bus, d, v)
    ops = bus.ops
    d.render(v)       # same version
    assert bus.ops == ops
    v.touch()         # new version, same segments
    d.render(v)
    assert bus.ops == ops
    v.moves = 12      # not shown on 4 digits
    v.touch()
    d.render(v)
    assert bus.ops == ops


def test_tm1637_display_takes_pin_numbers():
    bus = Bus()
    made = []

    class Pin:
        IN = 0
        OUT = 1

        def __init__(self, n, mode):
            made.append((n, mode))
            self.p = FakePin(bus, "clk" if n == 5 else "dio")

        def init(self, mode):
            self.p.init(mode)

        def value(self, v=None):
            return self.p.value(v)

    class Machine:
        pass

    machine = Machine()
    machine.Pin = Pin
    old = sys.modules.get("machine")
    sys.modules["machine"] = machine
    try:
        d = T.TM1637Display(5, 6)
    finally:
        if old is None:
            del sys.modules["machine"]
        else:
            sys.modules["machine"] = old
    assert made == [(5, Pin.OUT), (6, Pin.OUT)]
    if old is None:  # no machine.Pin here: pin numbers fail at once, not later
        raises((ImportError, AttributeError), T.TM1637Display, 5, 6)
    assert bus.frames[-2] == [0xC0, 0, 0, 0, 0] and bus.errors == []
    assert shown(bus, d, view(b"    4:59")) == [0x00, 0x66 | 0x80, 0x6D, 0x6F]


# ---- SSD1306 behind a fake I2C ------------------------------------------------------

_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
         0xDA: 1, 0xDB: 1}


class FakeI2C:
    """An SSD1306 at `addr`: applies command streams (control byte 0x00) and data (0x40)
    in horizontal or vertical addressing to its RAM, as the controller does."""

    def __init__(self, addr=0x3C):
        self.addr = addr
        self.ram = bytearray(1024)
        self.ram[0] = 0x5A  # power-on RAM is garbage
        self.ram[1000] = 0xA5
        self.cmds = []       # every command with its arguments, as tuples
        self.windows = []    # (col0, col1, page0, page1) of each data write
        self.writes = 0
        self.data_bytes = 0
        self.on = False
        self.c0, self.c1, self.p0, self.p1 = 0, 127, 0, 7
        self.col, self.page = 0, 0
        self.mode = 2        # page addressing after reset: the driver must set its own

    def writeto(self, addr, buf):
        assert addr == self.addr
        self.writes += 1
        b = bytes(buf)
        if b[0] == 0x00:
            i = 1
            while i < len(b):
                c = b[i]
                n = _ARGS.get(c, 0)
                args = b[i + 1:i + 1 + n]
                assert len(args) == n, "command 0x%02x cut short" % c
                self.cmds.append((c,) + tuple(args))
                self._command(c, args)
                i += 1 + n
        elif b[0] == 0x40:
            self.windows.append((self.c0, self.c1, self.p0, self.p1))
            assert self.mode in (0, 1), "horizontal or vertical addressing expected"
            for v in b[1:]:
                self.ram[self.page * 128 + self.col] = v
                self.data_bytes += 1
                if self.mode == 0:       # column after column, then the next page
                    self.col += 1
                    if self.col > self.c1:
                        self.col = self.c0
                        self.page += 1
                        if self.page > self.p1:
                            self.page = self.p0
                else:                    # page after page, then the next column
                    self.page += 1
                    if self.page > self.p1:
                        self.page = self.p0
                        self.col += 1
                        if self.col > self.c1:
                            self.col = self.c0
        else:
            raise AssertionError("control byte 0x%02x" % b[0])

    def _command(self, c, args):
        if c == 0x20:
            self.mode = args[0]
        elif c == 0x21:
            self.c0, self.c1 = args[0], args[1]
            self.col = self.c0
        elif c == 0x22:
            self.p0, self.p1 = args[0], args[1]
            self.page = self.p0
        elif c == 0xAF:
            self.on = True
        elif c == 0xAE:
            self.on = False

    def pixel(self, x, y):
        return (self.ram[(y >> 3) * 128 + x] >> (y & 7)) & 1

    def lit(self, x, y, w, h):
        n = 0
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                n += self.pixel(xx, yy)
        return n


def oled(**kw):
    bus = FakeI2C()
    d = S.SSD1306Display(bus)
    return bus, d


def draw(bus, d, v):
    """Render; the panel must then hold exactly the framebuffer."""
    d.render(v)
    assert bus.ram == d.oled.buffer
    return bus


def read_text(bus, x, y, n):
    """Decode n characters of the small font drawn page-aligned at x, y."""
    out = bytearray(n)
    for k in range(n):
        cx = x + 6 * k
        if cx + 5 < 128:
            assert bus.ram[(y >> 3) * 128 + cx + 5] == 0  # the gap column
        out[k] = 63  # '?'
        for c in range(32, 96):
            if all(bus.ram[(y >> 3) * 128 + cx + col] == SD.glyph_column(c, col)
                   for col in range(5)):
                out[k] = c
                break
    return bytes(out)


def read_big_text(bus, x, y, n, scale=3):
    out = bytearray(n)
    for k in range(n):
        cx = x + k * (5 * scale + 1)
        out[k] = 63
        for c in range(32, 96):
            ok = True
            for col in range(5):
                bits = SD.glyph_column(c, col)
                for row in range(8):
                    px = bus.pixel(cx + col * scale + 1, y + row * scale + 1)
                    if px != (bits >> row) & 1:
                        ok = False
            if ok:
                out[k] = c
                break
    return bytes(out)


def read_digit(bus, x, y, w, h, t):
    """The 7-segment digit drawn at x, y (w x h, stroke t), from its segment centres."""
    pts = ((x + w // 2, y + t // 2), (x + w - 1 - t // 2, y + h // 4),
           (x + w - 1 - t // 2, y + 3 * h // 4), (x + w // 2, y + h - 1 - t // 2),
           (x + t // 2, y + 3 * h // 4), (x + t // 2, y + h // 4), (x + w // 2, y + h // 2))
    s = 0
    for i in range(7):
        s |= bus.pixel(pts[i][0], pts[i][1]) << i
    # the holes of the digit stay dark
    assert bus.pixel(x + w // 2, y + h // 4) == 0 and bus.pixel(x + w // 2, y + 3 * h // 4) == 0
    for d in range(10):
        if S.SEG7[d] == s:
            return 48 + d
    return 63


def test_ssd1306_init_sequence_and_clear():
    bus, d = oled()
    assert bus.cmds[:25] == [
        (0xAE,), (0x20, 0x00), (0x40,), (0xA1,), (0xA8, 63), (0xC8,), (0xD3, 0), (0xDA, 0x12),
        (0xD5, 0x80), (0xD9, 0xF1), (0xDB, 0x30), (0x81, 0xFF), (0xA4,), (0xA6,),
        (0x8D, 0x14), (0x2E,), (0xAF,),
        (0x21, 0, 127), (0x22, 0, 7)]
    assert bus.on
    assert bus.ram == bytearray(1024)   # the garbage is gone
    assert bus.data_bytes == 1024       # in one window, one data write
    assert bus.windows == [(0, 127, 0, 7)] and bus.writes == 3
    ext = SD.SSD1306(FakeI2C(), external_vcc=True)
    assert (0xD9, 0x22) in ext.i2c.cmds and (0x8D, 0x10) in ext.i2c.cmds


def test_ssd1306_drawing_primitives():
    bus = FakeI2C(0x3D)
    o = SD.SSD1306(bus, 0x3D)
    n = bus.writes
    o.update()
    assert bus.writes == n  # nothing changed: nothing sent
    o.pixel(5, 9, 1)
    o.pixel(200, 9, 1)  # off screen: ignored
    o.update()
    assert bus.pixel(5, 9) == 1 and bus.lit(0, 0, 128, 64) == 1
    assert bus.windows[-1] == (5, 5, 1, 1)  # the one column of page 1 that changed
    o.fill_rect(30, 3, 40, 10, 1)  # rows 3..12: pages 0 and 1
    o.update()
    assert bus.lit(30, 3, 40, 10) == 400 and bus.lit(0, 0, 128, 64) == 401
    assert bus.pixel(30, 2) == 0 and bus.pixel(29, 3) == 0 and bus.pixel(70, 3) == 0
    assert bus.pixel(30, 13) == 0
    assert bus.windows[-1] == (30, 69, 0, 1)  # both pages in one window
    o.fill_rect(-10, 60, 300, 100, 1)  # clipped
    o.update()
    assert bus.lit(0, 60, 128, 4) == 512
    o.fill(0)
    o.update()
    assert bus.ram == bytearray(1024) and o.get_pixel(5, 9) == 0
    o.text(b"AB1:", 8, 16)
    o.update()
    assert read_text(bus, 8, 16, 4) == b"AB1:"
    o.text(b"x", 0, 3, -1, 2)  # not page-aligned, scaled: 'X'
    o.update()
    assert bus.pixel(0, 3) == 1 and bus.pixel(8, 3) == 1 and bus.pixel(4, 9) == 1
    assert bus.pixel(2, 3) == 0 and bus.lit(0, 3, 11, 16) == 13 * 4
    o.contrast(0x7F)
    o.invert(True)
    o.poweroff()
    assert bus.cmds[-3:] == [(0x81, 0x7F), (0xA7,), (0xAE,)] and not bus.on
    o.poweron()
    assert bus.on


def test_ssd1306_minutes_seconds_big_digits_and_bar():
    bus, d = oled()
    v = view(b"    4:59", running=True)
    draw(bus, d, v)
    assert bus.lit(32, 0, 64, 7) == 64 * 7 and bus.lit(0, 0, 128, 7) == 64 * 7  # the bar
    assert bus.lit(0, 7, 128, 9) == 0
    # "4:59" centred: 28 + 10 + 28 + 24 = 90 px wide from x 19
    assert list(d.cell_x[4:]) == [19, 47, 57, 85]
    assert [read_digit(bus, x, 16, 24, 40, 6) for x in (19, 57, 85)] == [52, 53, 57]
    assert bus.lit(47, 16 + 40 // 3 - 3, 6, 6) == 36 and bus.lit(47, 16 + 80 // 3 - 3, 6, 6) == 36
    assert bus.lit(47, 16, 6, 6) == 0
    v.running = False
    v.touch()
    draw(bus, d, v)
    assert bus.lit(0, 0, 128, 8) == 0


def test_ssd1306_hours_use_small_digits_and_tenths_a_dot():
    bus, d = oled()
    draw(bus, d, view(b" 1:29:59"))
    # 5 digits (19) + 2 colons (7) - 3 = 106 px from x 11; small digits 32 px from y 20
    xs = [d.cell_x[i] for i in (1, 3, 4, 6, 7)]
    assert xs == [11, 37, 56, 82, 101]
    assert [read_digit(bus, x, 20, 16, 32, 4) for x in xs] == [49, 50, 57, 53, 57]
    draw(bus, d, view(b"    19.9"))
    xs = [d.cell_x[i] for i in (4, 5, 7)]
    assert xs == [19, 47, 85]
    assert [read_digit(bus, x, 16, 24, 40, 6) for x in xs] == [49, 57, 57]
    assert bus.lit(75, 50, 6, 6) == 36 and bus.lit(75, 16, 6, 34) == 0  # the dot, low
    draw(bus, d, view(b"12:34:56"))
    assert [read_digit(bus, d.cell_x[i], 20, 16, 32, 4) for i in (0, 1, 3, 4, 6, 7)] == [
        49, 50, 51, 52, 53, 54]


def test_ssd1306_status_and_bottom_lines():
    bus, d = oled()
    v = view(b"   59:59", stage=2, stage_passed=True, moves=40, periods=3, paused=True,
             battery_low=True, flag=FLAG_SECOND, white=True, delay_ds=45)
    draw(bus, d, v)
    assert read_text(bus, 0, 8, 4) == b"S2+ "
    assert read_text(bus, 28, 8, 5) == b"M40  "
    assert read_text(bus, 62, 8, 4) == b"BY3 "
    assert bus.lit(92, 8, 2, 7) == 14 and bus.lit(96, 8, 2, 7) == 14 and bus.lit(94, 8, 2, 7) == 0
    assert bus.pixel(108, 8) == 1 and bus.pixel(115, 11) == 0 and bus.pixel(125, 11) == 1
    assert bus.lit(0, 56, 1, 8) == 8 and bus.lit(1, 56, 6, 4) == 24  # the flag
    assert read_text(bus, 9, 56, 3) == b"2ND"
    assert read_text(bus, 40, 56, 5) == b"WHITE"
    assert read_text(bus, 92, 56, 6) == b"D  4.5"
    v.stage = 12
    v.moves = 1234
    v.periods = 0
    v.flag = FLAG_FIRST
    v.delay_ds = 651
    v.touch()
    draw(bus, d, v)
    assert read_text(bus, 0, 8, 4) == b"S12+"
    assert read_text(bus, 28, 8, 5) == b"M1234"
    assert read_text(bus, 62, 8, 4) == b"BY0 "
    assert read_text(bus, 9, 56, 3) == b"1ST"
    assert read_text(bus, 92, 56, 6) == b"D 1:06"
    v.stage = 0
    v.moves = -1
    v.periods = -1
    v.paused = False
    v.battery_low = False
    v.flag = 0
    v.white = False
    v.delay_ds = -1
    v.touch()
    draw(bus, d, v)
    assert bus.lit(0, 8, 128, 8) == 0 and bus.lit(0, 56, 128, 8) == 0


def test_ssd1306_menu_text():
    bus, d = oled()
    draw(bus, d, view(b"    4:59", text_on=True, text=b"MENU 1:A"))
    assert read_big_text(bus, 0, 24, 8) == b"MENU 1:A"
    draw(bus, d, view(b"    4:59", text_on=True, text=b"Menu 2:b"))
    assert read_big_text(bus, 0, 24, 8) == b"MENU 2:B"


def test_ssd1306_redraws_only_what_changed():
    bus, d = oled()
    v = view(b"    4:59", running=True)
    draw(bus, d, v)
    n = bus.writes
    d.render(v)            # same version: nothing
    assert bus.writes == n
    v.touch()              # new version, same content: nothing
    draw(bus, d, v)
    assert bus.writes == n
    v.time[:] = b"    4:58"
    v.touch()
    w = len(bus.windows)
    draw(bus, d, v)
    # only the last digit (x 85..108): chunks 80..111 of the pages of the main area
    for c0, c1, p0, p1 in bus.windows[w:]:
        assert c0 >= 80 and c1 <= 111 and p0 >= 2 and p1 <= 6, (c0, c1, p0, p1)
    assert read_digit(bus, 85, 16, 24, 40, 6) == 56


def test_ssd1306_any_history_ends_as_a_fresh_draw():
    # Whatever was drawn before, the panel ends up as if only the last view was drawn.
    steps = [
        (b"    4:59", {"running": True, "moves": 3}),
        (b" 1:29:59", {"stage": 2}),
        (b"    4:59", {"text_on": True, "text": b"SET TIME", "paused": True}),
        (b"    19.9", {"flag": FLAG_FIRST, "delay_ds": 12, "battery_low": True}),
        (b"   10:00", {"white": True, "periods": 5}),
        (b"        ", {}),
        (b"    0:07", {"running": True, "stage": 1, "stage_passed": True}),
        (b"    0:06", {"running": True, "stage": 1}),
        # the round's pairing at set-up, then the game it gives way to
        (b"    4:59", {"pair": (12, b"ANNA", b"BOB"), "moves": 0, "stage": 2, "white": True}),
        (b"    4:59", {"pair": (12, b"ANNA", b"BOB"), "moves": 0, "stage": 2}),
        (b"    4:58", {"pair": (12, b"ANNA", b"BOB"), "idle": False, "moves": 1, "stage": 2,
                      "flag": FLAG_FIRST, "delay_ds": 5, "white": True}),
        (b"    4:59", {"pair": (3, b"X" * 30, b"Y"), "battery_low": True, "paused": True}),
        (b"    4:59", {"stage": 3, "moves": 7, "periods": 2, "delay_ds": 9}),
    ]
    bus, d = oled()
    for time, kw in steps:
        draw(bus, d, view(time, **kw))
        fresh, f = oled()
        draw(fresh, f, view(time, **kw))
        assert bus.ram == fresh.ram, time



class CountingI2C(FakeI2C):
    """FakeI2C that also counts what goes over the bus: transactions and bytes (the
    address byte included), and the windows of the data writes since reset()."""

    def reset(self):
        self.n_tx = 0
        self.n_bytes = 0
        self.windows = []

    def writeto(self, addr, buf):
        self.n_tx = getattr(self, "n_tx", 0) + 1
        self.n_bytes = getattr(self, "n_bytes", 0) + 1 + len(buf)
        FakeI2C.writeto(self, addr, buf)


def full_redraw(v):
    """The panel of a display that drew only v."""
    bus = CountingI2C()
    S.SSD1306Display(bus).render(v)
    return bus


def test_ssd1306_a_press_sends_only_what_changed():
    # White's clock ran at 2:58; White presses: its bar goes, 2 s increment (3:00); Black's
    # bar comes. Each display gets only the bar's page and the columns of the digits that
    # changed (in 8-column groups), as few writes, and ends up exactly as a full redraw of
    # its new view would leave it. Sending the whole main area (640 bytes), or every digit,
    # fails here.
    cases = (
        # (before, after) for one display
        ((b"    2:58", True), (b"    3:00", False)),   # the mover: bar off, 3 digits
        ((b"    2:41", False), (b"    2:41", True)),   # the other: bar on only
        ((b"    0:59", True), (b"    1:01", False)),
        ((b"    19.9", True), (b"    21.9", False)),
        ((b"    4:07", True), (b"    4:09", False)),   # one digit
    )
    for (t0, run0), (t1, run1) in cases:
        bus = CountingI2C()
        d = S.SSD1306Display(bus)
        d.render(view(t0, running=run0, white=True))
        bus.reset()
        v = view(t1, running=run1, white=True)
        d.render(v)
        assert bus.ram == full_redraw(v).ram, (t0, t1)   # what a full redraw shows
        assert bus.ram == d.oled.buffer
        changed = [i for i in range(8) if t0[i] != t1[i]]
        allowed = set()
        for i in changed:
            x = d.cell_x[i]
            allowed.update(range(x & ~7, ((x + 23) | 7) + 1))   # a 24-px digit's groups
        main = 0
        rects = 0
        for c0, c1, p0, p1 in bus.windows:
            if (p0, p1) == (0, 0):
                assert (c0, c1) == (32, 95)                    # the bar
                continue
            assert p0 >= 2 and p1 <= 6, (c0, c1, p0, p1)       # the digits' pages only
            assert set(range(c0, c1 + 1)) <= allowed, (t1, c0, c1)
            main += (c1 - c0 + 1) * (p1 - p0 + 1)
            rects += 1
        assert main <= len(changed) * 24 * 5 + 14 * 5, (t1, main)
        # one window and one data write a rectangle; on the bus (bytes, plus start and stop
        # a write) no more than sending each changed digit as one rectangle of its 8-column
        # groups over its 5 pages (a full redraw of the main area alone is 640 bytes)
        assert bus.n_tx == 2 * len(bus.windows)
        groups = sum(((d.cell_x[i] + 23) >> 3) - (d.cell_x[i] >> 3) + 1 for i in changed)
        per_digit = 78 * (run0 != run1) + len(changed) * ((1 + 7) + 2 + 4) + groups * 8 * 5
        assert bus.n_bytes + 2 * bus.n_tx <= per_digit, (t1, bus.n_bytes, per_digit)
        if t0 == t1:   # the bar alone: one page, one window, one data write
            assert bus.windows == [(32, 95, 0, 0)] and bus.n_tx == 2
            assert bus.n_bytes == (1 + 7) + (1 + 1 + 64)   # address, window; address, 0x40, data


def _window_bytes(windows, mode_set=1):
    """Bus bytes of these windows sent each as a window command and one data write
    (address and 0x40 besides the data); the addressing mode set with the first
    `mode_set` of them (two command bytes more)."""
    n = 0
    for k, (c0, c1, p0, p1) in enumerate(windows):
        n += (1 + 7 + (2 if k < mode_set else 0)) + (1 + 1 + (c1 - c0 + 1) * (p1 - p0 + 1))
    return n


def test_ssd1306_a_digit_sends_only_the_zones_and_pages_that_change():
    # A press that changes three digits (2:58 -> 3:00, the bar going off): the bar's page,
    # then each changed digit's rectangles straight from prebuilt bytes in vertical
    # addressing (column after column): a 7-segment digit's columns are alike within the
    # left stroke, the middle and the right stroke, so each of those zones is cut to the
    # pages that change in it, and neighbouring zones go out as one rectangle when that
    # costs no more (a rectangle costs ~24 bytes of bus time besides its data: its window
    # command, and the M0+'s Python around it).
    bus = CountingI2C()
    d = S.SSD1306Display(bus)
    d.render(view(b"    2:58", running=True))
    bus.reset()
    v = view(b"    3:00")
    d.render(v)
    x4, x6, x7 = d.cell_x[4], d.cell_x[6], d.cell_x[7]
    assert bus.windows == [(32, 95, 0, 0),
                           (x4, x4 + 5, 4, 6),         # 2 -> 3: e off (left, lower half)
                           (x4 + 18, x4 + 23, 4, 6),   # and c on (right, lower half)
                           (x6, x6 + 5, 4, 6),         # 5 -> 0: e on (left, lower half),
                           (x6 + 6, x6 + 23, 2, 4),    # g off (middle), b on (right, upper)
                           (x7 + 6, x7 + 17, 4, 4)]    # 8 -> 0: g off (middle, its page)
    assert (0x20, 1) in bus.cmds
    assert bus.n_tx == 12
    assert bus.n_bytes == _window_bytes(bus.windows[:1], 0) + _window_bytes(bus.windows[1:])
    # against 406 sending each changed digit's differing columns over all 5 pages
    assert bus.n_bytes == 246
    assert bus.ram == full_redraw(v).ram == d.oled.buffer
    assert [read_digit(bus, x, 16, 24, 40, 6) for x in (x4, x6, x7)] == [51, 48, 48]
    bus.reset()
    d.render(view(b"    3:01"))          # 0 -> 1: a, d, e, f off; b and c stay
    assert bus.windows == [(85, 102, 2, 6)] and bus.n_tx == 2
    assert read_digit(bus, 85, 16, 24, 40, 6) == 49
    bus.reset()
    d.render(view(b"    3:06"))          # 1 -> 6: every zone
    assert bus.windows == [(85, 108, 2, 6)] and bus.n_tx == 2
    bus.reset()
    d.render(view(b"    3:08"))          # 6 -> 8: b on, the right stroke's upper half
    assert bus.windows == [(103, 108, 2, 4)]
    bus.reset()
    d.render(view(b"    3:09"))          # 8 -> 9: e off, the left stroke's lower half
    assert bus.windows == [(85, 90, 4, 6)] and bus.n_bytes == _window_bytes(bus.windows, 0)
    # the small digits (h:mm:ss): cells of 16 columns over the same pages, and after them
    # a rectangle copied out of the framebuffer (horizontal addressing set again)
    d.render(view(b" 1:29:59"))
    bus.reset()
    v = view(b" 1:30:01")
    d.render(v)
    for c0, c1, p0, p1 in bus.windows:
        i = [i for i in (3, 4, 6, 7) if d.cell_x[i] <= c0 <= d.cell_x[i] + 15]
        assert i and c1 <= d.cell_x[i[0]] + 15 and 2 <= p0 <= p1 <= 6
    assert bus.n_tx == 2 * len(bus.windows)
    assert bus.ram == full_redraw(v).ram == d.oled.buffer
    d.render(view(b"   59:59"))
    assert bus.ram == full_redraw(view(b"   59:59")).ram == d.oled.buffer
    assert [c for c in bus.cmds if c[0] == 0x20][-1] == (0x20, 0)


def test_ssd1306_a_new_layout_is_one_window_of_whole_rows():
    # 9:59 -> 10:01 after an increment: the main area (pages 2-6) is laid out afresh and
    # goes out as one window of whole rows, sent from the framebuffer as it lies.
    bus = CountingI2C()
    d = S.SSD1306Display(bus)
    d.render(view(b"    9:59", running=True))
    bus.reset()
    v = view(b"   10:01")
    d.render(v)
    assert bus.windows == [(32, 95, 0, 0), (0, 127, 2, 6)] and bus.n_tx == 4
    assert bus.ram == full_redraw(v).ram == d.oled.buffer


class FlakyI2C(CountingI2C):
    """A bus whose data writes fail while `fail` is set (a panel unplugged)."""

    fail = False

    def writeto(self, addr, buf):
        if self.fail and buf[0] == 0x40:
            raise OSError(5)
        CountingI2C.writeto(self, addr, buf)


def test_ssd1306_every_change_of_digit_sends_what_makes_the_new_glyph():
    # For both sizes and every change a -> b of the 12 glyphs: glyph a's cell with the
    # change's rectangles written in (column after column, as vertical addressing fills a
    # window) is glyph b's cell; no rectangle reaches outside the cell; a change to the
    # same glyph sends nothing; and the entries fit the byte-wide index (tr).
    for big, w in ((0, S.SMALL_W), (1, S.BIG_W)):
        pages, tn, tr, geo, rk, data = S._build_glyphs(big)
        assert len(rk) < 256
        cells = [bytearray(b"".join(bytes(v) for v in pages[g])) for g in range(12)]
        for a in range(12):
            for b in range(12):
                t = a * 12 + b
                cell = bytearray(cells[a])
                for k in range(tr[t], tr[t] + tn[t]):
                    c0, c1, p0, p1 = geo[4 * k:4 * k + 4]
                    assert 0 <= c0 <= c1 < w and 0 <= p0 <= p1 < 5
                    buf = data[b][rk[k]]
                    assert buf[0] == 0x40 and len(buf) == 1 + (c1 - c0 + 1) * (p1 - p0 + 1)
                    i = 1
                    for x in range(c0, c1 + 1):
                        for p in range(p0, p1 + 1):
                            cell[p * w + x] = buf[i]
                            i += 1
                assert cell == cells[b], (big, a, b)
                assert (tn[t] == 0) == (a == b), (big, a, b)


def test_ssd1306_a_view_from_before_a_waiting_press_keeps_the_interrupts_bar():
    # The lever interrupt turned this side's bar off for a press; the loop then draws a
    # view worked out before it took that press (still running). The bar stays off: lit
    # again, it would flick on and off and put two bars' bus time in front of the new time.
    from drivers.sharedi2c import SharedI2C
    bar = (32, 95, 0, 0)
    bus = CountingI2C()
    d = S.SSD1306Display(SharedI2C(bus))
    waiting = []
    d.stop = lambda: bool(waiting)     # the app's close_first: a lever closed and waits
    d.render(view(b"    2:58", running=True))
    waiting.append(1)
    d.irq_bar(False, None, False)      # in the interrupt: the press's bar off
    bus.reset()
    d.render(view(b"    2:57", running=True))
    assert bar not in bus.windows and d.unsent
    # nothing sent (the digit waits for the press, as finish() does between digits): the
    # glass shows 2:58 with the bar off
    assert bus.ram == full_redraw(view(b"    2:58")).ram
    del waiting[:]                      # the press taken: its view, the bar off as shown
    bus.reset()
    v = view(b"    2:59")
    d.render(v)
    assert bar not in bus.windows and not d.unsent
    assert bus.ram == full_redraw(v).ram == d.oled.buffer
    # A close the interrupt did not switch for (the waiting side's lever), while the view
    # stops running (a pause): the bar waits with it, and goes out with the next render()
    # (the app's, while `unsent`) should that press change nothing.
    d.render(view(b"    2:59", running=True))
    waiting.append(1)
    bus.reset()
    v = view(b"    2:59", paused=True)
    d.render(v)
    assert bar not in bus.windows and d.unsent
    d.render(v)
    assert bar not in bus.windows and d.unsent      # the close still waits
    del waiting[:]
    d.render(v)
    assert bar in bus.windows and not d.unsent
    assert bus.ram == full_redraw(v).ram == d.oled.buffer


def test_ssd1306_a_memory_error_while_the_glyphs_are_built_leaves_none():
    # The first display builds both digit sizes' tables; a MemoryError on the second (a
    # boot's fragmented heap) must not leave the first alone, or every display after it
    # would find the big digits missing. The app starts again; its next display builds
    # both and draws.
    build = S._build_glyphs
    calls = []

    def short_of_memory(big):
        calls.append(big)
        if big and len(calls) == 2:
            raise MemoryError("memory allocation failed")
        return build(big)

    saved = S._GLYPHS[:]
    del S._GLYPHS[:]
    S._build_glyphs = short_of_memory
    try:
        raises(MemoryError, S.SSD1306Display, CountingI2C())
        assert S._GLYPHS == []
        bus = CountingI2C()
        d = S.SSD1306Display(bus)
        v = view(b"    3:00")
        d.render(v)
        assert calls == [0, 1, 0, 1] and len(S._GLYPHS) == 2
        assert bus.ram == full_redraw(v).ram
    finally:
        S._build_glyphs = build
        S._GLYPHS[:] = saved


def test_ssd1306_a_bus_error_leaves_the_glyphs_as_they_were():
    # Every display sends a change's bytes from the same prebuilt glyph tables: a failed
    # write must leave them as they were for the next change, on any display.
    bus = FlakyI2C()
    d = S.SSD1306Display(bus)
    d.render(view(b"    3:06"))
    bus.fail = True
    raises(OSError, d.render, view(b"    3:08"))   # 6 -> 8: the right stroke, upper half
    bus = CountingI2C()
    d = S.SSD1306Display(bus)
    d.render(view(b"    3:00"))
    bus.reset()
    v = view(b"    3:08")                             # 0 -> 8: the middle's g
    d.render(v)
    assert bus.windows == [(91, 102, 4, 4)]
    assert bus.ram == full_redraw(v).ram == d.oled.buffer


def test_ssd1306_running_bar_sends_both_bars_before_either_draws():
    # The app: running_bar() on both displays as its LEDs switch (each sends only its bar),
    # then draw() and finish() (render) on the side that pressed, then on the other: both
    # bars are on the glass before any digit is even drawn.
    a, b = CountingI2C(0x3C), CountingI2C(0x3D)
    da, db = S.SSD1306Display(a, 0x3C), S.SSD1306Display(b, 0x3D)
    va, vb = SideView(), SideView()
    va.time[:] = b"    2:58"
    va.running = True
    vb.time[:] = b"    2:41"
    for d, v in ((da, va), (db, vb)):
        v.touch()
        d.render(v)
    a.reset()
    b.reset()
    va.running = False
    va.time[:] = b"    3:00"
    vb.running = True
    va.touch()
    vb.touch()
    before = bytes(da.oled.buffer[128:])
    da.running_bar(False, va)
    db.running_bar(True, vb)
    assert a.windows == [(32, 95, 0, 0)] and b.windows == [(32, 95, 0, 0)]
    assert a.lit(0, 0, 128, 7) == 0 and b.lit(0, 0, 128, 7) == b.lit(32, 0, 64, 7) == 64 * 7
    assert bytes(da.oled.buffer[128:]) == before            # nothing drawn below it yet
    da.running_bar(False, va)                              # unchanged: no traffic
    assert a.windows == [(32, 95, 0, 0)]
    da.draw(va)
    assert a.windows == [(32, 95, 0, 0)]                   # draw() composes, sends nothing
    assert read_digit(a, 85, 16, 24, 40, 6) == 56          # still 2:58 on the glass
    da.finish()
    db.draw(vb)
    db.finish()
    assert a.ram == da.oled.buffer and b.ram == db.oled.buffer
    assert read_digit(a, 85, 16, 24, 40, 6) == 48 and len(b.windows) == 1
    n = a.n_tx
    da.finish()                                            # nothing left: no traffic
    assert a.n_tx == n


def test_ssd1306_framebuf_and_python_loops_put_the_same_on_the_glass():
    # On MicroPython the digits' segments and the bar are filled by framebuf and the
    # rectangles copied out with a blit; CPython has no framebuf and runs the Python
    # loops. Both must leave every panel byte the same, after every redraw of a game's
    # times (segments cleared over lit neighbours' corners, layouts changing).
    times = (b"    3:00", b"    2:58", b"    3:00", b"    2:09", b"    1:17", b"    0:59",
             b"    19.9", b"    18.8", b"    10.1", b"     7.4", b"     0.0", b" 1:00:00",
             b"   59:59", b"   48:06", b"    -:--")
    a, b = CountingI2C(), CountingI2C()
    fast, slow = S.SSD1306Display(a), S.SSD1306Display(b)
    slow.oled.fb = None                     # the Python loops (what CPython always runs)
    run = False
    for t in times:
        run = not run
        for d in (fast, slow):
            d.render(view(t, running=run, white=True))
        assert a.ram == fast.oled.buffer == b.ram == slow.oled.buffer, t
        assert a.ram == full_redraw(view(t, running=run, white=True)).ram, t


def _second_stopped_after_its_first_digit():
    """A display that showed 1:00 and began the running second 0:59 (three digits): a
    lever closed as its first digit went out (finish() stopped). The bus, the display."""
    bus = CountingI2C()
    d = S.SSD1306Display(bus)
    d.render(view(b"    1:00", running=True))
    d.stop = lambda: len(bus.windows) > 0    # a lever closes as the first digit goes out
    bus.reset()
    d.render(view(b"    0:59", running=True))
    return bus, d


def test_ssd1306_finish_stops_for_a_lever_and_sends_the_rest_later():
    # A running second that changes three digits (1:00 -> 0:59) is ~9 ms of I2C: a lever
    # closing meanwhile (stop() true) ends finish() between two digits, and the press's
    # bars go out first. The rest waits (`unsent`) and goes with the next finish(); a
    # digit drawn again before that (the press's increment) is sent once, as the change
    # from what the glass holds. The panel then matches a fresh draw of the last view.
    bus, d = _second_stopped_after_its_first_digit()
    assert len(bus.windows) == 1 and d.unsent        # one digit of three went out
    assert bus.ram != d.oled.buffer
    d.stop = None
    d.running_bar(False, view(b"    0:59"))           # the press: the bar first
    assert bus.windows[-1] == (32, 95, 0, 0)
    v = view(b"    1:01")                             # its increment: the same cells again
    bus.reset()
    d.render(v)
    assert not d.unsent
    assert bus.ram == d.oled.buffer == full_redraw(v).ram
    xs = [w[0] for w in bus.windows]
    assert len(xs) == len(set(xs)) == 2, bus.windows  # each waiting cell once

    # a lever closed before the main area is drawn: draw() leaves it, and nothing goes
    # out; the app's next render() of the same view (while `unsent`) draws and sends it
    d.render(view(b"    1:01", running=True))
    d.stop = lambda: True
    v = view(b"    0:58", running=True)
    bus.reset()
    d.render(v)
    assert d.unsent and not bus.windows and bytes(d._shown) == b"    1:01"
    d.stop = None
    d.render(v)
    assert not d.unsent
    assert bus.ram == d.oled.buffer == full_redraw(v).ram


def test_ssd1306_show_time_puts_a_press_digits_on_the_glass_before_the_view():
    # App._show_press: right after the engine takes a press, the pressing side's new time
    # goes out alone, the cells whose digits changed (pages 2-6) and nothing else; the
    # glass and the framebuffer then hold it as a full redraw would. The view drawn after
    # (the bar, the status) sends no digit again.
    for before, after, cells in ((b"    2:58", b"    3:00", 3), (b"    4:07", b"    4:09", 1),
                                 (b"    19.9", b"    21.9", 2), (b" 1:59:58", b" 2:00:00", 5)):
        bus = CountingI2C()
        d = S.SSD1306Display(bus)
        d.render(view(before, running=True))
        bus.reset()
        assert d.show_time(view(after, running=True).time)
        xs = sorted(set(w[0] // 8 for w in bus.windows))
        assert all(2 <= w[2] <= w[3] <= 6 for w in bus.windows), bus.windows
        assert bus.ram == d.oled.buffer == full_redraw(view(after, running=True)).ram, after
        assert len(set(_cell_of(d, w[0]) for w in bus.windows)) == cells, (after, xs)
        bus.reset()
        v = view(after)
        d.render(v)   # the press's view: the bar goes, no digit
        assert bus.windows == [(32, 95, 0, 0)], bus.windows
        assert bus.ram == d.oled.buffer == full_redraw(v).ram


def _cell_of(d, x):
    # the character cell of the time that column x belongs to
    return max(c for c in d.cell_x if c != 255 and c <= x)


def test_ssd1306_show_time_leaves_a_new_layout_or_text_to_render():
    # A change of layout (9:59 -> 10:01 adds a digit) or a screen without the time (text,
    # the self-test) is render()'s: show_time sends nothing, changes nothing, says False.
    cases = ((view(b"    9:59", running=True), b"   10:01"),
             (view(b"    20.0", running=True), b"    19.9"),
             (view(text_on=True, text=b"   PAUSE"), b"    3:00"),
             (view(test=True), b"    3:00"))
    for v, t in cases:
        bus = CountingI2C()
        d = S.SSD1306Display(bus)
        d.render(v)
        before = bytes(d.oled.buffer)
        bus.reset()
        assert not d.show_time(bytearray(t)), t
        assert bus.n_tx == 0 and bytes(d.oled.buffer) == before, t


def test_ssd1306_show_time_sends_the_cells_a_stopped_finish_left():
    # A running second's digits stopped by a lever (finish() between cells): the glass
    # still holds the old glyphs of the cells not sent. The press's new time sends those
    # cells too, from what the glass holds, once each; the view drawn after sends nothing
    # of the time, and nothing is left waiting.
    bus, d = _second_stopped_after_its_first_digit()
    assert d.unsent and bus.ram != d.oled.buffer
    d.stop = None
    bus.reset()
    assert d.show_time(view(b"    1:01", running=True).time)
    assert bus.ram == d.oled.buffer == full_redraw(view(b"    1:01", running=True)).ram
    cells = [_cell_of(d, w[0]) for w in bus.windows]
    assert len(set(cells)) == 2, bus.windows      # the 0 -> 1 not sent, the 9 -> 1
    bus.reset()
    v = view(b"    1:01")
    d.render(v)
    assert bus.windows == [(32, 95, 0, 0)] and not d.unsent
    assert bus.ram == d.oled.buffer == full_redraw(v).ram
