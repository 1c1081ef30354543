"""Worked examples of the knockout of seed S3 by `chessclock knockout`: one game a round, the
loser out (S3 1), the winner of the last game wins the event (S3 2), colours by lot."""

import json

import pytest
from cliutil import run_cli


def ko(*argv):
    code, out, err = run_cli(["knockout", *argv, "--json"])
    assert code == 0, err
    return json.loads(out)


def players(tmp_path, names, name="players.txt"):
    p = tmp_path / name
    p.write_text("\n".join(names) + "\n")
    return str(p)


@pytest.mark.seed("S3 1-2", item="10.1")
def test_s3_the_winner_of_the_last_game_wins_the_event(tmp_path):
    out = str(tmp_path / "b.json")
    b = ko("draw", players(tmp_path, ["Ana", "Bia", "Cid", "Dan"]), "--out", out, "--lot", "3")
    first = b["games"]
    assert [{g["white"], g["black"]} for g in first] == [{"Ana", "Bia"}, {"Cid", "Dan"}]
    b = ko("result", out, "--game", "1", "--winner", "white")
    w1 = b["games"][0]["winner"]
    assert w1 == first[0]["white"] and len(b["games"]) == 2      # round 2 waits for game 2
    b = ko("result", out, "--game", "2", "--winner", "black")
    w2 = b["games"][1]["winner"]
    final = b["games"][2]
    assert final["round"] == 2 and {final["white"], final["black"]} == {w1, w2}
    assert b["champion"] is None
    b = ko("result", out, "--game", "3", "--winner", "black")
    assert b["champion"] == final["black"]
    code, text, _ = run_cli(["knockout", "show", out])
    assert "winner of the event: %s" % final["black"] in text


@pytest.mark.seed("S3 1", item="10.1")
def test_s3_byes_fill_the_bracket_and_the_losers_are_out(tmp_path):
    out = str(tmp_path / "b.json")
    b = ko("draw", players(tmp_path, ["A", "B", "C", "D", "E", "F"]), "--out", out,
           "--lot", "1")
    assert [g["bye"] for g in b["games"]] == [True, True, False, False]
    ko("result", out, "--game", "3", "--winner", "white")
    b = ko("result", out, "--game", "4", "--winner", "white")
    round2 = [g for g in b["games"] if g["round"] == 2]
    losers = {b["games"][2]["black"], b["games"][3]["black"]}
    assert len(round2) == 2
    assert not losers & {n for g in round2 for n in (g["white"], g["black"])}


@pytest.mark.seed("S3 Noções Gerais", item="10.1")
def test_s3_colours_by_lot_repeatable_and_both_ways(tmp_path):
    names = players(tmp_path, ["Ana", "Bia"])
    whites = set()
    for lot in range(40):
        b = ko("draw", names, "--out", str(tmp_path / ("b%d.json" % lot)), "--lot", str(lot))
        whites.add(b["games"][0]["white"])
        again = ko("draw", names, "--out", str(tmp_path / ("c%d.json" % lot)), "--lot",
                   str(lot))
        assert again["games"] == b["games"]
    assert whites == {"Ana", "Bia"}
    b = ko("draw", names, "--out", str(tmp_path / "x.json"))       # a lot drawn and kept
    assert isinstance(b["lot"], int)


def test_knockout_bad_input(tmp_path):
    one = players(tmp_path, ["Solo"], "one.txt")
    two = tmp_path / "two.txt"
    two.write_text("A\nA\n")
    out = tmp_path / "b.json"
    ko("draw", players(tmp_path, ["A", "B"]), "--out", str(out), "--lot", "1")
    notjson = tmp_path / "n.json"
    notjson.write_text("[1, 2]")
    cases = [
        (["draw", one, "--out", str(tmp_path / "o.json")], "at least 2"),
        (["draw", str(two), "--out", str(tmp_path / "o.json")], "listed twice"),
        (["draw", one], "--out"),
        (["draw", one, "--out", str(out)], "exists"),
        (["draw", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o.json")],
         "missing.txt"),
        (["result", str(out)], "--game"),
        (["result", str(out), "--game", "9", "--winner", "white"], "games 1 to 1"),
        (["result", str(notjson), "--game", "1", "--winner", "white"], "not a bracket"),
        (["show", str(out), "--lot", "3"], "--lot"),
    ]
    for argv, message in cases:
        code, text, err = run_cli(["knockout", *argv])
        assert code == 2 and text == "", argv
        assert message in err and len(err.strip().splitlines()) == 1, (argv, err)
    ko("result", str(out), "--game", "1", "--winner", "white")
    code, _, err = run_cli(["knockout", "result", str(out), "--game", "1", "--winner",
                            "black"])
    assert code == 2 and "already has a winner" in err
