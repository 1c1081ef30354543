"""`chessclock sim`: the real firmware app on the simulator board, in a terminal.

Interactive (default): both displays drawn as seven-segment digits, keys as levers and
buttons, the app's own loop in real time. Headless (`--script FILE`): simulated time, the
script's inputs, a JSON line per `show`: for tests and for trying a scenario exactly.

Keys: a = left lever, l = right lever, space = start/pause, m = menu, M = menu held 2.5 s
(arbiter menu), + / - = plus / minus, I = plus held 2.5 s (an incident mark), q = stop
(saves the game, as a clock switched off between moves), P = a power cut (stops dead and
boots again from what the flash holds).
Keys typed faster than a press lasts are queued one after the other: each one counts.
--selftest: PLUS held at power-on, the self-test (docs/SESSION.md).
"""

import os
import sys
from argparse import ArgumentParser, Namespace
from typing import TextIO

from chessclock.errors import InputError
from chessclock.sim import terminal


def add_arguments(p: ArgumentParser) -> None:
    p.add_argument("--storage", default=os.path.join("build", "sim-storage"),
                   help="folder standing in for the board's flash (default build/sim-storage)")
    p.add_argument("--script", metavar="FILE",
                   help="run headless in simulated time from a script ('-': stdin)")
    p.add_argument("--serial", action="store_true",
                   help="serve the clock on a pseudo-terminal instead and print its port, "
                        "for the other chessclock commands (same as `chessclock sim-serve`)")
    p.add_argument("--clock-id", default="sim", help="with --serial: the clock id it reports")
    p.add_argument("--selftest", action="store_true",
                   help="power on with PLUS held: the self-test (press both levers)")
    p.add_argument("--micropython", action="store_true",
                   help="with --serial: the firmware side under the MicroPython unix port")


def run(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from chessclock import sources
    sources.importable()  # the firmware's boards/ and clockapp/, as the board imports them
    if args.serial:
        from chessclock.commands import sim_serve
        return sim_serve.run(args, stdout, stderr)
    if args.script:
        text = sys.stdin.read() if args.script == "-" else open(args.script).read()
        return terminal.headless(args.storage, text, stdout, stderr, args.selftest)
    if not sys.stdin.isatty():
        raise InputError("needs a terminal (or --script FILE)")
    return terminal.interactive(args.storage, stdout, args.selftest)
