"""`chessclock sim-serve`: the simulator board as a serial device on a pty (chessclock.sim.serve);
prints its port and runs until Ctrl-C or SIGTERM."""

import os
from argparse import ArgumentParser, Namespace
from typing import NoReturn, TextIO

from chessclock.errors import InputError
from chessclock.sim.serve import SimServer, register


def add_arguments(p: ArgumentParser) -> None:
    p.add_argument("--storage", default=os.path.join("build", "sim-serve"),
                   help="folder standing in for the board's flash (default build/sim-serve)")
    p.add_argument("--clock-id", default="sim", help="the clock id it reports")
    p.add_argument("--micropython", action="store_true",
                   help="run the firmware side under the MicroPython unix port")


def _stop_on_sigterm(signum: int, frame: object) -> NoReturn:
    """SIGTERM (`kill PID`) stops sim-serve as Ctrl-C does: through run()'s clean-up, which
    ends the clock's process before the pty closes under it."""
    raise KeyboardInterrupt


def run(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    import signal
    import time
    try:
        os.makedirs(args.storage, exist_ok=True)
    except OSError as e:
        raise InputError("cannot use %s as the clock's flash: %s"
                         % (args.storage, e.strerror or e)) from None
    try:
        server = SimServer(args.storage, args.clock_id, args.micropython)
    except FileNotFoundError as e:
        raise InputError(str(e)) from None
    stdout.write("%s\n" % server.path)
    stdout.flush()
    try:
        entry = register(server.path, args.clock_id)
    except OSError:
        entry = None   # still usable with --port
    stderr.write("simulator clock %r on %s (Ctrl-C stops it); try: chessclock status "
                 "--port %s\n" % (args.clock_id, server.path, server.path))
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        while server.proc.poll() is None:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        if entry is not None:
            try:
                os.remove(entry)
            except OSError:
                pass
    return 0
