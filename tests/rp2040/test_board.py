"""The firmware on the official MicroPython v1.28.0 image for the Pico, emulated (rp2040js),
with its board.

Quick tier (make test): deploy + verify through mpremote over a pty,
boot from main.py, a short game played by lever edges and checked against `chessclock
simulate` to the displayed digit, LEDs, the host's `chessclock status`.
Long tier (make test-board, marked board_long): 3 power cuts (CI runs them, .ci/run's
BOARD_K), and RP2040_CUTS power cuts per build (default 200). The cuts of a run fall in one
game, a cut image saved after each move (most inside the press's flash writes), each booted
on its own and checked by `chessclock status`; one in 20 (and one of the 3) also by `log
pull` + `log verify` with the arbiter's key.
"""

import json
import math
import os
import random

import pytest
from displays import SEG_CHARS, expected, fmt_time, shown, simulate, ssd1306_running
from emu import HERE, EmuClock

CONTROL = "3m+2s"   # the clock's default preset fide-blitz, written out with its units
WHITE, BLACK = "white", "black"
# Think times (ms) of a short game: odd fractions, so that no displayed digit sits on the
# edge of a second when a press is charged (the engine's ms line has its own phase).
THINKS = [2437, 1873, 3121, 1555, 2689, 2207, 1711, 2953]


# The lever's interrupt stamps an edge some microseconds after it (its latency on the
# emulated M0+), and the engine counts whole milliseconds: a press that falls within that
# latency of a millisecond's end is charged in the next one. `simulate` gets the ideal
# instants, so a side's time may differ from it by that one millisecond, never more.
STAMP_MS = 1


def test_deploy_copies_and_verifies_on_the_emulated_flash(deployed):
    board, image, r = deployed
    assert r.returncode == 0, r.stderr
    n = len((HERE.parents[1] / "build" / "rp2040" / board / "MANIFEST.sha256")
            .read_text().splitlines())
    assert "verified: %d files on the device match MANIFEST.sha256" % n in r.stdout


def wait_ready(clk, text, timeout_us=8_000_000):
    """Run until both displays show `text` (the app is up); the instant."""
    end = clk.now() + timeout_us
    while clk.now() < end:
        clk.run_for(100_000)
        st = clk.state()
        if all(shown(d) == text for d in st["displays"]):
            return clk.now()
    raise AssertionError("displays never showed %r: %r"
                         % (text, [shown(d) for d in st["displays"]]))


class Game:
    """Presses at chosen emulated instants and what simulate says the clock must show."""

    def __init__(self, t0_us, thinks):
        self.t0 = t0_us
        self.presses = []  # (us, lever, side)
        t = t0_us
        self.presses.append((t, "right", BLACK))  # Black's press starts White's clock
        side = WHITE
        for th in thinks:
            t += th * 1000
            self.presses.append((t, "left" if side == WHITE else "right", side))
            side = BLACK if side == WHITE else WHITE
        script = [(0, "start")] + [(round((u - t0_us) / 1000), "press " + s)
                                   for u, _, s in self.presses[1:]]
        self.events = [e for e in simulate(CONTROL, script) if e["type"] in ("start", "press")]

    def play(self, clk, n=None, bounce=(300, 900)):
        """Schedule the presses, the emulated clock held meanwhile (clk.held)."""
        with clk.held():
            for us, lever, _ in self.presses[:n]:
                clk.press(lever, at=us, hold=60_000, bounce=bounce)

    def remaining(self, side, us):
        """Time left of `side` at emulated instant `us` (ms), from simulate's events."""
        t = (us - self.t0) / 1000
        last = None
        for e in self.events:
            if e["t_ms"] <= t:
                last = e
        if last is None:
            return 180000
        ms = last[side + "_ms"]
        running = WHITE if last["type"] == "start" else (BLACK if last["side"] == WHITE
                                                         else WHITE)
        if running == side:
            ms -= t - last["t_ms"]
        return max(0, int(round(ms)))


# A frame shows simulate's time at the instant its loop pass read the clock, and a pass reads
# the clock before it draws: the frame is sent (its bus transaction ends) up to FRAME_LAG_US
# after that instant. Measured on pico-tm1637 (the first 65 s of the blitz game, 93 frames):
# 5.2-9.6 ms for one module, 11.6-12.7 ms for the second module of a pass that draws both;
# the bound leaves room for a collection in the pass (18-20 ms on the M0+). The engine's
# ms line has its own phase: PHASE_US either way. A press is shown on the pressing side's
# display within SWITCH_US of its edge (the bench's lever-to-display: 11-60 ms typical on
# pico-tm1637, ~150 ms at worst, a press in a periodic save or a host request; docs/BENCHMARKS.md).
FRAME_LAG_US = 30_000
PHASE_US = 2_000
SWITCH_US = 150_000


def texts_between(game, side, kind, lo_us, hi_us):
    """[(instant, text)]: what simulate's time for `side` shows at instants in [lo_us, hi_us],
    in time order. Exact: presses fall on whole ms from t0 and times are whole ms, so
    simulate's (rounded) ms only change at whole or half ms from t0: every such instant
    and one inside each piece between them (a quarter ms grid) is looked at."""
    out = [(lo_us, expected(fmt_time(game.remaining(side, lo_us)), kind))]
    j = -(-int(lo_us - game.t0) // 250)
    us = game.t0 + j * 250
    while us <= hi_us:
        if us > lo_us:
            text = expected(fmt_time(game.remaining(side, us)), kind)
            if text != out[-1][1]:
                out.append((us, text))
        us += 250
    return out


def check_frames(game, frames, kinds, until_us):
    """Every frame drawn after the start shows simulate's time at an instant its pass may have
    read the clock: from FRAME_LAG_US before the frame to PHASE_US after it, and never
    before the instant the display's previous frame showed (a display's passes come in
    order: a press's old time only until the frame that shows the press). Each press's new
    time is on the pressing side's display within SWITCH_US. Returns the frames checked."""
    drawn = [(us, i, snap["type"], shown(snap)) for us, i, snap in frames
             if game.t0 + 50_000 <= us <= until_us]
    checked = 0
    shown_at = [None, None]  # per display: the earliest instant its last frame can show
    for us, i, kind, got in drawn:
        side = WHITE if i == 0 else BLACK
        if kind == "ssd1306" and got == "":
            continue  # a frame in the middle of a redraw (the main area cleared)
        lo = us - FRAME_LAG_US - PHASE_US
        if shown_at[i] is not None:
            lo = max(lo, shown_at[i] - PHASE_US)
        seen = texts_between(game, side, kinds[i], lo, us + PHASE_US)
        at = [t for t, text in seen if text == got]
        if kind == "ssd1306" and not at:
            continue  # partial redraws show half-drawn digits between two writes
        assert at, "%s at %d us shows %r, simulate from %d us: %r" % (side, us, got, lo, seen)
        shown_at[i] = at[0]
        checked += 1
    for us, _lever, side in game.presses[1:]:  # the first only starts the clock
        i = 0 if side == WHITE else 1
        if us + SWITCH_US > until_us or not drawn or us < drawn[0][0]:
            continue  # after the frames looked at, or before them (a part of a game)
        new = expected(fmt_time(game.remaining(side, us + 1000)), kinds[i])
        if new == expected(fmt_time(game.remaining(side, us - 1000)), kinds[i]):
            continue  # the press changes nothing on the display (no increment)
        first = [f_us for f_us, f_i, _kind, text in drawn if f_i == i and us <= f_us
                 and text == new][:1]
        assert first and first[0] - us <= SWITCH_US, \
            "%s's press at %d us: %r shown %s" % (side, us, new, first or "never")
    return checked


def sample(game, clk, at_us, kinds):
    """At `at_us`: each display's time equals simulate's (with 30 ms lag allowed)."""
    clk.run_until(at_us)
    st = clk.state()
    for i, side in ((0, WHITE), (1, BLACK)):
        got = shown(st["displays"][i])
        want = {expected(fmt_time(game.remaining(side, at_us - d)), kinds[i])
                for d in (-2000, 0, 30_000)}
        assert got in want, "%s at %d us: %r, simulate %r" % (side, at_us, got, want)
    return st


# Frames recorded on pico-tm1637 in the blitz game of test_board_games.py (seed 7), 55-64 s
# after Black's starting press: (us after it, display, digits shown). White's display turns
# to 2:31 when White has 151.000 s left, 2 ms before White's press at 60.681 s (2:31 + 2 s
# = 2:33); that pass read the clock before the edge and sent its frame 3.7 ms after it; the
# next pass shows the press (12.5 ms after the edge) and Black's 3:13 (17.4 ms).
RECORDED_BLITZ_FRAMES = [
    (55516400, 0, "233"), (56515418, 0, "232"), (57035415, 0, "234"), (57522486, 1, "311"),
    (58204058, 1, "313"), (58683828, 0, "233"), (59684153, 0, "232"), (60684737, 0, "231"),
    (60693508, 0, "233"), (60698406, 1, "313"), (61007696, 1, "312"), (62008264, 1, "311"),
    (62681693, 0, "233"), (62686603, 1, "313"), (63677608, 0, "232")]


def test_frame_check_on_recorded_tm1637_frames_of_a_press_mid_redraw():
    """check_frames takes the 2:31 frame sent across White's press (its pass read the
    clock 2 ms before the edge), and refuses what the firmware would get wrong: that old
    time shown after the press's frame, a frame later than its pass could have read the
    clock, a press never shown."""
    from game import StagedGame
    from test_board_games import BLITZ, blitz_thinks

    seg = {c: b for b, c in SEG_CHARS.items() if c.isdigit()}
    t0 = 1_000_000
    game = StagedGame(BLITZ, blitz_thinks()).place(t0)
    kinds = ["tm1637", "tm1637"]

    def frames(rows):
        return [(t0 + us, i, {"type": "tm1637", "segments": [0] + [seg[c] for c in text]})
                for us, i, text in sorted(rows)]

    def refused(rows):
        with pytest.raises(AssertionError):
            check_frames(game, frames(rows), kinds, t0 + 63_800_000)

    rows = RECORDED_BLITZ_FRAMES
    assert check_frames(game, frames(rows), kinds, t0 + 63_800_000) == len(rows)
    # the frame the old five-point check refused: no instant it looked at showed 2:31
    assert not any(shown(frames(rows[7:8])[0][2]) == expected(fmt_time(game.remaining(
        WHITE, t0 + 60_684_737 - d)), "tm1637") for d in (-2000, 0, 2000, 10_000, 30_000))
    refused(rows + [(60695000, 0, "232")])          # the old time after the press's frame
    refused(rows[:7] + [(60716000, 0, "232")] + rows[8:])   # 2:32 sent 35 ms after the edge
    refused([r for r in rows if r[0] != 60693508])  # White's press never shown
    refused(rows + [(61500000, 1, "310")])          # a time Black never had


def test_short_game_by_lever_edges_matches_simulate(deployed, tmp_path):
    board, image, _ = deployed
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        ready = wait_ready(clk, "3:00" if board == "pico-ssd1306" else "300")
        kinds = [d["type"] for d in clk.state()["displays"]]
        game = Game(ready + 300_000, THINKS[:5])
        game.play(clk)
        leds = []
        for k, (us, _lever, side) in enumerate(game.presses):
            st = sample(game, clk, us + 400_000, kinds)
            running = BLACK if (k and side == WHITE) else WHITE
            if st["leds"] is not None:
                assert st["leds"] == {"left": int(running == WHITE),
                                      "right": int(running == BLACK)}
            leds.append(st["leds"])
            if kinds[0] == "ssd1306":
                assert ssd1306_running(st["displays"][0]) == (running == WHITE)
                assert ssd1306_running(st["displays"][1]) == (running == BLACK)
        end = game.presses[-1][0] + 1_500_000
        sample(game, clk, end, kinds)
        frames, _ = clk.frames()
        assert check_frames(game, frames, kinds, end) >= 10
        st = clk.state()
        assert not st["buzzer"]
        assert st["errors"] == [[], []], st["errors"]   # e.g. a TM1637 clocked too fast

        # the host side for real: chessclock status over the emulated USB serial
        tty = clk.serial()
        r = clk.chessclock("status", "--port", tty, "--json", "--timeout", "600", timeout=3000)
        st = json.loads(r.stdout)
        st = st[0] if isinstance(st, list) else st
        status = st.get("result", st)
        last = game.events[-1]
        assert status["state"] == "running"
        if "white_moves" in last:
            assert int(status["white_moves"]) == last["white_moves"]
        waiting = last["side"]  # the side that pressed last waits: its time is frozen
        got = int(status["white_ms" if waiting == WHITE else "black_ms"])
        assert abs(got - last[waiting + "_ms"]) <= STAMP_MS, (got, last)


def boot_and_status(clk, image, board):
    clk.boot(image)
    wait_until_app(clk)
    tty = clk.serial()
    r = clk.chessclock("status", "--port", tty, "--json", "--timeout", "600", timeout=3000)
    st = json.loads(r.stdout)
    st = st[0] if isinstance(st, list) else st
    return st.get("result", st)


def wait_until_app(clk, timeout_us=8_000_000):
    end = clk.now() + timeout_us
    while clk.now() < end:
        clk.run_for(100_000)
        if any(f[2]["type"] == "tm1637" and f[2]["segments"] != [0, 0, 0, 0]
               or f[2]["type"] == "ssd1306" and shown(f[2]) for f in clk.frames()[0]):
            return
    raise AssertionError("the app did not draw anything")


def plan_cuts(clk, game, rnd, tmp_path):
    """Play `game` with a cut image saved after each of its moves (clk.tap: what a power
    cut there would leave; the clock plays on): mostly inside the press's own flash writes
    (the log, then the state, 10-25 ms after the edge: the first or second operation from
    0-10 ms after it, cut at a random byte), inside the periodic save when a think is longer
    than its 10 s, else at a random instant of the think. Returns [(image, tap)]."""
    presses = game.presses
    images = []
    with clk.held():   # the taps and the presses planned with the emulated clock still
        for k in range(1, len(presses)):
            us = presses[k][0]
            end = presses[k + 1][0] if k + 1 < len(presses) else us + 1_000_000
            img = tmp_path / ("cut%03d.bin" % k)
            if end - us > 10_500_000:   # a long think: the 10 s periodic save falls in it
                clk.tap(img, us + 1_000_000, after_ops=1, frac=rnd.random(),
                        until_us=end - 1000)
            elif rnd.random() < 0.8:
                clk.tap(img, us + rnd.randint(0, 10) * 1000, after_ops=rnd.randint(1, 2),
                        frac=rnd.random(), until_us=end - 1000)
            else:
                clk.tap(img, us + rnd.randint(30_000, max(30_000, int(end - us) - 2000)))
            images.append(img)
        game.play(clk, bounce=())
    clk.run_until(presses[-1][0] + 1_000_000)
    taps = clk.taps()
    assert [t["file"] for t in taps] == [str(i) for i in images], taps  # one a move, in order
    return list(zip(images, taps, strict=True))


def flash_quiet(clk, quiet_us, limit_us=60_000_000):
    """Run until no flash operation for quiet_us (of emulated time)."""
    clk.run_until_quiet("flash_log", quiet_us, 250_000, limit_us)


def check_cut(game, status, tap):
    """After the power comes back from a cut at tap["us"]: paused, with a state the clock
    saved: the moves of a press before the cut (its last saved press, or the one before
    when the cut fell inside the writes of the last), that press's waiting side exact."""
    assert status["state"] == "paused", status
    done = [e for e in game.events if e["t_ms"] <= (tap["us"] - game.t0) / 1000]
    moves = (int(status["white_moves"]), int(status["black_moves"]))
    cands = []
    wm = bm = 0
    for e in done:
        if e["type"] == "press":
            wm += e["side"] == WHITE
            bm += e["side"] == BLACK
        cands.append(((wm, bm), e))
    match = [e for mv, e in cands if mv == moves]
    assert match, "restored moves %r, not a saved state of %r" % (moves, cands[-3:])
    e = match[-1]
    if e["type"] == "press":
        w = e["side"]
        got = int(status["white_ms" if w == WHITE else "black_ms"])
        assert abs(got - e[w + "_ms"]) <= stamp_drift_ms(sum(moves)), (got, e)
    return moves


def stamp_drift_ms(presses):
    """How far a side's time may be from simulate's after `presses` presses: each think
    is two stamps, and a stamp within the interrupt's latency of a millisecond's end is
    charged in the next one (STAMP_MS). Whole-ms thinks keep every press at one sub-ms
    phase, so either none crosses or, when that phase lies near a boundary, any may: the
    side's error is then a walk of +-1 steps (a 100-cut game on pico-tm1637 was 2 ms off
    `simulate` at its 35th press). Allowed: STAMP_MS plus
    about two standard deviations of that walk; a late or lost press is tens of ms."""
    return STAMP_MS + math.isqrt(presses)


def check_cut_log(clk, tty, tmp_path, k, game, tap, moves):
    """The log after a cut: pulled, signed with the arbiter's key the clock kept, verified
    AUTHENTIC, and every press whose record was complete is in it, in order: at least the
    restored state's moves (the log is written before the state), none the game did not make."""
    r = clk.chessclock("log-pull", "--port", tty, "--archive", tmp_path / "archive",
                       "--game", "cut%d" % k, "--json", "--timeout", "600", timeout=3000)
    pulled = json.loads(r.stdout)[0]["result"]
    assert pulled["signed"], pulled
    r = clk.chessclock("log", "verify", pulled["file"], check=False)
    assert r.returncode == 0 and "verification: AUTHENTIC" in r.stdout, r.stdout + r.stderr
    r = clk.chessclock("log", "export", pulled["file"], "--format", "jsonl")
    sides = [e.get("side") for e in map(json.loads, r.stdout.splitlines())
             if e["type"] == "press"]
    made = [e["side"] for e in game.events
            if e["type"] == "press" and e["t_ms"] <= (tap["us"] - game.t0) / 1000]
    assert sum(moves) <= len(sides) <= len(made), (moves, len(sides), len(made))
    assert sides == made[:len(sides)], (sides, made)


def power_cuts(deployed, tmp_path, n, seed, pulls=0, monkeypatch=None):
    """n power cuts in one game (the clock keyed with an arbiter's key): a cut image saved
    after each of n moves (plan_cuts), then each booted on its own, as the power coming
    back: checked by `chessclock status` (check_cut), and `pulls` of them by `log pull` and
    `log verify` (check_cut_log). Returns how many cuts fell inside a flash operation."""
    board, image, _ = deployed
    rnd = random.Random(seed)
    # Whole-ms thinks: every press keeps t0's sub-ms phase, so the ms the clock stamps and
    # the ms simulate charges telescope over a long game (fractions add up to 2 ms by the
    # 20th move). Its STAMP_MS is the lever interrupt's latency alone.
    thinks = [rnd.randint(200, 900) for _ in range(n)]
    for k in rnd.sample(range(n), max(1, n // 40)):
        thinks[k] = rnd.randint(10_600, 11_500)
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        wait_until_app(clk)
        if pulls:  # the arbiter's key, in a home of the test's own (chessclock key use)
            monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
            monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
            tty = clk.serial()
            key = tmp_path / "arbiter.key"
            for args in (("key", "new", key), ("key", "use", key)):
                clk.chessclock(*args, timeout=600)
            clk.chessclock("key", "set", "--port", tty, "--timeout", "600", timeout=3000)
        # An idle clock folds its journal into the files and erases it (45 ms a sector,
        # interrupts held): a press then is stamped at the erase's end (docs/FIRMWARE.md),
        # so the game starts once the flash has been quiet for 2 s.
        flash_quiet(clk, 2_000_000)
        game = Game(clk.now() + 2_000_000, thinks)  # planned with the clock held (plan_cuts)
        cuts = plan_cuts(clk, game, rnd, tmp_path)
        every = max(1, n // pulls) if pulls else 0
        inside = 0
        for k, (img, tap) in enumerate(cuts):
            status = boot_and_status(clk, img, board)
            moves = check_cut(game, status, tap)
            inside += "inside" in tap["where"]
            print("cut %d of %d at %d us, %s: %r" % (k + 1, n, tap["us"] - game.t0,
                                                     tap["where"], moves), flush=True)
            if every and k % every == every - 1:
                check_cut_log(clk, clk.serial(), tmp_path, k, game, tap, moves)
            img.unlink()
    return inside


# In the long tier since the journal (2.5-3.5 min of make test's 15): CI runs it there.
@pytest.mark.board_long
def test_a_few_power_cuts_come_back_paused_with_saved_times(deployed, tmp_path, monkeypatch):
    power_cuts(deployed, tmp_path, 3, seed=1, pulls=1, monkeypatch=monkeypatch)


@pytest.mark.board_long
def test_power_cuts_many(deployed, tmp_path, monkeypatch):
    n = int(os.environ.get("RP2040_CUTS", "200"))
    inside = power_cuts(deployed, tmp_path, n, seed=2, pulls=max(1, n // 20),
                        monkeypatch=monkeypatch)
    assert inside >= n // 2
