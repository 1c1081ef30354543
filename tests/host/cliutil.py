"""Run the `chessclock` command in-process for the host tests: (exit code, stdout, stderr)."""

import io
import sys

from chessclock import cli


def run_cli(argv, stdin=None):
    """cli.main(argv) with its output captured; `stdin` text replaces standard input."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    sys.stdout, sys.stderr = out, err
    try:
        code = cli.main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()
