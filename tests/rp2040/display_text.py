"""Text on the emulated displays (menus, messages), read back from the models' snapshots.

displays.py reads the time; this reads what the app puts in view.text (a menu's item on the
left display, its value on the right, a message): 8 characters, right-aligned.
TM1637: the four digits hold the text's last four characters, as
clockapp/displays/tm1637.py says a module shows text: a ':' is its colon (not a digit's
place), a number's unit at the end ("+3s", "7m") is left out, and the menu's editing '*'
that the digits cut off ("*PrSt") lights the colon. SSD1306: the main area holds all eight
in the 5x7 font at 3x, 16-pixel cells from x 0, top row 24 (the layout in
clockapp/displays/ssd1306.py). The glyph tables (which 7-segment shape or 5x7 glyph a character
gets, e.g. 'W' blank on 7 segments, lower case as upper case on the OLED) are the drivers'
own: what is checked here is which text the firmware puts on which display and that it
gets there over the wire, not how a letter is drawn (tests/core/test_displays.py).
"""

from displays import ssd1306_ram

from drivers import ssd1306 as OLED
from drivers import tm1637 as TM

TEXT_LEN = 8
_CELL = 16       # pixels a character takes at 3x (5 * 3 + 1)
_TOP = 24        # first row of the text (main area 16 + 8)
_SCALE = 3


def _glyph(c):
    return tuple(OLED.glyph_column(ord(c), col) for col in range(5))


# 5x7 glyph -> character; upper case and ' ' win over what draws the same
_GLYPHS = {}
for _c in " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.:+/!?*=<>_'%()#":
    _GLYPHS.setdefault(_glyph(_c), _c)
# 7-segment shape -> character, the same way (the first in this order wins)
_SHAPES = {}
for _c in " 0123456789-AbCdEFGHIJLnOPqrStUyZacehilou_=*?":
    _SHAPES.setdefault(TM.segment(ord(_c)), _c)
del _c


def _fit(text):
    """The app's 8-character buffer for `text` (menu._put: right-aligned, the tail kept)."""
    return text[-TEXT_LEN:].rjust(TEXT_LEN)


def oled_text(snap):
    """The eight text cells of an SSD1306's main area as characters ('?': no glyph)."""
    ram = ssd1306_ram(snap)
    out = []
    for i in range(TEXT_LEN):
        cols = []
        for col in range(5):
            x = i * _CELL + col * _SCALE + 1
            bits = 0
            for row in range(7):
                y = _TOP + row * _SCALE + 1
                if (ram[(y >> 3) * 128 + x] >> (y & 7)) & 1:
                    bits |= 1 << row
            cols.append(bits)
        out.append(_GLYPHS.get(tuple(cols), "?"))
    return "".join(out)


def tm1637_text(snap):
    """The module's four digits as characters ('?': a shape no character has), ':' after
    the second when the colon is lit."""
    ch = [_SHAPES.get(b & 0x7F, "?") for b in snap["segments"]]
    return ch[0] + ch[1] + (":" if snap["segments"][1] & 0x80 else "") + ch[2] + ch[3]


def _tm1637_visible(t):
    """The characters of the app's 8-character text a TM1637 shows (see the top)."""
    t = list(_fit(t))
    if t[-1] in "sm" and t[-2].isdigit():
        t.pop()
    digits = []
    colon = False
    while len(digits) < 4:
        c = t.pop() if t else " "
        if c == ":" and len(digits) == 2 and not colon:
            colon = True
            continue
        digits.insert(0, c)
    colon = colon or (t[-1:] == ["*"])
    return digits[:2] + [":"] * colon + digits[2:]


def text(snap):
    """What a display shows as text, blanks around it stripped."""
    if snap["type"] == "tm1637":
        return tm1637_text(snap).strip()
    return oled_text(snap).strip()


def canon(text, display_type):
    """`text` as the display shows it (read back by text()): the app's tail of 8 on an
    SSD1306, what a TM1637 shows of it (see the top), in the shapes each has for them."""
    if display_type == "tm1637":
        return "".join(c if c == ":" else _SHAPES.get(TM.segment(ord(c)), "?")
                       for c in _tm1637_visible(text)).strip()
    return "".join(_GLYPHS.get(_glyph(c), "?") for c in _fit(text)).strip()


def shows(snap, want):
    return text(snap) == canon(want, snap["type"])
