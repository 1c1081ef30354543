# TM1637Display: a clockapp SideView drawn on a 4-digit TM1637 module (drivers/tm1637.py).
# render() does not allocate.

from clockcore import const
from drivers.tm1637 import SEGMENTS, TM1637, TM1637_DELAY_US

_SEG_DOT = const(0x80)           # the dot, or the colon (digit 1 on clock modules)
_SEG_F = const(0x71)             # 'F'
_SEG_B = const(0x7C)             # 'b'
_SEG_A = const(0x77)             # 'A'
_SEG_T = const(0x78)             # 't'
_SEG_L = const(0x38)             # 'L'
_SEG_C = const(0x39)             # 'C'
_SEG_S = const(0x6D)             # 'S'
_SEG_D = const(0x5E)             # 'd'
_ZERO = const(48)
_UNIT_S = const(115)             # 's', 'm': a number's unit in a menu value ("+3s", "7m")
_UNIT_M = const(109)


def _digit(c):
    return c - _ZERO if _ZERO <= c <= _ZERO + 9 else 0


class TM1637Display:
    """A SideView on a 4-digit TM1637 module. clk_pin, dio_pin: pin numbers or Pin objects.

    How the 8-character view.time maps to 4 digits (the colon lit between digits 1 and 2):
      " 1:29:59" -> " 1:29"  h:mm from one hour on: the seconds are dropped (minutes round
                             down; the flag is never near), "12:34:56" -> "12:34"
      "   59:59" -> "59:59", "    4:59" -> " 4:59"
      "    19.9" -> with dots=True (a module with decimal points) " 19.9", the dot of
                             digit 2; with dots=False (the clock module: colon only)
                             " 0:20": whole seconds rounded up from the tenths shown,
                             so 0:00 still appears exactly at the flag.
    Running side: its colon blinks (lit on even seconds shown, so it needs no timer: the
    text changes every second while a side runs); the waiting side's colon is steady. A
    4-digit module cannot be seen to run from 10 m: that is the job of a separate LED per
    side driven by the board. Paused: colon steady on both.
    Flag: an 'F' in the first digit (which is blank at 0:00 / 0.0); the 1st/2nd order is
    not shown (the log has it). text_on: the 4 rightmost characters of view.text.
    Low battery: "bAtt" in place of the time while view.alert (the app sets it 1 s in 3
    while no clock runs); while a clock runs, the dot of the last digit on a module with
    dots, and nothing on the colon-only clock module (the next pause shows it; the log has
    the instant).
    Self-test (view.test): every segment and dot lit.
    Simple delay running (view.delay_ds >= 0 on the side to move): "d" and the delay left
    in place of the main time, which is frozen meanwhile and shows again when the delay
    is used up: "d4.9" with dots, "d  5" (whole seconds rounded up) on the clock module.
    The moment (view.moment: 1 s in 3 while no clock runs, on displays that ask for it,
    `moments`), in this order of priority after low battery: the order of the flags
    "FL 1" / "FL 2"; before the start, in turn (view.cycle, every 3 s), the control's
    increment ("In 2", "In 0" for none; a delay "d  5", Bronstein "br 5": its first stage's,
    whole seconds) and Black's display "bLAc" (so White is the other one: a W cannot be
    drawn on 7 segments), White's the board number of the round's pairing, "bd12" ("b123"
    from 100, "1234" from 1000), or the increment each time when it has none; the stage
    "St 2" in a control of several stages. The time shown before the start is the
    control's starting time.
    Not shown on 4 digits: byo-yomi periods, moves.
    Redraws only when view.version changed, and writes only when the segments changed."""

    moments = True   # the app sets view.moment for this display (see App.refresh)

    def __init__(self, clk_pin, dio_pin, brightness=7, dots=False, delay_us=TM1637_DELAY_US,
                 frame=None):
        if isinstance(clk_pin, int) or isinstance(dio_pin, int):
            import machine
            if isinstance(clk_pin, int):
                clk_pin = machine.Pin(clk_pin, machine.Pin.OUT)
            if isinstance(dio_pin, int):
                dio_pin = machine.Pin(dio_pin, machine.Pin.OUT)
        self.tm = TM1637(clk_pin, dio_pin, brightness, delay_us, frame)
        self.dots = dots
        self._seg = bytearray(4)    # being composed
        self._shown = bytearray(4)  # what the module holds
        self._version = -1
        # what the module holds from each digit on, made once: a short write allocates nothing
        self._from = tuple(memoryview(self._shown)[k:] for k in range(4))
        self.tm.write(self._shown, 0)  # blank

    def render(self, view):
        if view.version == self._version:
            return
        self._version = view.version
        seg = self._seg
        if view.test:
            seg[0] = seg[1] = seg[2] = seg[3] = 0xFF
        elif view.text_on:
            self._text(view.text)
        elif view.battery_low and view.alert:
            seg[0] = _SEG_B
            seg[1] = _SEG_A
            seg[2] = _SEG_T
            seg[3] = _SEG_T
        elif view.moment and self._moment(view):
            pass
        elif view.delay_ds >= 0 and not view.flag:
            self._delay(view.delay_ds)
        else:
            self._time(view)
            if view.flag:
                seg[0] = _SEG_F
            if view.battery_low and self.dots:
                seg[3] |= _SEG_DOT
        shown = self._shown
        first = 0
        while first < 4 and seg[first] == shown[first]:
            first += 1
        if first == 4:
            return
        last = 3
        while seg[last] == shown[last]:
            last -= 1
        shown[0] = seg[0]
        shown[1] = seg[1]
        shown[2] = seg[2]
        shown[3] = seg[3]
        if view.running or view.paused or view.idle or view.flag or view.test \
                or view.text_on:
            self.tm.write(shown, 0)
        else:
            # The side that waits while the other's clock runs: the digits of a press
            # (the time with its increment), shown first. Only the digits that changed,
            # without the set-up frames; this side's next turn writes everything again
            # (running: the whole module each second), which also restores a module that
            # lost its set-up (a reset on its own supply).
            self.tm.write(self._from[first], first, last - first + 1, False)

    def _text(self, t):
        """view.text (8 characters, right-aligned) on 4 digits: its last four, except that
        a ':' is the colon, not a digit's place ("   13:52" -> 13:52, not "3 52"); a number's
        unit at the end is left out ("+3s" would read 35: 's' is a 5; "7m" -> 7); and the
        menu's editing '*' before a 4-letter item, which the digits cut off, lights the
        colon ("*PrSt" -> Pr:St)."""
        seg = self._seg
        i = len(t) - 1
        if i >= 1 and (t[i] == _UNIT_S or t[i] == _UNIT_M) and _ZERO <= t[i - 1] <= _ZERO + 9:
            i -= 1
        colon = 0
        k = 3
        while k >= 0:
            c = t[i] if i >= 0 else 32
            i -= 1
            if c == 58 and k == 1 and not colon:   # ':' between digits 1 and 2: the colon
                colon = _SEG_DOT
                continue
            seg[k] = SEGMENTS[c & 0x7F]
            k -= 1
        if i >= 0 and t[i] == 42:   # the '*' cut off: editing
            colon = _SEG_DOT
        seg[1] |= colon

    def _moment(self, view):
        """What the moment shows (see the class); False: nothing, the time stays."""
        seg = self._seg
        if view.flag:
            seg[0] = _SEG_F
            seg[1] = _SEG_L
            seg[2] = 0
            seg[3] = SEGMENTS[_ZERO + view.flag]
        elif view.idle and view.inc_ms >= 0 and (view.cycle or (view.white
                                                                and view.pair is None)):
            self._bonus(view.inc_ms, view.inc_kind)
        elif view.idle and not view.white:
            seg[0] = _SEG_B
            seg[1] = _SEG_L
            seg[2] = _SEG_A
            seg[3] = _SEG_C
        elif view.idle and view.pair is not None:
            n = view.pair[0]
            seg[0] = _SEG_B if n < 1000 else SEGMENTS[_ZERO + n // 1000 % 10]
            seg[1] = _SEG_D if n < 100 else SEGMENTS[_ZERO + n // 100 % 10]
            seg[2] = SEGMENTS[_ZERO + n // 10 % 10] if n >= 10 else 0
            seg[3] = SEGMENTS[_ZERO + n % 10]
        elif view.stage > 0 and not view.idle:
            n = view.stage if view.stage < 100 else 99
            seg[0] = _SEG_S
            seg[1] = _SEG_T
            seg[2] = SEGMENTS[_ZERO + n // 10] if n >= 10 else 0
            seg[3] = SEGMENTS[_ZERO + n % 10]
        else:
            return False
        return True

    def _bonus(self, ms, kind):
        """Before the start, the control's increment "In 2" (also "In 0": none), simple
        delay "d  5" or Bronstein delay "br 5", whole seconds (at most 99)."""
        seg = self._seg
        s = ms // 1000
        if s > 99:
            s = 99
        if kind == 1:
            seg[0] = _SEG_D
            seg[1] = 0
        elif kind == 2:
            seg[0] = _SEG_B
            seg[1] = SEGMENTS[114]    # r
        else:
            seg[0] = SEGMENTS[73]     # I
            seg[1] = SEGMENTS[110]    # n
        seg[2] = SEGMENTS[_ZERO + s // 10] if s >= 10 else 0
        seg[3] = SEGMENTS[_ZERO + s % 10]

    def _delay(self, ds):
        """'d' and the delay left (tenths of a second)."""
        seg = self._seg
        seg[0] = _SEG_D
        if ds > 999:
            ds = 999
        if self.dots:
            s = ds // 10
            seg[1] = SEGMENTS[_ZERO + s // 10] if s >= 10 else 0
            seg[2] = SEGMENTS[_ZERO + s % 10] | _SEG_DOT
            seg[3] = SEGMENTS[_ZERO + ds % 10]
        else:
            s = (ds + 9) // 10
            seg[1] = 0
            seg[2] = SEGMENTS[_ZERO + s // 10] if s >= 10 else 0
            seg[3] = SEGMENTS[_ZERO + s % 10]

    def _time(self, view):
        t = view.time
        seg = self._seg
        n = len(t)
        blink = view.running and not view.paused and not view.flag
        if t[n - 3] == 58:  # ':' -> m:ss or h:mm:ss
            if n >= 8 and t[n - 6] == 58:  # h:mm:ss -> h:mm
                seg[0] = SEGMENTS[t[n - 8] & 0x7F]
                seg[1] = SEGMENTS[t[n - 7] & 0x7F]
                seg[2] = SEGMENTS[t[n - 5] & 0x7F]
                seg[3] = SEGMENTS[t[n - 4] & 0x7F]
            else:
                seg[0] = SEGMENTS[t[n - 5] & 0x7F]
                seg[1] = SEGMENTS[t[n - 4] & 0x7F]
                seg[2] = SEGMENTS[t[n - 2] & 0x7F]
                seg[3] = SEGMENTS[t[n - 1] & 0x7F]
            if not (blink and t[n - 1] & 1):
                seg[1] |= _SEG_DOT
        elif t[n - 2] == 46:  # '.' -> ss.t
            if self.dots:
                seg[0] = 0
                seg[1] = SEGMENTS[t[n - 4] & 0x7F]
                seg[2] = SEGMENTS[t[n - 3] & 0x7F] | _SEG_DOT
                seg[3] = SEGMENTS[t[n - 1] & 0x7F]
            else:  # colon only: whole seconds, rounded up
                s = _digit(t[n - 4]) * 10 + _digit(t[n - 3])
                if t[n - 1] != _ZERO:
                    s += 1
                m = s // 60
                s = s % 60
                seg[0] = 0
                seg[1] = SEGMENTS[_ZERO + m % 10]
                seg[2] = SEGMENTS[_ZERO + s // 10]
                seg[3] = SEGMENTS[_ZERO + s % 10]
                if not (blink and s & 1):
                    seg[1] |= _SEG_DOT
        else:  # anything else: its 4 rightmost characters
            seg[0] = SEGMENTS[t[n - 4] & 0x7F]
            seg[1] = SEGMENTS[t[n - 3] & 0x7F]
            seg[2] = SEGMENTS[t[n - 2] & 0x7F]
            seg[3] = SEGMENTS[t[n - 1] & 0x7F]
