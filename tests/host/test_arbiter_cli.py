"""An arbiter's first day with the host commands against `chessclock sim-serve` clocks: the
help's own examples work as written, refusals suggest spellings that mean what was meant,
every listed preset can be set, times of day are local."""

import io
import json
import sys
import time

import pytest

from chessclock import cli
from chessclock import link as L
from chessclock.simserve import SimServer


def cc(*argv, stdin=None):
    """(exit code, stdout, stderr) of cli.main(argv), argparse's own refusals (SystemExit)
    included; `stdin` text replaces standard input (not a terminal)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    sys.stdout, sys.stderr = out, err
    try:
        code = cli.main(list(argv))
    except SystemExit as e:
        code = e.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def clock(tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    server = SimServer(str(tmp_path / "flash"), "clock-arbiter")
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with L.Link(server.path, timeout=0.5) as lk:
                    lk.request("hello")
                break
            except L.ClockError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield server.path
    finally:
        server.stop()


def status(port):
    code, out, err = cc("status", "--port", port, "--json")
    assert code == 0, err
    return json.loads(out)[0]["result"]


def test_adjust_takes_a_negative_amount_as_written(clock):
    """The help's own example, `adjust black -30s --port P`: -30s is the AMOUNT, not an
    option."""
    assert cc("set", "5m+2s", "--yes", "--port", clock)[0] == 0
    before = int(status(clock)["black_ms"])
    for amount, change in (("-30s", -30000), ("-1:30", -90000), ("+2m", 120000)):
        code, out, err = cc("adjust", "black", amount, "--port", clock)
        assert code == 0, err
        after = int(status(clock)["black_ms"])
        assert after - before == change, amount
        before = after
    code, out, err = cc("adjust", "black", "--port", clock, "-30s")  # after the options too
    assert code == 0, err
    assert int(status(clock)["black_ms"]) - before == -30000


@pytest.mark.parametrize("argv, code, says", [
    (["adjust", "black", "-30"], 2, "unit"),            # a bare number has no unit
    (["adjust", "black", "-x"], 2, "required: AMOUNT"),
    (["adjust", "black", "--30s"], 2, "required: AMOUNT"),
    (["adjust", "black"], 2, "AMOUNT"),
    (["adjust", "grey", "-30s"], 2, "invalid choice"),
    (["adjust", "black", "-30q"], 2, "-30q"),
])
def test_adjust_bad_amounts_one_line(argv, code, says, tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path))
    got, out, err = cc(*argv, "--port", str(tmp_path / "no-port"))
    assert got == code
    assert says in err and "Traceback" not in err
