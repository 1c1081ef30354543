# SSD1306Display: a clockapp SideView drawn on an SSD1306 128x64 (drivers/ssd1306.py).
#
# What a press redraws goes out without the driver's update() copy: on the RP2040's M0+ the
# Python around each rectangle, and framebuf's blit (about 1 us a pixel), cost more than the
# bus (measured on the emulated Pico: 2 x 4.9 ms for the bars and 13-16 ms for three
# digits, segment by segment). The running bar is one of two constants, and a big or small
# digit is its whole cell (24 or 16 columns of pages 2-6; nothing else is drawn there) from
# a glyph built once: copied into the framebuffer page by page (slice assignments from
# memoryviews: no allocation) and sent from bytes prepared with the glyph for each change of
# digit, the zones and pages that change, one window and one data write a rectangle
# (send_rect). render() does not allocate.

from clockcore import const
from clockcore.engine import RUNNING
from drivers.ssd1306 import SSD1306

# The driver's constants this module needs, as its own (a const is folded where it is
# declared: an imported name would be a dictionary lookup in the hot path).
_WIDTH = const(128)
_PAGES = const(8)
_CTRL_CMD = const(0x00)
_CTRL_DATA = const(0x40)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)

# 7-segment shapes of '0'..'9' for the digits: bit 0..6 = a..g.
SEG7 = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f"

# ---- SideView layout (pixels) ----------------------------------------------------------
# rows 0-6    running bar, columns 32-95 (this side's clock runs): half the width, so that
#             both bars are on the glass ~3.4 ms after a press at 400 kHz, not ~6.3
# rows 8-15   status: stage "S2+" (+: the stage's control passed) at x 0, moves "M40" at
#             x 28, byo-yomi periods "BY5" at x 62, pause mark (two bars) at x 92, low
#             battery (an almost empty battery) at x 108
# rows 16-55  the time in 7-segment digits: 40 px tall (m:ss, ss.t), 32 px for h:mm:ss;
#             or view.text (text_on) in the 5x7 font at 3x (8 characters fill the width)
# rows 56-63  flag (a flag and "1ST"/"2ND") at x 0, "WHITE" at x 40, delay "D 4.5" at x 92
# At set-up (no game started): the side's control on the status line ("40/90M 30M +30S",
# timefmt.control_line; 15 characters fit), so that the players can check it. With a round's
# pairing the status line shows in turn (every 3 s) "BOARD 12" and the control, and the
# bottom line "WHITE name" / "BLACK name" (as much as fits: 21 characters).
_BAR_H = const(7)
_BAR_X0 = const(32)
_BAR_X1 = const(95)
_STATUS_Y = const(8)
_MAIN_Y = const(16)
_MAIN_H = const(40)
_BOTTOM_Y = const(56)
_X_STAGE = const(0)
_X_MOVES = const(28)
_X_BYO = const(62)
_X_PAUSE = const(92)
_X_BATT = const(108)
_X_FLAG = const(0)
_X_WHITE = const(40)
_X_DELAY = const(92)

# Digit sizes: width, height, stroke, gap.
BIG_W = const(24)
BIG_H = const(40)
BIG_T = const(6)
BIG_GAP = const(4)
SMALL_W = const(16)
SMALL_H = const(32)
SMALL_T = const(4)
SMALL_GAP = const(3)

# A digit's cell: its width, from the main area's first page (rows 16..55, 5 pages),
# whatever the size: the small digits' 32 rows sit 4 rows down in it. Nothing else is drawn
# in a cell, so a digit is its cell's bytes whole: a prebuilt glyph (below).
_CELL_P0 = const(2)
_CELL_PAGES = const(5)
_RECT_COST = const(24)  # a rectangle's cost besides its bytes, in bytes of bus time: its
                        # window command, the data write's address and control byte, and
                        # ~0.3 ms of the M0+ around them (a byte is 22.5 us at 400 kHz)
_BLANK = const(11)     # glyph of a character with no segments (0-9 are 0-9, '-' is 10)

_NONE = const(-2)      # "nothing drawn yet": differs from every view value
_NO_X = const(255)     # cell_x of a character not drawn
_CLS_SKIP = const(0)   # leading space: takes no room
_CLS_DIGIT = const(1)  # digit or other character: a digit cell
_CLS_COLON = const(2)
_CLS_DOT = const(3)


def _segments(k, w, h, t):
    """Segment k (0..6: a..g) of a w x h digit of stroke t: (x, y, w, h) in the digit."""
    m = (h - t) // 2          # top of the middle bar
    if k == 0:
        return 0, 0, w, t
    if k == 1:
        return w - t, 0, t, m + t
    if k == 2:
        return w - t, m, t, h - m
    if k == 3:
        return 0, h - t, w, t
    if k == 4:
        return 0, m, t, h - m
    if k == 5:
        return 0, 0, t, m + t
    return 0, m, w, t


def _build_glyphs(big):
    """The 12 glyphs of one digit size (0-9, '-', blank), and what finish() sends for each
    change of glyph a -> b (at t = a * 12 + b).

    A glyph is its cell's bytes page after page, as a tuple of memoryviews, one a page
    (copied into the framebuffer without allocating). A change sends only the bytes that
    differ, in at most three rectangles: a 7-segment glyph's columns are alike within each
    of three zones (the left stroke, the middle, the right stroke), so a zone differs in a
    run of pages, found from one of its columns; neighbouring zones go out as one rectangle
    when that costs less than two (_RECT_COST). Each rectangle's bytes are glyph b's, column
    after column behind a 0x40 (vertical addressing), made here (finish may run in the
    lever interrupt, where nothing may be allocated: App._take_parked): a bytes object a
    rectangle, a tuple a glyph; small objects, not one block, as a boot's heap may have no
    4 KB in one piece.
    Returned: (pages, tn, tr, geo, rk, data): change t sends tn[t] rectangles from entry
    tr[t] on; entry k covers columns geo[4k]..geo[4k+1] of pages geo[4k+2]..geo[4k+3] of
    the cell, its bytes data[b][rk[k]]."""
    if big:
        w, h, t, top = BIG_W, BIG_H, BIG_T, 0
    else:
        w, h, t, top = SMALL_W, SMALL_H, SMALL_T, (_MAIN_H - SMALL_H) // 2
    n = w * _CELL_PAGES
    cells = []
    pages = []
    g = 0
    while g < 12:
        segs = SEG7[g] if g < 10 else (0x40 if g == 10 else 0)
        pm = bytearray(n)
        k = 0
        while k < 7:
            if (segs >> k) & 1:
                sx, sy, sw, sh = _segments(k, w, h, t)
                y = top + sy
                while y < top + sy + sh:
                    i = (y >> 3) * w + sx
                    bit = 1 << (y & 7)
                    x = 0
                    while x < sw:
                        pm[i + x] |= bit
                        x += 1
                    y += 1
            k += 1
        mv = memoryview(pm)
        # a tuple a glyph, not one list of 60: the collector's mark stack (64 entries on
        # the official images) overflows on a list of 60 objects, and an overflow rescans
        # the whole heap (docs/FIRMWARE.md, "One loop pass")
        pages.append(tuple(mv[p * w:(p + 1) * w] for p in range(_CELL_PAGES)))
        cells.append(pm)
        g += 1
    zones = ((0, t - 1), (t, w - t - 1), (w - t, w - 1))
    tn = bytearray(144)
    tr = bytearray(144)   # (a size has under 200 entries: tests/core/test_displays.py)
    geo = bytearray()
    rk = bytearray()
    keys = [[] for _ in range(12)]   # per glyph b: its rectangles, each c0 | c1 << 5 |
    pick = _PICK                     # p0 << 10 | p1 << 13 (a small int: no allocation)
    a = 0
    while a < 12:
        b = 0
        while b < 12:
            n = _change_rects(cells[a], cells[b], w, zones)
            tn[a * 12 + b] = n
            tr[a * 12 + b] = len(rk)
            ks = keys[b]
            j = 0
            while j < 4 * n:
                key = pick[j] | pick[j + 1] << 5 | pick[j + 2] << 10 | pick[j + 3] << 13
                if key not in ks:
                    ks.append(key)
                geo.append(pick[j])
                geo.append(pick[j + 1])
                geo.append(pick[j + 2])
                geo.append(pick[j + 3])
                rk.append(ks.index(key))
                j += 4
            b += 1
        a += 1
    data = []
    b = 0
    while b < 12:
        views = []
        for key in keys[b]:
            c0 = key & 31
            c1 = key >> 5 & 31
            p0 = key >> 10 & 7
            p1 = key >> 13
            r = bytearray(1 + (c1 - c0 + 1) * (p1 - p0 + 1))
            r[0] = _CTRL_DATA
            i = 1
            x = c0
            while x <= c1:
                p = p0
                while p <= p1:
                    r[i] = cells[b][p * w + x]
                    i += 1
                    p += 1
                x += 1
            views.append(bytes(r))   # read-only: shared by every display
        data.append(tuple(views))
        b += 1
    return pages, tn, tr, bytes(geo), bytes(rk), tuple(data)


_SPAN = bytearray(6)    # _change_rects' scratch: each zone's first and last page that differ
_DIFF = bytearray(3)    # and the zones that differ
_PICK = bytearray(12)   # the rectangles it picks: c0, c1, p0, p1 each


def _change_rects(ga, gb, w, zones):
    """The rectangles of a cell that a change from glyph bytes ga to gb sends, into _PICK:
    each zone's run of differing pages, neighbours joined when cheaper. Their count.
    Allocates nothing (it runs 288 times at start-up)."""
    span = _SPAN
    m = 0
    z = 0
    while z < 3:
        x = zones[z][0]
        lo = 255
        hi = 0
        p = 0
        while p < _CELL_PAGES:
            if ga[p * w + x] != gb[p * w + x]:
                if lo == 255:
                    lo = p
                hi = p
            p += 1
        span[2 * z] = lo
        span[2 * z + 1] = hi
        if lo != 255:
            _DIFF[m] = z
            m += 1
        z += 1
    if not m:
        return 0
    # every way of cutting the differing zones, in order, into groups of neighbours
    best = -1
    cuts = 0
    k = 0
    while k < (1 << (m - 1)):
        c = _groups(k, m, zones)
        if best < 0 or c < best:
            best = c
            cuts = k
        k += 1
    _groups(cuts, m, zones)
    n = 1
    while cuts:
        n += cuts & 1
        cuts >>= 1
    return n


def _groups(cuts, m, zones):
    """The m differing zones cut into groups where bit k of cuts is set (between the k-th
    and the next): their rectangles into _PICK; what they cost (_RECT_COST each)."""
    span = _SPAN
    cost = 0
    out = 0
    g = 0
    k = 0
    while k < m:
        if k == m - 1 or (cuts >> k) & 1:
            p0 = 255
            p1 = 0
            i = g
            while i <= k:
                z = _DIFF[i]
                if span[2 * z] < p0:
                    p0 = span[2 * z]
                if span[2 * z + 1] > p1:
                    p1 = span[2 * z + 1]
                i += 1
            c0 = zones[_DIFF[g]][0]
            c1 = zones[_DIFF[k]][1]
            _PICK[out] = c0
            _PICK[out + 1] = c1
            _PICK[out + 2] = p0
            _PICK[out + 3] = p1
            out += 4
            cost += (c1 - c0 + 1) * (p1 - p0 + 1) + _RECT_COST
            g = k + 1
        k += 1
    return cost


_GLYPHS = []   # [small, big]: _build_glyphs' tuples, built by the first SSD1306Display


# The running bar (its rows lit or dark; page 0 holds the bar alone, the rest of it stays
# dark), sent as it is, and page 0 for the framebuffer.
_BAR_SEND = (bytes((_CTRL_DATA,)) + bytes(_BAR_X1 - _BAR_X0 + 1),
             bytes((_CTRL_DATA,)) + bytes(((1 << _BAR_H) - 1,)) * (_BAR_X1 - _BAR_X0 + 1))
_BAR_PAGE = (bytes(_WIDTH),
             bytes(_BAR_X0) + _BAR_SEND[1][1:] + bytes(_WIDTH - 1 - _BAR_X1))
_BAR_WIN = bytes((_CTRL_CMD, _SET_COL_ADDR, _BAR_X0, _BAR_X1, _SET_PAGE_ADDR, 0, 0))  # page 0


def _glyph_of(c):
    if 48 <= c <= 57:
        return c - 48
    return 10 if c == 45 else _BLANK


def _put_uint(buf, i, v, width):
    """v (>= 0) in decimal at buf[i:], left-aligned in `width` characters (spaces after);
    digits beyond the width are dropped from the left. Returns nothing."""
    nd = 1
    t = v
    while t >= 10:
        t //= 10
        nd += 1
    if nd > width:
        nd = width
    k = nd - 1
    while k >= 0:
        buf[i + k] = 48 + v % 10
        v //= 10
        k -= 1
    k = nd
    while k < width:
        buf[i + k] = 32
        k += 1


def _blank(buf, n):
    i = 0
    while i < n:
        buf[i] = 32
        i += 1


class SSD1306Display:
    """A SideView on an SSD1306 128x64 (layout above). Redraws only when view.version
    changed, only the parts that changed, and sends only the changed columns.

    render(view) draws and sends: draw() composes in the framebuffer (milliseconds of
    Python on an RP2040), finish() sends what changed. On a press the app first calls
    running_bar() on both displays as its LEDs switch (page 0, the running bar: both bars,
    which side runs, on the glass after about 270 bytes), then render() on the side that
    pressed, then on the other."""

    def __init__(self, i2c, addr=0x3C, external_vcc=False):
        self.oled = SSD1306(i2c, addr, external_vcc)
        self._version = -1
        self._pending = False            # drawn below the bar, not sent yet
        self._field = bytearray(8)       # scratch for small text
        self._shown = bytearray(8)       # time or text drawn in the main area
        self._main = _NONE               # 0: time, 1: text, _NONE: nothing yet
        self._big = _NONE                # digit size of the time drawn: 1 big, 0 small
        self.cell_x = bytearray(8)       # x of each time character drawn (_NO_X: none)
        self._cls = bytearray(8)         # class of each time character drawn
        self._nx = bytearray(8)          # scratch: new x positions
        self._run = _NONE                # the bar on the glass (1: lit, 0: dark)
        self._fbrun = _NONE              # the bar in the framebuffer (irq_bar leaves it)
        self._bar_late = _NONE           # the bar the view wants, left for finish() (draw)
        self._flag = _NONE
        self._delay = _NONE
        self._periods = _NONE
        self._moves = _NONE
        self._stage = _NONE
        self._passed = _NONE
        self._paused = _NONE
        self._batt = _NONE
        self._white = _NONE
        self._pair = None                # the pairing shown at set-up (view.pair), or None
        self._pkey = _NONE               # board and side they were drawn for
        self._ctl = 0                    # the control on the status line at set-up (bytes),
                                         # None: not shown, 0: not known (draw afresh)
        self._lit = False                # the self-test lit every pixel
        self._cleared = False            # this draw cleared the main area (a new layout)
        self._ncells = 0                 # digit cells drawn, to be sent by finish():
        self._cellx = bytearray(8)       # their x
        self._cellg = bytearray(8)       # their glyph (+ 16: big)
        self._cello = bytearray(8)       # the glyph they held
        self.stop = None                 # the app's "a lever closed": finish() stops early
        self.unsent = False              # finish() stopped early, or draw() did: the rest
                                         # waits for the next render()
        self._bailed = False             # draw() stopped before the main area (stop)
        if not _GLYPHS:
            small = _build_glyphs(0)   # both or neither (a MemoryError between them)
            _GLYPHS.extend((small, _build_glyphs(1)))

    def render(self, view):
        self.draw(view)
        self.finish()

    def show_press(self, app, lever):
        """The app's (App._levers), as the engine has just taken a press of this display's
        lever: the pressing side's new time (its increment in it) on the glass now, before
        the rest of the pass and refresh() work out both views (refresh() then finds it
        drawn). Only where refresh() would show the time (a clock running, no seal,
        message or self-test), else left to it. Here, not in the app: only this display
        has it, and a build without it does not carry its code."""
        c = app.clock
        if c.state != RUNNING or app.seal.phase or app.restore_failed:
            return
        side = app.side_of_lever(lever)
        if c.turn == side:
            return   # not taken (a menu, the waiting side's lever): nothing changed
        v = app.views[lever]
        if not v.text_on and app._time(v, c, lever, side) and not self.show_time(v.time):
            v.forget()   # its layout changes: refresh() draws the time

    def show_time(self, t):
        """A press's new time `t` (the view's, 8 bytes) on the glass at once, before the
        view is worked out and drawn: the digits whose glass differs, each from its glyph's
        prepared bytes, then the framebuffer. Only when the layout stands and only digits
        changed into digits (render() does the rest, and finds these drawn); False when it
        left the time to render(). Cells a stopped finish() left are sent with them, from
        the glyph the glass still holds. Allocates nothing (it may run in the lever
        interrupt). (Lean: on the M0+ each bytecode here is time in front of the digits.)"""
        if self._main != 0 or self._lit:
            return False   # no time on the glass (text, a new layout, the self-test)
        shown = self._shown
        chg = self._nx     # scratch: the positions to send
        m = 0
        i = 0
        while i < 8:
            a = t[i]
            if a != shown[i]:
                if a < 48 or a > 57 or shown[i] < 48 or shown[i] > 57:
                    return False
                chg[m] = i
                m += 1
            i += 1
        nc = self._ncells
        if nc:   # cells a stopped finish() left: the glass holds their old glyph
            self._ncells = 0
            j = 0
            while j < nc:
                i = 0
                while i < 8 and self.cell_x[i] != self._cellx[j]:
                    i += 1
                if i == 8 or t[i] < 48 or t[i] > 57:
                    self._ncells = nc
                    return False   # (not a digit of t: render() sends it)
                k = 0
                while k < m and chg[k] != i:
                    k += 1
                if k == m:
                    chg[m] = i
                    m += 1
                j += 1
        tab = _GLYPHS[self._big]
        tn = tab[1]
        tr = tab[2]
        geo = tab[3]
        rk = tab[4]
        o = self.oled
        k = 0
        while k < m:   # the bytes first: what the player waits for
            i = chg[k]
            x = self.cell_x[i]
            g = t[i] - 48
            was = shown[i] - 48
            j = 0
            while j < nc:
                if self._cellx[j] == x:
                    was = self._cello[j]
                    break
                j += 1
            u = was * 12 + g
            r = tr[u]
            end = r + tn[u]
            data = tab[5][g]
            while r < end:
                j = r << 2
                o.send_rect(x + geo[j], x + geo[j + 1], _CELL_P0 + geo[j + 2],
                            _CELL_P0 + geo[j + 3], data[rk[r]], 1)
                r += 1
            k += 1
        w = BIG_W if self._big else SMALL_W
        fb = o.buffer
        k = 0
        while k < m:   # then the framebuffer, as the glass is
            i = chg[k]
            shown[i] = t[i]
            pages = tab[0][t[i] - 48]
            j = _CELL_P0 * _WIDTH + self.cell_x[i]
            p = 0
            while p < _CELL_PAGES:
                fb[j:j + w] = pages[p]
                j += _WIDTH
                p += 1
            k += 1
        return True

    def _forget(self):
        """The screen no longer holds what was drawn (the self-test lit it all): the next
        draw starts afresh."""
        self._main = _NONE
        self._big = _NONE
        self._forget_cells()
        self._run = self._fbrun = self._flag = self._delay = self._periods = _NONE
        self._bar_late = _NONE
        self._moves = _NONE
        self._stage = self._passed = self._paused = self._batt = self._white = _NONE
        self._pair = None
        self._pkey = _NONE
        self._ctl = 0

    def running_bar(self, on, view):
        """The running bar alone for `on` (view.running to be), sent now if it changed;
        draw() sends it otherwise. The app calls it as its LEDs switch: both bars on the
        glass before either view is worked out or either display drawn. The bytes go first,
        the constant bar through send_rect (a one-page window is the same in either
        addressing mode), and the framebuffer after: ~0.7 ms less of the M0+ in front of
        each bar than painting, marking and sending (docs/BENCHMARKS.md)."""
        v = 1 if on else 0
        if view.test or self._lit:
            return   # (test, lit: the self-test's screen and the one after: draw() does all)
        if v != self._run:
            self.oled.send_rect(_BAR_X0, _BAR_X1, 0, 0, _BAR_SEND[v])
            self._run = v
        self._bar_to_buffer()

    def irq_bar(self, on, later, held):
        """The running bar for `on`, sent from the lever interrupt: the two constants only,
        nothing allocated, the framebuffer left to the loop (running_bar, draw). On a bus
        the loop holds (SharedI2C.busy) it leaves `later` (the caller's function that calls
        this again) to run as the bus comes free, `held` True then. A bus error leaves the
        bar to the loop."""
        v = 1 if on else 0
        if v == self._run or self._lit:
            return
        o = self.oled
        bus = o.i2c
        if bus.busy and not held:
            bus.waiting = later
            return
        try:
            i2c = bus.i2c   # the bus itself: the loop is not using it (busy) or is waiting
            i2c.writeto(o.addr, _BAR_WIN)
            i2c.writeto(o.addr, _BAR_SEND[v])
            self._run = v
        except Exception:   # (never out of an interrupt handler: it would be disabled)
            self._run = _NONE

    def shares_bus(self):
        """True on a SharedI2C: irq_bar may be called from an interrupt."""
        return self.oled._shared

    def _bar_to_buffer(self):
        # page 0 in the framebuffer as on the glass, once the bar went out (irq_bar)
        if self._fbrun != self._run and self._run != _NONE:
            self._fbrun = self._run
            o = self.oled
            o.buffer[0:_WIDTH] = _BAR_PAGE[self._run]   # page 0 holds the bar alone
            o.dmask[0] = 0

    def _paint_bar(self, v):
        """The bar (v: 1 lit) in the framebuffer when which side runs changed; True if it
        did."""
        self._bar_to_buffer()
        if v == self._run:
            return False
        self._run = self._fbrun = v
        o = self.oled
        o.buffer[0:_WIDTH] = _BAR_PAGE[v]   # page 0 holds the bar alone
        o._mark(0, _BAR_X0, _BAR_X1)
        return True

    def _send_bar(self):
        o = self.oled
        if o.dlo[0] < _BAR_X0 or o.dhi[0] > _BAR_X1:
            o.update(0, 0)   # more of page 0 changed (a clean screen): from the framebuffer
            return
        # only the bar: one of two constants, sent as it is, no copy
        o.dmask[0] = 0
        o.send_rect(_BAR_X0, _BAR_X1, 0, 0, _BAR_SEND[self._run])

    def finish(self):
        """Send what draw() left (everything below the bar): the digits that changed, each
        the rectangles of its cell that differ from the glyph it held (_build_glyphs), one
        window and one data write each, straight from bytes prepared; then the rest.
        When `stop` (set by the app: a lever closed) says so between two parts, the rest
        waits, and `unsent` says so: a press's bars need not wait for a running second's
        three digits (~9 ms of bus) to go out first."""
        if self._bailed:   # draw() left the view for the next render(): nothing is sent
            self.unsent = True
            return
        n = self._ncells
        stop = self.stop
        if n:
            self._ncells = 0     # (a bus error drops the rest, as it did)
            o = self.oled
            i = 0
            while i < n:
                if stop is not None and stop():
                    k = 0        # the rest to the front, for the next finish()
                    while i < n:
                        self._cellx[k] = self._cellx[i]
                        self._cellg[k] = self._cellg[i]
                        self._cello[k] = self._cello[i]
                        k += 1
                        i += 1
                    self._ncells = k
                    self.unsent = True
                    return
                g = self._cellg[i]
                tab = _GLYPHS[g >> 4]
                g &= 15
                t = self._cello[i] * 12 + g
                k = tab[2][t]
                end = k + tab[1][t]
                geo = tab[3]
                rk = tab[4]
                data = tab[5][g]
                x = self._cellx[i]
                while k < end:
                    j = k << 2
                    o.send_rect(x + geo[j], x + geo[j + 1], _CELL_P0 + geo[j + 2],
                                _CELL_P0 + geo[j + 3], data[rk[k]], 1)
                    k += 1
                i += 1
        if self._pending:
            if n and stop is not None and stop():
                self.unsent = True
                return
            self._pending = False
            self.oled.update(1, _PAGES - 1)
        late = self._bar_late
        if late != _NONE:   # the bar draw() left as the glass had it (a lever waited)
            if stop is not None and stop():
                self.unsent = True
                return
            self._bar_late = _NONE
            if self._paint_bar(late):
                self._send_bar()
        self.unsent = False

    def draw(self, view):
        if view.version == self._version:
            return
        self._version = view.version
        self._pending = True
        self._cleared = False
        self._bailed = False
        o = self.oled
        if view.test:   # the self-test: every pixel lit
            o.fill(1)
            self._forget()
            self._lit = True
            o.update(0, 0)
            return
        if self._lit:   # after the self-test: a clean screen, every part drawn again
            self._lit = False
            o.fill(0)
        f = self._field
        v = 1 if view.running else 0
        if v != self._run and self._run != _NONE and self.stop is not None and self.stop():
            # A lever closed and waits: the interrupt may have switched the bar for its press
            # already (irq_bar), and this view is from before that press. Drawn as it is, the
            # bar would flick back, and again once the press is taken, two bars' bus time in
            # front of the new time. It stays as the glass has it; finish() puts it right
            # should the press not change the view.
            self._bar_late = v
            v = self._run
        else:
            self._bar_late = _NONE
        self._paint_bar(v)
        # status line (or the pairing, the control at set-up)
        pair = view.pair if view.idle else None
        ctl = view.ctl if view.idle else None
        if pair is not None and not view.cycle:
            ctl = None   # with a pairing the status line shows in turn its board, the control
        paired = self._pairing(pair, view)
        if not self._control_line(ctl, pair) and not paired:
            v = 1 if view.stage_passed else 0
            if view.stage != self._stage or v != self._passed:
                self._stage = view.stage
                self._passed = v
                _blank(f, 4)
                if view.stage > 0:
                    f[0] = 83  # S
                    _put_uint(f, 1, view.stage, 2)
                    if v:  # '+' right after the number
                        f[2 if view.stage < 10 else 3] = 43
                o.text(f, _X_STAGE, _STATUS_Y, 4)
            if view.moves != self._moves:
                self._moves = view.moves
                _blank(f, 5)
                if view.moves >= 0:
                    f[0] = 77  # M
                    _put_uint(f, 1, view.moves, 4)
                o.text(f, _X_MOVES, _STATUS_Y, 5)
            if view.periods != self._periods:
                self._periods = view.periods
                _blank(f, 4)
                if view.periods >= 0:
                    f[0] = 66  # B
                    f[1] = 89  # Y
                    _put_uint(f, 2, view.periods, 2)
                o.text(f, _X_BYO, _STATUS_Y, 4)
        v = 1 if view.paused else 0
        if v != self._paused:
            self._paused = v
            o.fill_rect(_X_PAUSE, _STATUS_Y, 7, 7, 0)
            if v:
                o.fill_rect(_X_PAUSE, _STATUS_Y, 2, 7, 1)
                o.fill_rect(_X_PAUSE + 4, _STATUS_Y, 2, 7, 1)
        v = 1 if view.battery_low else 0
        if v != self._batt:
            self._batt = v
            o.fill_rect(_X_BATT, _STATUS_Y, _WIDTH - _X_BATT, 7, 0)
            if v:
                o.fill_rect(_X_BATT, _STATUS_Y, 17, 7, 1)          # outline
                o.fill_rect(_X_BATT + 1, _STATUS_Y + 1, 15, 5, 0)
                o.fill_rect(_X_BATT + 17, _STATUS_Y + 2, 2, 3, 1)  # terminal
                o.fill_rect(_X_BATT + 2, _STATUS_Y + 2, 3, 3, 1)   # what is left
        if self.stop is not None and self.stop():
            # A lever closed: its press's new time goes first (App._show_press). The main
            # area and the bottom line, a running second's milliseconds of the M0+, are
            # drawn by the next render() (the app calls it while `unsent`).
            self._version = -1
            self._bailed = True
            return
        # main area
        if view.text_on:
            self._render_text(view.text)
        else:
            self._render_time(view.time)
        # bottom line
        if pair is None:
            if view.flag != self._flag:
                self._flag = view.flag
                o.fill_rect(_X_FLAG, _BOTTOM_Y, 8, 8, 0)
                _blank(f, 3)
                if view.flag:
                    o.fill_rect(_X_FLAG, _BOTTOM_Y, 1, 8, 1)      # pole
                    o.fill_rect(_X_FLAG + 1, _BOTTOM_Y, 6, 4, 1)  # cloth
                    if view.flag == 1:
                        f[0] = 49  # 1ST
                        f[1] = 83
                        f[2] = 84
                    else:
                        f[0] = 50  # 2ND
                        f[1] = 78
                        f[2] = 68
                o.text(f, _X_FLAG + 9, _BOTTOM_Y, 3)
            v = 1 if view.white else 0
            if v != self._white:
                self._white = v
                _blank(f, 5)
                if v:
                    f[0] = 87  # WHITE
                    f[1] = 72
                    f[2] = 73
                    f[3] = 84
                    f[4] = 69
                o.text(f, _X_WHITE, _BOTTOM_Y, 5)
            if view.delay_ds != self._delay:
                self._delay = view.delay_ds
                _blank(f, 6)
                if view.delay_ds >= 0:
                    f[0] = 68  # D
                    _delay_text(f, view.delay_ds)
                o.text(f, _X_DELAY, _BOTTOM_Y, 6)
        if o.dmask[0]:
            self._send_bar()   # the running bar first (see the class)

    def _pairing(self, pair, view):
        """The pairing at set-up in place of the status and bottom lines; True while it
        shows. The fields it covers are drawn again once it goes (game started)."""
        key = (1 if view.white else 0) if pair is not None else _NONE
        if pair is self._pair and key == self._pkey:
            return pair is not None
        self._pair = pair
        self._pkey = key
        self._ctl = 0
        o = self.oled
        o.fill_rect(0, _STATUS_Y, _X_PAUSE, 8, 0)
        o.fill_rect(0, _BOTTOM_Y, _WIDTH, 8, 0)
        self._stage = self._moves = self._periods = _NONE
        self._flag = self._white = self._delay = _NONE
        if pair is None:
            return False
        line = b"BOARD %d" % pair[0]
        o.text(line, 0, _STATUS_Y)
        line = (b"WHITE " if view.white else b"BLACK ") + pair[1 if view.white else 2]
        o.text(line, 0, _BOTTOM_Y, min(len(line), _WIDTH // 6))
        return True

    def _control_line(self, ctl, pair):
        """The control at set-up (view.ctl) on the status line, as much as fits before the
        pause mark (15 characters); True while it shows. Otherwise the pairing's board, or
        the status fields, drawn again."""
        if ctl is self._ctl:
            return ctl is not None
        self._ctl = ctl
        o = self.oled
        o.fill_rect(0, _STATUS_Y, _X_PAUSE, 8, 0)
        self._stage = self._moves = self._periods = _NONE
        if ctl is None:
            if pair is not None:
                o.text(b"BOARD %d" % pair[0], 0, _STATUS_Y)
            return False
        o.text(ctl, 0, _STATUS_Y, min(len(ctl), _X_PAUSE // 6))
        return True

    # ---- main area -------------------------------------------------------------------
    def _forget_cells(self):
        # no digit cell is on the glass: the next time is drawn whole
        self._ncells = 0
        i = 0
        while i < 8:
            self.cell_x[i] = _NO_X
            self._shown[i] = 32
            i += 1

    def _clear_main(self):
        self.oled.clear_pages(_MAIN_Y >> 3, (_MAIN_Y + _MAIN_H - 1) >> 3)
        self._cleared = True     # the whole area goes out with update(): no cell on its own
        self._forget_cells()

    def _render_text(self, t):
        o = self.oled
        shown = self._shown
        if self._main != 1:
            self._main = 1
            self._big = _NONE
            self._clear_main()
            i = 0
            while i < 8:
                shown[i] = 0  # force every cell
                i += 1
        n = len(t)
        if n > 8:
            n = 8
        i = 0
        while i < n:
            if t[i] != shown[i]:
                shown[i] = t[i]
                o.char(t[i], i * 16, _MAIN_Y + 8, 3)
            i += 1

    def _render_time(self, t):
        n = len(t)
        if n > 8:
            n = 8
        shown = self._shown
        if self._main == 0:
            # Only digits changed into digits (a running second, a press): the layout is
            # the same (spaces, ':' and '.' decide it), so skip working it out again.
            i = 0
            while i < n:
                a = t[i]
                b = shown[i]
                if a != b and (a == 32 or a == 58 or a == 46 or b == 32 or b == 58 or b == 46):
                    break
                i += 1
            if i == n:
                i = 0
                while i < n:
                    if t[i] != shown[i]:
                        b = shown[i]
                        shown[i] = t[i]
                        self._draw_char(t[i], self.cell_x[i], self._big, b)
                    i += 1
                return
        big = 0 if (n == 8 and t[2] == 58) else 1  # h:mm:ss needs the small digits
        if big:
            w = BIG_W
            th = BIG_T
            gap = BIG_GAP
        else:
            w = SMALL_W
            th = SMALL_T
            gap = SMALL_GAP
        # layout: classes and total width, then centred x of each character
        nx = self._nx
        cls = self._cls
        total = 0
        lead = True
        same = self._main == 0 and self._big == big
        i = 0
        while i < n:
            c = t[i]
            if lead and c == 32:
                k = _CLS_SKIP
            else:
                lead = False
                if c == 58:
                    k = _CLS_COLON
                elif c == 46:
                    k = _CLS_DOT
                else:
                    k = _CLS_DIGIT
            if k != cls[i]:
                same = False
                cls[i] = k
            if k == _CLS_DIGIT:
                total += w + gap
            elif k != _CLS_SKIP:
                total += th + gap
            i += 1
        if total:
            total -= gap
        x = (_WIDTH - total) // 2
        i = 0
        while i < n:
            k = cls[i]
            if k == _CLS_SKIP:
                nx[i] = _NO_X
            else:
                nx[i] = x
                x += (w if k == _CLS_DIGIT else th) + gap
            i += 1
        if not same:
            self._main = 0
            self._big = big
            self._clear_main()
            i = 0
            while i < 8:
                shown[i] = 0
                i += 1
        i = 0
        while i < n:
            if t[i] != shown[i]:
                was = shown[i]   # what the cell holds (unless the layout is new)
                shown[i] = t[i]
                self.cell_x[i] = nx[i]
                if cls[i] != _CLS_SKIP:
                    self._draw_char(t[i], nx[i], big, was)
            i += 1

    def _draw_char(self, c, x, big, was=32):
        o = self.oled
        if c == 58 or c == 46:   # ':' and '.': drawn once a layout (they never change)
            if big:
                h = BIG_H
                t = BIG_T
                y = _MAIN_Y
            else:
                h = SMALL_H
                t = SMALL_T
                y = _MAIN_Y + (_MAIN_H - SMALL_H) // 2
            if c == 58:
                o.fill_rect(x, y + h // 3 - t // 2, t, t, 1)
                o.fill_rect(x, y + (2 * h) // 3 - t // 2, t, t, 1)
            else:
                o.fill_rect(x, y + h - t, t, t, 1)
            return
        # A digit: its cell's bytes are the glyph's, whatever the cell held (nothing else
        # is drawn in a cell), copied page by page into the framebuffer; sent by finish()
        # from the glyph (the columns that changed), or with the area when it was cleared.
        g = _glyph_of(c)
        w = BIG_W if big else SMALL_W
        pages = _GLYPHS[big][0][g]
        fb = o.buffer
        i = _CELL_P0 * _WIDTH + x
        p = 0
        while p < _CELL_PAGES:
            fb[i:i + w] = pages[p]
            i += _WIDTH
            p += 1
        n = self._ncells
        if self._cleared or n == 8:
            p = _CELL_P0
            while p < _CELL_P0 + _CELL_PAGES:
                o._mark(p, x, x + w - 1)
                p += 1
            return
        g |= 16 if big else 0
        j = 0
        while j < n:   # the cell waits from a draw finish() stopped: the glass holds its old
            if self._cellx[j] == x:   # glyph still, so that is what the new one differs from
                self._cellg[j] = g
                return
            j += 1
        self._cellx[n] = x
        self._cellg[n] = g
        self._cello[n] = _glyph_of(was)
        self._ncells = n + 1


def _delay_text(f, ds):
    """"D" is in f[0]; the delay right-aligned in f[1:6]: "  4.5", " 12.0", " 1:05"."""
    if ds < 600:
        f[5] = 48 + ds % 10
        f[4] = 46
        s = ds // 10
        f[3] = 48 + s % 10
        f[2] = 48 + s // 10 if s >= 10 else 32
        f[1] = 32
    else:
        s = (ds + 9) // 10
        if s > 5999:
            s = 5999
        f[5] = 48 + s % 10
        f[4] = 48 + (s % 60) // 10
        f[3] = 58
        m = s // 60
        f[2] = 48 + m % 10
        f[1] = 48 + m // 10 if m >= 10 else 32
