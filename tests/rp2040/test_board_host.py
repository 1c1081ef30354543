"""The long board tier (make test-board): the host's tools for real against the emulated
Pico over its USB serial (a socat pty), and a host that never reads.

Emulated time runs on its own while these commands run (rp2040js executes as fast as it
can), so nothing here depends on wall-clock timing: lever presses are placed at emulated
instants, and the checks read what the clock says or shows.
"""

import json

import pytest
from displays import shown
from emu import EmuClock
from test_board import wait_until_app

pytestmark = pytest.mark.board_long


# Reply timeouts are wall seconds: on a busy machine the emulator runs at a few percent of
# real time.
WAIT = ("--timeout", "600")


def cc(clk, *args, check=True):
    """chessclock against the emulated clock; commands with --port wait long for replies."""
    return clk.chessclock(*(args + (WAIT if "--port" in args else ())), check=check,
                          timeout=3000)


def status(clk, tty):
    r = cc(clk, "status", "--port", tty, "--json")
    return json.loads(r.stdout)[0]["result"]


def test_host_side_status_set_adjust_with_key_log_pull_and_verify(deployed, tmp_path,
                                                                  monkeypatch):
    board, image, _ = deployed
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    keyfile = tmp_path / "arbiter.key"
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        wait_until_app(clk)
        tty = clk.serial()
        cc(clk, "key", "new", keyfile)
        cc(clk, "key", "use", keyfile)
        cc(clk, "key", "set", "--port", tty)
        r = cc(clk, "key", "set", "--port", tty, check=False)
        assert r.returncode != 0 and "--old-key" in r.stderr   # a keyed clock: old key needed
        r = cc(clk, "set", "5m+3s", "--yes", "--port", tty)
        assert "each side: 5 min; +3 s per move" in r.stdout
        st = status(clk, tty)
        assert st["white_ms"] == 300000 and st["state"] == "idle"
        clk.run_for(300_000)
        assert {shown(d) for d in clk.state()["displays"]} == {"500"} or \
            {shown(d) for d in clk.state()["displays"]} == {"5:00"}
        cc(clk, "start", "--port", tty)
        assert status(clk, tty)["running"] == "white"
        # two real presses by lever edges, at emulated instants
        with clk.held():
            t = clk.now() + 200_000
            clk.press("left", at=t, bounce=(300, 800))
            clk.press("right", at=t + 1_500_000, bounce=(300, 800))
        clk.run_until(t + 2_000_000)
        st = status(clk, tty)
        assert (st["white_moves"], st["black_moves"], st["running"]) == (1, 1, "white")
        before = st["black_ms"]
        cc(clk, "adjust", "black", "+2m", "--port", tty)
        st = status(clk, tty)
        assert st["black_ms"] == before + 120000    # black waits: its time is frozen
        # a key that is not the clock's changes nothing
        other = tmp_path / "other.key"
        cc(clk, "key", "new", other)
        r = cc(clk, "pause", "--port", tty, "--key", other, check=False)
        assert r.returncode != 0 and "auth" in r.stderr
        cc(clk, "pause", "--port", tty)
        assert status(clk, tty)["state"] == "paused"
        # the log: pulled, signed by the clock, verified, and it tells what happened
        archive = tmp_path / "archive"
        r = cc(clk, "log-pull", "--port", tty, "--archive", archive, "--game", "g1",
                           "--json")
        pulled = json.loads(r.stdout)[0]["result"]
        assert pulled["records"] > 5 and pulled["signed"]
        r = cc(clk, "log", "verify", pulled["file"], check=False)
        assert r.returncode == 0 and "verification: AUTHENTIC" in r.stdout, r.stdout + r.stderr
        r = cc(clk, "log", "export", pulled["file"], "--format", "jsonl")
        happened = [(e["type"], e.get("side")) for e in map(json.loads, r.stdout.splitlines())
                    if e["type"] in ("start", "press", "adjust", "pause")]
        assert happened == [("start", "white"), ("press", "white"), ("press", "black"),
                            ("adjust", "black"), ("pause", "white")], happened


def test_a_host_that_never_reads_does_not_stop_the_displays(deployed, tmp_path):
    """The host opens the port, sends `status` every 100 ms and never reads: the device's
    USB IN transfers are never taken (clock.mjs stall_host). The running display keeps
    its second, every press is shown, and a host that reads again gets whole replies."""
    from clockcore import protocol as P
    board, image, _ = deployed
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        wait_until_app(clk)
        # Start soon after the displays first show a time (within ~0.1 s of it): the clock
        # takes its buttons from then on (the link used to be imported after the first
        # draw, and a start press there was lost).
        with clk.held():
            t = clk.now() + 20_000
            clk.press("start", at=t, hold=100_000)
        clk.run_until(t + 1_300_000)
        frames, _ = clk.frames()
        assert [us for us, i, _ in frames if i == 0 and us > t + 150_000], \
            "the start press was lost: White's display does not run"
        clk.op("stall_host", on=True)
        t0 = clk.now()
        rid = 0
        presses = []
        lever = "left"
        with clk.held():
            for k in range(6):               # 6 s: a press every second, requests between
                for j in range(10):
                    rid += 1
                    clk.send_at(t0 + k * 1_000_000 + j * 100_000 + 7_000,
                                P.encode_request(rid, "status", []))
                at = t0 + k * 1_000_000 + 500_000
                clk.press(lever, at=at, hold=60_000)
                presses.append((at, 0 if lever == "left" else 1))
                lever = "right" if lever == "left" else "left"
        clk.run_until(t0 + 6_500_000)
        frames, _ = clk.frames()
        clk.op("stall_host", on=False)
        for at, disp in presses:     # the pressing side's display shows its new time
            first = [us for us, i, _ in frames if i == disp and us > at]
            assert first and first[0] - at < 100_000, (at, first[:1])
        # some display is written at least every second throughout (the running one)
        ticks = sorted(us for us, _, _ in frames if us >= t0)
        assert max(b - a for a, b in zip(ticks, ticks[1:], strict=False)) < 1_100_000
        # reading again: a request is answered in full
        tty = clk.serial()
        st = status(clk, tty)
        assert st["state"] == "running" and st["white_moves"] + st["black_moves"] == 6
