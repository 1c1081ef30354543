"""Worked examples of the seeds' draw claims, each citing its article: ACT 14 (FIDE Active
1987: with one's own flag up, no practical winning chances in the listed positions, only the
side with the advantage when material is unequal) and RAP 10d (FIDE 5-minute 1990: perpetual
check or a forced repetition is a draw), by the `chessclock ruling draw-claim` command."""

import contextlib
import io
import json

import chess
import pytest
from cliutil import run_cli

from chessclock.cli import main as cli_main
from chessclock.ruling import claims
from chessclock.ruling import rules as R

ACT, RAP = R.get("act1987"), R.get("rap1990")


def claim(fen, *extra, rules="act1987"):
    code, out, err = run_cli(["ruling", "draw-claim", "--rules", rules, "--fen", fen,
                              "--ground", "no-chances", "--json", *extra])
    assert code == 0, err
    return _lines(json.loads(out))


def _lines(r):
    r["lines"] = [(x["text"], x["article"]) for x in r["ruling"]]
    return r


@pytest.mark.seed("ACT 14b", item="6.2")
@pytest.mark.parametrize("fen,result,times", [
    # rook against rook: listed; the claim stands (White to move claims)
    ("4k3/8/8/8/8/8/8/R3K2r w - - 0 1", "1/2-1/2", None),
    # queen against rook: the side with the queen (the advantage) may claim ...
    ("4k3/8/8/8/8/8/8/Q3K2r w - - 0 1", "1/2-1/2", None),
    # ... the side with the rook may not: a false claim, +2 min to the opponent
    ("4k3/8/8/8/8/8/8/R3K2q w - - 0 1", "*", {"black": 120000}),
    # the claimant may have more than the piece listed (ACT 14 NOTE): rook and pawn v knight
    ("4k3/8/8/8/8/8/P7/R3K2n w - - 0 1", "1/2-1/2", None),
    # two pieces against the claimant's rook: not a listed position
    ("4k3/8/8/8/8/8/8/R3K1nn w - - 0 1", "*", {"black": 120000}),
    # king against the wrong bishop (light, the h8 corner is dark) and the h-pawn, the
    # claimant's king next to the queening square
    ("6k1/8/8/8/7P/8/4B3/4K3 b - - 0 1", "1/2-1/2", None),
    # the right bishop (dark d2): not listed
    ("6k1/8/8/8/7P/8/3B4/4K3 b - - 0 1", "*", {"white": 120000}),
    # the wrong bishop, but the claimant's king is far from h8
    ("8/8/8/2k5/7P/8/4B3/4K3 b - - 0 1", "*", {"white": 120000}),
])
def test_act14_no_practical_chances_by_the_list(fen, result, times):
    r = claim(fen, "--own-flag", "up")
    assert r["result"] == result
    assert r.get("times") == times
    assert any(a.startswith("ACT 14") for _, a in r["lines"])


@pytest.mark.seed("ACT 14 NOTE", item="6.2")
def test_act14_a_listed_position_with_a_forced_win_found_by_the_arbiter():
    r = claim("4k3/8/8/8/8/8/8/R3K2r w - - 0 1", "--own-flag", "up", "--found", "incorrect")
    assert r["result"] == "*" and r["times"] == {"black": 120000}


@pytest.mark.seed("ACT 14", item="6.2")
def test_act14_the_claimants_own_flag_must_be_up():
    r = claim("4k3/8/8/8/8/8/8/R3K2r w - - 0 1", "--own-flag", "fallen")
    assert r["result"] == "*" and not r.get("times")
    assert "flag has fallen" in r["summary"]
    # perpetual check (14a): the arbiter judges it, with the flag up
    b = chess.Board("4k3/8/8/8/8/8/8/R3K2r w - - 0 1")
    assert claims.rule_draw_claim(b, ACT, "perpetual", own_flag="up",
                                  found="correct").result == "1/2-1/2"
    assert "flag has fallen" in claims.rule_draw_claim(
        b, ACT, "perpetual", own_flag="fallen", found="correct").summary


def pgn(tmp_path, fen, moves):
    p = tmp_path / "g.pgn"
    p.write_text('[Event "t"]\n[SetUp "1"]\n[FEN "%s"]\n\n%s *\n' % (fen, moves))
    return str(p)


PERPETUAL_FEN = "7k/5pp1/8/8/8/8/8/4Q1K1 w - - 0 1"
CHECKS = "1. Qe8+ Kh7 2. Qe4+ Kh8 3. Qe8+ Kh7 4. Qe4+ Kh8 5. Qe8+ Kh7 6. Qe4+"


def rap(tmp_path, moves, ground, *extra, fen=PERPETUAL_FEN):
    code, out, err = run_cli(["ruling", "draw-claim", "--rules", "rap1990", "--pgn",
                              pgn(tmp_path, fen, moves), "--ground", ground, "--json",
                              *extra])
    assert code == 0, err
    return _lines(json.loads(out))


@pytest.mark.seed("RAP 10d", item="6.2")
def test_rap10d_perpetual_check_on_the_scoresheet_is_a_draw(tmp_path):
    r = rap(tmp_path, CHECKS, "perpetual")
    assert r["result"] == "1/2-1/2"
    assert any("every move of white" in t and a == "RAP 10d" for t, a in r["lines"])
    # the position only twice: not shown yet; the 5-minute rules set no penalty
    r = rap(tmp_path, "1. Qe8+ Kh7 2. Qe4+ Kh8 3. Qe8+ Kh7 4. Qe4+", "perpetual")
    assert r["result"] == "*" and not r.get("times")


@pytest.mark.seed("RAP 10d", item="6.2")
def test_rap10d_a_repetition_without_checks_is_a_repetition_not_a_perpetual(tmp_path):
    shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
    r = rap(tmp_path, shuffle, "perpetual", fen=chess.STARTING_FEN)
    assert r["result"] == "*"
    assert any("not every move" in t for t, _ in r["lines"])
    r = rap(tmp_path, shuffle, "repetition", fen=chess.STARTING_FEN)
    assert r["result"] == "1/2-1/2"
    # the third time only with the intended move written
    r = rap(tmp_path, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1", "repetition",
            fen=chess.STARTING_FEN)
    assert r["result"] == "*"
    r = rap(tmp_path, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1", "repetition", "--move",
            "f6g8", fen=chess.STARTING_FEN)
    assert r["result"] == "1/2-1/2"


def test_repetition_cycle_counts_and_finds_the_checker():
    b = chess.Board(PERPETUAL_FEN)
    for m in CHECKS.replace(".", " ").split():
        if not m.isdigit():
            b.push_san(m)
    assert claims.repetition_cycle(b) == (3, chess.WHITE)
    assert claims.repetition_cycle(chess.Board()) == (1, None)


@pytest.mark.parametrize("argv,message", [
    (["--rules", "act1987", "--ground", "no-chances"], "--own-flag"),
    (["--rules", "act1987", "--ground", "perpetual"], "--own-flag"),
    (["--rules", "rap1990", "--ground", "no-chances"], "act1987"),
    (["--rules", "fide2023", "--ground", "perpetual"], "rap1990"),
    (["--rules", "act1987", "--ground", "no-chances", "--own-flag", "down"], "invalid choice"),
])
def test_draw_claim_bad_input(argv, message, capsys):
    code, out, err = cli(["ruling", "draw-claim", "--fen",
                          "4k3/8/8/8/8/8/8/R3K2r w - - 0 1", *argv], capsys)
    assert code == 2 and out == ""
    assert message in err.strip().splitlines()[-1]
    assert "Traceback" not in err


def cli(argv, capsys):
    """run_cli, and argparse's own refusals (SystemExit 2, its message on stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(argv)
    except SystemExit as e:
        code = e.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.seed("S1 6.15", item="3.6")
@pytest.mark.parametrize("rules,article", [("fide2023", "FIDE 6.12.2 (S1 6.15)"),
                                           ("act1987", "S1 6.15"), ("rap1990", "S1 6.15")])
def test_s1_6_15_no_claim_rests_on_a_demonstration_board(tmp_path, rules, article):
    # a 50-move claim citing the demonstration board: the ruling says the board cannot
    # carry it, and decides on the scoresheet (here: too few moves, the claim fails)
    code, out, err = run_cli(["ruling", "draw-claim", "--rules", rules, "--fen",
                              "4k3/8/8/8/8/8/8/R3K2r w - - 20 40", "--cites", "demo-board",
                              "--cites", "move-counter", "--json"])
    assert code == 0, err
    r = _lines(json.loads(out))
    cited = [(t, a) for t, a in r["lines"] if t.startswith("No claim may rest")]
    assert [a for _, a in cited] == [article, article]
    assert "demonstration board" in cited[0][0] and "move counter" in cited[1][0]
    assert r["result"] == "*"
    code, out, _ = run_cli(["ruling", "draw-claim", "--rules", rules, "--fen",
                            "4k3/8/8/8/8/8/8/R3K2r w - - 20 40"])
    assert "No claim may rest" not in out


def test_cites_bad_input(capsys):
    code, out, err = cli(["ruling", "draw-claim", "--fen", chess.STARTING_FEN, "--cites",
                          "wallchart"], capsys)
    assert code == 2 and "invalid choice" in err.strip().splitlines()[-1]
