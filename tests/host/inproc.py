"""The simulator board's serial link driven in-process by the host's Link (no pty): for
tests of what the host commands do with a clock's answers."""

from simutil import boot, until

from chessclock import clock_cmd
from chessclock import link as HL
from clockapp.board import BTN_START, LEFT, RIGHT
from clockcore import protocol as P

KEY = bytes(range(32))
WALL = 1796000000    # 2026-11-30 00:53:20 UTC


class InProcess(HL.Link):
    """chessclock.link.Link over the app's own handler: no pty, same protocol."""

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
    r = clock_cmd.pull(InProcess(app, key), str(tmp_path), "g")
    with open(r["file"], "rb") as f:
        return r, f.read()


