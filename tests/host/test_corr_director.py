"""The director's side of an event (CXEB Art. 12 §1, 23, 27) and conditional moves
(Art. 9), end to end through `chessclock corr`."""

import json

import pytest
from cliutil import run_cli


@pytest.fixture
def corr(tmp_path):
    path = str(tmp_path / "ledger.sqlite3")

    def run(*argv, today="2026-04-20"):
        return run_cli(["corr", "--db", path, "--today", today] + list(argv))

    for argv in (["event", "E", "--start", "2026-03-02", "--end", "2026-12-31"],
                 ["game", "E", "g", "--white", "Ana", "--black", "Bruno"],
                 ["game", "E", "h", "--white", "Ana", "--black", "Caio"],
                 ["game", "E", "k", "--white", "Dora", "--black", "Ana"],
                 ["game", "E", "m", "--white", "Bruno", "--black", "Caio"]):
        code, _, err = run(*argv)
        assert code == 0, err
    return run


def ok(corr, *argv, **kw):
    code, out, err = corr(*argv, **kw)
    assert code == 0, (argv, err)
    return out


@pytest.mark.seed("CXEB Art. 12 §1", item="11.3")
def test_art12_par1_a_first_move_before_the_official_start_is_an_early_start(corr):
    """Art. 12 §1: players with their pairing may begin before the official start (2 Mar),
    with no days counted until it. 1.e4 sent on 27 Feb is accepted and said to be an early
    start, not "sent before its move was received"."""
    out = ok(corr, "move", "E", "g", "1", "e4", "--sent", "2026-02-27")
    assert "before the official start on 2026-03-02" in out and "Art. 12 §1" in out
    assert "before its move was received" not in out
    # Black had it on 28 Feb and answers on 4 Mar: 1 and 2 Mar are before the start, 3 and
    # 4 Mar are counted.
    ok(corr, "move", "E", "g", "1...", "c5", "--received", "2026-02-28", "--sent", "2026-03-04")
    data = json.loads(ok(corr, "ledger", "E", "g", "--json"))
    m1, m2 = data["moves"]
    assert (m1["counted"], m1["charged"]) == (0, 0)
    assert (m2["counted"], m2["not_counted"]) == (2, {"before_start": 2})
    # A receipt given after the sending date is still refused.
    code, _, err = corr("move", "E", "h", "1", "d4", "--received", "2026-02-28",
                        "--sent", "2026-02-27")
    assert code == 2 and "before its move was received" in err


@pytest.mark.seed("CXEB Art. 23", item="11.12")
def test_art23_the_player_answers_the_director_within_7_days(corr):
    """Art. 23 § único: asked on 6 Apr, Bruno has until 13 Apr; `due` lists it from that
    day, overdue after it, and not once he answered."""
    out = ok(corr, "ask", "E", "Bruno", "--date", "2026-04-06", "--about", "game g dates")
    assert "answer due by 2026-04-13" in out and "Art. 23" in out
    due = json.loads(ok(corr, "due", "E", "--json", today="2026-04-13"))["due"]
    item = next(i for i in due if i["art"] == "Art. 23")
    assert (item["who"], item["due"], item["overdue"]) == ("Bruno", "2026-04-13", False)
    due = json.loads(ok(corr, "due", "E", "--json", today="2026-04-14"))["due"]
    assert next(i for i in due if i["art"] == "Art. 23")["overdue"]
    assert "Art. 23" in ok(corr, "status", "E", today="2026-04-14")
    ok(corr, "answer", "E", "Bruno", "--date", "2026-04-14", today="2026-04-14")
    due = json.loads(ok(corr, "due", "E", "--json", today="2026-04-20"))["due"]
    assert not any(i["art"] == "Art. 23" for i in due)


@pytest.mark.seed("CXEB Art. 23", item="11.12")
def test_art23_deadline_skips_the_recess(corr):
    """Asked on 12 Dec 2026: 13 and 14 Dec count, the recess stops the deadline until the
    first working day, Mon 4 Jan 2027; the 7th day is 8 Jan."""
    out = ok(corr, "ask", "E", "Caio", "--date", "2026-12-12", today="2026-12-12")
    assert "answer due by 2027-01-08" in out


BAD = [
    (["ask", "E", "Zoe", "--date", "2026-04-01"], "Zoe plays no game"),
    (["answer", "E", "Ana", "--date", "2026-04-01"], "no request of the director"),
    (["ask", "E", "Ana", "--date", "2026-04-31"], "not a day of the calendar"),
    (["withdraw", "E", "Ana", "--date", "2026-05-01"], "after today"),
    (["withdraw", "E", "Zoe", "--date", "2026-04-01", "--reason", "elimination"],
     "Zoe plays no game"),
]


@pytest.mark.parametrize("argv,message", BAD, ids=[b[1] for b in BAD])
def test_director_commands_refuse_bad_input_one_line(corr, argv, message):
    if argv[0] == "withdraw" and "Zoe" not in argv:
        argv = argv + ["--reason", "abandonment"]
    code, out, err = corr(*argv)
    assert code == 2 and message in err and err.count("\n") == 1 and out == ""


@pytest.mark.seed("CXEB Art. 27", item="11.12")
def test_art27_after_an_abandonment_finished_results_stand_the_rest_are_lost(corr):
    """Art. 27: Ana abandons on 15 Apr. Game g (Ana-Bruno) ended 1-0 on 1 Apr: it stands.
    Games h (Ana-Caio, White) and k (Dora-Ana, Black) are lost for her; m (Bruno-Caio) is
    not touched. No move or result can follow in her games."""
    ok(corr, "result", "E", "g", "1-0", "--date", "2026-04-01")
    ok(corr, "move", "E", "h", "1", "e4", "--sent", "2026-03-04")
    out = ok(corr, "withdraw", "E", "Ana", "--date", "2026-04-15", "--reason", "abandonment")
    assert "Art. 27" in out and "result stands: finished 1-0" in out
    rows = {r["game"]: r["state"] for r in
            json.loads(ok(corr, "status", "E", "--json"))["games"]}
    assert rows["g"] == "finished 1-0"
    assert rows["h"].startswith("finished 0-1 (Ana: abandonment on 2026-04-15")
    assert rows["k"].startswith("finished 1-0 (Ana: abandonment")
    assert rows["m"] == "in play"
    code, _, err = corr("move", "E", "h", "1...", "e5", "--received", "2026-03-05",
                        "--sent", "2026-04-16")
    assert code == 2 and "no move can follow" in err
    code, _, err = corr("result", "E", "k", "1/2-1/2", "--date", "2026-04-16")
    assert code == 2 and "Art. 27" in err
    code, _, err = corr("withdraw", "E", "Ana", "--date", "2026-04-16", "--reason",
                        "elimination")
    assert code == 2 and "left the event already" in err
    data = json.loads(ok(corr, "pgn", "E", "h", "--json"))
    assert '[Result "0-1"]' in data["pgn"]


def test_art27_both_players_gone_lose_both(corr):
    ok(corr, "withdraw", "E", "Bruno", "--date", "2026-04-10", "--reason", "elimination")
    ok(corr, "withdraw", "E", "Caio", "--date", "2026-04-12", "--reason", "death")
    rows = {r["game"]: r["state"] for r in
            json.loads(ok(corr, "status", "E", "--json"))["games"]}
    assert rows["m"].startswith("finished 0-0")


def _opening(corr, game="g"):
    """1.e4 e5 2.Cf3, and Black's 2...Cc6 proposing 3.Bb5 a6 4.Ba4 (Art. 9)."""
    ok(corr, "move", "E", game, "1", "e4", "--sent", "2026-03-03")
    ok(corr, "move", "E", game, "1...", "e5", "--received", "2026-03-04", "--sent", "2026-03-05")
    ok(corr, "move", "E", game, "2", "Cf3", "--received", "2026-03-06", "--sent", "2026-03-07")
    ok(corr, "move", "E", game, "2...", "Cc6", "--received", "2026-03-08", "--sent",
       "2026-03-09", "--propose", "3.Bb5 a6 4.Ba4")


@pytest.mark.seed("CXEB Art. 9 §3", item="11.7")
def test_art9_par1_accepting_conditional_moves_repeats_the_sequence(corr):
    """Art. 9 §1: White accepts by repeating '3.Bb5 a6'; Black's conditional 3...a6 is
    recorded with it (0 days: it was sent already) and counts normally (§3)."""
    _opening(corr)
    out = ok(corr, "move", "E", "g", "3", "Bb5", "--received", "2026-03-10", "--sent",
             "2026-03-12", "--accept", "3.Bb5 a6")
    assert "accepted conditional moves recorded (Art. 9): 3... a6" in out
    data = json.loads(ok(corr, "ledger", "E", "g", "--json"))
    last = data["moves"][-1]
    assert [m["san"] for m in data["moves"]][-2:] == ["Bb5", "a6"]
    assert (last["received"], last["sent"], last["charged"]) == ("2026-03-12", "2026-03-12", 0)
    # White goes on with 4.Ba4 as a move of its own, later.
    ok(corr, "move", "E", "g", "4", "Ba4", "--sent", "2026-03-14")


@pytest.mark.parametrize("accept,message", [
    ("3.Bb5 a5", "not valid (Art. 9 §1"),          # not what was proposed
    ("3.Bc4 a6", "not valid (Art. 9 §1"),
    ("3.Bb5", "not valid (Art. 9 §1"),              # no move of the proposer repeated
    ("3...a6 4.Ba4", "illegal reply (Art. 9 §2"),   # the condition, with no move of one's own
])
def test_art9_an_acceptance_that_does_not_repeat_the_sequence_is_refused(corr, accept,
                                                                         message):
    _opening(corr)
    code, out, err = corr("move", "E", "g", "3", "Bb5", "--received", "2026-03-10",
                          "--sent", "2026-03-12", "--accept", accept)
    assert code == 2 and message in err and "Art. 7" in err and err.count("\n") == 1, err
    assert len(json.loads(ok(corr, "ledger", "E", "g", "--json"))["moves"]) == 4


def test_art9_a_proposal_must_be_legal_and_accepting_needs_one(corr):
    _opening(corr, "h")
    code, _, err = corr("move", "E", "h", "3", "Bb5", "--received", "2026-03-10", "--sent",
                        "2026-03-12", "--propose", "3...a6 4.Bb7")
    assert code == 2 and "conditional moves after 3 Bb5" in err and "Art. 9" in err
    ok(corr, "move", "E", "k", "1", "d4", "--sent", "2026-03-03")
    code, _, err = corr("move", "E", "k", "1...", "d5", "--received", "2026-03-04", "--sent",
                        "2026-03-05", "--accept", "1...d5 2.c4")
    assert code == 2 and "proposed none" in err
