# The host at the other end of the cable, for the benchmarks with a host attached
# (bench/wasm32/heap.mjs --host; app_bench.py blitz_host ROOT plays it on one port). A module
# of its own so that the figures without a host do not carry its code.

from app_bench import Blitz, fresh, run_until


class HostPort:
    """The host at the other end of the cable (a serial port as clockapp/serialport.py's):
    sends request frames, takes every reply at once, keeps the last one."""

    def __init__(self):
        self.inbox = b""
        self.pos = 0
        self.queued = 0
        self.replies = 0
        self.last = None
        self.rid = 0

    def send(self, op, *args):
        from clockcore import protocol as P
        self.rid += 1
        self.inbox = self.inbox[self.pos:] + P.encode_request(self.rid, op, list(args))
        self.pos = 0
        return self.rid

    def reply(self, rid):
        """The fields of the reply to request rid, once it came (else None)."""
        from clockcore import protocol as P
        if self.last is None:
            return None
        got, ok, fields = P.decode_reply(self.last[:-1])
        if got != rid:
            return None
        assert ok, fields
        return fields

    def any(self):
        return self.pos < len(self.inbox)

    def readinto(self, buf):
        n = min(len(buf), len(self.inbox) - self.pos)
        buf[:n] = self.inbox[self.pos:self.pos + n]
        self.pos += n
        return n

    def write(self, data):
        self.replies += 1
        self.last = data
        return True

    def drain(self):
        return 0


class HostBlitz(Blitz):
    """app_bench.Blitz, the same 3+2 game, with a host attached (the heap figure with a host):
    the control typed by the host (`set 3m+2s`, parsed by the notation module), `status`
    every second of the game (with steps of at most a second: heap.mjs takes 10 ms), and
    the whole log pulled at the end (`log FROM 4096` until more=0). The board is made with
    app_bench.make_board(root, display, host=True)."""

    def __init__(self, root, display=None, board=None, app=None):
        if board is None:
            board, app = fresh(root, display, True)
        host = board.port
        rid = host.send("set", "3m+2s")
        while host.reply(rid) is None:
            run_until(app, board, board.t + 1000)
        assert app.settings.spec == "3m+2s"
        Blitz.__init__(self, root, display, board, app)   # START at 0.5 s, as without host
        self.host = host
        self.wait = -1              # the request waiting for its reply
        self.pulled = -1            # log: the next sequence number asked for (-1: not yet)
        self.polled = board.t       # the last status request

    def step(self, passes=100):
        host, board = self.host, self.board
        if self.wait >= 0:
            f = host.reply(self.wait)
            if f is not None:
                self.wait = -1
                if self.pulled >= 0:            # pulling the log
                    if f["more"] == "0":
                        return False
                    self.pulled = int(f["next"])
                    self.wait = host.send("log", str(self.pulled), "4096")
        if self.pulled >= 0 or (self.i == 120 and board.t >= self.until):
            if self.pulled < 0 and self.wait < 0:   # the game is over: pull the log
                assert self.app.clock.moves == [60, 60], self.app.clock.moves
                self.pulled = 0
                self.wait = host.send("log", "0", "4096")
            run_until(self.app, board, board.t + 1000)
            return True
        if self.wait < 0 and board.t - self.polled >= 1000000:
            self.polled = board.t
            self.wait = host.send("status")
        return Blitz.step(self, passes)


def main(root):
    g = HostBlitz(root)
    while g.step(100):
        pass
    print("blitz with a host ok", g.app.clock.main, "replies", g.host.replies)
