"""The menus on the emulated Pico, driven by its four buttons (long tier: make test-board).

The button UI of firmware/clockapp/menu.py (docs/FIRMWARE.md, "Menus"), pressed the way
tests/core/test_app_sim.py presses it on the simulator board, here on MicroPython v1.28.0
for the Pico with each build's displays: every button bounces closing and opening (the
app debounces 30 ms), and what the displays show is read back from the models (the menu's
item left, its value right: display_text.py; times: displays.py). Checked with
`chessclock status` over the emulated USB serial, and the arbiter's corrections in the log
(`log-pull`, `log verify`, `log export`):
- set-up menu, PrSt: fide-rapid chosen from the presets, both displays 15:00, and two
  lever presses get its +10 s;
- set-up menu, SEt: 7 min + 3 s entered by hand, kept across a power cycle, and in force;
- arbiter menu (hold MENU 2 s while paused; a tap does nothing), in a fide-rapid game set
  by the host: Black chosen, +2 min, its time -20 s with tImE, closed; the display, the
  status and the signed log agree.
On the TM1637 build these found the module misreading menu values (fixed in
clockapp/displays/tm1637.py, tests/core/test_displays.py): tImE's 17:08 showed "7 08", "+3s" "35".
Both builds, about 4 min each on a busy 2-core machine (make test-board; marked board_long).
"""

import json

import pytest
from display_text import canon, text
from displays import expected, fmt_time, shown, simulate
from emu import EmuClock
from test_board import STAMP_MS, wait_ready

pytestmark = pytest.mark.board_long

# A tactile switch bounces for a few ms both ways (us after the first edge): closing,
# open-close-open-close; opening, close-open. 300 ms between presses, 80 ms held.
BOUNCE = (350, 900, 1600, 2300)
RELEASE_BOUNCE = (400, 1100)
GAP_US = 300_000
HOLD_US = 80_000
WAIT = ("--timeout", "600")   # wall seconds for a reply (the emulator runs slowly)


def button(clk, name, at, hold=HOLD_US):
    clk.op("press", sw=name, at=at, hold=hold, bounce=list(BOUNCE),
           releaseBounce=list(RELEASE_BOUNCE), measure=False, tag=None)


def nav(clk, t, *names):
    """Press the buttons one after the other from emulated instant t, GAP_US apart; the
    instant after the last (the emulator is run to it). The emulator runs on while the
    test reads a display, so a press is planned with it held, and no earlier than 20 ms
    from then (clock.mjs refuses a press in its past: CI's loaded machine met that)."""
    for name in names:
        with clk.held():
            t = max(t, clk.now() + 20_000)
            button(clk, name, t)
        t += GAP_US
        clk.run_until(t)
    return t


def displays(clk):
    return clk.state()["displays"]


def menu_shows(clk, item, value):
    """The left display shows the menu's item, the right one its value."""
    left, right = displays(clk)
    got = (text(left), text(right))
    want = (canon(item, left["type"]), canon(value, right["type"]))
    assert got == want, "menu shows %r, expected %r (%s, %s)" % (got, want, item, value)


def times_shown(clk, white_ms, black_ms):
    """Both displays show these times (White left: the default lever), no clock running.
    A TM1637 shows something else 1 s in 3 then (Black's "bLAc" before the start, the
    stage: clockapp/displays/tm1637.py, the moment): looked at for up to 3 s."""
    for _ in range(13):
        snaps = displays(clk)
        got = [shown(d) for d in snaps]
        want = [expected(fmt_time(ms), d["type"])
                for ms, d in zip((white_ms, black_ms), snaps, strict=True)]
        if got == want:
            return
        clk.run_for(250_000)
    raise AssertionError("displays show %r, expected %r" % (got, want))


def cc(clk, *args, check=True):
    return clk.chessclock(*(args + (WAIT if "--port" in args else ())), check=check,
                          timeout=3000)


def status(clk):
    r = cc(clk, "status", "--port", clk.serial(), "--json")
    return json.loads(r.stdout)[0]["result"]


def idle_text(board, ms):
    return expected(fmt_time(ms), "ssd1306" if board == "pico-ssd1306" else "tm1637")


def two_presses(clk, control, t):
    """Black's lever starts White's clock at t; White presses 2.437 s on, Black 1.873 s
    after: what simulate says the clock holds then (its final line)."""
    with clk.held():
        t = max(t, clk.now() + 20_000)
        clk.press("right", at=t, hold=60_000, bounce=(300, 900))
        clk.press("left", at=t + 2_437_000, hold=60_000, bounce=(300, 900))
        clk.press("right", at=t + 4_310_000, hold=60_000, bounce=(300, 900))
    clk.run_until(t + 4_800_000)
    return simulate(control, [(0, "start"), (2437, "press white"), (4310, "press black")])[-1]


def check_in_force(clk, control, t):
    """Two presses under `control`: the status and Black's (waiting) display agree with
    simulate to the ms the lever's stamp allows."""
    sim = two_presses(clk, control, t)
    st = status(clk)
    assert (st["state"], st["white_moves"], st["black_moves"]) == ("running", 1, 1), st
    assert abs(st["black_ms"] - sim["black_ms"]) <= STAMP_MS, (st, sim)
    assert st["white_ms"] <= sim["white_ms"] + STAMP_MS, (st, sim)   # White runs on
    right = displays(clk)[1]
    assert shown(right) == expected(fmt_time(st["black_ms"]), right["type"])
    return st


def test_set_up_menu_chooses_a_preset(deployed, tmp_path):
    board, image, _ = deployed
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        ready = wait_ready(clk, idle_text(board, 180_000))   # fide-blitz, the default
        t = nav(clk, ready + 200_000, "menu")
        menu_shows(clk, "PrSt", "fide-blitz")
        t = nav(clk, t, "start")                   # edit: the presets from the first
        menu_shows(clk, "*PrSt", "fide-classical")
        t = nav(clk, t, "plus")
        menu_shows(clk, "*PrSt", "fide-rapid")
        t = nav(clk, t, "minus", "plus")           # one bounce is one step, both ways
        menu_shows(clk, "*PrSt", "fide-rapid")
        t = nav(clk, t, "start")                   # chosen: the menu closes
        times_shown(clk, 900_000, 900_000)
        st = status(clk)
        assert (st["spec"], st["state"], st["menu"]) == ("fide-rapid", "idle", 0), st
        assert st["white_ms"] == st["black_ms"] == 900_000
        st = check_in_force(clk, "fide-rapid", clk.now() + 200_000)
        assert st["black_ms"] > 900_000     # +10 s a move: more than it started with


def test_set_up_menu_sets_a_control_by_hand(deployed, tmp_path):
    board, image, _ = deployed
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        ready = wait_ready(clk, idle_text(board, 180_000))
        t = nav(clk, ready + 200_000, "menu", "plus", "plus")
        menu_shows(clk, "SEt", "")
        t = nav(clk, t, "start")                   # minutes, from 5
        menu_shows(clk, "*SEt", "5m")
        t = nav(clk, t, "plus", "plus")
        menu_shows(clk, "*SEt", "7m")
        t = nav(clk, t, "start")                   # then the increment, from 0
        menu_shows(clk, "*SEt", "+0s")
        t = nav(clk, t, "plus", "plus", "plus")
        menu_shows(clk, "*SEt", "+3s")
        t = nav(clk, t, "start")
        times_shown(clk, 420_000, 420_000)
        st = status(clk)
        assert (st["spec"], st["white_ms"], st["black_ms"]) == ("7m+3s", 420_000, 420_000), st
        # kept on flash: the power goes and comes back
        clk.run_for(500_000)
        cut = tmp_path / "cut.bin"
        clk.cut(cut)
        clk.boot(cut)
        wait_ready(clk, idle_text(board, 420_000))
        assert status(clk)["spec"] == "7m+3s"
        st = check_in_force(clk, "7m+3s", clk.now() + 200_000)
        assert st["black_ms"] > 420_000     # +3 s a move


def test_arbiter_menu_corrects_a_side_and_it_is_logged(deployed, tmp_path, monkeypatch):
    board, image, _ = deployed
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    keyfile = tmp_path / "arbiter.key"
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        wait_ready(clk, idle_text(board, 180_000))
        tty = clk.serial()
        cc(clk, "key", "new", keyfile)              # so that the log comes back signed
        cc(clk, "key", "use", keyfile)
        cc(clk, "key", "set", "--port", tty)
        # 15 min a side: Black's time in the menu has two digits of minutes
        cc(clk, "set", "fide-rapid", "--yes", "--port", tty)
        two_presses(clk, "fide-rapid", clk.now() + 200_000)   # White's clock runs
        t = nav(clk, clk.now() + 100_000, "start")  # pause
        st = status(clk)
        assert st["state"] == "paused", st
        white, black = st["white_ms"], st["black_ms"]
        times_shown(clk, white, black)
        # a player's tap on MENU does nothing while paused
        t = nav(clk, clk.now() + 100_000, "menu")
        times_shown(clk, white, black)
        assert status(clk)["menu"] == 0
        # the arbiter holds it 2 s (bouncing): the arbiter menu, on the side White
        with clk.held():
            t = clk.now() + 100_000
            button(clk, "menu", t, hold=2_500_000)
        t += 2_500_000 + GAP_US
        clk.run_until(t)
        menu_shows(clk, "SIdE", "WHIt")
        t = nav(clk, t, "start")
        menu_shows(clk, "SIdE", "bLAc")
        t = nav(clk, t, "plus")
        menu_shows(clk, "+2", "")
        t = nav(clk, t, "start")                   # +2:00 to Black
        t = nav(clk, t, "plus")
        black += 120_000
        menu_shows(clk, "tImE", "%d:%02d" % (black // 60000, black // 1000 % 60))
        t = nav(clk, t, "start", "minus", "minus")  # -10 s a press
        black -= 20_000
        menu_shows(clk, "*tImE", "%d:%02d" % (black // 60000, black // 1000 % 60))
        t = nav(clk, t, "start", "menu")           # done; the menu closes
        times_shown(clk, white, black)
        st = status(clk)
        assert (st["state"], st["menu"], st["white_ms"], st["black_ms"]) == \
            ("paused", 0, white, black), st
        t = nav(clk, clk.now() + 100_000, "start")  # the player resumes: White runs
        st = status(clk)
        assert (st["state"], st["running"], st["black_ms"]) == ("running", "white", black), st
        # the log: signed by the clock, and it tells what the arbiter did and why
        archive = tmp_path / "archive"
        r = cc(clk, "log-pull", "--port", tty, "--archive", archive, "--game", "g1", "--json")
        pulled = json.loads(r.stdout)[0]["result"]
        assert pulled["signed"]
        r = cc(clk, "log", "verify", pulled["file"], check=False)
        assert r.returncode == 0 and "verification: AUTHENTIC" in r.stdout, r.stdout + r.stderr
        r = cc(clk, "log", "export", pulled["file"], "--format", "jsonl")
        events = [json.loads(line) for line in r.stdout.splitlines()]
        did = [(e["type"], e.get("side"), e.get("delta_ms", e.get("menu", e.get("by"))),
                e.get("reason")) for e in events
               if e["type"] in ("arbiter", "adjust", "pause", "resumed-by")]
        assert did == [
            ("pause", "white", None, None),
            ("arbiter", None, "opened", None),
            ("adjust", "black", 120_000, "penalty"),
            ("adjust", "black", -10_000, "time"),
            ("adjust", "black", -10_000, "time"),
            ("arbiter", None, "closed", None),
            ("resumed-by", "white", "player", None)], did
