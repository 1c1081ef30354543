"""What the emulated displays show, read back from the models' state (clock.mjs frames).

TM1637: four segment bytes -> characters (7-segment shapes; the colon is bit 7 of digit 1).
SSD1306: the 1 KB display RAM -> the time drawn in the main area (rows 16-55) by reading the
seven segments of each digit cell, and the running bar (rows 0-6, columns 32-95).
Independent of the firmware's drawing code: only the layout's sizes are known here.
"""

import base64
import subprocess

from emu import BIN, ROOT

SEG_CHARS = {0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6",
             0x07: "7", 0x7F: "8", 0x6F: "9", 0x00: " ", 0x40: "-", 0x71: "F", 0x77: "A",
             0x7C: "b", 0x78: "t", 0x39: "C", 0x5E: "d", 0x79: "E", 0x50: "r", 0x73: "P",
             0x6E: "Y", 0x54: "n", 0x5C: "o", 0x3E: "U", 0x76: "H", 0x38: "L", 0x30: "I"}


def tm1637_text(snap):
    """' 3:00' style: digit 0, digit 1, ':' when its colon is lit, digits 2 and 3."""
    s = snap["segments"]
    ch = [SEG_CHARS.get(b & 0x7F, "?") for b in s]
    return ch[0] + ch[1] + (":" if s[1] & 0x80 else " ") + ch[2] + ch[3]


def tm1637_digits(snap):
    return tm1637_text(snap).replace(":", "").replace(" ", "")


def _px(ram, x, y):
    return (ram[(y >> 3) * 128 + x] >> (y & 7)) & 1


def ssd1306_ram(snap):
    return base64.b64decode(snap["ram"])


def ssd1306_running(snap):
    """The running bar: columns 32-95 of rows 0-6 all lit."""
    ram = ssd1306_ram(snap)
    return all(_px(ram, x, y) for x in range(32, 96) for y in range(7))


SEG7 = {0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6",
        0x07: "7", 0x7F: "8", 0x6F: "9", 0x40: "-", 0x00: " "}


def ssd1306_time(snap):
    """The characters of the main area, left to right (digits, ':' and '.'; no spaces)."""
    ram = ssd1306_ram(snap)
    cols = []
    for x in range(128):
        rows = [y for y in range(16, 56) if _px(ram, x, y)]
        cols.append(rows)
    out = []
    x = 0
    while x < 128:
        if not cols[x]:
            x += 1
            continue
        x0 = x
        while x < 128 and cols[x]:
            x += 1
        w = x - x0
        ys = sorted({y for c in cols[x0:x] for y in c})
        y0, y1 = ys[0], ys[-1]
        if w >= 12:  # a digit cell: big 24x40 (t 6) or small 16x32 (t 4)
            big = w >= 20
            t, h, top = (6, 40, 16) if big else (4, 32, 20)
            m = (h - t) // 2

            def lit(px, py, x0=x0, top=top):
                return _px(ram, x0 + px, top + py)
            bits = 0
            for i, (px, py) in enumerate(((w // 2, t // 2), (w - 1 - t // 2, m // 2),
                                          (w - 1 - t // 2, m + (h - m) // 2),
                                          (w // 2, h - 1 - t // 2), (t // 2, m + (h - m) // 2),
                                          (t // 2, m // 2), (w // 2, m + t // 2))):
                if lit(px, py):
                    bits |= 1 << i
            out.append(SEG7.get(bits, "?"))
        elif y1 - y0 >= 24:
            out.append("1")   # only segments b and c: a bar as tall as a digit
        elif len(ys) < y1 - y0 + 1:
            out.append(":")   # two squares
        else:
            out.append(".")
    return "".join(out)


def shown(snap):
    """The time on a display as comparable text: digits, ':' and '.', no blanks."""
    if snap["type"] == "tm1637":
        return tm1637_digits(snap)
    return ssd1306_time(snap)


# ---- what the firmware should show, from `chessclock simulate` ----------------------------
def simulate(control, script):
    """chessclock simulate's JSON lines for a script [(ms, action)]."""
    import json
    text = "".join("%d %s\n" % (t, a) for t, a in script)
    r = subprocess.run([str(BIN / "chessclock"), "simulate", "--control", control],
                       input=text, capture_output=True, text=True, cwd=ROOT)
    if r.returncode:
        raise AssertionError("simulate failed: %s" % r.stderr)
    return [json.loads(line) for line in r.stdout.splitlines()]


def fmt_time(ms):
    """The app's text for a countdown time (clockapp.timefmt, tenths below 20 s)."""
    from clockapp import timefmt
    buf = bytearray(b" " * 8)
    timefmt.format_time(buf, ms, 20000, False)
    return buf.decode()


def expected(text, display_type):
    """How a display draws the app's 8-character time text, as shown() reads it."""
    t = text.strip()
    if display_type == "ssd1306":
        return t
    # TM1637 (colon-only module): h:mm:ss -> h:mm; m:ss; ss.t -> whole seconds rounded up
    if t.count(":") == 2:
        return t.rsplit(":", 1)[0].replace(":", "")
    if "." in t:
        tenths = int(t.replace(".", ""))
        s = (tenths + 9) // 10
        return "%d%02d" % (s // 60, s % 60)
    return t.replace(":", "")
