"""clockcore.notation against python-chess, and round trips over generated controls.

python-chess's `chess.pgn.parse_time_control` is an independent reading of the PGN
TimeControl tag; on well-formed input we must agree with it part by part. Where we are
stricter or read more (Bronstein, hourglass), the last tests pin the difference down.
"""

import chess.pgn
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from clockcore import notation as N
from clockcore import plausible as P
from clockcore import presets
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

# ---------------------------------------------------------------------- PGN strings


@st.composite
def decimal_seconds(draw):
    """'2', '0.5', '1.25', '3.000': whole seconds with 0 to 3 decimals."""
    whole = draw(st.integers(0, 600))
    frac = draw(st.text(alphabet="0123456789", min_size=0, max_size=3))
    return "%d.%s" % (whole, frac) if frac else "%d" % whole


@st.composite
def pgn_texts(draw):
    n = draw(st.integers(1, 4))
    parts = []
    for i in range(n):
        last = i == n - 1
        moves = draw(st.integers(1, 200)) if not last or draw(st.booleans()) else 0
        # the first stage and a repeating last one need time; others may have none
        low = 1 if i == 0 or (last and moves) else 0
        secs = draw(st.integers(low, 100000))
        text = "%d/%d" % (moves, secs) if moves else "%d" % secs
        bonus = draw(st.sampled_from(("", "inc", "delay")))
        if bonus:
            text += "+" + draw(decimal_seconds()) + ("d" if bonus == "delay" else "")
        parts.append(text)
    return ":".join(parts)


@given(pgn_texts())
def test_parse_pgn_agrees_with_python_chess(text):
    theirs = chess.pgn.parse_time_control(text)
    ours = N.parse_pgn(text)
    assert ours.symmetric() and ours.white.mode == MODE_COUNTDOWN
    stages = ours.white.stages
    assert len(stages) == len(theirs.parts)
    for stage, part in zip(stages, theirs.parts, strict=True):
        assert stage.moves == part.moves
        assert stage.time_ms == part.time * 1000
        assert stage.inc_ms == round(part.increment * 1000)
        assert stage.delay_ms == round(part.delay * 1000)
        assert stage.delay_kind == (DELAY_SIMPLE if stage.delay_ms else DELAY_NONE)


@st.composite
def spaced(draw, text):
    """`text` with spaces drawn around its punctuation (never between two digits)."""
    out = [" " * draw(st.integers(0, 2))]
    for ch in text:
        pad = " " * draw(st.integers(0, 2)) if ch in "/+:*" else ""
        out.append(pad + ch + pad)
    return "".join(out)


@given(pgn_texts().flatmap(lambda t: st.tuples(st.just(t), spaced(t))))
def test_parse_reads_pgn_shape_as_pgn_and_agrees_with_python_chess(texts):
    # what the user types in PGN shape is PGN, in seconds, whatever the size of its
    # numbers (15+10 is 15 s) and whatever its spaces
    text, with_spaces = texts
    ours = N.parse(text)
    assert ours == N.parse_pgn(text) == N.parse(with_spaces)
    for t in (text, with_spaces):
        try:
            theirs = chess.pgn.parse_time_control(t)
        except ValueError:  # python-chess takes no space after a 'd': agree where both read
            assert t is with_spaces
            continue
        assert len(ours.white.stages) == len(theirs.parts)
        for stage, part in zip(ours.white.stages, theirs.parts, strict=True):
            assert (stage.moves, stage.time_ms) == (part.moves, part.time * 1000)
            assert stage.inc_ms == round(part.increment * 1000)
            assert stage.delay_ms == round(part.delay * 1000)


@given(pgn_texts())
def test_format_pgn_reads_back_equal(text):
    c = N.parse_pgn(text)
    out = N.format_pgn(c)
    assert N.parse_pgn(out) == c
    assert N.format_pgn(N.parse_pgn(out)) == out
    assert N.parse("pgn:" + out) == c
    assert N.parse_readable(N.format_readable(c)) == c


# ------------------------------------------------------------------------ Controls

TIMES = st.one_of(st.integers(0, MAX_MS),
                  st.sampled_from((0, 1000, 30000, 60000, 180000, 300000, 900000, 1800000,
                                   3600000, 5400000, 7200000, 86400000, 864000000)))
SMALL = st.one_of(st.integers(1, 600000), st.sampled_from((500, 1000, 2000, 5000, 30000)))


@st.composite
def bonuses(draw):
    """(inc_ms, delay_ms, delay_kind): none, increment, simple or Bronstein delay."""
    kind = draw(st.sampled_from(("none", "inc", "simple", "bronstein")))
    if kind == "none":
        return 0, 0, DELAY_NONE
    ms = draw(st.one_of(SMALL, st.integers(1, MAX_MS)))
    if kind == "inc":
        return ms, 0, DELAY_NONE
    return 0, ms, DELAY_SIMPLE if kind == "simple" else DELAY_BRONSTEIN


@st.composite
def sides(draw, mode):
    if mode == MODE_HOURGLASS:
        return SideControl([Stage(draw(st.integers(1, MAX_MS)))], mode=mode)
    if mode == MODE_UPCOUNT:
        return SideControl([Stage(draw(TIMES))], mode=mode)
    n = draw(st.integers(1, 4))
    byo = draw(st.booleans())
    stages = []
    for i in range(n):
        last = i == n - 1
        moves = 0 if last and (byo or draw(st.booleans())) else draw(st.integers(1, 300))
        inc, delay, kind = draw(bonuses())
        stages.append(Stage(draw(TIMES), moves, inc, delay, kind))
    if not byo:
        return SideControl(stages)
    # byo_moves 1 is Japanese, more is Canadian
    return SideControl(stages, byo_periods=draw(st.integers(1, 10)),
                       byo_ms=draw(st.one_of(SMALL, st.integers(1, MAX_MS))),
                       byo_moves=draw(st.one_of(st.just(1), st.integers(2, 60))))


@st.composite
def controls(draw):
    mode = draw(st.sampled_from((MODE_COUNTDOWN, MODE_COUNTDOWN, MODE_HOURGLASS, MODE_UPCOUNT)))
    white = draw(sides(mode))
    black = None
    if draw(st.booleans()):
        other = mode if mode == MODE_HOURGLASS else draw(
            st.sampled_from((MODE_COUNTDOWN, MODE_UPCOUNT)))
        black = draw(sides(other))
    c = Control(white, black)
    try:
        c.validate()
    except ValueError:
        assume(False)
    return c


@given(controls())
def test_readable_round_trip(c):
    text = N.format_readable(c)
    assert N.parse_readable(text) == c
    assert N.parse(text) == c
    assert N.format_readable(N.parse_readable(text)) == text
    assert N.describe(c)


@given(controls())
def test_pgn_round_trip_when_expressible(c):
    try:
        text = N.format_pgn(c)
    except ValueError as e:
        assert "cannot be written as a PGN TimeControl" in str(e)
        return
    assert N.parse_pgn(text) == c
    # what the tools print as PGN reads back to the same control wherever a spec is taken:
    # no prefix needed, and no preset name looks like PGN
    assert N.parse(text) == c
    assert presets.resolve(text) == (c, None)


@given(controls())
def test_configuring_takes_the_pgn_or_names_a_plausible_spelling(c):
    """A person configuring a clock with what the tools print as PGN either gets that very
    control, or a refusal quoting it whose suggested spelling reads, as typed, to a control
    some event plays; "pgn:" always gets the control as written."""
    try:
        text = N.format_pgn(c)
    except ValueError:
        return
    _configure(c, text)


@given(pgn_texts())
def test_configuring_typed_pgn_takes_it_or_names_a_plausible_spelling(text):
    # typed PGN: many small numbers, so the refusals and their spellings get exercised
    _configure(N.parse(text), text)


def _configure(c, text):
    assert P.resolve("pgn:" + text) == (c, None)
    why = P.why_not(c)
    if why is None:
        assert P.resolve(text) == (c, None)
        return
    with pytest.raises(ValueError) as e:
        P.resolve(text)
    msg = str(e.value)
    assert msg.startswith('"%s" as PGN (seconds) is %s: ' % (text, N.describe(c)))
    assert "(%s)" % why in msg and msg.endswith("write pgn:" + text)
    likely = P.likely(c)
    if likely is not None:
        meant, spelling = likely
        assert "write %s;" % spelling in msg
        assert P.why_not(meant) is None
        assert P.resolve(spelling) == (meant, None)  # the spelling configures it as it is


# ------------------------------------------------------------------ known differences

# python-chess accepts these (int()/float() are lenient, '?'/'-' only look at the first
# character, an empty tag is "unknown"); we reject them, saying where.
STRICTER = (
    (" 300", 1, "spaces are not allowed in a PGN TimeControl"),
    ("300+ 2", 5, "spaces are not allowed in a PGN TimeControl"),
    ("3_00", 2, "time '3_00' is not a number"),
    ("300+1e1", 6, "increment '1e1' is not a number"),
    ("300+.5", 5, "increment '.5' is not a number"),
    ("?abc", 2, "'?' must stand alone"),
    ("-abc", 2, "'-' must stand alone"),
    ("40/-5", 4, "time '-5' is not a number"),
    ("0/300", 1, "the move count must be at least 1"),
    ("300+0.0005", 10, "increment '0.0005' is finer than a millisecond"),
    ("300+5D", 6, "the delay suffix 'D' must be lowercase"),
)


@pytest.mark.parametrize("text,pos,why", STRICTER)
def test_python_chess_accepts_what_we_reject(text, pos, why):
    chess.pgn.parse_time_control(text)  # no error there
    with pytest.raises(ValueError) as e:
        N.parse_pgn(text)
    msg = str(e.value)
    assert msg == '"%s": %s (at character %d)' % (text, why, pos)


def test_empty_tag():
    assert chess.pgn.parse_time_control("").parts == []
    with pytest.raises(ValueError, match="empty"):
        N.parse_pgn("")


@pytest.mark.parametrize("text,ours", (
    ("300+5b", Control(SideControl([Stage(300000, delay_ms=5000,
                                          delay_kind=DELAY_BRONSTEIN)]))),
    ("*180", Control(SideControl([Stage(180000)], mode=MODE_HOURGLASS))),
))
def test_we_read_what_python_chess_does_not(text, ours):
    with pytest.raises(ValueError):
        chess.pgn.parse_time_control(text)
    assert N.parse_pgn(text) == ours


def test_unknown_and_no_clock_agree():
    assert chess.pgn.parse_time_control("?").parts == []
    assert N.parse_pgn("?") is UNKNOWN
    assert chess.pgn.parse_time_control("-").type == chess.pgn.TimeControlType.UNLIMITED
    assert N.parse_pgn("-") == Control(SideControl([Stage(0)], mode=MODE_UPCOUNT))


# ------------------------------------------------------------------------ any text

NOTATION_TEXT = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="0123456789/:+.*-? dbhmsxgDvcanpoutfr,;", max_size=30),
)


@given(st.text(alphabet="0123456789/:+.*-?db ", max_size=20))
def test_pgn_shape_has_one_meaning(text):
    """A text in PGN shape is read as PGN or refused: never as minutes."""
    try:
        c = N.parse(text)
    except ValueError:
        return
    assert N.pgn_shaped(text)
    assert c is N.parse_pgn(text.replace(" ", "")) or c == N.parse_pgn(text.replace(" ", ""))


@given(NOTATION_TEXT)
def test_any_text_reads_or_fails_with_value_error(text):
    for fn in (N.parse, N.parse_pgn, N.parse_readable, P.resolve):
        try:
            c = fn(text)
        except ValueError as e:
            assert str(e)
            continue
        if isinstance(c, tuple):  # P.resolve: (Control, Preset or None)
            if c[1] is not None and c[1].ledger:
                continue   # a correspondence ledger's days: no clock's control (App refuses it)
            c = c[0]
        if c is UNKNOWN:
            continue
        c.validate()
        assert N.parse_readable(N.format_readable(c)) == c
