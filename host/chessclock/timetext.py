"""Durations as text on the host: one parser for what a person types, one formatter for
what a person reads. Every command reads a duration with `parse_duration` and writes one
with `clock_text`, so that `45s` means the same in `adjust`, `split`, `settime`, the hall's
page and `ruling late`.

What is read (the units are the core's, clockcore/notation.py, plus ms):
    1h15m, 75m, 90s, 1.5s, 250ms, 2min, 30sec, 1h 15m   number+unit pairs, largest unit
                                                        first, each once; decimals only on
                                                        seconds (whole milliseconds)
    1:30 (m:ss), 75:00 (m:ss), 1:15:00 (h:mm:ss)       the clock's own writing
    +2m, -30s                                           a sign, where a change is asked for
A bare number (`45`) is refused: 45 s or 45 min is a guess nobody should make for an arbiter
(shared/CLOCK-RULES.md, "one meaning, never a guess"); the error says to add a unit. Only
a bare 0 is read (0 of any unit is 0).
Nothing of 100 hours or more is a duration a clock holds.
"""

from chessclock.errors import InputError
from clockcore.notation import MS_H, MS_MIN, MS_S

MAX_MS = 100 * MS_H

# unit word -> (ms, rank: a compound duration goes down in rank); the core's words and ms
_UNITS = {"h": (MS_H, 0), "min": (MS_MIN, 1), "m": (MS_MIN, 1), "sec": (MS_S, 2),
          "s": (MS_S, 2), "ms": (1, 3)}
_EXAMPLES = "e.g. 75m, 1h15m, 90s, 1.5s, 250ms or 1:30"
_DIGITS = "0123456789"


class DurationError(InputError):
    """A text that is not a duration; the message (one line) says why and what to write."""


def parse_duration(text: str, signed: bool = False) -> int:
    """A duration in milliseconds (see the module docstring). `signed`: a leading + or - is
    allowed (and - gives a negative number). DurationError when it is not a duration."""
    if not isinstance(text, str):
        raise DurationError("a duration is text, not %r" % (text,))
    shown = text.strip()[:40]
    t = "".join(text.split()).lower()
    sign = 1
    if t[:1] in ("+", "-"):
        if not signed:
            raise DurationError("%r is not a time here: no sign (%s)" % (shown, _EXAMPLES))
        sign = -1 if t[0] == "-" else 1
        t = t[1:]
    if not t:
        raise DurationError("%r is not a time (%s)" % (shown, _EXAMPLES))
    if len(t) > 24:
        raise DurationError("%r... is not a time a clock holds" % shown[:20])
    ms = _colons(t, shown) if ":" in t else _pairs(t, shown)
    if ms >= MAX_MS:
        raise DurationError("%s is more than any clock holds (100 hours)" % shown)
    return sign * ms


def _colons(t: str, shown: str) -> int:
    """m:ss or h:mm:ss: later parts are two digits below 60."""
    parts = t.split(":")
    if len(parts) > 3 or not all(p and all(c in _DIGITS for c in p) for p in parts):
        raise DurationError("%r is not a time (m:ss or h:mm:ss, e.g. 1:30 or 1:15:00)"
                            % shown)
    total = int(parts[0])
    for p in parts[1:]:
        if len(p) != 2 or int(p) >= 60:
            raise DurationError("%r: after a ':' come two digits below 60 (m:ss, h:mm:ss)"
                                % shown)
        total = total * 60 + int(p)
    return total * MS_S


def _pairs(t: str, shown: str) -> int:
    total, i, last = 0, 0, -1
    while i < len(t):
        j = i
        while j < len(t) and (t[j] in _DIGITS or t[j] == "."):
            j += 1
        num = t[i:j]
        k = j
        while k < len(t) and t[k].isalpha():
            k += 1
        word = t[j:k]
        if not num or num.count(".") > 1 or num[0] == "." or num[-1] == ".":
            raise DurationError("%r is not a time (%s)" % (shown, _EXAMPLES))
        if not word:
            if k == len(t) and i == 0:
                if not num.strip("0."):
                    return 0   # nothing of any unit is nothing: no guess
                raise DurationError("%r has no unit: write %ss or %sm (or m:ss)"
                                    % (shown, num, num))
            raise DurationError("%r: '%s' needs a unit (h, m, s or ms)" % (shown, num))
        if word not in _UNITS:
            raise DurationError("%r: unknown unit '%s' (use h, m, s or ms)" % (shown, word))
        unit_ms, rank = _UNITS[word]
        if rank <= last:
            raise DurationError("%r: units go from largest to smallest, each once" % shown)
        total += _amount(num, unit_ms, shown)
        last = rank
        i = k
    return total


def _amount(num: str, unit_ms: int, shown: str) -> int:
    whole, _, frac = num.partition(".")
    if len(whole) > 12:
        raise DurationError("%s is more than any clock holds (100 hours)" % shown)
    if not frac:
        return int(whole) * unit_ms
    if unit_ms != MS_S:
        raise DurationError("%r: only seconds may have decimals (write 1m30s, not 1.5m)"
                            % shown)
    if len(frac.rstrip("0")) > 3:
        raise DurationError("%r is finer than a millisecond" % shown)
    return int(whole) * MS_S + int((frac + "000")[:3])


def clock_text(ms: int | float | str, millis: bool = False, hours: bool = False,
               trim: bool = False) -> str:
    """Milliseconds as a clock writes them: m:ss, h:mm:ss from an hour (`hours`: always
    h:mm:ss). `millis` adds .mmm; with `trim` only the digits that are not 0 (and nothing
    for whole seconds). Negative times keep their sign; a fraction is truncated."""
    ms = int(ms)   # the link's fields are text
    sign = "-" if ms < 0 else ""
    s, milli = divmod(abs(ms), MS_S)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    text = "%d:%02d:%02d" % (h, m, s) if h or hours else "%d:%02d" % (m, s)
    if millis and (milli or not trim):
        text += (".%03d" % milli).rstrip("0") if trim else ".%03d" % milli
    return sign + text
