"""Replies never block the clock on real ptys: the serial ports of
firmware/clockapp/serialport.py on CPython, and the simulator clock (the firmware app
under CPython and the MicroPython unix port) under a host that stops reading."""

import os
import signal
import time
import tty

import pytest

from chessclock.sim.serve import SimServer, micropython_exe
from clockapp import serialport as S
from clockcore import protocol as P

INTERPRETERS = ["cpython", pytest.param("micropython", marks=pytest.mark.skipif(
    micropython_exe() is None, reason="no micropython"))]


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    yield master, slave
    for fd in (master, slave):
        os.close(fd)


class Blocked(Exception):
    pass


@pytest.fixture
def no_wait():
    """Fails a call that waits more than 0.5 s (a write stuck on a full pty) instead of
    hanging the test run."""
    def alarm(*_):
        raise Blocked("a write waited")
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 20)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


def flood(port, n=400, size=500):
    """n frames of `size` bytes (more than a pty holds), a drain after each, as the app's
    passes would; the slowest call."""
    worst = 0.0
    for i in range(n):
        frame = (b"=1 %d ok " % i).ljust(size - 1, b"x") + b"\n"
        t0 = time.monotonic()
        port.write(frame)
        port.drain()
        worst = max(worst, time.monotonic() - t0)
    return worst


def read_all(fd):
    os.set_blocking(fd, False)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except (BlockingIOError, OSError):
            return out
        if not chunk:
            return out
        out += chunk


@pytest.mark.parametrize("kind", ["stream", "fd"])
def test_a_port_on_a_pty_nobody_reads_never_waits(pty_pair, no_wait, kind):
    master, slave = pty_pair
    if kind == "stream":
        w = open(slave, "wb", buffering=0, closefd=False)
        r = open(slave, "rb", buffering=0, closefd=False)
        port = S.StreamSerial(r, w, chunk=256, budget=8192)
    else:
        port = S.FdSerial(slave)
    worst = flood(port)
    assert worst < 0.05
    assert port.count == S.QUEUE_FRAMES and port.dropped > 300
    # the reader comes back: every line it gets is a whole frame, in order
    got = b""
    for _ in range(200):
        got += read_all(master)
        if not port.drain():
            break
    got += read_all(master)
    lines = got.split(b"\n")
    assert lines[-1] == b""
    ids = [int(line.split(b" ")[1]) for line in lines[:-1]]
    assert ids == sorted(ids) and len(ids) == 400 - port.dropped
    assert all(len(line) == 499 for line in lines[:-1])


def _storage_bytes(folder):
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_the_simulated_clock_runs_on_while_the_host_reads_nothing(tmp_path, interp):
    storage = str(tmp_path / "flash")
    with SimServer(storage, "deaf-host", micropython=interp == "micropython") as server:
        fd = os.open(server.path, os.O_RDWR | os.O_NOCTTY)
        try:
            rid = 0

            def send(op, *args):
                nonlocal rid
                rid += 1
                os.write(fd, P.encode_request(rid, op, list(args)))
                return rid

            deadline = time.monotonic() + 10
            while not read_all(fd):       # the clock is up: it answers hello
                assert time.monotonic() < deadline, "no reply from the simulated clock"
                send("hello")
                time.sleep(0.2)
            send("start")
            # ~100 KB of status replies, several times what the pty holds; never read
            for _ in range(300):
                send("status")
                time.sleep(0.003)
            time.sleep(0.5)
            before = _storage_bytes(storage)
            # the loop still runs: lever presses (asked over the link) reach the flash log
            for side in ("left", "right", "left", "right"):
                send("sim", "press", side)
                time.sleep(0.3)
            grown = _storage_bytes(storage) - before
            assert grown > 0, "no flash write: the clock's loop is stuck"
            # the host reads again: every line is a whole, valid reply; then a fresh one
            time.sleep(0.2)
            got = b""
            for _ in range(50):
                got += read_all(fd)
                time.sleep(0.02)
            lines = got.split(b"\n")
            assert lines[-1] == b""
            for line in lines[:-1]:
                P.decode_reply(line.rstrip(b"\r"))
            last = send("status")
            deadline = time.monotonic() + 5
            got = b""
            while b"\n" not in got:
                assert time.monotonic() < deadline, "no reply after the host read again"
                got += read_all(fd)
                time.sleep(0.01)
            got_rid, ok, fields = P.decode_reply(got.split(b"\n")[0])
            assert got_rid == last and ok and fields["wmoves"] == "2"
        finally:
            os.close(fd)
