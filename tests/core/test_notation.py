# Worked examples for clockcore.notation, values computed by hand (1 s = 1000 ms,
# 1 min = 60000 ms, 1 h = 3600000 ms, 1 day = 86400000 ms).
# Runs under pytest and under the MicroPython unix port (tests/mp_run.py).

from check import message

from clockcore import notation as N
from clockcore import plausible as P
from clockcore.control import (
    DELAY_BRONSTEIN,
    DELAY_SIMPLE,
    MODE_HOURGLASS,
    MODE_UPCOUNT,
    UNKNOWN,
    Control,
    SideControl,
    Stage,
    sudden_death,
)


def one(*stages, **kw):
    return Control(SideControl(list(stages), **kw))


def where(fn, text, pos, *pieces):
    """fn(text) must fail naming the text, each piece and 1-based character `pos`."""
    m = message(ValueError, fn, text)
    assert m.startswith('"%s": ' % text), m
    assert m.endswith("(at character %d)" % pos), m
    for p in pieces:
        assert p in m, (p, m)
    return m


# ---------------------------------------------------------------------------------- PGN

def test_pgn_unknown_and_upcount():
    assert N.parse_pgn("?") is UNKNOWN
    assert N.parse_pgn("-") == one(Stage(0), mode=MODE_UPCOUNT)


def test_pgn_sudden_death_and_increment():
    assert N.parse_pgn("300") == sudden_death(300000)
    assert N.parse_pgn("300+2") == sudden_death(300000, 2000)
    assert N.parse_pgn("5400") == sudden_death(5400000)


def test_pgn_stages():
    c = N.parse_pgn("40/5400+30:1800+30")
    assert c == one(Stage(5400000, 40, inc_ms=30000), Stage(1800000, inc_ms=30000))
    c = N.parse_pgn("40/7200:20/3600:900")
    assert c == one(Stage(7200000, 40), Stage(3600000, 20), Stage(900000))


def test_pgn_last_part_with_moves_repeats():
    assert N.parse_pgn("40/7200") == one(Stage(7200000, 40))
    assert N.parse_pgn("40/7200:20/3600") == one(Stage(7200000, 40), Stage(3600000, 20))


def test_pgn_hourglass():
    assert N.parse_pgn("*180") == one(Stage(180000), mode=MODE_HOURGLASS)


def test_pgn_delays():
    assert N.parse_pgn("300+5d") == one(Stage(300000, delay_ms=5000, delay_kind=DELAY_SIMPLE))
    assert N.parse_pgn("300+5b") == one(Stage(300000, delay_ms=5000,
                                              delay_kind=DELAY_BRONSTEIN))
    assert N.parse_pgn("300+2.5d") == one(Stage(300000, delay_ms=2500,
                                                delay_kind=DELAY_SIMPLE))


def test_pgn_decimal_increments():
    assert N.parse_pgn("300+0.5") == sudden_death(300000, 500)
    assert N.parse_pgn("300+1.25") == sudden_death(300000, 1250)
    assert N.parse_pgn("300+0.125") == sudden_death(300000, 125)
    assert N.parse_pgn("300+0.001") == sudden_death(300000, 1)
    # trailing zeros past the third decimal are still whole milliseconds
    assert N.parse_pgn("300+2.5000") == sudden_death(300000, 2500)


def test_pgn_error_example_from_the_brief():
    m = message(ValueError, N.parse_pgn, "40/5400+x")
    assert m == "\"40/5400+x\": increment 'x' is not a number (at character 9)", m


def test_pgn_rejects_sub_millisecond():
    where(N.parse_pgn, "300+0.0005", 10, "'0.0005'", "finer than a millisecond")
    where(N.parse_pgn, "300+1.2345d", 10, "delay", "finer than a millisecond")


def test_pgn_rejects_spaces_signs_and_junk():
    where(N.parse_pgn, " 300", 1, "spaces")
    where(N.parse_pgn, "300 ", 4, "spaces")
    where(N.parse_pgn, "300 + 2", 4, "spaces")
    where(N.parse_pgn, "+300", 1, "time is missing")
    where(N.parse_pgn, "40/-5", 4, "time '-5'", "not a number")
    where(N.parse_pgn, "300+-2", 5, "increment '-2'")
    where(N.parse_pgn, "3_00", 2, "time '3_00'")
    where(N.parse_pgn, "300+1e1", 6, "increment '1e1'")
    where(N.parse_pgn, "300x", 4, "time '300x'")
    where(N.parse_pgn, "300+2x", 6, "increment '2x'")
    where(N.parse_pgn, "?foo", 2, "'?' must stand alone")
    where(N.parse_pgn, "-foo", 2, "'-' must stand alone")
    where(N.parse_pgn, "300.5", 4, "time '300.5'", "whole seconds")
    where(N.parse_pgn, "4.5/300", 2, "move count '4.5'", "whole number")
    where(N.parse_pgn, "300+.5", 5, "increment '.5'", "not a number")
    where(N.parse_pgn, "300+5.", 6, "increment '5.'", "not a number")
    where(N.parse_pgn, "300+5D", 6, "lowercase")


def test_pgn_rejects_empty_fields():
    assert "empty" in message(ValueError, N.parse_pgn, "")
    where(N.parse_pgn, "300+", 5, "increment is missing")
    where(N.parse_pgn, "300+d", 5, "delay is missing")
    where(N.parse_pgn, "300:", 5, "part 2 is empty")
    where(N.parse_pgn, ":300", 1, "part 1 is empty")
    where(N.parse_pgn, "40/7200::900", 9, "part 2 is empty")
    where(N.parse_pgn, "40/", 4, "time is missing")
    where(N.parse_pgn, "/300", 1, "move count is missing")
    where(N.parse_pgn, "*", 2, "hourglass time is missing")
    where(N.parse_pgn, "*180+2", 5, "hourglass time '180+2'")


def test_pgn_only_last_part_may_be_sudden_death():
    where(N.parse_pgn, "300:40/7200", 1, "part 1 has no move count")
    where(N.parse_pgn, "40/7200:3600:900", 9, "part 2 has no move count")
    where(N.parse_pgn, "0/300", 1, "at least 1")


def test_pgn_result_is_validated():
    m = message(ValueError, N.parse_pgn, "0")
    assert m.startswith('"0": ') and "no time to play with" in m, m
    assert "hourglass needs some time" in message(ValueError, N.parse_pgn, "*0")
    assert "repeating stage needs time" in message(ValueError, N.parse_pgn, "40/7200:20/0")
    where(N.parse_pgn, "2000000", 1, "too large")


def test_format_pgn_examples():
    for text in ("?", "-", "300", "300+2", "40/5400+30:1800+30", "*180", "300+5d", "300+5b",
                 "300+0.5", "40/7200", "40/7200:20/3600", "300+1.005", "60/300:0+2"):
        assert N.format_pgn(N.parse_pgn(text)) == text, text


def test_format_pgn_writes_minimal_decimals():
    assert N.format_pgn(sudden_death(60000, 500)) == "60+0.5"
    assert N.format_pgn(sudden_death(60000, 1250)) == "60+1.25"
    assert N.format_pgn(sudden_death(60000, 30000)) == "60+30"
    assert N.format_pgn(N.parse_pgn("300+2.500")) == "300+2.5"


def test_format_pgn_refuses_what_pgn_cannot_say():
    def no(control, reason):
        m = message(ValueError, N.format_pgn, control)
        assert "cannot be written as a PGN TimeControl" in m and reason in m, m

    no(Control(SideControl([Stage(300000)]), SideControl([Stage(240000)])), "different")
    no(one(Stage(3600000), byo_periods=5, byo_ms=30000), "byo-yomi")
    no(one(Stage(600000), mode=MODE_UPCOUNT), "from 0")
    no(sudden_death(1500), "whole seconds")


# ------------------------------------------------------------------------- readable: read

def R(text):
    return N.parse_readable(text)


def test_readable_durations():
    assert R("1h30m") == sudden_death(5400000)
    assert R("2m30s") == sudden_death(150000)
    assert R("90min") == sudden_death(5400000)
    assert R("90") == sudden_death(5400000)  # a bare stage time is minutes
    assert R("2h") == sudden_death(7200000)
    assert R("30sec") == sudden_death(30000)
    assert R("1day") == sudden_death(86400000)
    assert R("10days") == sudden_death(864000000)
    assert R("1 h 30 m") == sudden_death(5400000)
    assert R("1.5s") == sudden_death(1500)
    assert R("1m0.125s") == sudden_death(60125)


def test_readable_moves_and_time_either_order():
    c = one(Stage(5400000, 40))
    assert R("90m/40") == c
    assert R("40/90m") == c
    assert R("40 / 90 min") == c
    assert R("40/90") == c  # neither has a unit: US order, minutes
    assert R("40/120") == one(Stage(7200000, 40))
    assert R("1h30m/40") == c


def test_readable_game_and_sudden_death():
    assert R("G/90") == sudden_death(5400000)
    assert R("SD/60") == sudden_death(3600000)
    assert R("g/1h30m") == sudden_death(5400000)
    assert R("G/90+30") == sudden_death(5400000, 30000)


def test_readable_increments_and_delays():
    assert R("15+10") == sudden_death(900000, 10000)
    assert R("3+2") == sudden_death(180000, 2000)
    assert R("5m+2s") == sudden_death(300000, 2000)
    assert R("5m + 0.5") == sudden_death(300000, 500)
    d5 = one(Stage(5400000, delay_ms=5000, delay_kind=DELAY_SIMPLE))
    assert R("G/90;d5") == d5
    assert R("G/90 d5") == d5
    assert R("G/90 d 5") == d5
    assert R("G/90 + d5s") == d5
    assert R("90d5") == d5
    assert R("G/90 b5") == one(Stage(5400000, delay_ms=5000, delay_kind=DELAY_BRONSTEIN))


def test_readable_fide_shorthand_gives_both_stages_the_increment():
    c = one(Stage(5400000, 40, inc_ms=30000), Stage(1800000, inc_ms=30000))
    assert R("90m/40+30m+30s") == c
    assert R("90m/40 + 30m + 30s") == c
    assert R("90m/40+30s, 30m+30s") == c
    # a modifiers-only group applies to every stage
    assert R("90m/40, 30m, +30s") == c


def test_readable_increment_in_one_group_only():
    c = one(Stage(300000, 60), Stage(0, inc_ms=2000))
    assert R("5m/60, 0m+2s") == c
    assert R("5m/60; 0m+2") == c
    assert R("5m/60 then 0m+2s") == c


def test_readable_global_delay():
    c = one(Stage(7200000, 40, delay_ms=5000, delay_kind=DELAY_SIMPLE),
            Stage(3600000, delay_ms=5000, delay_kind=DELAY_SIMPLE))
    assert R("40/120, SD/60, d5") == c
    assert R("40/120, SD/60; d5") == c


def test_readable_plus_starts_a_stage_or_an_increment():
    # after '+': '/', G/, SD/ or a duration in m/h/days is a stage; bare or seconds: increment
    assert R("40/2h+1h") == one(Stage(7200000, 40), Stage(3600000))
    assert R("40/2h+20/1h") == one(Stage(7200000, 40), Stage(3600000, 20))
    assert R("40/2h+SD/1h") == one(Stage(7200000, 40), Stage(3600000))
    assert R("40/2h+60") == one(Stage(7200000, 40, inc_ms=60000))
    assert R("40/2h+1m30s") == one(Stage(7200000, 40), Stage(90000))
    assert R("40/2h+90s") == one(Stage(7200000, 40, inc_ms=90000))


def test_readable_byo_yomi():
    assert R("60m + byo 5x30s") == one(Stage(3600000), byo_periods=5, byo_ms=30000)
    assert R("60m, byo 5 x 30") == one(Stage(3600000), byo_periods=5, byo_ms=30000)
    assert R("1h, byo 30s") == one(Stage(3600000), byo_periods=1, byo_ms=30000)
    c = one(Stage(3600000), byo_periods=1, byo_ms=600000, byo_moves=25)
    assert R("1h, canadian 25/10m") == c
    assert R("1h + canadian 10m/25") == c
    assert R("1h, canadian 25/10") == c
    assert R("1h, canadian 2x25/10m") == one(Stage(3600000), byo_periods=2, byo_ms=600000,
                                             byo_moves=25)


def test_readable_modes():
    h = one(Stage(180000), mode=MODE_HOURGLASS)
    assert R("hourglass 3m") == h
    assert R("*3") == h
    assert R("* 3m") == h
    up = one(Stage(0), mode=MODE_UPCOUNT)
    assert R("upcount") == up
    assert R("-") == up
    assert R("upcount from 10m") == one(Stage(600000), mode=MODE_UPCOUNT)
    assert R("upcount from 10") == one(Stage(600000), mode=MODE_UPCOUNT)


def test_readable_sides():
    assert R("5m vs 4m") == Control(SideControl([Stage(300000)]), SideControl([Stage(240000)]))
    arm = Control(SideControl([Stage(300000, 60), Stage(0, inc_ms=2000)]),
                  SideControl([Stage(240000, 60), Stage(0, inc_ms=2000)]))
    assert R("5m/60, 0m+2s vs 4m/60, 0m+2s") == arm
    assert R("5m vs 5m") == sudden_death(300000)
    assert R("hourglass 3m vs hourglass 2m") == Control(
        SideControl([Stage(180000)], mode=MODE_HOURGLASS),
        SideControl([Stage(120000)], mode=MODE_HOURGLASS))


def test_readable_unknown_and_case():
    assert R("?") is UNKNOWN
    assert R(" ? ") is UNKNOWN
    assert R("G/90; D5") == R("g/90;d5")
    assert R("5M VS 4M") == R("5m vs 4m")
    assert R("1H, BYO 5X30S") == R("1h, byo 5x30s")
    assert R("40/120 THEN 60") == R("40/120, 60")


def test_readable_errors_say_where_and_why():
    where(R, "90m/40s", 4, "both sides of '/' have a unit")
    where(R, "1h30", 3, "'30' needs a unit")
    where(R, "30m1h", 5, "largest to smallest")
    where(R, "1h1h", 4, "largest to smallest")
    where(R, "5q", 2, "unknown unit 'q'")
    where(R, "300+5d", 6, "unknown unit 'd'", "d5")
    where(R, "1.5m", 2, "'1.5'", "only seconds")
    where(R, "1.5", 2, "'1.5'", "only seconds")
    where(R, "5m+0.0001", 9, "finer than a millisecond")
    where(R, "5m+", 3, "nothing after '+'")
    where(R, "5m,", 3, "nothing after ','")
    where(R, "5m,,3m", 4, "nothing before ','")
    where(R, "5m vs", 4, "nothing after 'vs'")
    where(R, "5m vs 4m vs 3m", 10, "more than two sides")
    where(R, "d5", 1, "no stage")
    where(R, "5m+3+2", 6, "'2'", "stage 1 already has")
    where(R, "G/90 d5, +2", 11, "'2'", "stage 1 already has")
    where(R, "hourglass 3m, 5m", 1, "'hourglass 3m' must be the whole of a side")
    where(R, "5m & 3", 4, "unexpected character '&'")
    where(R, "0/90m", 1, "at least 1")
    where(R, "40.5/90m", 3, "move count '40.5'")
    where(R, "5m foo", 4, "unexpected 'foo'")
    where(R, "G/", 3, "a number must follow")
    where(R, "1h, canadian 10m", 17, "moves/time")
    where(R, "1h, byo 5x30s, byo 10s", 16, "a second byo-yomi")
    where(R, "1h, byo 0x30s", 9, "at least 1 period")
    where(R, "15days", 1, "too large")
    where(R, "12days 12h", 1, "too long")
    where(R, "5m ?", 4, "unexpected '?'")
    where(R, "", 1, "empty")


def test_readable_result_is_validated():
    m = message(ValueError, R, "0m")
    assert m.startswith('"0m": ') and "no time to play with" in m, m
    assert "hourglass" in message(ValueError, R, "hourglass 3m vs 3m")
    assert "byo-yomi follows" in message(ValueError, R, "40/2h, byo 30s")


# ------------------------------------------------------------------------ readable: write

def test_format_readable_canonical():
    F = N.format_readable
    assert F(N.parse_pgn("40/5400+30:1800+30")) == "1h30m/40+30s, 30m+30s"
    assert F(sudden_death(900000, 10000)) == "15m+10s"
    assert F(sudden_death(90000)) == "1m30s"
    assert F(sudden_death(7200000)) == "2h"
    assert F(sudden_death(500)) == "0.5s"
    assert F(sudden_death(300000, 1500)) == "5m+1.5s"
    assert F(sudden_death(300000, 90000)) == "5m+90s"  # '+1m30s' would start a stage
    assert F(one(Stage(864000000, 10))) == "10days/10"
    assert F(one(Stage(86400000 + 3600000))) == "1day1h"
    assert F(one(Stage(5400000, delay_ms=5000, delay_kind=DELAY_SIMPLE))) == "1h30m d5s"
    assert F(one(Stage(300000, delay_ms=3000, delay_kind=DELAY_BRONSTEIN))) == "5m b3s"
    assert F(one(Stage(3600000), byo_periods=5, byo_ms=30000)) == "1h, byo 5x30s"
    assert F(one(Stage(3600000), byo_periods=1, byo_ms=30000)) == "1h, byo 30s"
    assert F(one(Stage(3600000), byo_periods=1, byo_ms=600000, byo_moves=25)) == \
        "1h, canadian 25/10m"
    assert F(one(Stage(3600000), byo_periods=3, byo_ms=600000, byo_moves=25)) == \
        "1h, canadian 3x25/10m"
    assert F(one(Stage(180000), mode=MODE_HOURGLASS)) == "hourglass 3m"
    assert F(one(Stage(0), mode=MODE_UPCOUNT)) == "upcount"
    assert F(one(Stage(600000), mode=MODE_UPCOUNT)) == "upcount from 10m"
    assert F(R("5m/60, 0m+2s vs 4m/60, 0m+2s")) == "5m/60, 0m+2s vs 4m/60, 0m+2s"
    assert F(UNKNOWN) == "?"


def test_format_writes_out_of_range_values_as_they_are():
    # the correspondence ledger's 40 days is over MAX_MS: written, but not read back
    c = one(Stage(40 * 86400000, 10))
    assert N.format_readable(c) == "40days/10"
    assert N.format_pgn(c) == "10/3456000"
    assert N.format_readable(sudden_death(0)) == "0m"


def test_format_refuses_what_cannot_be_written():
    for fn in (N.format_readable, N.format_pgn):
        m = message(ValueError, fn, one(Stage(300000, delay_ms=5000)))
        assert "delay of no kind" in m, m
        assert "no stage" in message(ValueError, fn, one())
        m = message(ValueError, fn, one(Stage(60000), Stage(60000), mode=MODE_HOURGLASS))
        assert "more than a time" in m, m
        assert "-5" in message(ValueError, fn, sudden_death(-5))


VARIED = (
    UNKNOWN,
    sudden_death(300000),
    sudden_death(1),
    sudden_death(1073741823, 1073741823),
    one(Stage(5400000, 40, inc_ms=30000), Stage(1800000, inc_ms=30000)),
    one(Stage(7200000, 40), Stage(3600000, 20)),
    one(Stage(7200000, 40), Stage(3600000, 20), Stage(900000, inc_ms=30000)),
    one(Stage(60000, 10), Stage(0, 5, inc_ms=1000), Stage(60500)),
    one(Stage(0, delay_ms=5000, delay_kind=DELAY_SIMPLE)),
    one(Stage(3723456, 7, delay_ms=1, delay_kind=DELAY_BRONSTEIN), Stage(1, delay_ms=999999,
                                                                         delay_kind=DELAY_SIMPLE)),
    one(Stage(0), byo_periods=5, byo_ms=30000),
    one(Stage(3600000, inc_ms=500), byo_periods=2, byo_ms=90500, byo_moves=10),
    one(Stage(864000000, 10)),
    one(Stage(120000), mode=MODE_HOURGLASS),
    one(Stage(0), mode=MODE_UPCOUNT),
    one(Stage(1), mode=MODE_UPCOUNT),
    Control(SideControl([Stage(300000, 60), Stage(0, inc_ms=2000)]),
            SideControl([Stage(240000, 60), Stage(0, inc_ms=2000)])),
    Control(SideControl([Stage(180000)], mode=MODE_HOURGLASS),
            SideControl([Stage(120000)], mode=MODE_HOURGLASS)),
    Control(SideControl([Stage(0)], mode=MODE_UPCOUNT),
            SideControl([Stage(3600000)], byo_periods=3, byo_ms=20000)),
)


def test_readable_round_trips():
    for c in VARIED:
        text = N.format_readable(c)
        assert N.parse_readable(text) == c, (text, c)
        assert N.parse(text) == c, (text, c)  # canonical text never looks like PGN
        assert N.format_readable(N.parse_readable(text)) == text, text


def test_pgn_round_trips():
    for c in VARIED:
        try:
            text = N.format_pgn(c)
        except ValueError as e:
            assert "cannot be written as a PGN TimeControl" in str(e), e
            continue
        assert N.parse_pgn(text) == c, (text, c)
        assert N.parse("pgn:" + text) == c, (text, c)


def test_format_is_stable_on_typed_input():
    for text in ("90m/40+30m+30s", "G/90;d5", "40/120, SD/60, d5", "15+10", "60m + byo 5x30s",
                 "1h, canadian 25/10m", "*3", "-", "5m/60, 0m+2s vs 4m/60, 0m+2s",
                 "upcount from 90", "G/90 b5", "1 h 30 m / 40 + 30", "?"):
        once = N.format_readable(R(text))
        assert N.format_readable(R(once)) == once, (text, once)


# ---------------------------------------------------------------------------- any input

def test_parse_pgn_shape_is_pgn_in_seconds_whatever_its_size():
    # no "bare base under 60 is minutes" any more
    assert N.parse("90+30") == sudden_death(90000, 30000)  # 1 min 30 s + 30 s
    assert N.parse("15+10") == sudden_death(15000, 10000)
    assert N.parse("3+2") == sudden_death(3000, 2000)
    assert N.parse("59") == sudden_death(59000)  # 59 and 60 are both seconds
    assert N.parse("60") == sudden_death(60000)
    assert N.parse("15+10d") == one(Stage(15000, delay_ms=10000, delay_kind=DELAY_SIMPLE))
    assert N.parse("40/120") == one(Stage(120000, 40))  # PGN: 40 moves in 120 s
    assert N.parse("40/2") == one(Stage(2000, 40))


def test_parse_pgn_shape_whatever_its_spaces():
    assert N.parse("300 + 5") == N.parse("300+5") == sudden_death(300000, 5000)
    assert N.parse(" 40 / 5400 + 30 : 1800 + 30 ") == N.parse_pgn("40/5400+30:1800+30")
    assert N.parse("300 + 2.5 d") == one(Stage(300000, delay_ms=2500, delay_kind=DELAY_SIMPLE))
    assert N.parse("* 180") == one(Stage(180000), mode=MODE_HOURGLASS)
    # a space must not join two numbers into one: 90 30 is not 9030
    m = where(N.parse, "90 30", 4, "a space between two numbers")
    assert "9030" not in m


def test_parse_pgn_when_it_fits():
    assert N.parse("300+2") == sudden_death(300000, 2000)
    assert N.parse("180") == sudden_death(180000)  # 3 min
    assert N.parse("3+2d") == one(Stage(3000, delay_ms=2000, delay_kind=DELAY_SIMPLE))
    assert N.parse("40/5400+30:1800+30") == N.parse_pgn("40/5400+30:1800+30")
    assert N.parse("?") is UNKNOWN
    assert N.parse("-") == one(Stage(0), mode=MODE_UPCOUNT)
    assert N.parse("*180") == one(Stage(180000), mode=MODE_HOURGLASS)


def test_minutes_need_a_unit_a_us_form_or_a_preset():
    assert N.parse("90m+30s") == sudden_death(5400000, 30000)  # FIDE's 90 minutes + 30 s
    assert N.parse("15m+10s") == sudden_death(900000, 10000)   # FIDE rapid
    assert N.parse("3m+2s") == sudden_death(180000, 2000)      # FIDE blitz
    assert N.parse("90m/40+30m+30s") == one(Stage(5400000, 40, inc_ms=30000),
                                            Stage(1800000, inc_ms=30000))
    # US forms: a bare stage time is minutes
    assert N.parse("G/90;d5") == one(Stage(5400000, delay_ms=5000, delay_kind=DELAY_SIMPLE))
    assert N.parse("40/120, SD/30") == one(Stage(7200000, 40), Stage(1800000))
    assert N.parse("SD/30") == sudden_death(1800000)


def test_what_the_tools_print_as_pgn_reads_back():
    # the PGN written for 15 s + 10 s used to read back as 15 minutes
    for c in (sudden_death(15000, 10000), sudden_death(90000, 30000), one(Stage(120000, 40)),
              one(Stage(15000, delay_ms=10000, delay_kind=DELAY_SIMPLE)),
              sudden_death(59000), sudden_death(5400000, 30000)):
        assert N.parse(N.format_pgn(c)) == c, N.format_pgn(c)


def test_us_chess_spellings_mean_what_an_arbiter_means():
    g90 = sudden_death(5400000, 30000)
    assert N.parse("G/90;inc30") == g90  # US Chess writes the increment "inc"
    assert N.parse("G/90; inc 30") == g90
    assert N.parse("G/90 inc30s") == g90
    assert N.parse("G/90;+30") == g90
    assert N.parse("Game/30") == sudden_death(1800000)
    assert N.parse("game/90;d5") == N.parse("G/90;d5")
    assert N.parse("40/120, SD/60, inc30") == one(Stage(7200000, 40, inc_ms=30000),
                                                  Stage(3600000, inc_ms=30000))
    m = message(ValueError, N.parse, "G/90;inc30;d5")
    assert "already has an increment or delay" in m, m


def test_mixed_spelling_is_refused_with_the_spelling_that_means_it():
    # FIDE's 90 min for 40 moves with the unit left off: as US moves/minutes it would be
    # 90 moves in 40 minutes
    m = where(N.parse, "90/40+30m+30s", 1, "'90/40' has no unit", "90 moves in 40 min",
              "write 90m/40+30m+30s")
    assert N.parse("90m/40+30m+30s") == N.parse_pgn("40/5400+30:1800+30")
    m = where(N.parse, "40/90, 30m", 1, "write 40/90m, 30m")
    assert "40 moves in 90 min" in m, m
    # no unit on any stage time: the US form, moves/minutes
    assert N.parse("40/90, 30") == one(Stage(5400000, 40), Stage(1800000))
    assert N.parse("40/120, SD/60;d5s") == N.parse("40/120, SD/60;d5")
    assert N.parse("40/120, SD/60, canadian 25/10m") == one(
        Stage(7200000, 40), Stage(3600000), byo_periods=1, byo_ms=600000, byo_moves=25)


def test_hours_or_minutes_is_refused_with_both_spellings():
    # US usage writes "40/2, SD/1" for 40 moves in 2 hours then 1 hour
    m = where(N.parse, "40/2, SD/1", 4, "write 40/2h, SD/1h for hours",
              "40/2m, SD/1m for minutes")
    assert N.parse("40/2h, SD/1h") == one(Stage(7200000, 40), Stage(3600000))
    where(N.parse, "SD/1", 4, "SD/1h", "SD/1m")
    where(N.parse, "G/2;d5", 3, "G/2h;d5", "G/2m;d5")
    where(N.parse_readable, "1+1", 1, "1h+1", "1m+1")
    assert N.parse("SD/1h") == sudden_death(3600000)
    assert N.parse("G/3;d2") == one(Stage(180000, delay_ms=2000, delay_kind=DELAY_SIMPLE))
    assert m


def test_parse_prefixes_force_the_grammar():
    assert N.parse("pgn:15+10") == sudden_death(15000, 10000)
    assert N.parse("PGN: 15 + 10") == sudden_death(15000, 10000)
    assert N.parse("readable:40/120") == one(Stage(7200000, 40))
    assert N.parse("Readable: 300") == sudden_death(18000000)


def test_parse_readable_otherwise():
    assert N.parse("G/90;d5") == one(Stage(5400000, delay_ms=5000, delay_kind=DELAY_SIMPLE))
    assert N.parse(" 90m/40+30m+30s ") == R("90m/40+30m+30s")
    assert N.parse("5m vs 4m") == R("5m vs 4m")
    assert N.parse("5m+d5") == one(Stage(300000, delay_ms=5000, delay_kind=DELAY_SIMPLE))


def test_parse_errors_come_from_the_grammar_tried():
    # only PGN characters: PGN's error
    assert "increment is missing" in message(ValueError, N.parse, "300+")
    assert "part 1 has no move count" in message(ValueError, N.parse, "300:40/7200")
    assert "'?' must stand alone" in message(ValueError, N.parse, "?x")
    # PGN shape that PGN refuses, with what it would mean written with units
    m = message(ValueError, N.parse, "5+d5")
    assert m.startswith('"5+d5": increment \'d5\' is not a number'), m
    assert m.endswith("for 5 min; 5 s delay, write 5m d5s"), m
    # readable characters: readable's error
    assert "nothing after '+'" in message(ValueError, N.parse, "5m+")
    assert "unknown unit 'q'" in message(ValueError, N.parse, "5q")
    assert "'?' must stand alone" in message(ValueError, N.parse, "pgn:?x")
    assert "time '1.5'" in message(ValueError, N.parse, "readable:1.5")
    assert "must be text" in message(ValueError, N.parse, 300)


def test_pgn_shaped():
    for text in ("300+2", "300 + 2", "40/120", "15+10d", "*180", "?", "-", "5+d5", " 60 "):
        assert N.pgn_shaped(text), text
    for text in ("90m+30s", "G/90;d5", "40/120, SD/30", "rapid", "", "  ", "pgn:90+30"):
        assert not N.pgn_shaped(text), text
    assert N.pgn_prefixed(" PGN:90+30") and not N.pgn_prefixed("90+30")


# ------------------------------------------------------------- configuring: plausible.py

def refused(text, *pieces):
    """plausible.resolve(text) must refuse it, quoting it and naming each piece."""
    m = message(ValueError, P.resolve, text)
    assert m.startswith('"%s" as PGN (seconds) is ' % text.strip()), m
    for p in pieces:
        assert p in m, (p, m)
    return m


def test_configuring_refuses_pgn_no_event_plays_with_its_likely_meaning():
    m = refused("90+30", "1 min 30 s; +30 s per move", "increment over a tenth",
                "For 90 min; +30 s per move from move 1, write 90m+30s",
                "to mean the PGN, write pgn:90+30")
    refused("15+10", "15 s", "base under a minute", "write 15m+10s")
    refused("15 + 10", "base under a minute", "write 15m+10s")
    refused("15+10d", "15 s; 10 s delay", "base under a minute", "write 15m d10s")
    refused("40/120", "2 min for 40 moves", "under 10 s a move", "write 40/120m")
    refused("60+30", "1 min; +30 s", "increment over a tenth", "write 60m+30s")
    refused("3+2", "write 3m+2s")
    # neither seconds nor minutes make sense: hours
    refused("40/2", "2 s for 40 moves", "write 40/2h")
    refused("40/90:30", "under 10 s a move in stage 1", "write 40/90m, 30m")
    refused("*30", "hourglass, 30 s", "under a minute", "write hourglass 30m")
    refused("0+5d", "base under a minute", "with their unit")
    assert m


def test_configuring_takes_pgn_some_event_plays():
    for text, c in (("300+2", sudden_death(300000, 2000)), ("60", sudden_death(60000)),
                    ("60+6", sudden_death(60000, 6000)), ("180+2", sudden_death(180000, 2000)),
                    ("40/5400+30:1800+30", N.parse_pgn("40/5400+30:1800+30")),
                    ("40/7200:20/3600:900+30", N.parse_pgn("40/7200:20/3600:900+30")),
                    # a move count before a stage of 0 time only starts the increment
                    ("60/300:0+2", one(Stage(300000, 60), Stage(0, inc_ms=2000))),
                    ("-", one(Stage(0), mode=MODE_UPCOUNT)),
                    ("*180", one(Stage(180000), mode=MODE_HOURGLASS))):
        got, preset = P.resolve(text)
        assert got == c and preset is None, text


def test_configuring_takes_units_presets_and_pgn_on_purpose():
    assert P.resolve("90m+30s")[0] == sudden_death(5400000, 30000)
    assert P.resolve("15s+10s")[0] == sudden_death(15000, 10000)  # a unit says it is meant
    assert P.resolve("rapid")[1].key == "fide-rapid"
    assert P.resolve("pgn:90+30")[0] == sudden_death(90000, 30000)
    assert P.resolve("PGN: 15 + 10")[0] == sudden_death(15000, 10000)
    m = message(ValueError, P.resolve, "90+30", "or add --pgn to mean the PGN")
    assert m.endswith("write 90m+30s; or add --pgn to mean the PGN"), m


def test_plausibility_rules():
    W = P.why_not
    assert W(sudden_death(59999)) == "a base under a minute"
    assert W(sudden_death(60000)) is None
    assert W(sudden_death(60000, 6000)) is None  # a tenth exactly
    assert W(sudden_death(60000, 6001)) == "an increment over a tenth of the time"
    assert W(one(Stage(60000, delay_ms=6001, delay_kind=DELAY_BRONSTEIN))) == \
        "a delay over a tenth of the time"
    assert W(one(Stage(400000, 40))) is None  # 10 s a move
    assert W(one(Stage(399999, 40))) == "under 10 s a move in the stage"
    assert W(one(Stage(5400000, 40), Stage(59000))) == "stage 2 under a minute"
    assert W(one(Stage(300000, 60), Stage(0, inc_ms=2000))) is None
    assert W(one(Stage(300000, 60), Stage(0, inc_ms=31000))) == \
        "an increment over a tenth of the time"
    assert W(one(Stage(0), mode=MODE_UPCOUNT)) is None
    assert W(UNKNOWN) is None


# ----------------------------------------------------------------------------- describe

def test_describe():
    D = N.describe
    assert D(N.parse_pgn("40/5400+30:1800+30")) == \
        "90 min for 40 moves, then 30 min; +30 s per move from move 1"
    assert D(R("5m/60, 0m+2s")) == "5 min for 60 moves, then +2 s per move from move 61"
    assert D(R("40/120, 20/60")) == "120 min for 40 moves, then 60 min for 20 moves, repeating"
    assert D(R("G/90;d5")) == "90 min; 5 s delay"
    assert D(R("2m30s b2")) == "2 min 30 s; 2 s Bronstein delay"
    assert D(R("1h, byo 5x30s")) == "60 min; then 5 byo-yomi periods of 30 s"
    assert D(R("1h, canadian 25/10m")) == "60 min; then 25 moves in 10 min (Canadian)"
    assert D(R("5m vs 4m")) == "White: 5 min. Black: 4 min"
    assert D(R("hourglass 3m")) == "hourglass, 3 min"
    assert D(R("upcount")) == "counting up"
    assert D(UNKNOWN) == "unknown time control"


def test_parse_stage_one_stage_for_both_sides():
    # What an arbiter adds to a game in progress (RGC 10.1: finish with 15 min each).
    st = N.parse_stage("15m")
    assert (st.time_ms, st.moves, st.inc_ms) == (900000, 0, 0)
    st = N.parse_stage("15m+10s")
    assert (st.time_ms, st.inc_ms) == (900000, 10000)
    # PGN shape is PGN, in seconds, here too
    st = N.parse_stage("900+10")
    assert (st.time_ms, st.inc_ms) == (900000, 10000)
    assert N.parse_stage("15").time_ms == 15000
    for bad in ("15m/40, 5m", "5m vs 4m", "hourglass 3m", "1h + byo 5x30s", "?"):
        assert "one stage" in message(ValueError, N.parse_stage, bad), bad


def test_parse_stage_takes_an_increment_alone():
    # "+5 s a move from now on" (FIDE Guidelines III): a stage with no time of its own
    assert N.parse_stage("0m+5s") == Stage(0, inc_ms=5000)
    assert N.parse_stage("0m d5s") == Stage(0, delay_ms=5000, delay_kind=DELAY_SIMPLE)
    assert N.parse_stage("15m+10s") == Stage(900000, inc_ms=10000)
    for bad in ("0m", "0m/10+5s", "15m vs 10m", "?", "1m, byo 3x10s", ""):
        assert message(ValueError, N.parse_stage, bad), bad
