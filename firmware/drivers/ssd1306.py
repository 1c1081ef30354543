# SSD1306 128x64 I2C OLED driver (micropython-lib style: one module, I2C object and address
# injected), with its own drawing primitives (no `framebuf` for them: not on every port,
# and its text() needs a str). The clock's screen is drawn on it by
# clockapp/displays/ssd1306.py.
#
# Memory (datasheet, horizontal addressing): 8 pages of 8 rows; byte page*128 + x holds
# column x of the page, bit 0 the top row. The framebuffer `buffer` is that layout, 1024
# bytes. Drawing marks the columns whose bytes it really changed: per page, which 8-column
# groups, and the first and last column. update() sends only those, as rectangles: a run of
# groups (cut to the exact first/last column), grown down over the next pages while that
# costs less than more rectangles; one column/page window command and one data write each
# (0x40 control byte in front, copied into a preallocated bytearray). show() sends
# everything; send_rect() sends bytes the caller prepared (a prebuilt glyph, a constant
# bar) as they are. Per-frame paths (fill_rect, pixel, text, update, send_rect) do not
# allocate. `framebuf` (C, on both MicroPython ports) copies update()'s rectangles into the
# send buffer with a blit; without it (CPython: the host's tests) a Python loop does, with
# the same bytes on the glass. On a SharedI2C (drivers/sharedi2c.py) a window command and
# its data are sent with the bus held between them.

from clockcore import const

try:
    import framebuf
except ImportError:  # CPython
    framebuf = None  # type: ignore[assignment]

# Commands (datasheet section 9).
SET_CONTRAST = const(0x81)
SET_ENTIRE_ON = const(0xA4)      # | 1: all pixels on, ignoring RAM
SET_NORM_INV = const(0xA6)       # | 1: inverted
SET_DISP = const(0xAE)           # | 1: display on
SET_MEM_ADDR = const(0x20)       # 0: horizontal addressing
SET_COL_ADDR = const(0x21)       # window: first, last column
SET_PAGE_ADDR = const(0x22)      # window: first, last page
SET_DISP_START_LINE = const(0x40)
SET_SEG_REMAP = const(0xA0)      # | 1: column 127 is SEG0
SET_MUX_RATIO = const(0xA8)
SET_COM_OUT_DIR = const(0xC0)    # | 8: scan COM[N-1] to COM0
SET_DISP_OFFSET = const(0xD3)
SET_COM_PIN_CFG = const(0xDA)
SET_DISP_CLK_DIV = const(0xD5)
SET_PRECHARGE = const(0xD9)
SET_VCOM_DESEL = const(0xDB)
SET_CHARGE_PUMP = const(0x8D)
DEACTIVATE_SCROLL = const(0x2E)
CTRL_CMD = const(0x00)           # control byte: commands follow
CTRL_DATA = const(0x40)          # control byte: display data follows

WIDTH = const(128)
HEIGHT = const(64)
PAGES = const(8)
_GROUPS = const(16)              # 8-column groups a page (dirty bits)
_ALL = const(0xFFFF)
_RECT = const(12)                # bus bytes a rectangle costs besides its data
_VIEWS = const(48)               # data lengths whose send buffers are kept

# 5x7 font, 5 column bytes a glyph (bit 0 on top), drawn in 6x8 cells. Lower case draws as
# upper case; anything missing draws blank.
_FONT_CHARS = b" 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.:+/!?*=<>_'%()#"
FONT = bytes((
    0x00, 0x00, 0x00, 0x00, 0x00,  # space
    0x3E, 0x51, 0x49, 0x45, 0x3E,  # 0
    0x00, 0x42, 0x7F, 0x40, 0x00,  # 1
    0x42, 0x61, 0x51, 0x49, 0x46,  # 2
    0x21, 0x41, 0x45, 0x4B, 0x31,  # 3
    0x18, 0x14, 0x12, 0x7F, 0x10,  # 4
    0x27, 0x45, 0x45, 0x45, 0x39,  # 5
    0x3C, 0x4A, 0x49, 0x49, 0x30,  # 6
    0x01, 0x71, 0x09, 0x05, 0x03,  # 7
    0x36, 0x49, 0x49, 0x49, 0x36,  # 8
    0x06, 0x49, 0x49, 0x29, 0x1E,  # 9
    0x7E, 0x11, 0x11, 0x11, 0x7E,  # A
    0x7F, 0x49, 0x49, 0x49, 0x36,  # B
    0x3E, 0x41, 0x41, 0x41, 0x22,  # C
    0x7F, 0x41, 0x41, 0x22, 0x1C,  # D
    0x7F, 0x49, 0x49, 0x49, 0x41,  # E
    0x7F, 0x09, 0x09, 0x09, 0x01,  # F
    0x3E, 0x41, 0x49, 0x49, 0x7A,  # G
    0x7F, 0x08, 0x08, 0x08, 0x7F,  # H
    0x00, 0x41, 0x7F, 0x41, 0x00,  # I
    0x20, 0x40, 0x41, 0x3F, 0x01,  # J
    0x7F, 0x08, 0x14, 0x22, 0x41,  # K
    0x7F, 0x40, 0x40, 0x40, 0x40,  # L
    0x7F, 0x02, 0x0C, 0x02, 0x7F,  # M
    0x7F, 0x04, 0x08, 0x10, 0x7F,  # N
    0x3E, 0x41, 0x41, 0x41, 0x3E,  # O
    0x7F, 0x09, 0x09, 0x09, 0x06,  # P
    0x3E, 0x41, 0x51, 0x21, 0x5E,  # Q
    0x7F, 0x09, 0x19, 0x29, 0x46,  # R
    0x46, 0x49, 0x49, 0x49, 0x31,  # S
    0x01, 0x01, 0x7F, 0x01, 0x01,  # T
    0x3F, 0x40, 0x40, 0x40, 0x3F,  # U
    0x1F, 0x20, 0x40, 0x20, 0x1F,  # V
    0x3F, 0x40, 0x38, 0x40, 0x3F,  # W
    0x63, 0x14, 0x08, 0x14, 0x63,  # X
    0x07, 0x08, 0x70, 0x08, 0x07,  # Y
    0x61, 0x51, 0x49, 0x45, 0x43,  # Z
    0x08, 0x08, 0x08, 0x08, 0x08,  # -
    0x00, 0x60, 0x60, 0x00, 0x00,  # .
    0x00, 0x36, 0x36, 0x00, 0x00,  # :
    0x08, 0x08, 0x3E, 0x08, 0x08,  # +
    0x20, 0x10, 0x08, 0x04, 0x02,  # /
    0x00, 0x00, 0x5F, 0x00, 0x00,  # !
    0x02, 0x01, 0x51, 0x09, 0x06,  # ?
    0x2A, 0x1C, 0x7F, 0x1C, 0x2A,  # *
    0x14, 0x14, 0x14, 0x14, 0x14,  # =
    0x08, 0x14, 0x22, 0x41, 0x00,  # <
    0x00, 0x41, 0x22, 0x14, 0x08,  # >
    0x40, 0x40, 0x40, 0x40, 0x40,  # _
    0x00, 0x00, 0x07, 0x00, 0x00,  # '
    0x23, 0x13, 0x08, 0x64, 0x62,  # %
    0x00, 0x1C, 0x22, 0x41, 0x00,  # (
    0x00, 0x41, 0x22, 0x1C, 0x00,  # )
    0x14, 0x7F, 0x14, 0x7F, 0x14,  # #
))
FONT_INDEX = bytearray(128)  # ASCII -> glyph number (0: blank)
for _i in range(len(_FONT_CHARS)):
    FONT_INDEX[_FONT_CHARS[_i]] = _i
for _i in range(26):
    FONT_INDEX[97 + _i] = FONT_INDEX[65 + _i]
del _i



def glyph_column(c, col):
    """Column col (0..4) of the glyph for ASCII code c: what text() writes."""
    return FONT[FONT_INDEX[c & 0x7F] * 5 + col]


def _cost(m, pages):
    """About what sending groups m over `pages` pages costs, in bus bytes: the data, and
    12 a rectangle (the window command, the data write's control byte, addresses, start
    and stop)."""
    n = 0
    runs = 0
    was = 0
    while m:
        b = m & 1
        n += b
        if b and not was:
            runs += 1
        was = b
        m >>= 1
    return pages * n * 8 + runs * _RECT


class SSD1306:
    """SSD1306 128x64 on I2C; `i2c` has writeto(addr, buf). Clears the panel on init."""

    def __init__(self, i2c, addr=0x3C, external_vcc=False):
        self.i2c = i2c
        self._shared = hasattr(i2c, "hold")   # a SharedI2C: hold it across window and data
        self.addr = addr
        self.external_vcc = external_vcc
        self.width = WIDTH
        self.height = HEIGHT
        self.buffer = bytearray(WIDTH * PAGES)
        self.dmask = [0] * PAGES         # per page: bit g set when columns 8g..8g+7 changed
        self.dlo = bytearray(PAGES)      # first changed column of each page (mask not 0)
        self.dhi = bytearray(PAGES)      # last changed column
        self._win = bytearray((CTRL_CMD, SET_COL_ADDR, 0, WIDTH - 1, SET_PAGE_ADDR, 0, 0))
        # the same with the addressing mode first, when it changes (_window)
        self._mwin = bytearray((CTRL_CMD, SET_MEM_ADDR, 0, SET_COL_ADDR, 0, WIDTH - 1,
                                SET_PAGE_ADDR, 0, 0))
        self._mode = 0                   # the panel's addressing: 0 horizontal, 1 vertical
        self._cmd1 = bytearray((CTRL_CMD, 0))
        self._cmd2 = bytearray((CTRL_CMD, 0, 0))
        self._out = bytearray(1 + WIDTH * PAGES)   # 0x40 and the data of one rectangle
        self._out[0] = CTRL_DATA
        self._outmv = memoryview(self._out)
        self._views = {}                 # length -> memoryview of _out (see _view)
        self._rows = {}                  # start | end << 10 -> memoryview of buffer (_send)
        self._bufmv = memoryview(self.buffer)
        self.sent = 0                    # data bytes sent (benchmarks, tests)
        self.fb = None                   # framebuf over buffer (None: Python loops)
        self._blits = {}                 # width | pages << 8 -> FrameBuffer over _out[1:]
        if framebuf is not None:
            self.fb = framebuf.FrameBuffer(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
            self._body = self._outmv[1:]
            self._page_fb = framebuf.FrameBuffer(self._body, WIDTH, 8, framebuf.MONO_VLSB)
        self._page_out = self._outmv[:WIDTH + 1]   # 0x40 and one page (_send_pages)
        self.init_display()

    def init_display(self):
        ext = self.external_vcc
        self.i2c.writeto(self.addr, bytes((
            CTRL_CMD,
            SET_DISP,                      # off
            SET_MEM_ADDR, 0x00,            # horizontal addressing (see _window)
            SET_DISP_START_LINE,           # start line 0
            SET_SEG_REMAP | 0x01,          # column 127 mapped to SEG0
            SET_MUX_RATIO, HEIGHT - 1,
            SET_COM_OUT_DIR | 0x08,        # scan from COM[N-1] to COM0
            SET_DISP_OFFSET, 0x00,
            SET_COM_PIN_CFG, 0x12,         # alternative COM pins (128x64)
            SET_DISP_CLK_DIV, 0x80,        # reset divide ratio and oscillator
            SET_PRECHARGE, 0x22 if ext else 0xF1,
            SET_VCOM_DESEL, 0x30,          # 0.83 Vcc
            SET_CONTRAST, 0xFF,
            SET_ENTIRE_ON,                 # follow RAM
            SET_NORM_INV,                  # not inverted
            SET_CHARGE_PUMP, 0x10 if ext else 0x14,
            DEACTIVATE_SCROLL,
            SET_DISP | 0x01,               # on
        )))
        self._mode = 0
        self.fill(0)
        self.update()

    # ---- commands --------------------------------------------------------------------
    def _command(self, cmd):
        c = self._cmd1
        c[1] = cmd
        self.i2c.writeto(self.addr, c)

    def poweroff(self):
        self._command(SET_DISP)

    def poweron(self):
        self._command(SET_DISP | 0x01)

    def contrast(self, v):
        c = self._cmd2
        c[1] = SET_CONTRAST
        c[2] = v & 0xFF
        self.i2c.writeto(self.addr, c)

    def invert(self, on):
        self._command(SET_NORM_INV | (1 if on else 0))

    # ---- sending ---------------------------------------------------------------------
    def show(self):
        """Send the whole framebuffer (page by page)."""
        self._all_dirty()
        self.update()

    def update(self, first=0, last=PAGES - 1):
        """Send what changed in pages first..last since it was last sent; nothing when
        nothing changed. Each run of changed 8-column groups of a page is a rectangle
        (its ends cut to the exact columns at the page's edges), and a run that is the
        same on the next pages grows down over them while that sends less than a new
        rectangle would (_cost): one window, one data write each."""
        mask = self.dmask
        lo = self.dlo
        hi = self.dhi
        p = first
        while p <= last:
            m = mask[p]
            if not m:
                p += 1
                continue
            a = lo[p]
            b = hi[p]
            q = p
            cost = _cost(m, 1)
            while q < last and mask[q + 1]:
                n = mask[q + 1]
                # one rectangle over more pages, or a new one: whichever sends less
                grown = _cost(m | n, q - p + 2)
                if grown > cost + _cost(n, 1):
                    break
                cost = grown
                m |= n
                q += 1
                if lo[q] < a:
                    a = lo[q]
                if hi[q] > b:
                    b = hi[q]
            g = 0
            while g < _GROUPS:
                if (m >> g) & 1:
                    e = g
                    while e + 1 < _GROUPS and (m >> (e + 1)) & 1:
                        e += 1
                    x0 = g << 3
                    x1 = (e << 3) + 7
                    self._send(p, q, a if a > x0 else x0, b if b < x1 else x1)
                    g = e + 1
                else:
                    g += 1
            while p <= q:
                mask[p] = 0
                p += 1

    def _window(self, x0, x1, p0, p1, mode):
        """The window the next data fills: columns x0..x1 of pages p0..p1, page after page
        (mode 0, horizontal addressing) or column after column (1, vertical: a digit's glyph,
        whose columns can then be cut); the mode command only when it changes."""
        self.i2c.writeto(self.addr, self._window_cmd(x0, x1, p0, p1, mode))

    def _window_cmd(self, x0, x1, p0, p1, mode):
        """The command bytes of _window, filled in place (the mode's only when it changes)."""
        if mode == self._mode:
            w = self._win
            k = 0
        else:
            self._mode = mode
            w = self._mwin
            w[2] = mode
            k = 2
        w[k + 2] = x0
        w[k + 3] = x1
        w[k + 5] = p0
        w[k + 6] = p1
        return w

    def _send(self, p0, p1, x0, x1):
        # a window and its data: the bus held between them (a SharedI2C: an interrupt's
        # bytes would land in this window)
        if self._shared:
            bus = self.i2c
            bus.hold()
            try:
                self._send_window(p0, p1, x0, x1)
            finally:
                bus.release()
        else:
            self._send_window(p0, p1, x0, x1)

    def _send_window(self, p0, p1, x0, x1):
        try:
            self._send_cut(p0, p1, x0, x1)
        except MemoryError:
            # a view not made yet, with the heap locked (in the lever interrupt, see
            # clockapp App._take_parked): the pages whole, from views made at the start
            self._send_pages(p0, p1)

    def _send_pages(self, p0, p1):
        p = p0
        while p <= p1:
            self._window(0, WIDTH - 1, p, p, self._mode)   # one page: either mode
            out = self._out
            if self.fb is not None:
                self._page_fb.blit(self.fb, 0, -8 * p)
            else:
                fb = self.buffer
                src = p * WIDTH - 1
                j = 1
                while j <= WIDTH:
                    out[j] = fb[src + j]
                    j += 1
            self.i2c.writeto(self.addr, self._page_out)
            self.sent += WIDTH
            p += 1

    def _send_cut(self, p0, p1, x0, x1):
        self._window(x0, x1, p0, p1, 0 if p0 < p1 else self._mode)
        a = p0 * WIDTH + x0
        if a and (p0 == p1 or (x0 == 0 and x1 == WIDTH - 1)):
            # One page, or whole rows (a new layout's main area): the bytes lie in a row in
            # the framebuffer. Sent from there, the byte before them standing in for the
            # 0x40 meanwhile: no copy.
            b = p1 * WIDTH + x1 + 1
            key = a | (b << 10)
            v = self._rows.get(key)
            if v is None:
                v = self._bufmv[a - 1:b]
                if len(self._rows) < _VIEWS:
                    self._rows[key] = v
            fb = self.buffer
            keep = fb[a - 1]
            fb[a - 1] = CTRL_DATA
            try:
                self.i2c.writeto(self.addr, v)
            finally:
                fb[a - 1] = keep
            self.sent += b - a
            return
        if self.fb is not None:
            # framebuf's blit: the window's columns, page after page, into _out[1:]
            n = x1 - x0 + 1
            key = n | ((p1 - p0 + 1) << 8)
            dst = self._blits.get(key)
            if dst is None:
                dst = framebuf.FrameBuffer(self._body, n, (p1 - p0 + 1) * 8,
                                           framebuf.MONO_VLSB)
                if len(self._blits) < _VIEWS:
                    self._blits[key] = dst
            dst.blit(self.fb, -x0, -8 * p0)
            n = n * (p1 - p0 + 1)
            self.sent += n
            self.i2c.writeto(self.addr, self._view(n + 1))
            return
        out = self._out
        fb = self.buffer
        j = 1
        p = p0
        while p <= p1:
            src = p * WIDTH + x0 - j
            end = j + x1 - x0
            while j <= end:
                out[j] = fb[src + j]
                j += 1
            p += 1
        self.sent += j - 1
        self.i2c.writeto(self.addr, self._view(j))

    def send_rect(self, x0, x1, p0, p1, data, mode=0):
        """Send `data` (0x40, then the window's bytes in `mode`'s order, see _window) to
        columns x0..x1 of pages p0..p1 as it is: the caller has put the same bytes in the
        framebuffer (a prebuilt glyph, a constant bar), so nothing is copied and nothing is
        marked. One page is the same in both orders."""
        w = self._window_cmd(x0, x1, p0, p1, mode if p0 < p1 else self._mode)
        if self._shared:
            # held once for both writes, which go to the bus itself: a digit's cell is
            # sooner than through _window and SharedI2C.writeto (fewer calls of the M0+)
            bus = self.i2c
            bus.busy += 1
            try:
                i2c = bus.i2c
                i2c.writeto(self.addr, w)
                i2c.writeto(self.addr, data)
            finally:
                bus.release()
        else:
            self.i2c.writeto(self.addr, w)
            self.i2c.writeto(self.addr, data)
        self.sent += len(data) - 1

    def _view(self, n):
        # The first n bytes of _out. A slice allocates, so the few lengths a display uses
        # again and again (a digit's rectangle, the bar) are kept: no allocation once warm.
        v = self._views.get(n)
        if v is None:
            v = self._outmv[:n]
            if len(self._views) < _VIEWS:
                self._views[n] = v
        return v

    # ---- drawing ---------------------------------------------------------------------
    def _mark(self, page, x0, x1):
        # columns x0..x1 of a page changed: their 8-column groups, and the page's extremes
        m = self.dmask[page]
        if not m or x0 < self.dlo[page]:
            self.dlo[page] = x0
        if not m or x1 > self.dhi[page]:
            self.dhi[page] = x1
        self.dmask[page] = m | (((2 << (x1 >> 3)) - 1) ^ ((1 << (x0 >> 3)) - 1))

    def fill(self, c):
        v = 0xFF if c else 0
        fb = self.buffer
        i = 0
        while i < WIDTH * PAGES:
            fb[i] = v
            i += 1
        self._all_dirty()

    def _all_dirty(self):
        p = 0
        while p < PAGES:
            self.dmask[p] = _ALL
            self.dlo[p] = 0
            self.dhi[p] = WIDTH - 1
            p += 1

    def pixel(self, x, y, c):
        if x < 0 or x >= WIDTH or y < 0 or y >= HEIGHT:
            return
        i = (y >> 3) * WIDTH + x
        old = self.buffer[i]
        if c:
            new = old | (1 << (y & 7))
        else:
            new = old & ~(1 << (y & 7))
        if new != old:
            self.buffer[i] = new
            self._mark(y >> 3, x, x)

    def get_pixel(self, x, y):
        return (self.buffer[(y >> 3) * WIDTH + x] >> (y & 7)) & 1

    def fill_rect(self, x, y, w, h, c):
        x1 = x + w - 1
        y1 = y + h - 1
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        if x1 >= WIDTH:
            x1 = WIDTH - 1
        if y1 >= HEIGHT:
            y1 = HEIGHT - 1
        if x > x1 or y > y1:
            return
        fb = self.buffer
        p = y >> 3
        while p <= (y1 >> 3):
            top = y - p * 8 if y > p * 8 else 0
            bot = y1 - p * 8 if y1 < p * 8 + 7 else 7
            mask = (0xFF << top) & (0xFF >> (7 - bot)) & 0xFF
            i = p * WIDTH + x
            end = p * WIDTH + x1
            lo = -1
            hi = -1
            while i <= end:
                old = fb[i]
                new = (old | mask) if c else (old & ~mask)
                if new != old:
                    fb[i] = new
                    if lo < 0:
                        lo = i
                    hi = i
                i += 1
            if lo >= 0:
                self._mark(p, lo - p * WIDTH, hi - p * WIDTH)
            p += 1

    def clear_pages(self, p0, p1):
        """Pages p0..p1 dark and marked whole (a new layout of the main area: it goes out
        in one window of whole rows, see _send), without comparing byte by byte."""
        if self.fb is not None:
            self.fb.fill_rect(0, p0 * 8, WIDTH, (p1 - p0 + 1) * 8, 0)
        else:
            fb = self.buffer
            i = p0 * WIDTH
            end = (p1 + 1) * WIDTH
            while i < end:
                fb[i] = 0
                i += 1
        p = p0
        while p <= p1:
            self.dmask[p] = _ALL
            self.dlo[p] = 0
            self.dhi[p] = WIDTH - 1
            p += 1

    def text(self, chars, x, y, n=-1, scale=1):
        """Draw the first n (all: -1) ASCII codes of bytes-like `chars` at x, y: cells of
        5 * scale + 1 by 8 * scale pixels (6x8, 16x24 at 3x), opaque: each cell's
        background is cleared."""
        if n < 0:
            n = len(chars)
        k = 0
        while k < n:
            self.char(chars[k], x + k * (5 * scale + 1), y, scale)
            k += 1

    def char(self, c, x, y, scale=1):
        g = FONT_INDEX[c & 0x7F] * 5
        if scale == 1 and (y & 7) == 0 and 0 <= y < HEIGHT:
            fb = self.buffer
            base = (y >> 3) * WIDTH
            col = 0
            lo = -1
            hi = -1
            while col < 6:
                cx = x + col
                if 0 <= cx < WIDTH:
                    new = FONT[g + col] if col < 5 else 0
                    if fb[base + cx] != new:
                        fb[base + cx] = new
                        if lo < 0:
                            lo = cx
                        hi = cx
                col += 1
            if lo >= 0:
                self._mark(y >> 3, lo, hi)
            return
        self.fill_rect(x, y, 5 * scale + 1, 8 * scale, 0)
        col = 0
        while col < 5:
            bits = FONT[g + col]
            row = 0
            while bits:
                if bits & 1:
                    if scale == 1:
                        self.pixel(x + col, y + row, 1)
                    else:
                        self.fill_rect(x + col * scale, y + row * scale, scale, scale, 1)
                bits >>= 1
                row += 1
            col += 1
