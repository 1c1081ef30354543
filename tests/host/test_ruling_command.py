"""`chessclock ruling`: every bad input of every form gets one line that says what is wrong,
and exit status 2; never a traceback."""

import json

import pytest
from cliutil import run_cli

from chessclock.errors import ChessclockError, InputError
from chessclock.ruling import rules as R
from chessclock.ruling.events import RulingError

FEN = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
EVENTS = [
    {"type": "start", "side": "white", "t_ms": 0, "white_ms": 60000, "black_ms": 60000},
    {"type": "press", "side": "white", "t_ms": 5000, "moves": 1, "white_ms": 55000,
     "black_ms": 60000},
    {"type": "flag", "side": "black", "t_ms": 65000, "stage": 1, "moves": 0,
     "white_ms": 55000, "black_ms": 0},
]

BAD = [
    (["late"], "late takes --elapsed TIME and --visitor white|black"),
    (["late", "--elapsed", "75", "--visitor", "white"], "no unit"),
    (["late", "--elapsed", "75m", "--visitor", "white", "--home-town", "Reus"],
     "give both --home-town and --visitor-town"),
    (["late", "--elapsed", "75m", "--visitor", "white", "--home-town", " ",
      "--visitor-town", "Reus"], "--home-town and --visitor-town name a town"),
    (["late", "--elapsed", "75m", "--visitor", "white", "--control", "nonsense"],
     "control 'nonsense'"),
    (["replace", "LOG"], "replace takes FLAGFILE and one of --at-seq N or --at TIME"),
    (["replace", "LOG", "--at-seq", "1", "--at", "5s"], "replace takes FLAGFILE and one of"),
    (["replace", "LOG", "--at", "5s"], "needs the game's control: give --control SPEC"),
    (["LOG", "LOG"], "give one FLAGFILE (or 'late', or 'replace FLAGFILE')"),
    (["missing.jsonl"], "cannot read missing.jsonl"),
    (["NOTJSON"], "line 1: not JSON"),
    (["LOG", "--game", "1"], "--game picks a game of a clock's .log, not of JSON Lines"),
    (["LOG", "--control", "nonsense"], "control 'nonsense'"),
    (["LOG", "--fen", "not a fen"], "--fen: "),
    (["LOG", "--fen", "4k3/8/8/8/8/8/8/8 w - - 0 1"],
     "the position is not one a game can reach (no white king)"),
    (["LOG", "--fen", "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1"],
     "the position is not one a game can reach (opposite check)"),
    (["LOG", "--fen", "P3k3/8/8/8/8/8/8/4K3 b - - 0 1"],
     "the position is not one a game can reach (pawns on backrank)"),
    (["LOG", "--pgn", "NOTPGN"], "no moves in it"),
    (["LOG", "--board", "1"], "--board N goes with --pairings FILE"),
    (["LOG", "--plot", "out.txt"], "--plot out.txt: the picture is a .png or a .svg file"),
    (["LOG", "--appealed-on", "2024-01-01", "--date", "soon"],
     "--date 'soon': with --appealed-on, the ruling's date is YYYY-MM-DD"),
    (["LOG", "--appealed-on", "2024-01-01", "--date", "2024-02-01"],
     "--appealed-on 2024-01-01 is before the ruling (2024-02-01)"),
    (["illegal-move", "--fen", FEN], "illegal-move takes --move"),
    (["illegal-move", "LOG", "--fen", FEN, "--move", "e1e2"],
     "illegal-move takes no file: the position comes from --pgn or --fen"),
    (["illegal-move", "--move", "e1e2"],
     "give the position: --pgn GAME.pgn (the scoresheet) or --fen FEN"),
    (["illegal-move", "--move", "e1e2", "--fen", FEN, "--pgn", "PGN"],
     "give --pgn or --fen, not both"),
    (["illegal-move", "--move", "e1e2", "--fen", FEN, "--count", "0"],
     "--count 0: the illegal move's number, 1 or more"),
    (["illegal-move", "--move", "e1e2", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1"],
     "the position is not one a game can reach (no black king)"),
    (["illegal-move", "--move", "Zz9", "--fen", FEN], "--move 'Zz9': give the move as played"),
    (["both-kings", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1"],
     "the position needs one king of each colour"),
    (["both-kings", "--fen", FEN, "--retracted", "not a fen"], "--retracted: "),
    (["draw-claim", "--fen", FEN, "--moves", "0"],
     "--moves N: the number of moves of each player, 1 or more"),
    (["draw-claim", "--fen", FEN, "--move", "e1e3"],
     "--move e1e3: the intended move is not legal here"),
    (["draw-claim", "--fen", FEN, "--ground", "perpetual"],
     "--ground perpetual is a claim of the Active rules (ACT 14)"),
    (["draw-claim", "--fen", FEN, "--ground", "no-chances", "--rules", "act1987"],
     "give --own-flag up|fallen"),
    (["complaint", "LOG"], "complaint takes FLAGFILE and --at TIME"),
    (["complaint", "LOG", "--at", "5s", "--rules", "rap1990"],
     "complaint under rap1990: give --by white|black"),
    (["playoff"], "playoff takes the final position: --pgn PLAYOFF.pgn or --fen FEN"),
    (["playoff", "LOG", "LOG", "--fen", FEN],
     "playoff takes at most one FLAGFILE (the play-off's clock log)"),
    (["playoff", "--fen", FEN, "--pgn", "PGN"], "give --pgn or --fen, not both"),
    (["playoff", "--fen", FEN, "--limit", "0"], "--limit 0: the play-off's moves a side"),
    (["playoff", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "--fen: neither side has a king"),
]


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.jsonl").write_text("".join(json.dumps(e) + "\n" for e in EVENTS))
    (tmp_path / "notjson.jsonl").write_text("{not json\n")
    (tmp_path / "game.pgn").write_text('[Event "x"]\n\n1. e4 e5 *\n')
    (tmp_path / "empty.pgn").write_text('[Event "x"]\n\n*\n')
    return {"LOG": "game.jsonl", "NOTJSON": "notjson.jsonl", "PGN": "game.pgn",
            "NOTPGN": "empty.pgn"}


@pytest.mark.parametrize("argv, says", BAD, ids=lambda a: " ".join(a)
                         if isinstance(a, list) else "")
def test_a_bad_input_gets_one_line_and_exit_2(argv, says, files):
    code, out, err = run_cli(["ruling"] + [files.get(a, a) for a in argv])
    assert code == 2, err
    assert err.startswith("chessclock ruling: ") and err.count("\n") == 1, err
    assert says in err and "Traceback" not in err, err


def test_a_bad_option_value_is_argparse_s_usage_error(files):
    with pytest.raises(SystemExit) as e:
        run_cli(["ruling", "late", "--rules", "nope"])
    assert e.value.code == 2


def test_ruling_errors_are_the_host_s_input_errors():
    assert issubclass(RulingError, InputError) and issubclass(RulingError, ChessclockError)
    assert RulingError("x").exit_code == 2
    assert isinstance(RulingError("x"), ValueError)   # callers that catch ValueError still do


def test_an_unknown_rule_set_is_a_ruling_error():
    with pytest.raises(RulingError, match="unknown rule set 'nope' \\(known: fide2023"):
        R.get("nope")
