"""Worked examples of the FCE team-match rules by `chessclock team` (seed S2, RGC): the
substitution window and number (13.2), a short team (12.3), two no-shows (14.1, 14.3) and
White on the home team's odd boards (5.3.1.2)."""

import json

import pytest
from cliutil import run_cli


def team(*argv):
    code, out, err = run_cli(["team", *argv, "--json"])
    assert code == 0, err
    return json.loads(out)


@pytest.mark.seed("RGC 13.2", item="2.7")
@pytest.mark.parametrize("at,size,made,allowed", [
    ("19m", 8, 0, False),     # before the first 20 minutes of play
    ("20m", 8, 0, True),
    ("1h", 8, 1, True),       # the second of two, at the last moment
    ("1h1s", 8, 0, False),    # later than one hour after the official start
    ("30m", 8, 2, False),     # teams of eight or more: two
    ("30m", 7, 0, True),
    ("30m", 7, 1, False),     # fewer than eight: one
    ("30m", 4, 1, False),
])
def test_rgc_13_2_substitutions_from_20_minutes_to_an_hour(at, size, made, allowed):
    a = team("substitute", "--at", at, "--size", str(size), "--made", str(made))
    assert a["allowed"] is allowed
    assert a["substitutions"] == (2 if size >= 8 else 1)


@pytest.mark.seed("RGC 12.3", item="2.6")
def test_rgc_12_3_a_team_short_of_half_loses_at_the_end_of_the_waiting_time():
    a = team("short", "--size", "8", "--present", "4")
    assert a["short"] is False and a["result"] == "play"       # half is enough
    a = team("short", "--size", "8", "--present", "3", "--elapsed", "30m")
    assert a["short"] is True and a["result"] == "clocks run against the team"
    assert any("start SIDE --all" in line for line in a["lines"])
    a = team("short", "--size", "8", "--present", "3", "--elapsed", "1h")
    assert a["result"] == "team defaults"
    a = team("short", "--size", "5", "--present", "2", "--elapsed", "1h")  # 2 < 2.5
    assert a["result"] == "team defaults"
    a = team("short", "--size", "5", "--present", "3", "--elapsed", "1h")
    assert a["result"] == "play"


@pytest.mark.seed("RGC 14.1", item="2.6")
def test_rgc_14_1_two_no_shows_eliminate_and_14_3_the_points():
    assert team("no-shows", "--count", "1")["eliminated"] is False
    assert team("no-shows", "--count", "2")["eliminated"] is True
    assert team("no-shows", "--count", "2", "--round", "5", "--of", "9")["points"] == "kept"
    assert team("no-shows", "--count", "2", "--round", "4", "--of", "9")["points"] == \
        "annulled"


@pytest.mark.seed("RGC 5.3.1.2", item="2.10")
def test_rgc_5_3_1_2_white_on_the_home_teams_odd_boards():
    a = team("colours", "--boards", "10")
    assert [b["home"] for b in a["boards"]] == ["white", "black"] * 5
    assert all({b["home"], b["visitor"]} == {"white", "black"} for b in a["boards"])


@pytest.mark.parametrize("argv,message", [
    (["substitute", "--size", "8"], "--at"),
    (["substitute", "--at", "30", "--size", "8"], "no unit"),
    (["substitute", "--at", "30m"], "--size"),
    (["substitute", "--at", "30m", "--size", "0"], "--size 0"),
    (["substitute", "--at", "30m", "--size", "8", "--made", "-1"], "--made -1"),
    (["short", "--size", "8"], "--present"),
    (["short", "--size", "8", "--present", "9"], "--present 9"),
    (["short", "--size", "8", "--present", "3", "--elapsed", "later"], "--elapsed"),
    (["no-shows"], "--count"),
    (["no-shows", "--count", "2", "--round", "3"], "together"),
    (["no-shows", "--count", "2", "--round", "10", "--of", "9"], "--round 10"),
    (["colours"], "--boards"),
    (["colours", "--boards", "9999"], "--boards 9999"),
])
def test_team_bad_input(argv, message):
    code, out, err = run_cli(["team", *argv])
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
