"""Worked examples of `chessclock rounds`: the rules posted at least 30 minutes before the
start (ACT 23, RAP 19), at most 6 Active rounds a day (ACT 24), and a round's length for
the organisers who set the game's duration (S3)."""

import json

import pytest
from cliutil import run_cli


def rounds(*argv):
    code, out, err = run_cli(["rounds", *argv, "--json"])
    assert code == 0, err
    return json.loads(out)


def starts(day, hours):
    out = []
    for h in hours:
        out += ["--start", "%s %02d:00" % (day, h)]
    return out


@pytest.mark.seed("ACT 23", item="7.3")
def test_act_23_rap_19_rules_posted_half_an_hour_before():
    a = rounds("check", "--rules", "act1987", "--posted", "2026-12-05 09:30",
               *starts("2026-12-05", [10]))
    assert a["posted_in_time"] is True
    a = rounds("check", "--rules", "rap1990", "--posted", "2026-12-05 09:31",
               *starts("2026-12-05", [10]))
    assert a["posted_in_time"] is False and a["ok"] is False
    # the first round counts, whatever the order given
    a = rounds("check", "--rules", "act1987", "--posted", "2026-12-05 09:00",
               *starts("2026-12-05", [16, 9]))
    assert a["posted_in_time"] is False


@pytest.mark.seed("ACT 24", item="7.3")
def test_act_24_at_most_six_active_rounds_a_day():
    six = starts("2026-12-05", [9, 10, 11, 12, 15, 16])
    a = rounds("check", "--rules", "act1987", "--posted", "2026-12-04 20:00", *six)
    assert a["ok"] is True and a["rounds_a_day"] == {"2026-12-05": 6}
    seven = six + starts("2026-12-05", [17])
    a = rounds("check", "--rules", "act1987", "--posted", "2026-12-04 20:00", *seven)
    assert a["ok"] is False and a["days_over"] == ["2026-12-05"]
    # the 5-minute rules set no limit
    a = rounds("check", "--rules", "rap1990", "--posted", "2026-12-04 20:00", *seven)
    assert a["ok"] is True


@pytest.mark.seed("S3", item="1.7")
@pytest.mark.parametrize("control,moves,round_ms", [
    ("90m+30s", 40, 2 * (90 + 20) * 60000),            # 2 x 90 min + 2 x 40 x 30 s
    ("40/5400+30:1800+30", 60, 2 * 150 * 60000),       # 90+20, then 30+10 each
    ("fce-six-hour", 60, 6 * 3600000),                 # 2 h + 1 h each
    ("5m", 60, 10 * 60000),                            # sudden death: 2 x base
])
def test_s3_the_round_length_estimate(control, moves, round_ms):
    a = rounds("estimate", "--control", control, "--moves", str(moves))
    assert a["round_ms"] == round_ms


@pytest.mark.parametrize("argv,message", [
    (["check", "--rules", "act1987", "--posted", "2026-12-05 09:00"], "--start"),
    (["check", "--rules", "act1987", "--posted", "yesterday", "--start", "2026-12-05 10:00"],
     "--posted"),
    (["check", "--rules", "act1987", "--posted", "2026-12-05 09:00", "--start", "10:00"],
     "--start"),
    (["check", "--rules", "act1987", "--posted", "2026-12-05 09:00", "--start",
      "2026-12-05 10:00", "--control", "5m"], "--control"),
    (["estimate"], "--control"),
    (["estimate", "--control", "nonsense"], "--control"),
    (["estimate", "--control", "5m", "--moves", "0"], "--moves 0"),
    (["estimate", "--control", "5m", "--posted", "2026-12-05 09:00"], "rounds check"),
])
def test_rounds_bad_input(argv, message):
    code, out, err = run_cli(["rounds", *argv])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.seed("S3 Relógios e Cronômetros", item="1.6")
@pytest.mark.parametrize("spec", ["5m", "90m+30s", "40/5400+30:1800+30", "G/90;d5",
                                  "br-playoff", "fce-six-hour", "fide-active-1987-inc"])
def test_s3_both_players_get_the_same_time_by_default(spec):
    # «Cada jogador recebe a mesma quantidade de tempo para a partida inteira»: a control
    # typed or a preset gives both sides the same stages; only a handicap written so
    # (armageddon) or an arbiter's adjustment makes them differ
    from clockcore import presets

    control, _ = presets.resolve(spec)
    w, b = control.side(0), control.side(1)
    assert [(s.time_ms, s.moves, s.inc_ms, s.delay_ms) for s in w.stages] == \
        [(s.time_ms, s.moves, s.inc_ms, s.delay_ms) for s in b.stages]
    a = presets.resolve("armageddon")[0]
    assert a.side(0).stages[0].time_ms != a.side(1).stages[0].time_ms
