"""Run the `chessclock` command in-process for the host tests: (exit code, stdout, stderr)."""

import io
import sys

from chessclock import cli


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
