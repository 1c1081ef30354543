# The simulator board as a serial device: the real app on SimBoard in real time, its serial
# link on this process's stdin/stdout (a pty master, given by the host; see
# host/chessclock/sim/serve.py). Runs under CPython and the MicroPython unix port:
#
#   MICROPYPATH=.frozen:firmware micropython firmware/boards/sim_serve.py STORAGE [CLOCK_ID]
#   PYTHONPATH=firmware python firmware/boards/sim_serve.py STORAGE [CLOCK_ID]
#
# Nothing but protocol replies goes to stdout. It stops when the link asks for maintenance
# mode or the host hangs up.

import sys
import time

from boards.sim import SimBoard
from clockapp.app import App


class _Elapsed:
    """Microseconds since start: MicroPython's wrapping ticks accumulated, or CPython's
    monotonic clock."""

    def __init__(self):
        self.mono = getattr(time, "monotonic_ns", None)
        self.last = self.mono() if self.mono is not None else time.ticks_us()
        self.total = 0

    def __call__(self):
        if self.mono is not None:
            return (self.mono() - self.last) // 1000
        t = time.ticks_us()
        self.total += time.ticks_diff(t, self.last)
        self.last = t
        return self.total


def _port():
    if sys.implementation.name == "micropython":
        from clockapp.serialport import StreamSerial
        # a Linux pty says POLLOUT only while under 256 bytes wait (clockapp/serialport.py);
        # a large budget a pass: the simulator's CPU is not a board's
        return StreamSerial(sys.stdin, sys.stdout, chunk=256, budget=8192)
    from clockapp.serialport import FdSerial
    return FdSerial(sys.stdin.fileno() if len(sys.argv) < 4 else int(sys.argv[3]))


def serve(storage, clock_id="sim"):
    try:
        import os
        os.mkdir(storage)
    except OSError:
        pass
    board = SimBoard(storage)
    board.ident = clock_id
    port = _port()
    board.port = port
    app = App(board)
    elapsed = _Elapsed()
    while not board.maintenance:
        app.step()
        port.wait(1)    # wakes as soon as a byte arrives
        now = elapsed()
        if now > board.t:
            board.advance_to(now)
    return 0


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "sim")
