# The shipped presets, values checked by hand against shared/CLOCK-RULES.md ("Presets").
# Runs under pytest and under the MicroPython unix port (tests/mp_run.py).

from check import raises

from clockcore import engine as E
from clockcore import notation as N
from clockcore import presets as P
from clockcore.control import DELAY_SIMPLE, Control, SideControl, Stage

KEYS = ("fide-classical", "fide-rapid", "fide-blitz", "armageddon", "us-g90-d5",
        "fide-5min-1990", "fide-active-1987", "fide-active-1987-inc", "fce-six-hour",
        "wc-2008-first", "cxeb-correspondence", "fce-finish-15", "br-playoff")


def one(*stages):
    return Control(SideControl(list(stages)))


def get(key):
    p = P.find(key)
    assert p is not None and p.key == key, key
    return p


def test_keys_exactly():
    assert tuple(p.key for p in P.PRESETS) == KEYS


def test_names_are_unique_lowercase():
    seen = []
    for p in P.PRESETS:
        for name in p.names():
            assert name == name.lower() and name not in seen, name
            seen.append(name)


def test_fide_classical():
    p = get("fide-classical")
    assert p.control == one(Stage(5400000, 40, inc_ms=30000), Stage(1800000, inc_ms=30000))
    assert p.freeze and not p.audible_flag and not p.ledger
    assert p.source == "FIDE Laws 2023 Art. 6; Handbook C.02"


def test_fide_rapid_and_blitz():
    assert get("fide-rapid").control == one(Stage(900000, inc_ms=10000))
    assert get("fide-blitz").control == one(Stage(180000, inc_ms=2000))


def test_armageddon():
    c = get("armageddon").control
    assert c.white == SideControl([Stage(300000, 60), Stage(0, inc_ms=2000)])
    assert c.black == SideControl([Stage(240000, 60), Stage(0, inc_ms=2000)])
    assert not c.symmetric()


def test_us_g90_d5():
    c = get("us-g90-d5").control
    assert c == one(Stage(5400000, delay_ms=5000, delay_kind=DELAY_SIMPLE))
    assert c == N.parse("G/90;d5")


def test_seed_presets():
    p = get("fide-5min-1990")
    assert p.control == one(Stage(300000))
    # both flags down = draw (RAP 9): the clock keeps running after the first, silently
    assert p.both_flags_draw and not p.audible_flag and not p.freeze
    assert p.source == "FCE Butlletí 54 (1990), RAP 1, 9"

    p = get("fide-active-1987")
    assert p.control == one(Stage(1800000))
    assert not p.freeze and p.source == "ACT 1-2, 9c"

    p = get("fide-active-1987-inc")
    assert p.control == one(Stage(1800000, inc_ms=10000))
    assert not p.freeze and p.source == "ACT 22"

    p = get("fce-six-hour")
    assert p.control == one(Stage(7200000, 40), Stage(3600000, 20))  # last stage repeats
    assert p.source == "RGC 5.3.1.1"

    p = get("wc-2008-first")
    assert p.control == one(Stage(7200000, 40))
    assert p.source == "S1 commentary 6.2b"

    p = get("fce-finish-15")
    assert p.control == one(Stage(900000))
    assert p.source == "RGC 10.1"


def test_correspondence_is_a_ledger():
    p = get("cxeb-correspondence")
    assert p.control == one(Stage(40 * 86400000, 10))
    assert p.ledger and p.source == "CXEB Art. 12"
    # 40 days is more than a running clock holds: the ledger, not the engine, keeps it
    raises(ValueError, p.control.validate)


def test_defaults_and_silent_flags():
    for p in P.PRESETS:
        assert not p.audible_flag, p.key
        assert not p.stage_on_flag and not p.inc_at_turn_start, p.key
        assert p.source and p.title, p.key
        assert p.ledger == (p.key == "cxeb-correspondence"), p.key
        assert p.both_flags_draw == (p.key == "fide-5min-1990"), p.key
        assert p.freeze == (p.key not in ("fide-active-1987", "fide-active-1987-inc",
                                          "fide-5min-1990")), p.key
        if p.both_flags_draw:  # a ruling that needs the second flag: no freeze
            assert not p.freeze, p.key


def test_five_minute_1990_both_flags_can_fall_on_the_clock():
    p = get("fide-5min-1990")
    c = E.Clock(p.control, freeze=p.freeze, stage_on_flag=p.stage_on_flag,
                inc_at_turn_start=p.inc_at_turn_start)
    c.start(0)
    c.press(E.WHITE, 1000)         # W 299000
    c.tick(400000)                 # B's flag at 1000 + 300000; W does not run yet
    assert c.flag_at == [-1, 301000] and c.state == E.RUNNING
    c.press(E.BLACK, 402000)       # a flagged side's press still passes the turn
    c.tick(800000)                 # W's flag at 402000 + 299000
    assert c.flag_at == [701000, 301000] and c.flag_order == [E.BLACK, E.WHITE]


def test_running_presets_validate_and_round_trip():
    for p in P.PRESETS:
        if p.ledger:
            continue
        p.control.validate()
        assert N.parse_readable(N.format_readable(p.control)) == p.control, p.key


def test_find_by_key_or_alias_any_case():
    assert P.find("FIDE-Classical") is get("fide-classical")
    assert P.find("classical") is get("fide-classical")
    assert P.find(" Rapid ") is get("fide-rapid")
    assert P.find("BLITZ") is get("fide-blitz")
    assert P.find("g90d5") is get("us-g90-d5")
    assert P.find("correspondence") is get("cxeb-correspondence")
    assert P.find("nonesuch") is None
    assert P.find("") is None
    assert P.find(None) is None


def test_resolve():
    c, p = P.resolve("rapid")
    assert p is get("fide-rapid") and c == p.control
    c, p = P.resolve("15m+10s")
    assert p is None and c == get("fide-rapid").control
    # PGN shape is PGN, in seconds: 15+10 is not the rapid preset
    c, p = P.resolve("15+10")
    assert p is None and c.white.stages[0].time_ms == 15000
    c, p = P.resolve("90m/40+30m+30s")
    assert p is None and c == get("fide-classical").control
    c, p = P.resolve("5m/60, 0m+2s vs 4m/60, 0m+2s")
    assert p is None and c == get("armageddon").control
    raises(ValueError, P.resolve, "nonesuch")


def test_every_preset_can_be_written_and_described():
    # `chessclock presets` lists them all, the ledger included
    for p in P.PRESETS:
        assert N.format_readable(p.control), p.key
        assert N.describe(p.control), p.key
    assert N.format_readable(get("cxeb-correspondence").control) == "40days/10"
    assert N.format_readable(get("armageddon").control) == "5m/60, 0m+2s vs 4m/60, 0m+2s"
    assert N.format_pgn(get("fide-classical").control) == "40/5400+30:1800+30"
