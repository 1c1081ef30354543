"""Moves as players write them (CXEB Art. 2, 4 II, 5, 6), end to end through `corr move`:
Portuguese or English piece letters read with python-chess, the PGN always in standard
SAN, and every refusal naming its article."""

import datetime as dt
import io
import json

import chess
import chess.pgn
import pytest
from cliutil import run_cli

START = dt.date(2026, 3, 2)


@pytest.fixture
def corr(tmp_path):
    path = str(tmp_path / "ledger.sqlite3")

    def run(*argv):
        return run_cli(["corr", "--db", path, "--today", "2026-09-01"] + list(argv))

    assert run("event", "E", "--start", str(START))[0] == 0
    return run


def play(corr, moves, game="g", notation="auto", **opts):
    """Add a game and record `moves` (as typed: '1 e4' or '1...Cf6'), one a day."""
    code, _, err = corr("game", "E", game, "--white", "Ana", "--black", "Bruno",
                        "--notation", notation)
    assert code == 0, err
    for i, mv in enumerate(moves):
        code, out, err = send(corr, game, i, *mv.split(" ", 1))
        assert code == 0, (mv, err)


def send(corr, game, i, *words, extra=()):
    sent = START + dt.timedelta(days=i + 1)
    recv = ["--received", str(sent)] if i else []
    return corr("move", "E", game, *words, "--sent", str(sent), *recv, *extra)


def ledger(corr, game="g"):
    code, out, err = corr("ledger", "E", game, "--json")
    assert code == 0, err
    return json.loads(out)


SICILIAN_PT = ["1 e4", "1... c5", "2 Cf3", "2... d6", "3 d4", "3... cxd4", "4 Cxd4", "4... Cf6",
               "5 Cc3", "5... a6", "6 Be3", "6... e5", "7 Cb3", "7... Be7", "8 f3", "8... O-O",
               "9 Dd2", "9... Be6", "10 O-O-O", "10... Cbd7", "11 g4", "11... Tc8", "12 Rb1"]


def test_art2_portuguese_letters_are_read_and_the_pgn_has_standard_san(corr):
    """Art. 2: R = Rei, D = Dama, T = Torre, B = Bispo, C = Cavalo. Each move is stored as
    typed and read as one move; the PGN holds standard SAN, and reading the PGN back gives
    the same game (12. Rb1 is the king's move Kb1, not a rook's)."""
    play(corr, SICILIAN_PT)
    data = ledger(corr)
    san = [m["san"] for m in data["moves"]]
    assert san[2] == "Nf3" and san[16] == "Qd2" and san[18] == "O-O-O"
    assert san[21] == "Rc8" and san[22] == "Kb1" and data["moves"][21]["typed"] == "Tc8"
    code, pgn, _ = corr("pgn", "E", "g")
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert not game.errors
    board = game.board()
    replay = []
    for mv in game.mainline_moves():
        replay.append(board.san(mv))
        board.push(mv)
    assert replay == san
    assert "Cf3" not in pgn and "Tc8" not in pgn and "Rb1" not in pgn
    assert board.fen().startswith("2rq1rk1/1p1nbppp/p2pbn2/4p3/4P1P1/1NN1BP2/PPPQ3P/1K1R1B1R b")


def test_art2_email_repeats_the_moves_in_the_games_letters(corr):
    """Art. 2 and Art. 4 II: in a Portuguese game the e-mail repeats the opponent's last
    move and gives mine with Portuguese letters."""
    play(corr, ["1 e4", "1... Cf6", "2 Cc3"], notation="pt")
    code, out, err = corr("email", "E", "g")
    assert code == 0, err
    assert "Your move 1... Cf6, sent" in out and "My move 2 Cc3, sent" in out
    assert ledger(corr)["moves"][1]["san"] == "Nf6"


@pytest.mark.parametrize("typed", ["3...Nf6", "3... Nf6", "3...Cf6", "3\u2026Cf6", "3..Cf6"])
def test_art4_i_move_number_and_move_with_no_space(corr, typed):
    """Art. 4 I (the move numbered): `3...Nf6` with no space is the number and the move;
    Portuguese `Cf6` (Art. 2) reads back as the knight's move, not as another move."""
    play(corr, ["1 e4", "1... e5", "2 Nf3", "2... Nc6", "3 Bb5"])
    code, out, err = send(corr, "g", 5, typed)
    assert code == 0, err
    m = ledger(corr)["moves"][-1]
    assert (m["move"], m["san"]) == ("3...", "Nf6")
    assert "3... Nf6" in corr("pgn", "E", "g")[1]


def test_art2_rf1_reads_as_two_moves_unless_the_game_says_its_letters(corr):
    """R is the Rei in Portuguese and the rook in English: where both can go to f1, an
    `auto` game refuses Rf1 as incomplete (Art. 6 IV); a `pt` game reads the king's move."""
    opening = ["1 e4", "1... e5", "2 Nf3", "2... Nc6", "3 Bc4", "3... Bc5"]
    play(corr, opening)
    code, out, err = send(corr, "g", 6, "4", "Rf1")
    assert code == 2 and "Kf1 in Portuguese and Rf1 in English" in err and "Art. 6 IV" in err
    play(corr, [m.replace("N", "C") for m in opening], game="h", notation="pt")
    assert send(corr, "h", 6, "4", "Rf1")[0] == 0
    assert ledger(corr, "h")["moves"][-1]["san"] == "Kf1"
    play(corr, opening, game="k", notation="en")
    assert send(corr, "k", 6, "4", "Rf1")[0] == 0
    assert ledger(corr, "k")["moves"][-1]["san"] == "Rf1"


# (moves before, move typed, message in the refusal): each refusal cites its article
REFUSED = [
    (["1 e4", "1... e5"], "Nf3+", "Nf3 is not check ('+')", "Art. 5, Art. 6 III"),
    (["1 e4", "1... e5"], "Nxf3", "Nf3 is not a capture ('x')", "Art. 5, Art. 6 III"),
    (["1 e4", "1... e5"], "Cf3 xeque", "Nf3 is not check", "Art. 5"),
    (["1 e4", "1... e5"], "Qh5#", "Qh5 is not mate", "Art. 5"),
    (["1 e4", "1... d5"], "exd5 ep", "exd5 is not en passant", "Art. 5"),
    (["1 e4", "1... e5"], "Zz9", "'Zz9' is not a move in Portuguese (R D T B C) or English "
     "(K Q R B N) notation", "Art. 2"),
    (["1 e4", "1... e5"], "Ce5", "cannot be played in this position", "Art. 6 III"),
    (["1 d4", "1... d5", "2 Nf3", "2... Nf6", "3 e3", "3... e6"], "Cd2", "fits more than one "
     "piece: it is incomplete", "Art. 6 IV"),
    (["1 e4", "1... e5", "2 d3", "2... Bb4+"], "Cf3", "against the rules in this position: "
     "it is illegal", "Art. 6 II"),
    (["1 e4", "1... e5"], "O-O", "cannot be played", "Art. 6 III"),
]


@pytest.mark.seed("CXEB Art. 6-7", item="11.6")
@pytest.mark.parametrize("before,typed,message,art", REFUSED, ids=[r[1] for r in REFUSED])
def test_art5_6_a_move_that_is_not_valid_and_legal_is_refused(corr, before, typed, message,
                                                              art):
    """Art. 5: an expression added wrongly makes the move impossible; Art. 6: impossible,
    incomplete and illegal moves are refused, the fine of Art. 7 named; nothing written."""
    play(corr, before)
    n = len(ledger(corr)["moves"])
    code, out, err = send(corr, "g", len(before), str(len(before) // 2 + 1), typed)
    assert code == 2 and message in err and art in err and "Art. 7" in err, err
    assert err.count("\n") == 1 and out == ""
    assert len(ledger(corr)["moves"]) == n


@pytest.mark.parametrize("typed,san", [("exd5", "exd5"), ("ed5", "exd5"), ("e:d5", "exd5"),
                                       ("e4xd5", "exd5"), ("e toma d5", "exd5")])
def test_art5_expressions_left_out_or_written_otherwise_are_valid(corr, typed, san):
    play(corr, ["1 e4", "1... d5"])
    assert send(corr, "g", 2, "2", typed)[0] == 0
    assert ledger(corr)["moves"][-1]["san"] == san


def test_art5_check_written_where_it_is_check(corr):
    play(corr, ["1 e4", "1... e5", "2 d3"])
    assert send(corr, "g", 3, "2...", "Bb4+")[0] == 0
    assert send(corr, "g", 4, "3", "c3", extra=("--repeats", "Bb4 xeque"))[0] == 0


def test_art4_ii_the_message_repeats_the_opponents_last_move_exactly(corr):
    """Art. 4 II: the reply repeats the opponent's last move; in either language it is
    the same move, another move is refused and the Art. 7 fine named."""
    play(corr, ["1 e4", "1... Cf6"])
    code, out, err = send(corr, "g", 2, "2", "e5", extra=("--repeats", "Ch6"))
    assert code == 2 and "repeats 1... Nf6 as 'Ch6'" in err and "Art. 4 II" in err
    assert "Art. 7" in err
    assert send(corr, "g", 2, "2", "e5", extra=("--repeats", "Nf6"))[0] == 0


def test_art4_ii_the_first_move_repeats_nothing(corr):
    play(corr, [])
    code, out, err = send(corr, "g", 0, "1", "e4", extra=("--repeats", "e5"))
    assert code == 2 and "no move of the opponent to repeat (Art. 4 II)" in err


def test_art2_csv_import_reads_portuguese_and_glued_numbers(corr, tmp_path):
    """A CSV with `2...Cc6` in its move column and Portuguese letters: the moves read as
    typed moves do, the PGN has standard SAN; a wrong move in the file writes nothing."""
    play(corr, ["1 e4", "1... e5"])
    f = tmp_path / "moves.csv"
    f.write_text("move,san,received,sent\n2,Cf3,2026-03-04,2026-03-05\n"
                 "2...Cc6,,2026-03-06,2026-03-07\n3,Bb5,2026-03-08,2026-03-09\n")
    code, out, err = corr("import", "E", "g", str(f))
    assert code == 0, err
    assert [m["san"] for m in ledger(corr)["moves"]] == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    f.write_text("move,san,received,sent\n3...,Cf6+,2026-03-10,2026-03-11\n")
    code, out, err = corr("import", "E", "g", str(f))
    assert code == 2 and "not check" in err and len(ledger(corr)["moves"]) == 5


def test_castling_written_with_zeros_or_small_letters(corr):
    play(corr, ["1 e4", "1... e5", "2 Cf3", "2... Cf6", "3 Bc4", "3... Bc5"])
    assert send(corr, "g", 6, "4", "0-0")[0] == 0
    assert send(corr, "g", 7, "4...", "o-o")[0] == 0
    assert [m["san"] for m in ledger(corr)["moves"]][-2:] == ["O-O", "O-O"]


def test_a_move_after_one_without_notation_cannot_be_checked(corr):
    play(corr, ["1 e4"])
    assert corr("move", "E", "g", "1...", "--sent", "2026-03-04")[0] == 0
    code, out, err = send(corr, "g", 2, "2", "Nf3")
    assert code == 2 and "move 1... has no notation" in err
