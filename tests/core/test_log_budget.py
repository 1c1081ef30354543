# A full log never stops the clock (issue 5): past its flash budget, the oldest games that
# were pulled go first; games not pulled are kept and the arbiter is warned (status
# `logwarn`, event "log-full"). What stays is still a log that verifies.
# Runs on CPython and MicroPython.

from simutil import boot, until

from clockapp.board import BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import eventlog as L
from clockcore import protocol as P


def play_game(board, app, t_ms):
    """Set up, start, 20 presses, end: one game in the log. Returns the time after."""
    app.new_game("fide-blitz")
    board.press_buttons(BTN_START, t_ms * 1000)
    t_ms += 300
    for i in range(20):
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t_ms * 1000)
        t_ms += 400
    until(app, board, t_ms + 100)
    app.clock.end(app.now)
    until(app, board, t_ms + 300)
    return t_ms + 400


def codes(app):
    """The event codes of the log as stored on the clock, in order."""
    reader = L.Reader()
    return [reader.decode(p).code for p in app.store.read_log()]


def pull_all(app):
    start = 0
    while True:
        line = P.encode_request(1, "log", (start, 4096), None, None)
        rid, ok, f = P.decode_reply(app.link.handle(line[:-1])[:-1])
        assert ok
        start = int(f["next"])
        if f["more"] == "0":
            return


def test_unpulled_games_are_kept_and_the_arbiter_warned_then_pulled_ones_go_first():
    board, app = boot()
    board.log_budget = 4000
    app.log(E.EV_PAUSE, E.NOBODY, 0, 0)   # create the log writer with this budget
    app.logw.budget = 4000
    t = 1000
    for _ in range(6):
        t = play_game(board, app, t)
    size_full = app.store.log_size()
    assert size_full > 4000              # nothing was pulled: everything kept
    assert app.logw.warn
    assert app.clock.state == E.ENDED    # and the clock kept working throughout
    status = P.decode_reply(app.link.handle(
        P.encode_request(2, "status", (), None, None)[:-1])[:-1])[2]
    assert status["logwarn"] == "1"
    events = codes(app)
    assert L.EV_LOG_FULL in events

    pull_all(app)                        # the arbiter pulls: now they may go
    t = play_game(board, app, t)         # the next game triggers the budget check
    assert app.store.log_size() <= 4000
    assert not app.logw.warn
    assert app.logw.pruned > 0
    kept = codes(app)
    assert L.EV_LOG_PRUNED in kept
    assert kept.count(L.EV_HEADER) < events.count(L.EV_HEADER) + 1
    # What stays is a log the host verifies (CPython: the host tools are not on the clock)
    try:
        from chessclock import logtools
    except ImportError:  # MicroPython
        return
    with open(board.root + "log.bin", "rb") as f:
        res = logtools.verify(f.read())
    assert res.problems == [], res.problems
    assert any("older games removed" in n for n in res.notes)
