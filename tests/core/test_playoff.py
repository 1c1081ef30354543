# The move-limit mode (seed S3 4.1: a drawn knockout game is replayed for at most 10 moves
# each): the engine ends the game on the press that gives both sides N moves, logs why,
# keeps the limit across a power cut (gamestate) and in the log's header (replay).
# Runs under pytest and under the MicroPython unix port (tests/mp_run.py).

from check import raises

from clockapp import gamestate as G
from clockcore import engine as E
from clockcore import eventlog as L
from clockcore import logread as LR
from clockcore import presets as P
from clockcore.control import Control, SideControl, Stage

W = E.WHITE
B = E.BLACK


def make(limit, minutes=5, **options):
    events = []
    clock = E.Clock(Control(SideControl([Stage(minutes * 60000)])),
                    lambda ev, side, t, arg: events.append((LR.NAMES[ev], side, t, arg)),
                    move_limit=limit, **options)
    return clock, events


def play(clock, n_presses, start_side=W, step=1000):
    """Alternate presses every `step` ms from the side that runs; returns the last t."""
    t = 0
    clock.start(t, start_side)
    side = start_side
    for _ in range(n_presses):
        t += step
        clock.press(side, t)
        side = 1 - side
    return t


def test_ten_moves_each_ends_on_blacks_tenth_press():
    c, ev = make(10)
    play(c, 19)
    assert c.state == E.RUNNING and c.moves == [10, 9]
    assert not [e for e in ev if e[0] in ("limit", "end")]
    c.press(B, 20000)
    assert c.state == E.ENDED and c.moves == [10, 10]
    assert ev[-2:] == [("limit", B, 20000, 10), ("end", E.NOBODY, 20000, 0)]
    # the times stop where the last press left them: 10 presses of 1 s each
    assert c.main == [300000 - 10000, 300000 - 10000]
    c.tick(500000)
    assert c.main == [290000, 290000] and not c.flagged(W)
    assert not c.press(W, 501000)  # an ended game takes no press
    assert ev[-1][0] == "ignored"


def test_black_starting_ends_on_whites_tenth_press():
    # the seed gives no colours for the play-off: the limit is per side, whoever starts
    c, ev = make(3)
    play(c, 6, start_side=B)
    assert c.state == E.ENDED and c.moves == [3, 3]
    assert ev[-2][0:2] == ("limit", W)


def test_no_limit_plays_on_and_a_flag_still_falls_before_the_limit():
    c, ev = make(0)
    play(c, 40)
    assert c.state == E.RUNNING and c.moves == [20, 20]
    c, ev = make(10, minutes=1)
    c.start(0)
    c.tick(60000)
    assert c.state == E.FROZEN and c.flagged(W)  # time still counts in a play-off


def test_limit_is_checked():
    for bad in (-1, E.MAX_MOVE_LIMIT + 1):
        raises(ValueError, lambda b=bad: make(b))
    make(E.MAX_MOVE_LIMIT)


def test_undo_after_the_limit_takes_the_move_back_but_the_game_stays_ended():
    c, ev = make(2)
    play(c, 4)
    assert c.state == E.ENDED
    assert c.undo_press(5000)
    assert c.moves == [2, 1] and c.state == E.ENDED


def test_preset_br_playoff():
    p = P.find("br-playoff")
    assert p is not None and P.find("playoff-10") is p
    assert p.move_limit == 10 and p.freeze and not p.audible_flag
    assert p.control == Control(SideControl([Stage(300000)]))
    # every other preset plays without a limit
    assert [q.key for q in P.PRESETS if q.move_limit] == ["br-playoff"]


def test_the_limit_survives_a_power_cut():
    c, _ = make(10)
    play(c, 7)
    c.tick(7500)
    data = G.encode(c, {"spec": "br-playoff"})
    c2, meta = G.decode(data)
    assert c2.move_limit == 10 and meta == {"spec": "br-playoff"}
    assert c2.state == E.PAUSED and c2.moves == [4, 3]
    c2.resume(8000)
    t = 8000
    side = B
    while c2.state == E.RUNNING:
        t += 1000
        c2.press(side, t)
        side = 1 - side
    assert c2.moves == [10, 10] and c2.state == E.ENDED
    # a game with no limit stores nothing new: its meta is what the app gave
    c3, _ = make(0)
    c3.start(0)
    assert G.decode(G.encode(c3, {"spec": "x"}))[1] == {"spec": "x"}


def test_the_log_header_carries_the_limit():
    c, _ = make(10, freeze=False)
    opts = L.clock_options(c)
    assert opts & L.OPT_FREEZE == 0 and opts >> L.OPT_LIMIT_SHIFT == 10
    body = L.header_body("sim-0000", "t", "br-playoff", True, opts, 0, c.sides)
    h, _ = LR._decode_header(body, 0)
    assert h["move_limit"] == 10 and not h["freeze"]
    # a header written without a limit (an older clock) reads as none
    c0, _ = make(0)
    h0, _ = LR._decode_header(L.header_body("sim-0000", "t", "x", True,
                                           L.clock_options(c0), 0, c0.sides), 0)
    assert h0["move_limit"] == 0 and h0["freeze"]
    assert LR.NAMES[E.EV_LIMIT] == "limit" == LR.NAMES[E.EV_LIMIT]


# ---- the firmware app on the simulator board --------------------------------------------

def _app_playoff(presses, root=None):
    from simutil import boot, until

    from clockapp.board import BTN_START, LEFT, RIGHT

    board, app = boot(root)
    app.new_game("br-playoff")
    board.press_buttons(BTN_START, 1000000)
    until(app, board, 1300)
    t = 1300
    for i in range(presses):
        t += 700
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000 + 123)
        until(app, board, t + 100)
    return board, app, t


def _log_codes(app):
    r = LR.Reader()
    return [r.decode(rec).tuple() for rec in app.store.read_log()]


def test_the_clock_ends_the_play_off_at_ten_presses_a_side_and_logs_why():
    board, app, t = _app_playoff(21)  # the 21st press comes after the end: ignored
    c = app.clock
    assert c.state == E.ENDED and c.moves == [10, 10] and c.move_limit == 10
    recs = _log_codes(app)
    codes = [r[0] for r in recs]
    i = codes.index(E.EV_LIMIT)
    assert codes[i + 1] == E.EV_END and recs[i][1] == B and recs[i][3] == 10
    assert codes[i + 2:].count(E.EV_PRESS) == 0 and E.EV_IGNORED in codes[i + 2:]
    # a restart (power cut) comes back ended, the limit kept
    from boards.sim import SimBoard
    from clockapp import app as A

    app2 = A.App(SimBoard(board.root))
    assert app2.clock.state == E.ENDED and app2.clock.move_limit == 10


def test_a_power_cut_mid_play_off_keeps_the_limit():
    from simutil import until

    from boards.sim import SimBoard
    from clockapp import app as A
    from clockapp.board import BTN_START, LEFT, RIGHT

    board, app, t = _app_playoff(7)
    app2 = A.App(SimBoard(board.root))
    board2 = app2.board
    c = app2.clock
    assert c.state == E.PAUSED and c.moves == [4, 3] and c.move_limit == 10
    board2.press_buttons(BTN_START, (t + 1000) * 1000)   # resume
    t += 1500
    until(app2, board2, t)
    assert c.state == E.RUNNING
    for i in range(13):
        t += 700
        board2.press_lever(RIGHT if i % 2 == 0 else LEFT, t * 1000 + 55)
        until(app2, board2, t + 100)
    assert c.state == E.ENDED and c.moves == [10, 10]
