# Time as a display shows it: milliseconds to right-aligned ASCII in a preallocated
# bytearray, plus when that text will next change (so the app redraws only then).
#
# Rounding (countdown): the time shown is the time left rounded UP to the unit shown
# (second, or tenth below `tenths_below_ms`). So the display reads 0:00 (or 0.0) exactly
# when 0 ms are left, which is exactly when the engine's flag falls (a press at the very
# millisecond time runs out is too late), and never earlier: 0.4 s left shows 0:01 / 0.4,
# 1 ms left shows 0:01 / 0.1. A countdown never shows less time than is left, except that
# 100 hours or more show 99:59:59 (a running clock never has that much; the engine's
# largest time is 298 h).
#
# The format follows the value shown (after rounding), not the raw milliseconds:
#   shown >= 1 h         " h:mm:ss" / "hh:mm:ss"   3599001 ms shows " 1:00:00"
#   shown < 1 h          "   mm:ss" / "    m:ss"   3599000 ms shows "   59:59"
#   shown < tenths_below "    ss.t" / "     s.t"  (20 s default; at most 60 s; 0 or
#                                                  seconds_always: never)
# With the default 20 s: 20000 and 19999 ms show "    0:20" (19999 rounds up to 20.0 s,
# not below 20 s), 19900 ms shows "    19.9"; the text never reads "20.0".
#
# Upcount (format_up) counts up from its start and rounds DOWN: a second is shown once it
# has fully elapsed, like any stopwatch. No tenths.
#
# Per-frame functions: no allocation (ints and the caller's bytearray only), no exceptions.

from clockcore import const

TEXT_LEN = const(8)
TENTHS_BELOW_MS = const(20000)   # default: tenths shown below 20 s
_TENTHS_MAX_MS = const(60000)    # tenths are "ss.t": never at or above a minute
_HOUR_S = const(3600)
_CAP_S = const(359999)           # 99:59:59
_SPACE = const(32)
_ZERO = const(48)
_COLON = const(58)
_DOT = const(46)


def _tenths_limit(tenths_below_ms):
    """Largest ms shown in tenths (-1: none): the shown tenths, ceil(ms/100), must be below
    tenths_below_ms (at most a minute)."""
    t = tenths_below_ms
    if t > _TENTHS_MAX_MS:
        t = _TENTHS_MAX_MS
    if t <= 0:
        return -1
    return ((t + 99) // 100 - 1) * 100


def _pad(buf, end):
    """Spaces in buf[0:end]."""
    i = 0
    while i < end:
        buf[i] = _SPACE
        i += 1


def _put_seconds(buf, s):
    """Whole seconds s (>= 0) as h:mm:ss or m:ss, right-aligned in buf."""
    if s > _CAP_S:
        s = _CAP_S
    n = len(buf)
    sec = s % 60
    buf[n - 1] = _ZERO + sec % 10
    buf[n - 2] = _ZERO + sec // 10
    buf[n - 3] = _COLON
    m = s // 60
    if s >= _HOUR_S:
        h = m // 60
        m = m % 60
        buf[n - 4] = _ZERO + m % 10
        buf[n - 5] = _ZERO + m // 10
        buf[n - 6] = _COLON
        buf[n - 7] = _ZERO + h % 10
        if h >= 10:
            buf[n - 8] = _ZERO + h // 10
            _pad(buf, n - 8)
        else:
            _pad(buf, n - 7)
    else:
        buf[n - 4] = _ZERO + m % 10
        if m >= 10:
            buf[n - 5] = _ZERO + m // 10
            _pad(buf, n - 5)
        else:
            _pad(buf, n - 4)


def _put_tenths(buf, d):
    """d tenths (0..599) as ss.t / s.t, right-aligned in buf."""
    n = len(buf)
    buf[n - 1] = _ZERO + d % 10
    buf[n - 2] = _DOT
    s = d // 10
    buf[n - 3] = _ZERO + s % 10
    if s >= 10:
        buf[n - 4] = _ZERO + s // 10
        _pad(buf, n - 4)
    else:
        _pad(buf, n - 3)


def format_time(buf, ms, tenths_below_ms=TENTHS_BELOW_MS, seconds_always=False):
    """Countdown time `ms` into the bytearray buf (8 bytes; right-aligned, space padded),
    rounded up to the unit shown (see the top of this file). Returns nothing."""
    if ms < 0:
        ms = 0
    if not seconds_always and ms <= _tenths_limit(tenths_below_ms):
        _put_tenths(buf, (ms + 99) // 100)
    else:
        _put_seconds(buf, (ms + 999) // 1000)


def format_up(buf, ms):
    """Upcount time `ms` into buf as h:mm:ss / m:ss, rounded down. Returns nothing."""
    if ms < 0:
        ms = 0
    _put_seconds(buf, ms // 1000)


def delay_ds(ms):
    """Simple delay left in ms as the tenths of a second shown (rounded up, like the time:
    0.0 exactly when the delay is used up). For SideView.delay_ds."""
    if ms <= 0:
        return 0
    return (ms + 99) // 100


def format_delay(buf, ds):
    """Delay `ds` (tenths of a second, >= 0) into buf (4 bytes or more; right-aligned):
    "4.5", "12.0" below a minute, "1:05" (seconds rounded up) from a minute."""
    if ds < 0:
        ds = 0
    if ds < 600:
        _put_tenths(buf, ds)
    else:
        _put_seconds(buf, (ds + 9) // 10)


def next_change_ms(ms, tenths_below_ms=TENTHS_BELOW_MS, seconds_always=False, rising=False):
    """After how many ms the text of format_time(ms, ...) next changes, for a time that
    runs down (or, with rising, up: hourglass). -1: never (0 ms left and running down;
    or the 99:59:59 cap running up)."""
    if ms < 0:
        ms = 0
    lim = -1 if seconds_always else _tenths_limit(tenths_below_ms)
    if rising:
        if ms <= lim:
            k = 100 - (ms - 1) % 100
            if ms + k > lim:  # leaves tenths for whole seconds: that is a change too
                k = lim + 1 - ms
            return k
        if ms > _CAP_S * 1000 - 1000:
            return -1
        return 1000 - (ms - 1) % 1000
    if ms == 0:
        return -1
    if ms <= lim:
        return (ms - 1) % 100 + 1
    if ms > _CAP_S * 1000:  # capped at 99:59:59 until it shows 99:59:58
        return ms - (_CAP_S - 1) * 1000
    k = (ms - 1) % 1000 + 1
    if lim >= 0 and ms - k < lim:  # enters tenths first
        k = ms - lim
    return k


def next_change_up_ms(ms):
    """After how many ms the text of format_up(ms) next changes (the time counts up);
    -1 once it shows the 99:59:59 cap."""
    if ms < 0:
        ms = 0
    if ms >= _CAP_S * 1000:
        return -1
    return 1000 - ms % 1000


def next_change_delay_ms(ms):
    """After how many ms delay_ds(ms) next changes as the delay runs down; -1 at 0."""
    if ms <= 0:
        return -1
    return (ms - 1) % 100 + 1


# ---- the control at set-up (view.ctl; not per frame: built once a game) ------------------
def _dur(ms):
    """A stage's time in the fewest characters: 2H, 90M, 2M30S, 45S."""
    s = ms // 1000
    if s and s % 3600 == 0:
        return b"%dH" % (s // 3600)
    if s >= 60:
        return b"%dM" % (s // 60) if s % 60 == 0 else b"%dM%dS" % (s // 60, s % 60)
    if ms % 1000:
        return b"%d.%dS" % (s, ms % 1000 // 100)
    return b"%dS" % s


def _bonus(st):
    """A stage's increment (+30S) or delay (D5S simple, B5S Bronstein), or b""."""
    if st.inc_ms:
        return b"+" + _dur(st.inc_ms)
    if st.delay_ms:
        return (b"D" if st.delay_kind == 1 else b"B") + _dur(st.delay_ms)
    return b""


def control_line(side, stages):
    """One side's control as its display shows it before the start, in capitals:
    `3M+2S`, `40/90M 30M +30S` (one increment for every stage: once, at the end),
    `60/5M +2S` (a stage of no time of its own: its increment alone), `90M D5S`,
    `40/2H 20/1H`, `5M BY5X30S`; `HG ` before an hourglass, `UP ` an upcount.
    side: the SideControl (mode, byo-yomi), stages: the clock's stages for that side."""
    first = _bonus(stages[0])
    same = True
    for st in stages:
        if _bonus(st) != first:
            same = False
    parts = []
    for st in stages:
        t = b"%d/" % st.moves if st.moves else b""
        if st.time_ms or not _bonus(st):
            t += _dur(st.time_ms)
        if not same:
            t += _bonus(st)
        parts.append(t)
    text = b" ".join(parts)
    if same and first:   # an increment joins a single stage's time; a delay stands apart
        text += (b"" if len(stages) == 1 and first[0] == 43 else b" ") + first
    if side.byo_periods:
        text += b" BY%dX" % side.byo_periods
        if side.byo_moves > 1:
            text += b"%d/" % side.byo_moves
        text += _dur(side.byo_ms)
    if side.mode == 1:
        text = b"HG " + text
    elif side.mode == 2:
        text = b"UP " + text
    return text
