# Rulings from the seeds' rule sets: the Brazilian knockout rule set (seed S3),
# illegal moves, both kings in check, draw claims and setting complaints per rule set, the
# play-off's material points; each consequence applied (result, time, or "referred").

import json

import chess
import chess.pgn
import pytest
from cliutil import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from chessclock.ruling import claims, illegal, playoff, position
from chessclock.ruling import rules as R
from chessclock.ruling.flag import rule_flag

FIDE, ACT, RAP, BR = (R.get(k) for k in ("fide2023", "act1987", "rap1990", "br-knockout"))
CHECKED = "4r1k1/8/8/8/8/8/3P4/4K3 w - - 0 1"   # White in check from e8
BOTH = "4r1k1/8/8/8/8/8/8/4K1R1 w - - 0 1"      # both kings in check


def board(fen=chess.STARTING_FEN, moves=()):
    b = chess.Board(fen)
    for m in moves:
        b.push_san(m)
    return b


def pgn_file(tmp_path, movetext, name="g.pgn"):
    p = tmp_path / name
    p.write_text('[Event "t"]\n\n%s *\n' % movetext)
    return str(p)


# ---- draw claim: the last N moves of each player without a capture or a pawn move ------

SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]
AFTER_E4 = ["Nf6", "Nf3", "Ng8", "Ng1"]  # the same shuffle, Black first


def test_five_move_claim_counts_both_players_five_moves():
    # 1. e4 (a pawn move), then knights shuffle: 9 plies = White 5, Black 4: too few
    b = board(moves=["e4"] + (AFTER_E4 * 3)[:9])
    r = claims.rule_draw_claim(b, BR)
    assert b.turn == chess.WHITE and b.halfmove_clock == 9
    assert r.result == "*" and "only 4" in r.lines[0][0]
    assert r.lines[0][1] == "S3 'Ocorrerá empate' 4 (5 lances)"
    b.push_san((AFTER_E4 * 3)[9])
    r = claims.rule_draw_claim(b, BR)   # Black claims after 5 moves each
    assert r.result == "1/2-1/2" and b.turn == chess.BLACK


def test_same_position_under_fide_is_a_false_claim_costing_two_minutes():
    b = board(moves=["e4"] + (AFTER_E4 * 3)[:10])
    r = claims.rule_draw_claim(b, FIDE)
    assert r.result == "*" and r.times == {"white": 120000}
    assert "`chessclock adjust white +2m --reason \"incorrect claim\" --article \"FIDE 9.5.3\"`" \
        in r.lines[-1][0] and r.lines[-1][1] == "FIDE 9.5.3"
    # S3 sets no penalty: the claim fails, nothing is added
    r = claims.rule_draw_claim(b, BR, n_moves=6)
    assert r.result == "*" and not hasattr(r, "times")


def test_n_is_a_parameter_and_fide_75_is_automatic():
    b = chess.Board("8/8/4k3/8/8/4K3/8/R7 w - - 99 80")
    assert claims.rule_draw_claim(b, FIDE).result == "*"            # 49.5 moves
    assert claims.rule_draw_claim(b, FIDE, intended="Ra2").result == "1/2-1/2"  # 9.3.1
    b = chess.Board("8/8/4k3/8/8/4K3/8/R7 w - - 150 120")
    r = claims.rule_draw_claim(b, FIDE)
    assert r.result == "1/2-1/2" and "without a claim" in r.lines[0][0]
    assert claims.rule_draw_claim(b, BR).result == "1/2-1/2"
    assert claims.rule_draw_claim(chess.Board("8/8/4k3/8/8/4K3/8/R7 w - - 7 80"), BR,
                                  n_moves=3).result == "1/2-1/2"


def _trailing_quiet_plies(start, moves):
    """Independent of python-chess's halfmove clock: walk the moves, reset on a capture
    or a pawn move."""
    b = chess.Board(start)
    n = 0
    for mv in moves:
        quiet = not b.is_capture(mv) and b.piece_type_at(mv.from_square) != chess.PAWN
        n = n + 1 if quiet else 0
        b.push(mv)
    return n


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=60), st.sampled_from([1, 5, 50]))
def test_claim_agrees_with_walking_the_scoresheet(picks, n):
    b = chess.Board()
    moves = []
    for k in picks:
        legal = list(b.legal_moves)
        if not legal:
            break
        mv = legal[k % len(legal)]
        moves.append(mv)
        b.push(mv)
    if b.is_game_over():
        return
    quiet = _trailing_quiet_plies(chess.STARTING_FEN, moves)
    r = claims.rule_draw_claim(b, BR, n_moves=n)
    assert (r.result == "1/2-1/2") == (quiet >= 2 * n)
    if n == 50:  # FIDE's 50 is the same check; python-chess agrees
        assert (claims.rule_draw_claim(b, FIDE).result == "1/2-1/2") == b.is_fifty_moves()


def test_repetition_and_the_act_14_claims():
    b = board(moves=SHUFFLE * 2)
    assert claims.rule_draw_claim(b, BR, ground="repetition").result == "1/2-1/2"
    b = board(moves=SHUFFLE[:3])
    r = claims.rule_draw_claim(b, FIDE, ground="repetition")
    assert r.result == "*" and r.times == {"white": 120000}
    # one move short of the third time: only with that move written (FIDE 9.2.1.1)
    b = board(moves=(SHUFFLE * 2)[:7])
    r = claims.rule_draw_claim(b, FIDE, ground="repetition")
    assert r.result == "*" and any("--move" in t for t, _ in r.lines)
    assert claims.rule_draw_claim(b, FIDE, ground="repetition",
                                  intended="Ng8").result == "1/2-1/2"
    b = chess.Board("4k3/8/8/8/8/8/8/R3K2r w - - 0 1")
    r = claims.rule_draw_claim(b, ACT, ground="no-chances", own_flag="up")
    assert r.result == "1/2-1/2" and "KR" in r.facts[-2] and not hasattr(r, "times")
    r = claims.rule_draw_claim(b, ACT, ground="no-chances", found="incorrect", own_flag="up")
    assert r.times == {"black": 120000} and r.lines[-1][1].startswith("ACT 14")
    assert claims.rule_draw_claim(b, ACT, ground="perpetual", own_flag="up").result == "*"
    assert claims.rule_draw_claim(b, ACT, ground="perpetual", own_flag="up",
                                  found="correct").result == "1/2-1/2"
    r = claims.rule_draw_claim(b, ACT)  # the Laws' 50-move claim: no ACT 14 penalty
    assert r.result == "*" and not hasattr(r, "times")


# ---- illegal moves (§6.5-6.7) ----------------------------------------------------------

@pytest.mark.parametrize("fen,move,reason", [
    (CHECKED, "d2d3", illegal.NO_ESCAPE),
    ("4k3/8/8/8/8/8/8/4K2r w - - 0 1", "e1f1", illegal.NO_ESCAPE),
    ("4kr2/8/8/8/8/8/8/4K3 w - - 0 1", "e1f1", illegal.KING_INTO_CHECK),
    ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", illegal.EXPOSES_KING),
    (chess.STARTING_FEN, "b1b3", illegal.WRONG_MOVE),
    (chess.STARTING_FEN, "e7e5", illegal.WRONG_MOVE),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", illegal.NOT_ILLEGAL),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1g1", illegal.WRONG_MOVE),
    ("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1g1", illegal.WRONG_MOVE),
])
def test_why_a_move_is_illegal_in_the_words_of_s3(fen, move, reason):
    b = chess.Board(fen)
    assert illegal.classify(b, position.parse_move(b, move))[0] == reason


@pytest.mark.seed("RAP 8c", item="6.6")
def test_illegal_move_consequence_per_rule_set():
    b = chess.Board(CHECKED)
    mv = position.parse_move(b, "d2-d3")
    r = illegal.rule_illegal(b, mv, BR)
    assert (r.result, r.illegal["by"]) == ("0-1", "white")
    r = illegal.rule_illegal(b, mv, FIDE)
    assert r.result == "*" and r.times == {"black": 120000}
    assert illegal.rule_illegal(b, mv, FIDE, blitz=True).times == {"black": 60000}
    assert illegal.rule_illegal(b, mv, FIDE, count=2).result == "0-1"
    r = illegal.rule_illegal(b, mv, ACT)
    assert r.result == "*" and r.times == {"black": 120000} and r.lines[0][1] == "ACT 22b"
    assert illegal.rule_illegal(b, mv, RAP).result == "*"
    assert illegal.rule_illegal(b, mv, RAP, claim="before-touch").result == "0-1"
    assert illegal.rule_illegal(b, mv, RAP, claim="after-touch").result == "*"
    r = illegal.rule_illegal(b, mv, RAP, king_captured="before-press")
    assert r.result == "1/2-1/2"
    assert any("hand left the piece" in t and "RAP 17" in a for t, a in r.lines)


def test_second_illegal_move_is_a_draw_when_the_opponent_cannot_mate():
    b = chess.Board("4k3/8/8/8/8/8/8/2b1K3 w - - 0 1")  # Black has only a bishop
    r = illegal.rule_illegal(b, position.parse_move(b, "e1d2"), FIDE, count=2)  # into check
    assert r.result == "1/2-1/2" and r.mate["status"] == "proven"


@pytest.mark.seed("ACT 21", item="6.7")
def test_unnoticed_illegal_moves():
    b = chess.Board(CHECKED)
    mv = position.parse_move(b, "d2d3")
    for rs in (ACT, RAP):
        r = illegal.rule_illegal(b, mv, rs, noticed="later")
        assert r.result == "*" and r.summary == "the illegal move stands"
    r = illegal.rule_illegal(b, mv, FIDE, noticed="later")
    assert r.times == {"black": 120000} and r.lines[0][1].startswith("FIDE 7.5.1")
    r = illegal.rule_illegal(b, mv, BR, noticed="later")
    assert r.result == "referred" and r.referred
    assert illegal.rule_illegal(b, position.parse_move(b, "e1f1"), BR).result == "*"  # legal


@pytest.mark.seed("ACT 21", item="6.7")
def test_both_kings_in_check():
    b = chess.Board(BOTH)
    assert illegal.both_kings_in_check(b) and not illegal.both_kings_in_check(chess.Board())
    assert illegal.rule_both_kings(b, BR).result == "referred"
    assert illegal.rule_both_kings(b, RAP).summary.startswith("the arbiter decides")
    assert illegal.rule_both_kings(b, FIDE).summary.startswith("reinstate")
    assert illegal.rule_both_kings(b, ACT).result == "*"
    ok = chess.Board("4r1k1/8/8/8/8/8/8/4KR2 w - - 0 1")
    assert illegal.rule_both_kings(b, ACT, ok).result == "*"
    assert illegal.rule_both_kings(b, ACT, b).result == "1/2-1/2"
    assert illegal.rule_both_kings(chess.Board(), ACT).summary == "not both kings in check"


# ---- setting complaint (§2.8) ----------------------------------------------------------

EVENTS = [{"type": "start", "side": "white", "t_ms": 0},
          {"type": "press", "side": "white", "t_ms": 5000},
          {"type": "press", "side": "black", "t_ms": 9000},
          {"type": "press", "side": "white", "t_ms": 20000}]


@pytest.mark.parametrize("rs,at,by,in_time", [
    (ACT, 8999, None, True), (ACT, 9000, None, False), (ACT, 3000, "white", True),
    (RAP, 7000, "black", True), (RAP, 7000, "white", False), (RAP, 9000, "black", False),
    (FIDE, 10**6, "white", True),
])
def test_complaint_window(rs, at, by, in_time):
    r = claims.rule_complaint(EVENTS, rs, at, by)
    assert r.in_time is in_time
    if rs is not FIDE:  # the deadline rests on a press time: the ACT 20 / RAP 17 note
        assert any("hand left the piece" in t for t, _ in r.lines)
        assert any(a.startswith(("ACT 20", "RAP 17")) for _, a in r.lines)


def test_complaint_under_s3_is_referred():
    r = claims.rule_complaint(EVENTS, BR, 1000)
    assert r.result == "referred" and "REFERRED" in r.text()


# ---- the play-off (S3 4.1) -------------------------------------------------------------

def test_points_and_winner():
    b = chess.Board("r3k3/8/8/8/8/8/8/2Q1K3 w - - 0 1")
    assert (playoff.points(b, chess.WHITE), playoff.points(b, chess.BLACK)) == (9, 5)
    r = playoff.rule_playoff(BR, board=b)
    assert r.result == "1-0" and r.points == {"white": 9, "black": 5}
    start = chess.Board()
    assert playoff.points(start, chess.WHITE) == 8 + 3 * 2 + 3 * 2 + 5 * 2 + 9 == 39


def test_king_taken_equal_points_stalemate_and_mate():
    assert playoff.rule_playoff(BR, board=playoff.fen_board(
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1")).result == "1-0"
    r = playoff.rule_playoff(BR, board=chess.Board())
    assert r.result == "referred" and "equal points" in r.referred
    r = playoff.rule_playoff(BR, board=chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"))
    assert r.result == "referred" and "stalemate" in r.referred
    r = playoff.rule_playoff(BR, board=chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"))
    assert r.result == "1-0"   # mate: the king cannot escape being taken


def test_only_the_first_ten_moves_each_count(tmp_path):
    # Black wins a knight on move 10; White's pawn grab on move 11 comes after the limit
    moves = ("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Nf3 Bf5 6. Bc4 e6 7. Bd2 c6 "
             "8. Qe2 Bb4 9. O-O-O Nbd7 10. a3 Bxc3 11. Bxc3 Qb6")
    game = chess.pgn.read_game(open(pgn_file(tmp_path, moves)))
    b, made, extra = playoff.final_position(game, 10)
    assert made == {chess.WHITE: 10, chess.BLACK: 10} and extra == 2
    r = playoff.rule_playoff(BR, game=game)
    assert r.points == {"white": 35, "black": 38} and r.result == "0-1"
    r = playoff.rule_playoff(BR, game=game, limit=11)  # Bxc3 counts: 35 each
    assert r.points == {"white": 35, "black": 35} and r.result == "referred"
    assert playoff.rule_playoff(FIDE, game=game).summary == "no play-off in these rules"


# ---- the flag under S3 -----------------------------------------------------------------

def test_both_flags_down_under_s3_is_referred_unless_announced_before():
    ev = [{"type": "start", "side": "white", "t_ms": 0, "white_ms": 60000, "black_ms": 60000},
          {"type": "press", "side": "white", "t_ms": 5000, "moves": 1},
          {"type": "flag", "side": "black", "t_ms": 65000, "stage": 1, "moves": 0},
          {"type": "press", "side": "black", "t_ms": 70000, "moves": 1},
          {"type": "flag", "side": "white", "t_ms": 125000, "stage": 1, "moves": 1},
          {"type": "end", "t_ms": 200000}]
    r = rule_flag(ev, BR)
    assert r.result == "referred" and "both flags" in r.referred
    ev2 = ev[:3] + [{"type": "pause", "side": "black", "t_ms": 66000}] + ev[3:]
    r = rule_flag(ev2, BR, board=chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"))
    assert r.result == "1-0" and r.referred is None
    r = rule_flag(ev2, BR, board=chess.Board("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"))
    assert r.result == "1/2-1/2"   # S3: the opponent has not enough to mate


# ---- the command, and bad input --------------------------------------------------------

def test_cli_forms_text_and_json(tmp_path):
    code, out, err = run_cli(["ruling", "illegal-move", "--fen", CHECKED, "--move", "d2d3",
                              "--rules", "br-knockout"])
    assert code == 0 and "RESULT: 0-1" in out and "S3 item 3" in out
    code, out, _ = run_cli(["ruling", "playoff", "--fen", "r3k3/8/8/8/8/8/8/2Q1K3 w - - 0 1",
                            "--json"])
    d = json.loads(out)
    assert code == 0 and d["rules"] == "br-knockout" and d["points"] == {"white": 9,
                                                                          "black": 5}
    p = pgn_file(tmp_path, "1. e4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6 4. Nf3 Ng8 5. Ng1 Nf6 6. Nf3")
    code, out, _ = run_cli(["ruling", "draw-claim", "--pgn", p, "--rules", "br-knockout",
                            "--json"])
    assert code == 0 and json.loads(out)["result"] == "1/2-1/2"
    code, out, _ = run_cli(["ruling", "both-kings", "--fen", BOTH, "--rules", "br-knockout"])
    assert code == 0 and "REFERRED TO THE ORGANISING COMMITTEE" in out


def test_bad_input_gives_one_line_and_exit_2(tmp_path):
    ev = tmp_path / "ev.jsonl"
    ev.write_text("\n".join(json.dumps(e) for e in EVENTS) + "\n")
    notpgn = tmp_path / "x.pgn"
    notpgn.write_text("this is not chess\n")
    table = [
        ["ruling", "illegal-move", "--fen", CHECKED],
        ["ruling", "illegal-move", "--fen", CHECKED, "--move", "zz"],
        ["ruling", "illegal-move", "--fen", CHECKED, "--move", "O-O"],
        ["ruling", "illegal-move", "--fen", CHECKED, "--move", "d2d3", "--count", "0"],
        ["ruling", "illegal-move", "--fen", "not a fen", "--move", "d2d3"],
        ["ruling", "illegal-move", "--fen", BOTH, "--move", "e1e2"],
        ["ruling", "illegal-move", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1", "--move", "a1a2"],
        ["ruling", "illegal-move", "--move", "d2d3"],
        ["ruling", "illegal-move", "--pgn", str(notpgn), "--move", "d2d3"],
        ["ruling", "illegal-move", "--pgn", str(tmp_path / "missing.pgn"), "--move", "e2e4"],
        ["ruling", "illegal-move", "extra", "--fen", CHECKED, "--move", "d2d3"],
        ["ruling", "both-kings"],
        ["ruling", "both-kings", "--fen", BOTH, "--retracted", "bad fen"],
        ["ruling", "both-kings", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1"],
        ["ruling", "draw-claim", "--fen", chess.STARTING_FEN, "--moves", "0"],
        ["ruling", "draw-claim", "--fen", chess.STARTING_FEN, "--ground", "perpetual"],
        ["ruling", "draw-claim", "--fen", chess.STARTING_FEN, "--move", "e2e5"],
        ["ruling", "draw-claim", "--fen", chess.STARTING_FEN, "--pgn", str(notpgn)],
        ["ruling", "complaint", str(ev)],
        ["ruling", "complaint", "--at", "5s"],
        ["ruling", "complaint", str(ev), "--at", "soon"],
        ["ruling", "complaint", str(ev), "--at", "9" * 5000],
        ["ruling", "complaint", str(ev), "--at", "5s", "--rules", "rap1990"],
        ["ruling", "complaint", str(tmp_path / "missing.jsonl"), "--at", "5s"],
        ["ruling", "playoff"],
        ["ruling", "playoff", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        ["ruling", "playoff", "--fen", "kk6/8/8/8/8/8/8/K7 w - - 0 1"],
        ["ruling", "playoff", "--fen", chess.STARTING_FEN, "--limit", "0"],
        ["ruling", "playoff", "--fen", chess.STARTING_FEN, "--limit", "9" * 50],
        ["ruling", "playoff", "--pgn", str(notpgn)],
        ["simulate", "--control", "br-playoff", "--move-limit", "-1", str(ev)],
        ["simulate", "--control", "300", "--move-limit", "1000", str(ev)],
        ["simulate", "--control", "300", "--move-limit", "ten", str(ev)],
    ]
    for argv in table:
        try:
            code, out, err = run_cli(argv)
        except SystemExit as e:  # argparse's own refusal (usage line, then the error)
            code, out, err = e.code, "", "usage"
        assert code == 2, (argv, code, out, err)
        assert "Traceback" not in err and len(err.strip().splitlines()) >= 1, (argv, err)
        if argv[1] != "--control" and "usage" not in err:
            assert len(err.strip().splitlines()) == 1, (argv, err)


# ---- the play-off clock end to end: firmware log -> verify (replay) -> ruling -----------

def test_play_off_log_replays_exactly_and_the_ruling_reads_the_limit(tmp_path):
    from simutil import boot, until

    from chessclock.log.verify import verify
    from clockapp.board import BTN_START, LEFT, RIGHT

    board, app = boot()
    app.new_game("br-playoff")
    board.press_buttons(BTN_START, 1000000)
    until(app, board, 1300)
    t = 1300
    for i in range(22):
        t += 900 + (i * 53) % 300
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000 + 77)
        until(app, board, t + 100)
    with open(board.root + "log.bin", "rb") as f:
        data = f.read()
    res = verify(data)
    assert res.problems == [], res.problems       # the replay gives every recorded event
    types = [d["type"] for d in res.events]
    i = types.index("limit")
    assert types[i + 1] == "end" and types[i:].count("press") == 0
    assert res.events[i]["move_limit"] == 10 and res.events[i]["moves"] == 10
    header = [d for d in res.events if d["type"] == "header"][-1]
    assert header["move_limit"] == 10 and header["spec"] == "br-playoff"
    log = tmp_path / "game.log"
    log.write_bytes(data)
    code, out, err = run_cli(["log", "export", str(log), "--format", "jsonl"])
    assert code == 0, err
    ev = tmp_path / "game.jsonl"
    ev.write_text(out)
    code, out, err = run_cli(["ruling", str(ev), "--rules", "br-knockout"])
    assert code == 0, err
    assert "Move limit reached" in out and "both sides had made 10 moves" in out


def test_simulate_takes_the_preset_limit_or_an_explicit_one():
    script = "".join("%d press %s\n" % (1000 * (i + 1), "white" if i % 2 == 0 else "black")
                     for i in range(8))
    code, out, _ = run_cli(["simulate", "--control", "300", "--move-limit", "3"],
                           stdin="0 start\n" + script)
    recs = [json.loads(x) for x in out.splitlines()]
    kinds = [r["type"] for r in recs]
    assert code == 0
    # start, 6 presses, the limit and the end at the 6th press; the last 2 presses ignored
    assert kinds == ["start"] + ["press"] * 6 + ["limit", "end", "ignored", "ignored",
                                                  "final"]
    assert recs[7]["t_ms"] == recs[8]["t_ms"] == 6000 and recs[7]["side"] == "black"
    assert recs[-1]["type"] == "final" and recs[-1]["state"] == "ended"
    assert recs[-1]["white_moves"] == 3 and recs[-1]["black_moves"] == 3
    code, out, _ = run_cli(["simulate", "--control", "br-playoff"], stdin="0 start\n" + script)
    assert code == 0 and '"limit"' not in out   # 4 moves each: under the preset's 10
    code, out, _ = run_cli(["simulate", "--control", "br-playoff", "--move-limit", "0"],
                           stdin="0 start\n" + script * 1)
    assert code == 0 and '"limit"' not in out


def test_play_off_with_its_clock_log_a_flag_decides_and_a_referred_case_is_recorded(tmp_path):
    def sim(script, name):
        code, out, err = run_cli(["simulate", "--control", "br-playoff"], stdin=script)
        assert code == 0, err
        p = tmp_path / name
        p.write_text('{"type": "control", "spec": "br-playoff"}\n' + out)
        return str(p)

    ten = "0 start\n" + "".join("%d press %s\n" % (1000 * (i + 1), ("white", "black")[i % 2])
                                 for i in range(20))
    log = sim(ten, "limit.jsonl")
    code, out, _ = run_cli(["ruling", "playoff", log, "--fen",
                            "r3k3/8/8/8/8/8/8/2Q1K3 w - - 0 1"])
    assert code == 0 and "Move limit reached" in out and "RESULT: 1-0  more points" in out
    flag = sim("0 start\n1000 press white\n400000 end\n", "flag.jsonl")
    # Black's flag fell after 1 move each: the flag decides, not the points (Black has more)
    code, out, _ = run_cli(["ruling", "playoff", flag, "--fen",
                            "q3k3/8/8/8/8/8/8/2R1K3 w - - 0 1", "--json"])
    d = json.loads(out)
    assert code == 0 and d["result"] == "1-0" and d["points"] == {"white": 5, "black": 9}
    assert d["ruling"][0]["text"].startswith("A flag fell at 5:01.000")
    # equal points: referred, and the incident report records it
    inc = tmp_path / "inc.md"
    code, out, _ = run_cli(["ruling", "playoff", log, "--fen", chess.STARTING_FEN,
                            "--incident", str(inc)])
    assert code == 0 and "RESULT: referred" in out
    text = inc.read_text()
    assert "Result: referred" in text
    assert "Referred to the Organising Committee: the play-off ended with equal points" in text
