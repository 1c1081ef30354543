"""The long board tier (make test-board): the host's tools for real against the emulated
Pico over its USB serial (a socat pty), the ROMFS and frozen routes, and a host that never
reads.

Emulated time runs on its own while these commands run (rp2040js executes as fast as it
can), so nothing here depends on wall-clock timing: lever presses are placed at emulated
instants, and the checks read what the clock says or shows.
"""

import json

import pytest
from displays import shown
from emu import ROOT, UF2_FROZEN, UF2_ROMFS, EmuClock
from test_board import THINKS, Game, sample, wait_ready, wait_until_app

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


def make_deploy(target, board, tty):
    """`make TARGET BOARD=board PORT=tty` (deploy-romfs, deploy-frozen) from the checkout;
    its output, the run having passed."""
    import subprocess
    r = subprocess.run(["make", "--no-print-directory", target, "BOARD=" + board,
                        "PORT=" + tty], cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout + r.stderr


def boot_and_play(clk, board, image):
    """Power off (the flash saved to `image`) and on: the clock boots from main.py and
    plays a short game whose displays match `chessclock simulate`."""
    clk.cut(image)
    clk.boot(image)
    ready = wait_ready(clk, "3:00" if board == "pico-ssd1306" else "300")
    kinds = [d["type"] for d in clk.state()["displays"]]
    game = Game(ready + 300_000, THINKS[:4])
    game.play(clk)
    for us, _lever, _side in game.presses:
        sample(game, clk, us + 400_000, kinds)
    sample(game, clk, game.presses[-1][0] + 1_500_000, kinds)


def test_romfs_route_deploys_boots_and_plays(tmp_path):
    """`make deploy-romfs` onto firmware-romfs.uf2: the packages run from /rom, main.py and
    board.json on the littlefs; the clock boots from main.py and plays a short game that
    matches `chessclock simulate`."""
    board = "pico-tm1637"
    with EmuClock(board, uf2=UF2_ROMFS, workdir=tmp_path) as clk:
        clk.boot()
        out = make_deploy("deploy-romfs", board, clk.serial())
        assert "verified: the clock runs from /rom/clockapp/app.mpy" in out
        boot_and_play(clk, board, tmp_path / "romfs-flash.bin")


@pytest.mark.parametrize("board", ["pico-tm1637", "pico-ssd1306"])
def test_frozen_route_deploys_boots_and_plays(board, tmp_path):
    """`make deploy-frozen` onto firmware-frozen.uf2 (the packages frozen in by
    firmware/manifest.py): only main.py and board.json go onto the littlefs, with any
    package whose frozen copy differs from this checkout (a stale image: a warning, and
    `make bench` gives no frozen figure); each package is imported from where deploy says;
    the clock boots from main.py and plays a short game that matches `chessclock simulate`."""
    import warnings

    from chessclock import deploy
    with EmuClock(board, uf2=UF2_FROZEN, workdir=tmp_path) as clk:
        clk.boot()
        out = make_deploy("deploy-frozen", board, clk.serial())
        stale = [ln.split(":")[0] for ln in out.splitlines() if deploy.STALE in ln]
        if stale:
            warnings.warn("firmware-frozen.uf2 is older than firmware/ (%s): rebuild it "
                          "(tests/rp2040/PROVENANCE.md)" % ", ".join(stale), stacklevel=1)
        built = deploy.read_manifest(ROOT / "build" / board / deploy.MANIFEST)
        sent = [rel for rel in built if "/" not in rel or rel.split("/")[0] in stale]
        assert "verified: %d files on the device match MANIFEST.sha256" % len(sent) in out, out
        for pkg in ("clockcore", "clockapp", "drivers", "boards"):
            where = ("the filesystem (%s/__init__.mpy)" if pkg in stale
                     else "the image (%s/__init__.py)") % pkg
            assert "%s: runs from %s" % (pkg, where) in out, out
        boot_and_play(clk, board, tmp_path / "frozen-flash.bin")


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
