"""Read and write time controls (see control.py for the model).

The grammar, with a table of everyday shorthands and what each becomes, is docs/NOTATION.md;
the rule behind it is shared/CLOCK-RULES.md "Writing a control down: one meaning, never a
guess". In short:
  parse(text)       "pgn:..." or "readable:..." forces a grammar. Otherwise a text in PGN shape
                    (digits, spaces and / + : * . ? - with the d/b delay suffixes) is a PGN
                    TimeControl tag in seconds, whatever the size of its numbers or its spaces
                    ("300 + 2" is "300+2"); anything else is readable notation.
  parse_pgn         the PGN tag itself (PGN standard 9.6.1), strict: no spaces.
  parse_readable    what an arbiter types: units (90m+30s), US forms (G/90;d5, 40/120, SD/30:
                    a bare stage time is minutes), byo-yomi, hourglass, "A vs B". A mixed or
                    ambiguous spelling (90/40+30m+30s, 40/2, SD/1) is refused with the
                    spelling that means it.
  format_pgn, format_readable   write; what they write reads back to the same control.
Whether a person configuring a clock meant the PGN reading is plausible.py's question.

Portable: runs on MicroPython and CPython. No `re`, no floats: every number is read by hand
into integer milliseconds. Errors are ValueError naming the text, what is wrong, and where
(1-based character position). Every parse result passes `Control.validate()`.
"""

from clockcore.control import (
    DELAY_BRONSTEIN,
    DELAY_NONE,
    DELAY_SIMPLE,
    MAX_MS,
    MODE_COUNTDOWN,
    MODE_HOURGLASS,
    MODE_UPCOUNT,
    UNKNOWN,
    Control,
    SideControl,
    Stage,
)

_DIGITS = "0123456789"
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_SPACES = " \t\r\n"
_PUNCT = "/+,;*-?"
_PGN_CHARS = "0123456789/:+.*-?dbDB"

MS_S = 1000
MS_MIN = 60000
MS_H = 3600000
MS_DAY = 86400000

# Readable units: word, milliseconds, rank (a compound duration goes up in rank).
_UNITS = (("days", MS_DAY, 0), ("day", MS_DAY, 0), ("h", MS_H, 1), ("min", MS_MIN, 2),
          ("m", MS_MIN, 2), ("sec", MS_S, 3), ("s", MS_S, 3))
_RANK_S = 3


def _fail(text, pos, why):
    raise ValueError('"%s": %s (at character %d)' % (text, why, pos + 1))


# set while parse_stage reads: a lone stage may then have no time of its own
_ONE_STAGE = [False]


def _validated(text, control):
    """control.validate(), its message prefixed with the text it was read from."""
    try:
        side = control.white
        if (_ONE_STAGE[0] and control.known and control.symmetric() and len(side.stages) == 1
                and side.mode == MODE_COUNTDOWN):
            st = side.stages[0]
            if st.time_ms == 0 and not st.moves and (st.inc_ms or st.delay_ms):
                # an increment alone: the rest is checked as if the stage had time
                Control(SideControl([Stage(1, 0, st.inc_ms, st.delay_ms, st.delay_kind)],
                                    byo_periods=side.byo_periods)).validate()
                return control
        return control.validate()
    except ValueError as e:
        raise ValueError('"%s": %s' % (text, e.args[0] if e.args else "invalid")) from None


def _check_str(text):
    if not isinstance(text, str):
        raise ValueError("a time control must be text, not %r" % (text,))


def _amount(text, i, j, what, unit_ms, nodec):
    """text[i:j] as a count of `unit_ms`, returned in ms. `nodec` is None when decimals are
    allowed (then unit_ms must be 1000: whole milliseconds only), else why they are not."""
    piece = text[i:j]
    if i >= j:
        _fail(text, i, "%s is missing" % what)
    whole = 0
    frac = 0
    places = 0
    dot = -1
    for k in range(i, j):
        ch = text[k]
        if ch == ".":
            if dot >= 0 or k == i or k == j - 1:
                _fail(text, k, "%s '%s' is not a number" % (what, piece))
            if nodec is not None:
                _fail(text, k, "%s '%s' %s" % (what, piece, nodec))
            dot = k
            continue
        d = _DIGITS.find(ch)
        if d < 0:
            _fail(text, k, "%s '%s' is not a number" % (what, piece))
        if dot < 0:
            whole = whole * 10 + d
            if whole > MAX_MS:  # every unit is at least 1 ms: too large already
                _fail(text, i, "%s '%s' is too large" % (what, piece))
        else:
            places += 1
            if places <= 3:
                frac = frac * 10 + d
            elif d:
                _fail(text, k, "%s '%s' is finer than a millisecond" % (what, piece))
    while places < 3:
        frac *= 10
        places += 1
    ms = whole * unit_ms + frac
    if ms > MAX_MS:
        _fail(text, i, "%s '%s' is too large (the limit is %d ms)" % (what, piece, MAX_MS))
    return ms


def _ms_secs(ms):
    """Milliseconds as seconds with the fewest decimals: 30000 -> '30', 500 -> '0.5'."""
    s = "%d" % (ms // 1000)
    frac = ms % 1000
    if frac:
        f = "%03d" % frac
        while f[-1] == "0":
            f = f[:-1]
        s += "." + f
    return s


# ---------------------------------------------------------------------------------- PGN

def parse_pgn(text):
    """A PGN TimeControl tag value -> Control (see the module docstring)."""
    _check_str(text)
    if text == "?":
        return UNKNOWN
    if text == "-":
        return _validated(text, Control(SideControl([Stage(0)], mode=MODE_UPCOUNT)))
    if not text:
        raise ValueError('"": an empty PGN TimeControl (write "?" when it is unknown)')
    for k in range(len(text)):
        if text[k] in _SPACES:
            _fail(text, k, "spaces are not allowed in a PGN TimeControl")
    if text[0] in "?-":
        _fail(text, 1, "'%s' must stand alone" % text[0])
    if text[0] == "*":
        ms = _amount(text, 1, len(text), "hourglass time", MS_S, "must be whole seconds")
        return _validated(text, Control(SideControl([Stage(ms)], mode=MODE_HOURGLASS)))
    spans = []
    i = 0
    while True:
        j = text.find(":", i)
        if j < 0:
            j = len(text)
        if i == j:
            _fail(text, i, "part %d is empty" % (len(spans) + 1))
        spans.append((i, j))
        if j == len(text):
            break
        i = j + 1
    stages = []
    for n in range(len(spans)):
        i, j = spans[n]
        st = _pgn_part(text, i, j)
        if st.moves == 0 and n < len(spans) - 1:
            _fail(text, i, "part %d has no move count: only the last part may be for the "
                  "rest of the game" % (n + 1))
        stages.append(st)
    return _validated(text, Control(SideControl(stages)))


def _pgn_part(text, i, j):
    """One part: [moves '/'] seconds ['+' bonus], bonus = seconds ['d' | 'b']."""
    plus = text.find("+", i, j)
    head = j if plus < 0 else plus
    slash = text.find("/", i, head)
    moves = 0
    t0 = i
    if slash >= 0:
        moves = _amount(text, i, slash, "move count", 1, "must be a whole number")
        if moves == 0:
            _fail(text, i, "the move count must be at least 1")
        t0 = slash + 1
    time_ms = _amount(text, t0, head, "time", MS_S, "must be whole seconds")
    if plus < 0:
        return Stage(time_ms, moves)
    b = plus + 1
    e = j
    last = text[e - 1] if e > b else ""
    if last in ("D", "B"):
        _fail(text, e - 1, "the delay suffix '%s' must be lowercase" % last)
    if last in ("d", "b"):
        kind = DELAY_SIMPLE if last == "d" else DELAY_BRONSTEIN
        ms = _amount(text, b, e - 1, "delay", MS_S, None)
        return Stage(time_ms, moves, delay_ms=ms, delay_kind=kind)
    return Stage(time_ms, moves, inc_ms=_amount(text, b, e, "increment", MS_S, None))


def _cannot(control, reason):
    try:
        name = '"%s"' % format_readable(control)
    except ValueError:
        name = "this time control"
    raise ValueError("%s cannot be written as a PGN TimeControl: %s" % (name, reason))


def _writable(side):
    """Raise ValueError for what no notation can write. Values are not range-checked: a
    correspondence ledger's 40 days (over MAX_MS) is written too; only what passes
    validate() is promised to read back."""
    st = side.stages
    if side.mode not in (MODE_COUNTDOWN, MODE_HOURGLASS, MODE_UPCOUNT):
        raise ValueError("unknown mode %r: it cannot be written" % (side.mode,))
    if not st:
        raise ValueError("a side with no stage cannot be written")
    for n in range(len(st)):
        s = st[n]
        for v in (s.time_ms, s.moves, s.inc_ms, s.delay_ms):
            if not isinstance(v, int) or v < 0:
                raise ValueError("stage %d: %r cannot be written" % (n + 1, v))
        if s.delay_ms and s.delay_kind not in (DELAY_SIMPLE, DELAY_BRONSTEIN):
            raise ValueError("stage %d has a delay of no kind: it cannot be written" % (n + 1))
    for v in (side.byo_periods, side.byo_ms, side.byo_moves):
        if not isinstance(v, int) or v < 0:
            raise ValueError("byo-yomi value %r cannot be written" % (v,))
    s = st[0]
    if side.mode != MODE_COUNTDOWN and (len(st) > 1 or s.moves or s.inc_ms or s.delay_ms
                                        or side.byo_periods):
        raise ValueError("hourglass or upcount with more than a time cannot be written")


def format_pgn(control):
    """Control -> PGN TimeControl text; ValueError for what PGN cannot express."""
    if not control.known:
        return "?"
    _writable(control.white)
    _writable(control.black)
    if not control.symmetric():
        _cannot(control, "White and Black have different controls")
    side = control.white
    st = side.stages
    if side.mode == MODE_UPCOUNT:
        if st[0].time_ms:
            _cannot(control, "PGN's '-' counts up from 0 only")
        return "-"
    if side.byo_periods:
        _cannot(control, "PGN has no byo-yomi")
    for n in range(len(st)):
        if st[n].time_ms % 1000:
            _cannot(control, "stage %d's time is not whole seconds" % (n + 1))
    if side.mode == MODE_HOURGLASS:
        return "*%d" % (st[0].time_ms // 1000)
    return ":".join([_pgn_stage(s) for s in st])


def _pgn_stage(s):
    out = "%d" % (s.time_ms // 1000)
    if s.moves:
        out = "%d/%s" % (s.moves, out)
    if s.inc_ms:
        out += "+" + _ms_secs(s.inc_ms)
    elif s.delay_ms:
        out += "+" + _ms_secs(s.delay_ms) + ("d" if s.delay_kind == DELAY_SIMPLE else "b")
    return out


# ------------------------------------------------------------------------- readable: read

def _lower(ch):
    k = _UPPER.find(ch)
    return _LOWER[k] if k >= 0 else ch


def _tokenize(text):
    """Tokens (kind, lowercased text, start, end): kind 'n' number, 'w' word, 'p' punctuation.
    ASCII-only lowering keeps positions exact."""
    toks = []
    i = 0
    n = len(text)
    while i < n:
        ch = _lower(text[i])
        if ch in _SPACES:
            i += 1
            continue
        j = i + 1
        if ch in _DIGITS or ch == ".":
            kind = "n"
            while j < n and (text[j] in _DIGITS or text[j] == "."):
                j += 1
        elif ch in _LOWER:
            kind = "w"
            while j < n and _lower(text[j]) in _LOWER:
                j += 1
        elif ch in _PUNCT:
            kind = "p"
        else:
            _fail(text, i, "unexpected character '%s'" % text[i])
        toks.append((kind, "".join([_lower(c) for c in text[i:j]]), i, j))
        i = j
    return toks


def _is(tok, word):
    return tok is not None and tok[0] != "n" and tok[1] == word


def _pieces(toks, seps):
    """Split tokens at separators: [(tokens, separator before, separator after)]."""
    out = []
    cur = []
    before = None
    for t in toks:
        if t[0] != "n" and t[1] in seps:
            out.append((cur, before, t))
            cur = []
            before = t
        else:
            cur.append(t)
    out.append((cur, before, None))
    return out


# What one parse_readable call notes on the way, to refuse a mixed or ambiguous spelling
# once the whole text is read: [a stage time had a unit, bare "A/B" stages as (start of A,
# end of A, end of B, A, B), ends of bare stage times of 1 or 2].
_UNIT_SEEN = 0
_BARE_PAIRS = 1
_SMALL_BARE = 2


class _Cursor:
    """Reads one component's tokens."""

    def __init__(self, text, toks, notes):
        self.text = text
        self.toks = toks
        self.i = 0
        self.notes = notes

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def fail(self, tok, why):
        _fail(self.text, tok[2] if tok is not None else self.toks[-1][3], why)

    def expect_number(self, after):
        t = self.peek()
        if t is None or t[0] != "n":
            self.fail(t, "a number must follow %s" % after if t is None else
                      "a number must follow %s, not '%s'" % (after, t[1]))
        return t


def _unit(tok):
    if tok is not None and tok[0] == "w":
        for u in _UNITS:
            if u[0] == tok[1]:
                return u
    return None


def _duration(cur, after):
    """A duration: a bare number or number+unit pairs, largest unit first.
    Returns (ms or None when bare, rank of the largest unit or -1, start, end, number token)."""
    text = cur.text
    first = cur.expect_number(after)
    total = 0
    top = -1
    last = -1
    end = first[3]
    while True:
        t = cur.peek()
        if t is None or t[0] != "n":
            break
        u = cur.peek(1)
        unit = _unit(u)
        if unit is None:
            if last >= 0:
                cur.fail(t, "'%s' needs a unit" % t[1])
            _check_no_junk_unit(cur, t, u)
            cur.i += 1
            return (None, -1, t[2], t[3], t)
        if unit[2] <= last:
            cur.fail(u, "units go from largest to smallest, each once: '%s' is out of place"
                     % u[1])
        nodec = None if unit[1] == MS_S else "has decimals: only seconds may"
        total += _amount(text, t[2], t[3], "time", unit[1], nodec)
        if top < 0:
            top = unit[2]
        last = unit[2]
        end = u[3]
        cur.i += 2
    if total > MAX_MS:
        _fail(text, first[2], "'%s' is too long (the limit is %d ms)"
              % (text[first[2]:end], MAX_MS))
    return (total, top, first[2], end, first)


def _check_no_junk_unit(cur, num, word):
    """A word glued to a number must be a unit, except a delay: '90d5'."""
    if word is None or word[0] != "w" or word[2] != num[3]:
        return
    after = cur.peek(2)
    if word[1] in ("d", "b") and after is not None and after[0] == "n":
        return
    if word[1] in ("d", "b"):
        cur.fail(word, "unknown unit '%s' in '%s%s' (a delay is written %s%s)"
                 % (word[1], num[1], word[1], word[1], num[1]))
    cur.fail(word, "unknown unit '%s' (use h, m, s or days)" % word[1])


def _bare(cur, d, what, unit_ms):
    """The value of a duration in ms, reading a bare number in `unit_ms`."""
    if d[0] is not None:
        if unit_ms == MS_MIN:
            cur.notes[_UNIT_SEEN] = True
        return d[0]
    nodec = None if unit_ms == MS_S else "has decimals: only seconds may (a bare time is minutes)"
    ms = _amount(cur.text, d[2], d[3], what, unit_ms, nodec)
    if unit_ms == MS_MIN and ms in (MS_MIN, 2 * MS_MIN):
        # US usage writes hours there ("40/2, SD/1") as often as minutes ("G/2"?): no guess
        cur.notes[_SMALL_BARE].append(d[3])
    return ms


def _moves(cur, d):
    n = _amount(cur.text, d[2], d[3], "move count", 1, "must be a whole number")
    if n == 0:
        _fail(cur.text, d[2], "the move count must be at least 1")
    return n


def _moves_time(cur, first, stage=True):
    """'T/M' or 'M/T' after the first duration; returns (moves, time_ms)."""
    slash = cur.take()
    second = _duration(cur, "'/'")
    if first[1] >= 0 and second[1] >= 0:
        cur.fail(slash, "both sides of '/' have a unit: one side must be the move count")
    if first[1] >= 0:
        cur.notes[_UNIT_SEEN] = True
        return _moves(cur, second), first[0]
    if second[1] < 0 and stage:  # US order moves/minutes, unless units say otherwise
        cur.notes[_BARE_PAIRS].append((first[2], first[3], second[3], first[4][1],
                                       second[4][1]))
    return _moves(cur, first), _bare(cur, second, "time", MS_MIN)


def _component(cur, first):
    """Items of one '+'-component: ('stage', Stage), ('mod', inc, delay, kind),
    ('byo', periods, ms, moves), ('mode', mode, ms); each item ends with its (start, end)."""
    t = cur.peek()
    items = []
    word = t[1] if t[0] != "n" else None
    if word in ("d", "b", "inc"):
        items.append(_delay(cur))
    elif word in ("g", "sd", "game") and _is(cur.peek(1), "/"):
        cur.i += 2
        d = _duration(cur, "'%s/'" % word)
        items.append(("stage", Stage(_bare(cur, d, "time", MS_MIN)), t[2], d[3]))
    elif word in ("hourglass", "*"):
        cur.take()
        d = _duration(cur, "'%s'" % word)
        items.append(("mode", MODE_HOURGLASS, _bare(cur, d, "time", MS_MIN), t[2], d[3]))
    elif word in ("upcount", "-"):
        cur.take()
        ms = 0
        end = t[3]
        if _is(cur.peek(), "from"):
            cur.take()
            d = _duration(cur, "'from'")
            ms = _bare(cur, d, "time", MS_MIN)
            end = d[3]
        items.append(("mode", MODE_UPCOUNT, ms, t[2], end))
    elif word in ("byo", "canadian"):
        cur.take()
        items.append(_overtime(cur, t))
    elif t[0] == "n":
        items.append(_stage_or_increment(cur, first))
    else:
        cur.fail(t, "unexpected '%s'" % t[1])
    if items[0][0] in ("stage", "mod"):
        while _is(cur.peek(), "d") or _is(cur.peek(), "b") or _is(cur.peek(), "inc"):
            items.append(_delay(cur))
    t = cur.peek()
    if t is not None:
        cur.fail(t, "unexpected '%s' after '%s'"
                 % (t[1], cur.text[cur.toks[0][2]:cur.toks[cur.i - 1][3]]))
    return items


def _delay(cur):
    """dN, bN, or US Chess's incN (an increment: G/90;inc30)."""
    t = cur.take()
    d = _duration(cur, "'%s'" % t[1])
    if t[1] == "inc":
        return ("mod", _bare(cur, d, "increment", MS_S), 0, DELAY_NONE, t[2], d[3])
    kind = DELAY_SIMPLE if t[1] == "d" else DELAY_BRONSTEIN
    return ("mod", 0, _bare(cur, d, "delay", MS_S), kind, t[2], d[3])


def _stage_or_increment(cur, first):
    d = _duration(cur, "")
    if _is(cur.peek(), "/"):
        moves, ms = _moves_time(cur, d)
        return ("stage", Stage(ms, moves), d[2], cur.toks[cur.i - 1][3])
    if first or (d[1] >= 0 and d[1] < _RANK_S):
        return ("stage", Stage(_bare(cur, d, "time", MS_MIN)), d[2], d[3])
    return ("mod", _bare(cur, d, "increment", MS_S), 0, DELAY_NONE, d[2], d[3])


def _overtime(cur, kw):
    """After 'byo' or 'canadian': [Nx] then T, or M/T."""
    periods = 1
    t = cur.peek()
    if t is not None and t[0] == "n" and _is(cur.peek(1), "x"):
        periods = _amount(cur.text, t[2], t[3], "period count", 1, "must be a whole number")
        if periods == 0:
            _fail(cur.text, t[2], "byo-yomi needs at least 1 period")
        cur.i += 2
    d = _duration(cur, "'%s'" % kw[1])
    if kw[1] == "byo":
        return ("byo", periods, _bare(cur, d, "period", MS_S), 1, kw[2], d[3])
    if not _is(cur.peek(), "/"):
        cur.fail(cur.peek(), "canadian byo-yomi is written moves/time, e.g. canadian 25/10m")
    seen = cur.notes[_UNIT_SEEN]
    moves, ms = _moves_time(cur, d, False)
    cur.notes[_UNIT_SEEN] = seen  # overtime's units say nothing about the stages' spelling
    return ("byo", periods, ms, moves, kw[2], cur.toks[cur.i - 1][3])


def _piece_fail(text, pieces_entry, what):
    toks, before, after = pieces_entry
    if after is not None:
        _fail(text, after[2], "nothing before '%s'" % after[1])
    if before is not None:
        _fail(text, before[2], "nothing after '%s'" % before[1])
    _fail(text, 0, "%s is empty" % what)


def _apply(text, stages, first_index, mod):
    """Put a modifier on stages; a stage takes one increment or delay."""
    for k in range(len(stages)):
        s = stages[k]
        if s.inc_ms or s.delay_ms:
            _fail(text, mod[4], "'%s': stage %d already has an increment or delay"
                  % (text[mod[4]:mod[5]], first_index + k + 1))
        s.inc_ms = mod[1]
        s.delay_ms = mod[2]
        s.delay_kind = mod[3] if mod[2] else DELAY_NONE


def _side(text, toks, notes):
    stages = []
    side_mods = []
    byo = None
    modes = []
    for group in _pieces(toks, (",", ";", "then")):
        if not group[0]:
            _piece_fail(text, group, "a side")
        g_stages = []
        g_mods = []
        comps = _pieces(group[0], ("+",))
        for n in range(len(comps)):
            c = comps[n]
            if not c[0]:
                if n == 0 and c[2] is not None:
                    continue  # a group starting with '+' holds modifiers
                _piece_fail(text, c, "a group")
            for it in _component(_Cursor(text, c[0], notes), n == 0):
                if it[0] == "stage":
                    g_stages.append(it[1])
                elif it[0] == "mod":
                    g_mods.append(it)
                elif it[0] == "byo":
                    if byo is not None:
                        _fail(text, it[4], "a second byo-yomi")
                    byo = it
                else:
                    modes.append(it)
        for m in g_mods:
            if g_stages:
                _apply(text, g_stages, len(stages), m)
            else:
                side_mods.append(m)
        stages.extend(g_stages)
    if modes:
        m = modes[0]
        if len(modes) > 1 or stages or byo or side_mods:
            _fail(text, m[3], "'%s' must be the whole of a side" % text[m[3]:m[4]])
        return SideControl([Stage(m[2])], mode=m[1])
    if not stages:
        _fail(text, toks[0][2], "no stage: give a time such as 90m or 40/2h")
    for m in side_mods:
        _apply(text, stages, 0, m)
    if byo is None:
        return SideControl(stages)
    return SideControl(stages, byo_periods=byo[1], byo_ms=byo[2], byo_moves=byo[3])


def parse_readable(text):
    """Readable notation -> Control (grammar in the module docstring)."""
    _check_str(text)
    toks = _tokenize(text)
    if not toks:
        _fail(text, 0, "empty time control")
    if _is(toks[0], "?"):
        if len(toks) > 1:
            _fail(text, toks[1][2], "'?' must stand alone")
        return UNKNOWN
    sides = _pieces(toks, ("vs",))
    if len(sides) > 2:
        _fail(text, sides[2][1][2], "more than two sides")
    for p in sides:
        if not p[0]:
            _piece_fail(text, p, "a side")
    notes = [False, [], []]
    white = _side(text, sides[0][0], notes)
    black = _side(text, sides[1][0], notes) if len(sides) > 1 else None
    _refuse_guesses(text, notes)
    return _validated(text, Control(white, black))


def _insert(text, ends, unit):
    """`text` with `unit` written after each position in `ends`."""
    out = text
    for e in sorted(ends, reverse=True):
        out = out[:e] + unit + out[e:]
    return out


def _refuse_guesses(text, notes):
    """A spelling an arbiter could mean two ways is refused with the spellings of both."""
    small = notes[_SMALL_BARE]
    if small:
        _fail(text, small[0] - 1, "a bare 1 or 2 as a time is hours in US usage (40/2, SD/1) "
              "and minutes elsewhere: write %s for hours or %s for minutes"
              % (_insert(text, small, "h"), _insert(text, small, "m")))
    pairs = notes[_BARE_PAIRS]
    # More moves than minutes as US moves/minutes ("90/40+30s": 90 moves in 40 min) is under
    # a minute a move: FIDE's "90 min for 40 moves" is likely meant; ask for the unit.
    more_moves = [q for q in pairs if int(q[3]) > int(q[4])]
    if pairs and (notes[_UNIT_SEEN] or more_moves):
        # not the US moves/minutes form; the larger number is likely the time
        p = pairs[0] if notes[_UNIT_SEEN] else more_moves[0]
        a, b = int(p[3]), int(p[4])
        guess = _insert(text, [q[1] if int(q[3]) > int(q[4]) else q[2] for q in pairs], "m")
        try:
            what = describe(parse_readable(guess))  # the whole of it, as it reads back
        except ValueError:
            what = ("%d min for %d moves" % (a, b)) if a > b else ("%d moves in %d min" % (a, b))
        _fail(text, p[0], "'%s' has no unit%s: as US moves/minutes it would be %s moves in "
              "%s min; for %s, write %s (the side of '/' with the unit is the time)"
              % (text[p[0]:p[2]], " while other times have one" if notes[_UNIT_SEEN]
                 else ", and more moves than minutes", p[3], p[4], what, guess))


# ------------------------------------------------------------------------ readable: write


def parse_stage(text):
    """One stage in readable notation ("15m", "15m+10s", "20/1h"), the same for both sides:
    what an arbiter adds to a game in progress (RGC 10.1 "finish with 15 minutes each";
    `chessclock simulate`'s add-stage, the serial link's addstage). As everywhere, a text in
    PGN shape is PGN, in seconds: "15" is 15 s, "900" 15 min. A stage with no time of its
    own and an increment or delay ("0m+5s", "0+5") is "+5 s a move from now on" (FIDE
    Guidelines III)."""
    _ONE_STAGE[0] = True
    try:
        control = parse(text)
    finally:
        _ONE_STAGE[0] = False
    side = control.white
    if (not control.known or not control.symmetric() or len(side.stages) != 1
            or side.mode != MODE_COUNTDOWN or side.byo_periods):
        raise ValueError('"%s": one stage is needed here, e.g. 15m, 15m+10s or 0m+5s' % text)
    return side.stages[0]


def _dur(ms):
    """Largest exact units: 5400000 -> '1h30m', 90000 -> '1m30s', 500 -> '0.5s'."""
    if ms == 0:
        return "0m"
    out = ""
    days = ms // MS_DAY
    if days:
        out = "%d%s" % (days, "day" if days == 1 else "days")
    ms %= MS_DAY
    for unit_ms, name in ((MS_H, "h"), (MS_MIN, "m")):
        if ms >= unit_ms:
            out += "%d%s" % (ms // unit_ms, name)
            ms %= unit_ms
    if ms:
        out += _ms_secs(ms) + "s"
    return out


def _readable_stage(s):
    out = _dur(s.time_ms)
    if s.moves:
        out += "/%d" % s.moves
    if s.inc_ms:
        out += "+%ss" % _ms_secs(s.inc_ms)  # seconds only: '+1m' would start a stage
    if s.delay_ms:
        out += " %s%ss" % ("d" if s.delay_kind == DELAY_SIMPLE else "b", _ms_secs(s.delay_ms))
    return out


def _readable_side(side):
    _writable(side)
    st = side.stages
    if side.mode == MODE_HOURGLASS:
        return "hourglass " + _dur(st[0].time_ms)
    if side.mode == MODE_UPCOUNT:
        return "upcount from " + _dur(st[0].time_ms) if st[0].time_ms else "upcount"
    parts = [_readable_stage(s) for s in st]
    if side.byo_periods:
        count = "%dx" % side.byo_periods if side.byo_periods > 1 else ""
        if side.byo_moves == 1:
            parts.append("byo %s%s" % (count, _dur(side.byo_ms)))
        else:
            parts.append("canadian %s%d/%s" % (count, side.byo_moves, _dur(side.byo_ms)))
    return ", ".join(parts)


def format_readable(control):
    """Control -> canonical readable text; parse_readable reads a valid control back equal."""
    if not control.known:
        return "?"
    white = _readable_side(control.white)
    if control.symmetric():
        return white
    return white + " vs " + _readable_side(control.black)


# ---------------------------------------------------------------------------- any input

def pgn_shaped(text):
    """True when `text` is made of PGN's characters (digits, / + : * . ? - and the d/b delay
    suffixes) and spaces: then it is a PGN TimeControl in seconds, whatever its size."""
    _check_str(text)
    seen = False
    for ch in text:
        if ch in _PGN_CHARS:
            seen = True
        elif ch not in _SPACES:
            return False
    return seen


def pgn_prefixed(text):
    """True for "pgn:..." (any case, leading spaces): PGN on purpose."""
    return "".join([_lower(c) for c in text.lstrip()[:4]]) == "pgn:"


def _compact(text):
    """PGN-shaped text without its spaces ("300 + 2" -> "300+2"); a space between two
    digits would join two numbers into one, so it is an error."""
    out = []
    gap = False
    for k in range(len(text)):
        ch = text[k]
        if ch in _SPACES:
            gap = bool(out)
            continue
        if gap and (ch in _DIGITS or ch == ".") and (out[-1] in _DIGITS or out[-1] == "."):
            _fail(text, k, "a space between two numbers: write the '+', '/' or ':' that "
                  "joins them")
        out.append(ch)
        gap = False
    return "".join(out)


def _readable_hint(text):
    """For a PGN-shaped text PGN refuses: what it would mean with units, if anything."""
    try:
        c = parse_readable(text)
        if c.known:
            return "; with units, for %s, write %s" % (describe(c), format_readable(c))
    except ValueError:
        pass
    return ""


def _bar_hint(text):
    """lichess's "3|2" (minutes | seconds a move) is no notation here: a ValueError with the
    spelling of what it means, else None."""
    k = text.find("|")
    if k < 0:
        return None
    a, b = text[:k].strip(), text[k + 1:].strip()
    if not (a and b and _all_digits(a) and _all_digits(b) and len(a) < 5 and len(b) < 5):
        return None
    try:
        c = Control(SideControl([Stage(int(a) * MS_MIN, 0, int(b) * MS_S)])).validate()
    except ValueError:
        return None
    _fail(text, k, "'|' is not part of the notation; for %s (lichess's %s|%s), write %s"
          % (describe(c), a, b, format_readable(c)))


def _all_digits(s):
    for ch in s:
        if ch not in _DIGITS:
            return False
    return True


def parse(text):
    """What a user may type anywhere: 'pgn:...', 'readable:...', or either grammar (a text
    in PGN shape is PGN, in seconds)."""
    _check_str(text)
    text = text.strip()
    _bar_hint(text)
    if pgn_prefixed(text):
        return parse_pgn(_compact(text[4:].strip()))
    if "".join([_lower(c) for c in text[:9]]) == "readable:":
        return parse_readable(text[9:])
    if not pgn_shaped(text):
        return parse_readable(text)
    try:
        return parse_pgn(_compact(text))
    except ValueError as e:
        why = e.args[0] if e.args else "invalid"
    raise ValueError(why + _readable_hint(text))


# ----------------------------------------------------------------------------- describe

def _human(ms):
    if ms and ms % MS_DAY == 0:
        return "%d days" % (ms // MS_DAY)
    if ms % MS_MIN == 0:
        return "%d min" % (ms // MS_MIN)
    if ms > MS_MIN:
        return "%d min %s s" % (ms // MS_MIN, _ms_secs(ms % MS_MIN))
    return "%s s" % _ms_secs(ms)


def _extra(s):
    if s.inc_ms:
        return "+%s s per move" % _ms_secs(s.inc_ms)
    if s.delay_ms:
        kind = "Bronstein delay" if s.delay_kind == DELAY_BRONSTEIN else "delay"
        return "%s s %s" % (_ms_secs(s.delay_ms), kind)
    return ""


def describe_side(side):
    """One side in English, e.g. '5 min for 60 moves, then +2 s per move from move 61'."""
    st = side.stages
    if side.mode == MODE_HOURGLASS:
        return "hourglass, %s" % _human(st[0].time_ms)
    if side.mode == MODE_UPCOUNT:
        return "counting up" + (" from " + _human(st[0].time_ms) if st[0].time_ms else "")
    shared = _extra(st[0])
    for s in st:
        if _extra(s) != shared:
            shared = None
            break
    phrases = []
    move = 1
    for s in st:
        extra = _extra(s) if shared is None else ""
        if s.time_ms == 0 and extra:
            p = "%s from move %d" % (extra, move)
        else:
            p = _human(s.time_ms)
            if s.moves:
                p += " for %d moves" % s.moves
            if extra:
                p += " (%s)" % extra
        phrases.append(p)
        move += s.moves
    out = ", then ".join(phrases)
    if st[-1].moves:
        out += ", repeating"
    if shared:
        out += "; %s" % shared + (" from move 1" if st[0].inc_ms else "")
    if side.byo_periods:
        many = side.byo_periods > 1
        if side.byo_moves == 1:
            out += "; then %d byo-yomi period%s of %s" % (
                side.byo_periods, "s" if many else "", _human(side.byo_ms))
        else:
            out += "; then %s%d moves in %s (Canadian)" % (
                "%d periods of " % side.byo_periods if many else "", side.byo_moves,
                _human(side.byo_ms))
    return out


def describe(control):
    """A one-line English summary, e.g. '90 min for 40 moves, then 30 min; +30 s per move
    from move 1'."""
    if not control.known:
        return "unknown time control"
    if control.symmetric():
        return describe_side(control.white)
    return "White: %s. Black: %s" % (describe_side(control.white), describe_side(control.black))
