# `chessclock log verify|show|export` on logs that the real firmware wrote on the simulator
# board (boards.sim.SimBoard + clockapp.app.App): several modes, flags, pauses, arbiter
# corrections, a power cut; a tamper test over every byte; PGN read back by python-chess.

import io
import json

import chess.pgn
from simutil import boot, until

from boards.sim import SimBoard, run_until
from chessclock.cli import main
from chessclock.log import export, records
from chessclock.log.verify import verify
from clockapp import app as A
from clockapp.board import BTN_START, LEFT, RIGHT
from clockcore import engine as E


def game(spec, presses, step_ms, after=None, end_at=None):
    """Set up `spec`, start, press alternately every step_ms (+ a little jitter)."""
    board, app = boot()
    if spec != app.settings.spec:
        app.new_game(spec)
    board.press_buttons(BTN_START, 1000000)
    until(app, board, 1200)
    t = 1200
    for i in range(presses):
        t += step_ms + (i * 37) % 400
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000 + 321)
        until(app, board, t + 100)
    if after:
        t = after(board, app, t)
    if end_at:
        until(app, board, end_at)
    return board, app


def log_bytes(board):
    with open(board.root + "log.bin", "rb") as f:
        return f.read()


def verified(board):
    res = verify(log_bytes(board))
    assert res.problems == [], res.problems
    return res


def types(res):
    return [d["type"] for d in res.events]


def test_increment_game_verifies_and_matches_the_clock():
    board, app = game("fide-blitz", 30, 2500)
    res = verified(board)
    presses = [d for d in res.events if d["type"] == "press"]
    assert len(presses) == 30 and presses[-1]["credit_ms"] == 2000
    assert presses[-1]["side"] == "black"  # White runs since: Black's time is the clock's
    assert presses[-1]["black_ms"] == app.clock.main[E.BLACK]


def test_delays_and_byo_yomi():
    for spec in ("us-g90-d5", "300+5b", "60m + byo 5x30s", "1m + byo 3x10s"):
        board, app = game(spec, 12, 7000, end_at=200000)
        res = verified(board)
        assert "press" in types(res), spec
    assert "overtime" in types(res) and "period" in types(res)


def test_flags_in_each_stage_and_both_flags_without_freeze():
    # a flag in stage 1: 40 moves in 2 minutes, but only 4 made
    board, app = game("pgn:40/120+0:60+0", 4, 3000, end_at=200000)
    res = verified(board)
    flag = [d for d in res.events if d["type"] == "flag"][0]
    assert flag["stage"] == 1 and flag["presses_in_stage"] == 2
    # a flag in stage 2: 2 moves in 10 s, then 20 s
    board, app = game("pgn:2/10+0:20+0", 4, 2000, end_at=100000)
    res = verified(board)
    assert [d for d in res.events if d["type"] == "stage"]
    assert [d for d in res.events if d["type"] == "flag"][0]["stage"] == 2
    # no freeze (active 1987): both flags fall
    def both(board, app, t):
        run_until(app, board, 1900000 * 1000, step_us=20000)   # Black's flag falls
        board.press_lever(RIGHT, 1900000 * 1000)            # Black plays on: White runs
        run_until(app, board, 3700000 * 1000, step_us=20000)
        return t

    board, app = game("fide-active-1987", 1, 1000, after=both)
    res = verified(board)
    flags = [d for d in res.events if d["type"] == "flag"]
    assert [f["side"] for f in flags] == ["black", "white"]


def test_pauses_corrections_and_a_power_cut():
    def after(board, app, t):
        board.press_buttons(BTN_START, (t + 1000) * 1000)  # pause
        until(app, board, t + 1500)
        c = app.clock
        c.adjust(E.BLACK, 120000, app.now)
        c.set_moves(E.WHITE, 5, app.now)
        c.set_time(E.WHITE, 100000, app.now)
        c.add_stage(E.NOBODY, E.Stage(60000, inc_ms=1000), app.now)
        c.resume(app.now, E.WHITE)
        until(app, board, t + 5000)
        board.press_lever(LEFT, (t + 6000) * 1000)
        until(app, board, t + 6500)
        c.pause(app.now)
        c.undo_press(app.now)
        c.split(4000, 60, app.now)
        c.resume(app.now)
        until(app, board, t + 20000)   # a periodic save, then the power goes
        return t + 20000

    board, app = game("fide-rapid", 6, 4000, after=after)
    app2 = A.App(SimBoard(board.root))
    app2.step()
    board2 = app2.board
    board2.press_buttons(BTN_START, 1000000)        # resume after the cut
    until(app2, board2, 1500)
    board2.press_lever(LEFT if app2.clock.turn == E.WHITE else RIGHT, 3000000)
    until(app2, board2, 4000)
    res = verified(board2)
    kinds = types(res)
    for k in ("pause", "resume", "adjust", "set-moves", "set-time", "add-stage", "undo",
              "boot"):
        assert k in kinds, k
    assert [d for d in res.events if d["type"] == "boot"][-1]["restored"]
    last = [d for d in res.events if d["type"] == "press"][-1]
    assert last["seq"] > [d for d in res.events if d["type"] == "boot"][-1]["seq"]
    side = E.SIDE_NAMES.index(last["side"])
    assert last[last["side"] + "_ms"] == app2.clock.main[side]


def test_every_changed_byte_fails_verify():
    board, app = game("fide-blitz", 6, 2000)
    data = log_bytes(board)
    assert verify(data).problems == []
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= 0x01
        assert verify(bytes(bad)).problems, i


def test_torn_last_record_is_reported_and_a_restart_after_it_verifies():
    board, app = game("fide-blitz", 4, 2000)
    data = log_bytes(board)
    res = verify(data[:-3])
    assert res.problems and "not a complete record" in res.problems[0]
    assert verify(data[:-3], allow_torn_end=True).problems == []
    with open(board.root + "log.bin", "wb") as f:
        f.write(data[:-3])
    A.App(SimBoard(board.root)).step()   # the clock restarts after the cut
    res = verified(board)
    assert any("torn" in n for n in res.notes)


def test_cli_show_export_jsonl_csv_and_pgn_with_moves(tmp_path):
    board, app = game("fide-classical", 8, 3000)
    path = board.root + "log.bin"
    out = io.StringIO()
    import contextlib
    with contextlib.redirect_stdout(out):
        assert main(["log", "verify", path]) == 1      # a flash image: not signed
        assert main(["log", "verify", path, "--intact-only"]) == 0
        assert main(["log", "show", path]) == 0
    assert "verification: INTACT" in out.getvalue() and "press" in out.getvalue()
    res = verified(board)
    lines = export.to_jsonl(res).splitlines()
    first_press = [json.loads(x) for x in lines if '"press"' in x][0]
    assert {"t_ms", "type", "side", "white_ms", "black_ms", "credit_ms", "moves"} <= set(
        first_press)
    assert export.to_csv(res).splitlines()[0].startswith("seq,t_ms,type")
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[Event "t"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *\n')
    text = export.to_pgn(res.games[-1], pgn.read_text())
    g = chess.pgn.read_game(io.StringIO(text))
    assert g.headers["TimeControl"] == "40/5400+30:1800+30"
    plies = res.games[-1].plies
    nodes = list(g.mainline())
    assert len(nodes) == 8 and nodes[0].move == chess.Move.from_uci("e2e4")
    for node, (_side, clk, emt, _) in zip(nodes, plies, strict=True):
        assert round(node.clock() * 1000) == clk
        assert round(node.emt() * 1000) == emt
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["log", "export", path, "--format", "pgn"]) == 0
    g = chess.pgn.read_game(io.StringIO(out.getvalue()))
    # a clock-only PGN: no null moves (lichess and others refuse them), the times in words
    assert g.errors == [] and list(g.mainline_moves()) == []
    assert " -- " not in out.getvalue()
    assert all(records.hms(p[1]) in g.comment for p in plies)


def test_issue_10_time_mode_flags_undo_increment_alone_and_a_cut_replay(monkeypatch):
    # TIME mode, increment at turn start, no freeze, byo-yomi after the last stage: the
    # log's replay must give every event the clock gave (flags of a stage at time-out,
    # the undo taking back the opponent's increment, an increment alone), across a cut.
    from clockcore import presets as P
    from clockcore.control import Control, SideControl, Stage

    def control():
        return Control(SideControl([Stage(20000, moves=3, inc_ms=1000),
                                    Stage(10000, inc_ms=1000)], byo_periods=2, byo_ms=5000))

    preset = P.Preset("t10", "t10", control, freeze=False, stage_on_flag=True,
                      inc_at_turn_start=True)
    real = P.resolve
    monkeypatch.setattr(P, "resolve", lambda spec: (control(), preset) if spec == "t10"
                        else real(spec))

    def after(board, app, t):
        c = app.clock
        board.press_buttons(BTN_START, (t + 500) * 1000)  # pause
        until(app, board, t + 800)
        assert c.undo_press(app.now)
        assert c.turn == E.WHITE       # the undo gives White its turn back
        c.resume(app.now)
        board.press_lever(LEFT, (t + 1000) * 1000)   # White's move, made now
        until(app, board, t + 60000)  # Black: flag of stage 1, stage 2, overtime, flag
        return t + 60000

    board, app = game("t10", 3, 2000, after=after)
    assert app.clock.out == [False, True] and app.clock.flag_at[E.WHITE] == -1
    app2 = A.App(SimBoard(board.root))                      # the power goes, comes back
    app2.step()
    board2 = app2.board
    assert app2.clock.out == app.clock.out and app2.clock.flag_at == app.clock.flag_at
    board2.press_buttons(BTN_START, 1000000)
    until(app2, board2, 1500)
    app2.clock.add_increment(E.NOBODY, 5000, app2.now)
    board2.press_lever(RIGHT, 3000000)  # Black, out of time: nothing; White +5 s from now
    until(app2, board2, 3500)
    board2.press_lever(LEFT, 5000000)
    until(app2, board2, 60000)
    res = verified(board2)
    kinds = types(res)
    for k in ("flag", "stage", "undo", "add-stage", "overtime", "period", "boot"):
        assert k in kinds, k
    undo = [d for d in res.events if d["type"] == "undo"][0]
    assert undo["opponent_delta_ms"] == -1000   # Black's turn-start increment, taken back
    timeouts = [d for d in res.events if d["type"] == "stage" and d["cause"] == "timeout"]
    assert timeouts
    for s in timeouts:  # each time-out is the flag of its stage, at the same instant
        i = res.events.index(s)
        assert res.events[i - 1]["type"] == "flag" and res.events[i - 1]["t_ms"] == s["t_ms"]
