"""The simulator board's serial link driven in-process by the host's Link (no pty): for
tests of what the host commands do with a clock's answers."""

from simutil import boot, until

from chessclock.link import transport as HL
from chessclock.log.pull import pull
from clockapp.board import BTN_MENU, BTN_MINUS, BTN_PLUS, BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import protocol as P

KEY = bytes(range(32))
WALL = 1796000000    # 2026-11-30 00:53:20 UTC


class InProcess(HL.Link):
    """chessclock.link.transport.Link over the app's own handler: no pty, same protocol."""

    def __init__(self, app, key=None):
        self.app = app
        self.port = "sim"
        self.key = key
        self.timeout = 1
        self.rid = 0
        self.nonce = None
        self.buf = b""

    def exchange(self, frame_bytes, rid, op):
        line = self.app.link.handle(frame_bytes.rstrip(b"\n"))
        got, ok, fields = P.decode_reply(line.rstrip(b"\n"))
        return ok, fields

    def close(self):
        pass


def flagged_game(key=KEY):
    board, app = boot()
    if key is not None:
        InProcess(app).request("keyset", key.hex(), change=True)
    InProcess(app, key).request("wallclock", WALL, change=True)
    app.new_game("180+2")
    board.press_buttons(BTN_START, 500000)
    t = 2000
    for i in range(6):
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000)
        t += 1500
    until(app, board, t + 200000)                     # White runs out
    assert app.clock.flag_at[0] >= 0
    return board, app


def pulled(tmp_path, app, key=KEY):
    r = pull(InProcess(app, key), str(tmp_path), "g")
    with open(r["file"], "rb") as f:
        return r, f.read()




def scheduled_game(adjust_ms=0):
    """(board, app, link): a keyed clock in fide-active-1987 with a start scheduled 2 s
    after WALL and a 10 s default time; White (near the 5-minute mark) arrives and moves,
    Black is absent when the default time passes, an incident mark (PLUS held), with
    adjust_ms a correction to Black by the host, the arbiter's stop and menu, the result
    0-1 entered on the clock, then Black's arrival marked. The log is flushed."""
    board, app = boot()
    lk = InProcess(app)
    lk.request("keyset", KEY.hex(), change=True)
    lk = InProcess(app, KEY)
    lk.request("wallclock", WALL, change=True)
    app.new_game("fide-active-1987")
    app.clock.set_time(E.WHITE, 301000, app.now)       # near the 5-minute mark
    lk.request("schedule", WALL + 2, 10, change=True)
    sched_t = app.now + 2000
    until(app, board, sched_t + 500)
    assert app.clock.state == E.RUNNING
    board.press_lever(LEFT, (sched_t + 3000) * 1000)    # White arrives and moves
    until(app, board, sched_t + 11000)                  # Black absent past 10 s
    board.press_buttons(BTN_PLUS, (sched_t + 11000) * 1000, hold_us=2500000)
    until(app, board, sched_t + 14000)                  # an incident mark
    t = sched_t + 14000
    if adjust_ms:
        lk.request("adjust", "black", adjust_ms, change=True)
        t += 2000
        until(app, board, t)
    for b, hold in ((BTN_START, 100000), (BTN_MENU, 2500000)):
        board.press_buttons(b, t * 1000, hold_us=hold)
        t += 3000
        until(app, board, t)
    for b in (BTN_MINUS, BTN_MINUS, BTN_START, BTN_PLUS, BTN_PLUS, BTN_START):  # End 0-1
        board.press_buttons(b, t * 1000)
        t += 300
        until(app, board, t)
    assert app.clock.state == E.ENDED
    lk.request("arrive", "black", change=True)
    app.flush()
    return board, app, lk
