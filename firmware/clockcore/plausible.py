"""Did the person mean it? The check for a control typed to configure a clock.

shared/CLOCK-RULES.md "Writing a control down": a spec in PGN shape is PGN, in seconds,
everywhere. Where a person configures a clock (`chessclock set`, `chessclock control`, the
clock's `set` over the link, a control stored on the clock), a PGN reading that no real event
plays (90+30 = 1 min 30 s + 30 s) is refused with the spelling of its likely meaning (90m+30s),
unless confirmed on purpose: written "pgn:90+30" (the host's --pgn adds the prefix). A replay
(`chessclock simulate`) does not ask: it plays what it is given. docs/NOTATION.md has the table.

Portable: runs on MicroPython and CPython; imported only when a typed (not preset) control is
configured, so the board carries it only then.
"""

from clockcore.control import (
    DELAY_SIMPLE,
    MODE_COUNTDOWN,
    MODE_HOURGLASS,
    Control,
    SideControl,
    Stage,
)

MIN_STAGE_MS = 60000  # a base, or a stage that adds time, under a minute: no event plays it
MIN_MOVE_MS = 10000   # under 10 s a move in a stage with a move count
BONUS_SHARE = 10      # an increment or delay above a tenth of the time of its stage
MIN_SWAP_MOVES = 10   # "90/40" reads as 90 min for 40 moves, "40/2" never as 2 moves

# (unit in ms, how it is written) tried in turn for the likely meaning of PGN's seconds
_READINGS = ((60000, "m"), (3600000, "h"))


def _side_why(side):
    st = side.stages
    if side.mode == MODE_HOURGLASS:
        return "a time under a minute" if st[0].time_ms < MIN_STAGE_MS else None
    if side.mode != MODE_COUNTDOWN:
        return None  # upcount: no flag, nothing to get wrong
    for i in range(len(st)):
        s = st[i]
        # a later stage of 0 time only changes the increment (Armageddon's +2 s from move 61)
        if (i == 0 or s.time_ms) and s.time_ms < MIN_STAGE_MS:
            return "a base under a minute" if i == 0 else "stage %d under a minute" % (i + 1)
        bonus = s.inc_ms or s.delay_ms
        if bonus > (s.time_ms or st[0].time_ms) // BONUS_SHARE:  # integer form of 10*b > t
            return "%s over a tenth of the time" % ("an increment" if s.inc_ms else "a delay")
        # a move count before a stage of 0 time only says when its increment starts
        nxt = st[i + 1] if i + 1 < len(st) else None
        if s.moves and (nxt is None or nxt.time_ms) and s.time_ms // s.moves < MIN_MOVE_MS:
            return "under 10 s a move in %s" % ("the stage" if len(st) == 1
                                               else "stage %d" % (i + 1))
    return None


def why_not(control):
    """Why no real event plays `control` (a short phrase), or None when one could."""
    if not control.known:
        return None
    return _side_why(control.white) or _side_why(control.black)


def _secs(ms):
    """Milliseconds as seconds with the fewest decimals: 30000 -> '30', 500 -> '0.5'."""
    s = "%d" % (ms // 1000)
    if ms % 1000:
        f = "%03d" % (ms % 1000)
        while f[-1] == "0":
            f = f[:-1]
        s += "." + f
    return s


def _reading(control, unit_ms, unit):
    """(Control, readable text) for PGN's stage times read in `unit`, increments and delays
    unchanged; in a stage with a move count the larger of its two numbers is the time: "90/40"
    is 90 min for 40 moves (written 90m/40, as FIDE does), "40/120" 40 moves in 120 min
    (written 40/120m, as US usage does; the side of '/' with the unit is the time), unless
    the smaller is too few moves for a stage ("40/2": 40 moves in 2 h). None when that cannot
    be written or is out of range."""
    side = control.white
    if not control.symmetric() or side.byo_periods:
        return None  # PGN-shaped text is neither
    parts = []
    stages = []
    for s in side.stages:
        if s.time_ms % 1000:
            return None
        n = s.time_ms // 1000
        moves = s.moves
        text = "%d%s" % (n, unit)
        if moves > n >= MIN_SWAP_MOVES:
            n, moves = moves, n
            text = "%d%s/%d" % (n, unit, moves)
        elif moves:
            text = "%d/%s" % (moves, text)
        if s.inc_ms:
            text += "+%ss" % _secs(s.inc_ms)
        elif s.delay_ms:
            text += " %s%ss" % ("d" if s.delay_kind == DELAY_SIMPLE else "b", _secs(s.delay_ms))
        parts.append(text)
        stages.append(Stage(n * unit_ms, moves, s.inc_ms, s.delay_ms, s.delay_kind))
    if side.mode == MODE_HOURGLASS:
        parts[0] = "hourglass " + parts[0]
    c = Control(SideControl(stages, mode=side.mode))
    try:
        c.validate()
    except ValueError:
        return None
    return c, ", ".join(parts)


def likely(control):
    """(Control, spelling) of what a PGN-shaped spec that no event plays likely meant: its
    times in minutes, else in hours, whichever first is plausible; None when neither is.
    The spelling reads back to that Control (else the notation's own spelling is given)."""
    from clockcore import notation

    for unit_ms, unit in _READINGS:
        r = _reading(control, unit_ms, unit)
        if r is not None and why_not(r[0]) is None:
            want = notation.format_readable(r[0])
            try:
                same = notation.format_readable(notation.parse(r[1])) == want
            except ValueError:
                same = False
            return r if same else (r[0], want)
    return None


def refusal(text, control, confirm=None):
    """The one-line refusal for a typed `text` read as `control`, or None when it stands:
    `text` is not in PGN shape, is "pgn:" on purpose, or some real event plays it.
    `confirm` says how to mean the PGN on purpose (default: the "pgn:" prefix)."""
    from clockcore import notation  # the caller has parsed `text`: already loaded

    if notation.pgn_prefixed(text) or not notation.pgn_shaped(text):
        return None
    why = why_not(control)
    if why is None:
        return None
    spec = text.strip()
    out = '"%s" as PGN (seconds) is %s: no real event plays that (%s). ' % (
        spec, notation.describe(control), why)
    r = likely(control)
    if r is not None:
        out += "For %s, write %s; " % (notation.describe(r[0]), r[1])
    else:
        out += "Write the times with their unit (90m, 2h); "
    return out + (confirm or "to mean the PGN, write pgn:" + spec)


def check(text, control, confirm=None):
    """Raise ValueError with the refusal when a person's `text` should not configure a clock."""
    why = refusal(text, control, confirm)
    if why is not None:
        raise ValueError(why)


def resolve(spec, confirm=None):
    """presets.resolve(spec) for a person configuring a clock: (Control, Preset or None)."""
    from clockcore import presets

    control, preset = presets.resolve(spec)
    if preset is None:
        check(spec, control, confirm)
    return control, preset
