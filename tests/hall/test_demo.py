"""`make hall`'s set-up path (chessclock.hall.demo): the broker with its logins, simulated
clocks set up and started, two stations and the page's hub, all without the page."""

import time

import pytest

from chessclock.hall import demo
from chessclock.hall.broker import mosquitto_exe

pytestmark = pytest.mark.skipif(mosquitto_exe() is None, reason="no mosquitto: "
                                "make test-hall installs it")


def test_the_demo_sets_up_and_runs_its_clocks(tmp_path):
    d = demo.Demo(str(tmp_path / "hall"), clocks=2)
    try:
        d.start()
        deadline = time.monotonic() + 10
        while len(d.hub.bodies()) < 2 or any(
                b.get("s") != "running" for b in d.hub.bodies().values()):
            assert time.monotonic() < deadline, "the demo's clocks: %r" % d.hub.bodies()
            time.sleep(0.05)
        bodies = d.hub.bodies().values()
        assert {b["tc"] for b in bodies} == {"15m+10s"}
        assert {b["st"] for b in bodies} == {"table-1", "table-2"}
        assert all(b["ref"] == 0 for b in bodies)            # no key refused anywhere
        assert sorted(r["bd"] for r in d.hub.view()[1]) == [1, 2]
    finally:
        d.stop()


@pytest.mark.parametrize("argv", [["--listen", "nowhere"], ["--clocks", "0"],
                                  ["--clocks", "40"]])
def test_the_demo_refuses_bad_arguments(argv, capsys):
    assert demo.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("make hall:") and len(err.strip().splitlines()) == 1
