"""Run the `chessclock` command in-process for the host tests: (exit code, stdout, stderr);
and wait for a simulated clock to answer."""

import io
import sys
import time

from chessclock import cli
from chessclock.link import transport as L


class _Tty(io.StringIO):
    def isatty(self):
        return True


def run_cli(argv, stdin=None, tty_err=False):
    """cli.main(argv) with its output captured; `stdin` text replaces standard input;
    tty_err: standard error says it is a terminal (progress lines are drawn there)."""
    out, err = io.StringIO(), (_Tty() if tty_err else io.StringIO())
    old = sys.stdin, sys.stdout, sys.stderr
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    sys.stdout, sys.stderr = out, err
    try:
        code = cli.main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def wait_ready(path, wait_s=10.0):
    """The `hello` reply of the clock on `path` (a sim-serve pty), once it answers; its
    ClockError after wait_s seconds of trying."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            with L.Link(path, timeout=0.5) as lk:
                return lk.request("hello")
        except L.ClockError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
