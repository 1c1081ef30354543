# A full log never stops the clock: past its flash budget, the oldest games that
# were pulled go first; games not pulled are kept and the arbiter is warned (status
# `logwarn`, event "log-full"). What stays is still a log that verifies.
# Runs on CPython and MicroPython.

from simutil import boot, until

from clockapp.board import BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import events as EV
from clockcore import logread as LR
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
    reader = LR.Reader()
    return [reader.decode(p).code for p in app.store.read_log()]


def request(app, rid, op, args=(), key=None, nonce=None):
    line = P.encode_request(rid, op, args, key, nonce)
    return P.decode_reply(app.link.handle(line[:-1])[:-1])


def pull_all(app):
    """Read the whole log (no key needed); returns the last sequence number read."""
    start = 0
    last = -1
    while True:
        rid, ok, f = request(app, 1, "log", (start, 4096))
        assert ok
        if int(f["n"]):
            last = int(f["last"])
        start = int(f["next"])
        if f["more"] == "0":
            return last


def ack(app, last, key=None):
    nonce = None
    if key is not None:
        nonce = request(app, 2, "auth")[2]["nonce"].encode()
    return request(app, 3, "logack", (last,), key, nonce)


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
    assert EV.EV_LOG_FULL in events

    assert ack(app, pull_all(app))[1]    # the arbiter pulls and acknowledges: they may go
    t = play_game(board, app, t)         # the next game triggers the budget check
    assert app.store.log_size() <= 4000
    assert not app.logw.warn
    assert app.logw.pruned > 0
    kept = codes(app)
    assert EV.EV_LOG_PRUNED in kept
    assert kept.count(EV.EV_HEADER) < events.count(EV.EV_HEADER) + 1
    # What stays is a log the host verifies (CPython: the host tools are not on the clock)
    try:
        from chessclock.log.verify import verify
    except ImportError:  # MicroPython
        return
    with open(board.root + "log.bin", "rb") as f:
        res = verify(f.read())
    assert res.problems == [], res.problems
    assert any("older games removed" in n for n in res.notes)


KEY = bytes(range(32))


def test_a_read_without_the_key_never_lets_unpulled_games_go():
    # any host may read the log to its end, but only an acknowledgement signed
    # with the arbiter's key marks games pulled; the budget removes nothing before that.
    board, app = boot()
    assert request(app, 1, "keyset", (KEY.hex(),))[1]
    app.log(E.EV_PAUSE, E.NOBODY, 0, 0)
    app.logw.budget = 4000
    t = 1000
    for _ in range(6):
        t = play_game(board, app, t)
    headers = codes(app).count(EV.EV_HEADER)
    last = pull_all(app)                  # a stranger's cable reads it all
    r = ack(app, last)                    # and acknowledges without the key: refused
    assert not r[1] and r[2]["code"] == P.E_AUTH_REQUIRED
    r = ack(app, last, bytes(32))         # or with a wrong key: refused
    assert not r[1] and r[2]["code"] == P.E_AUTH
    t = play_game(board, app, t)          # the next game triggers the budget check
    assert app.logw.pruned == 0 and app.logw.warn
    assert codes(app).count(EV.EV_HEADER) == headers + 1   # every game still there
    r = ack(app, last + 10000, KEY)       # acknowledging what was never sent: refused
    assert not r[1] and r[2]["code"] == P.E_NOT_READ
    assert ack(app, pull_all(app), KEY)[1]   # the arbiter's signed acknowledgement
    t = play_game(board, app, t)
    assert app.logw.pruned > 0 and app.store.log_size() <= 4000
