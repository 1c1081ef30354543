# Adjournment on the clock (seed §8.1-8.3, 5.6, preset P6): seal mode from the buttons,
# the 15-minute alert, the hand-in by the sealer's lever, the hashed snapshot in the log,
# and the snapshot loaded on another clock whose log carries the same hash. CPython and
# the MicroPython unix port (tests/mp_run.py).

import hashlib

from simutil import boot, text, until

from boards.sim import SimBoard, run_until
from clockapp import gamestate
from clockapp import seal as S
from clockapp.app import App
from clockapp.board import BTN_MENU, BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import events as EV
from clockcore import logread as LR


def records(app):
    r = LR.Reader()
    return [r.decode(p) for p in app.store.read_log()]


def codes(app):
    return [rec.code for rec in records(app)]


def game_to_seal(spec="90m/40+30m+30s"):
    """A game set, started, two presses; Black (on the right lever) to move at 7 s."""
    board, app = boot()
    app.new_game(spec)
    board.press_buttons(BTN_START, 1000000)
    until(app, board, 1200)
    board.press_lever(LEFT, 4000000)     # White's move
    until(app, board, 4200)
    return board, app


def hold_menu(board, app, t_ms):
    board.press_buttons(BTN_MENU, t_ms * 1000, hold_us=2300000)
    until(app, board, t_ms + 2500)


def test_seal_mode_from_the_buttons_keeps_the_sealers_clock_running():
    board, app = game_to_seal()
    hold_menu(board, app, 5000)
    sl = app.seal
    assert sl.phase == S.SEALING and sl.sealer == E.BLACK
    c = app.clock
    assert c.state == E.RUNNING and c.turn == E.BLACK   # the sealer's time runs on
    b0 = c.main[E.BLACK]
    until(app, board, 9000)
    assert c.main[E.BLACK] < b0
    assert text(board.left) == "SEAL"           # White's display: the seal is on
    start = [r for r in records(app) if r.code == EV.EV_SEAL_START]
    assert len(start) == 1 and start[0].side == E.BLACK and start[0].arg == 1


def test_the_15_minute_alert_is_logged_at_its_instant_and_shown_silently():
    board, app = game_to_seal()
    hold_menu(board, app, 5000)
    since = app.seal.since
    buzzes = len(board.buzz_log) if hasattr(board, "buzz_log") else 0
    run_until(app, board, (since + S.ALERT_MS - 1000) * 1000, step_us=50000)
    assert not app.seal.alerted and text(board.left) == "SEAL"
    run_until(app, board, (since + S.ALERT_MS + 300) * 1000, step_us=1000)
    assert app.seal.alerted
    alert = [r for r in records(app) if r.code == EV.EV_SEAL_ALERT]
    assert len(alert) == 1 and alert[0].t == since + S.ALERT_MS and alert[0].side == E.BLACK
    assert text(board.left) == "SL15"
    assert (len(board.buzz_log) if hasattr(board, "buzz_log") else 0) == buzzes
    assert app.clock.state == E.RUNNING         # the arbiter decides; the clock runs on


def test_the_sealers_lever_hands_in_stops_both_and_logs_the_snapshot_hash():
    board, app = game_to_seal()
    hold_menu(board, app, 5000)
    board.press_lever(RIGHT, 20000500)          # Black hands the envelope in
    until(app, board, 20300)
    c = app.clock
    sl = app.seal
    assert sl.phase == S.SEALED and c.state == E.PAUSED
    assert c.moves == [1, 1] and c.turn == E.WHITE   # the sealed move counts; White to move
    recs = records(app)
    sealed = [r for r in recs if r.code == EV.EV_SEALED][0]
    assert sealed.t == 20000 and sealed.side == E.BLACK
    assert sealed.arg == 20000 - sl.since       # the sealing took this long
    data = app.store.load(S.SNAPSHOT_FILE)
    assert sealed.digest == hashlib.sha256(data).digest() == sl.digest
    # the snapshot: both times, counters, stages, who is to move, the sealer
    snap, meta = gamestate.decode(data)
    assert (snap.main, snap.moves, snap.stage, snap.turn) == (c.main, c.moves, c.stage,
                                                              E.WHITE)
    assert meta["seal"][0] == S.SEALED and meta["seal"][1] == E.BLACK
    assert meta["seal_seq"] == sealed.seq
    # stopped: the times stay, a lever press changes nothing
    w, b = c.main[0], c.main[1]
    board.press_lever(LEFT, 25000000)
    until(app, board, 26000)
    assert (c.main[0], c.main[1], c.state) == (w, b, E.PAUSED)
    # the press and the pause are at the hand-in's instant, then the sealed record
    names = [r.code for r in recs if r.t == 20000]
    assert names[-3:] == [E.EV_PRESS, E.EV_PAUSE, EV.EV_SEALED]


def test_start_hands_in_and_hold_again_leaves_seal_mode():
    board, app = game_to_seal()
    hold_menu(board, app, 5000)
    hold_menu(board, app, 9000)                  # held again: seal mode off, no seal
    assert app.seal.phase == S.NONE and app.clock.state == E.RUNNING
    assert EV.EV_SEAL_CANCEL in codes(app)
    hold_menu(board, app, 13000)
    board.press_buttons(BTN_START, 17000000)     # START: the sealed move handed in
    until(app, board, 17300)
    assert app.seal.phase == S.SEALED and app.clock.state == E.PAUSED
    assert app.clock.moves == [1, 1]


def test_seal_refused_when_no_clock_runs_and_hand_in_needs_seal_mode():
    board, app = boot()
    for fn in (lambda: app.seal.begin(app.now), lambda: app.seal.hand_in(app.now),
               lambda: app.seal.cancel(app.now)):
        try:
            fn()
            raise AssertionError("accepted")
        except ValueError:
            pass
    board, app = game_to_seal()
    app.seal.begin(app.now)
    for bad in ("Nf3 e5", "x" * (S.MOVE_MAX + 1), "e4\n"):
        try:
            app.seal.hand_in(app.now, bad)
            raise AssertionError("accepted %r" % bad)
        except ValueError:
            pass
    assert app.seal.phase == S.SEALING and app.clock.state == E.RUNNING


def sealed_game():
    board, app = game_to_seal("90m/40+30m+30s")
    app.clock.add_stage(E.WHITE, app.clock.stages[0][-1], app.now)   # an arbiter's stage
    hold_menu(board, app, 5000)
    app.seal.hand_in(app.now, "sha256:0123abcd")
    until(app, board, app.now + 100)
    return board, app


def test_a_power_cut_after_the_seal_keeps_the_adjourned_game():
    board, app = sealed_game()
    until(app, board, app.now + 11000)
    main, moves = list(app.clock.main), list(app.clock.moves)
    app2 = App(SimBoard(board.root))
    assert app2.seal.phase == S.SEALED and app2.seal.sealer == E.BLACK
    assert app2.seal.move == "sha256:0123abcd"
    assert app2.clock.main == main and app2.clock.moves == moves


def test_the_adjourned_game_loads_on_another_clock_and_its_log_has_the_same_hash():
    board, app = sealed_game()
    data = app.store.load(S.SNAPSHOT_FILE)
    c1 = app.clock
    b2, app2 = boot()                      # another clock, a fresh flash
    app2.step()
    digest = app2.load_adjourned(data)
    app2.step()
    c2 = app2.clock
    assert digest == app.seal.digest
    assert (c2.main, c2.moves, c2.stage, c2.turn, c2.state) == (
        c1.main, c1.moves, c1.stage, c1.turn, E.PAUSED)
    assert [len(x) for x in c2.stages] == [len(x) for x in c1.stages]   # the added stage
    assert app2.seal.phase == S.SEALED and app2.seal.session == 1
    recs = records(app2)
    loaded = [r for r in recs if r.code == EV.EV_ADJOURNED_LOADED][0]
    assert loaded.digest == app.seal.digest and loaded.arg == 1
    assert (loaded.w, loaded.b) == (c1.main[0], c1.main[1])
    assert loaded.snapshot["white_moves"] == 1 and loaded.snapshot["turn"] == E.WHITE
    assert recs[recs.index(loaded) - 1].code == EV.EV_HEADER
    # the next session: the arbiter starts the side to move; the session counts on
    until(app2, b2, app2.now + 500)
    assert c2.resume(app2.now)
    until(app2, b2, app2.now + 3000)
    assert app2.seal.phase == S.NONE and app2.seal.session == 2
    assert c2.turn == E.WHITE and c2.main[E.WHITE] < c1.main[E.WHITE]
    # and the session's new control from the arbiter: a stage for both (RGC 10.1: 15 min)
    st = app2.clock.stages[0][-1]
    w = c2.main[E.BLACK]
    c2.add_stage(E.BLACK, st.__class__(900000, 0, 0, 0, 0), app2.now)
    assert c2.main[E.BLACK] == w + 900000


def test_a_damaged_or_unsealed_snapshot_is_refused_and_nothing_changes():
    board, app = game_to_seal()
    plain = gamestate.encode(app.clock, {"spec": "x"})
    b2, app2 = boot()
    before = app2.clock
    for bad in (b"", b"GS\x02", plain):
        try:
            app2.load_adjourned(bad)
            raise AssertionError("loaded")
        except ValueError:
            pass
    assert app2.clock is before and app2.seal.phase == S.NONE


def test_a_power_cut_while_sealing_keeps_seal_mode_and_the_time_used():
    board, app = game_to_seal()
    hold_menu(board, app, 5000)
    run_until(app, board, 305000 * 1000, step_us=20000)   # about 5 minutes of sealing
    used = app.now - app.seal.since
    app2 = App(SimBoard(board.root, tick0=board.ticks_us()))
    app2.step()
    sl = app2.seal
    assert sl.phase == S.SEALING and sl.sealer == E.BLACK
    # what was saved (at most SAVE_EVERY_MS old) counts towards the 15 minutes
    assert used - 10000 <= app2.now - sl.since <= used
    assert app2.clock.state == E.PAUSED        # as after any cut: the arbiter resumes


def test_a_new_game_after_an_adjournment_starts_with_no_seal_and_session_1():
    board, app = sealed_game()
    app.clock.resume(app.now)
    until(app, board, app.now + 500)
    assert app.seal.session == 2 and app.seal.phase == S.NONE
    app.new_game("fide-blitz")
    assert app.seal.session == 1 and app.seal.phase == S.NONE and app.seal.sealer == E.NOBODY
    meta = app.game_meta()
    assert "seal" not in meta            # nothing about seals in an ordinary game's state


def test_a_scheduled_resumption_starts_the_side_to_move_and_counts_the_default_time():
    # RGC 11.4: the absent player's clock may be started at the resumption; RGC 12.4: a
    # player who is not there within the default time loses (logged for the arbiter)
    from clockapp import sessionops
    from clockcore import protocol as P

    board, app = sealed_game()              # Black sealed; White to move
    data = app.store.load(S.SNAPSHOT_FILE)
    b2, app2 = boot()
    app2.step()
    wall = 1796000000
    line = P.encode_request(app2.link.requests + 1, "wallclock", (str(wall),), None, None)
    assert P.decode_reply(app2.link.handle(line[:-1])[:-1])[1]
    wall_at = app2.now
    app2.load_adjourned(data)
    app2.step()
    c2 = app2.clock
    white_before = c2.main[E.WHITE]
    sessionops.schedule(app2.session, wall + 5, 20)
    sched_t = wall_at + 5000
    until(app2, b2, sched_t - 100)
    assert c2.state == E.PAUSED             # waits for the set instant
    until(app2, b2, sched_t + 300)
    assert c2.state == E.RUNNING and c2.turn == E.WHITE
    resumes = [r for r in records(app2) if r.code == EV.EV_RESUME]
    assert resumes[-1].t == sched_t         # charged from the set instant, not the pass
    until(app2, b2, sched_t + 21000)        # nobody came: both absent at the default time
    dflt = [(r.side, r.arg) for r in records(app2) if r.code == EV.EV_DEFAULT_TIME]
    assert dflt == [(E.WHITE, 20), (E.BLACK, 20)]
    assert white_before - c2.main[E.WHITE] >= 20000   # White's clock ran from the instant
    assert app2.seal.phase == S.NONE and app2.seal.session == 2


def test_a_schedule_is_refused_on_a_game_in_play_but_not_on_an_adjourned_one():
    from clockapp import sessionops

    board, app = game_to_seal()
    app.wall_s, app.wall_at = 1796000000, app.now
    try:
        sessionops.schedule(app.session, 1796000000 + 60, 20)
        raise AssertionError("a running game took a schedule")
    except ValueError as e:
        assert "in progress" in str(e)
    hold_menu(board, app, 5000)
    app.seal.hand_in(app.now, "")
    until(app, board, app.now + 100)
    assert app.clock.state == E.PAUSED and app.seal.phase == S.SEALED
    sessionops.schedule(app.session, app.wall_s + 60, 20)   # the next session, same clock
    assert app.session.sched_t >= 0
