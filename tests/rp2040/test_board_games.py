"""Whole games on the emulated Pico (long board tier, make test-board), for each Pico build.

Played by lever edges (with contact bounce) at chosen emulated instants; after every press,
and across the game in every frame the displays were sent, what they show is checked
against `chessclock simulate` for the same presses, to the displayed digit
(test_board.sample and check_frames); the end is a flag, checked on the displays (which
side shows it, both times frozen) and over the USB serial (`chessclock status`: state,
moves, times to the millisecond).

- Blitz: the clock's default preset fide-blitz (3 min + 2 s), a seeded game of 58 moves
  each (White 2-8 s a move, Black 0.3-2 s) in which White's flag falls (~6 min of
  emulated time). A competition preset: the buzzer never sounds, not even at the flag.
- Classical with stages: `1m/5+3s, 30s+3s` (FIDE classical's shape, scaled down: 1 min for
  5 moves, then 30 s more, +3 s a move from move 1) typed in with `chessclock set` over the
  serial link; both sides pass the stage on their 5th press (30 s added, shown), then
  White's flag falls in the second period (~2.5 min emulated). A typed control is casual
  play: the stage change beeps (twice, one per side), the flag stays silent (only a preset
  that asks for it sounds a flag; none of the shipped ones does).

Emulated time is not wall time: the emulator runs at 0.1-0.25x real time on a busy 2-core
machine, so each is long (measured 2026-12-01, the test's call, deploy not counted: the
classical game 1,250-1,280 s a build with two emulators of this file running beside others,
2,240 s with four; the blitz game, 6 min of emulated time, 3,370 s on pico-tm1637 with two
emulators running, deploy included).
"""

import json
import random

import pytest
from displays import expected, fmt_time, shown
from emu import EmuClock
from game import BLACK, OTHER, WHITE, StagedGame, flag_shown, sample
from test_board import STAMP_MS, check_frames, wait_ready

pytestmark = pytest.mark.board_long

WAIT = ("--timeout", "600")  # wall seconds for a reply (the emulator is slow, see above)
# The emulator does not wait for the test: scheduling a game's ~120 presses takes some wall
# time, so the game starts this far (emulated) after the clock is ready.
LEAD_US = 2_000_000

BLITZ = "fide-blitz"
CLASSICAL = "1m/5+3s, 30s+3s"


def blitz_thinks(seed=7):
    rnd = random.Random(seed)
    thinks = []
    for _ in range(90):
        thinks.append(rnd.randint(1000, 4000) * 2 + 1)  # White: 2-8 s, odd ms
        thinks.append(rnd.randint(150, 1000) * 2 + 1)   # Black: 0.3-2 s
    return thinks


def classical_thinks(seed=1):
    rnd = random.Random(seed)
    thinks = []
    for k in range(30):  # White plays the first period fast, then sinks into thought
        thinks.append((rnd.randint(1000, 3000) if k < 5 else rnd.randint(6000, 10000)) * 2 + 1)
        thinks.append(rnd.randint(250, 1500) * 2 + 1)
    return thinks


def status(clk):
    r = clk.chessclock("status", "--port", clk.serial(), "--json", *WAIT, timeout=3000)
    st = json.loads(r.stdout)
    st = st[0] if isinstance(st, list) else st
    return st.get("result", st)


def play_and_check(clk, game, kinds):
    """Play the whole game; check the displays against simulate after every press (and in
    the middle of long thinks) up to the flag, and every frame sent before it."""
    game.play(clk)
    flag_us = game.flag_us
    checked = 0
    for k, (us, _lever, _side) in enumerate(game.presses):
        nxt = game.presses[k + 1][0] if k + 1 < len(game.presses) else us + 3_000_000
        for at in (us + 400_000, (us + nxt) // 2 + 123_457):
            if at < nxt - 50_000 and (flag_us is None or at < flag_us - 50_000):
                sample(game, clk, at, kinds)
                checked += 1
        if k % 20 == 19:
            print("%d presses played and checked" % (k + 1), flush=True)
    frames, _ = clk.frames()
    in_game = check_frames(game, frames, kinds, flag_us - 20_000)
    print("%s: %d presses, %d samples, %d frames checked against simulate"
          % (game.control, len(game.presses), checked, in_game), flush=True)
    assert in_game > len(game.presses)
    return frames


def check_flag(clk, game, kinds, stage_moment=False):
    """The flag: shown on the flagged side's display within 100 ms of simulate's instant,
    never on the other; both times frozen from then on (the late press ignored)."""
    flagged = game.flag["side"]
    fi = 0 if flagged == WHITE else 1  # White's lever is the left one (the default)
    flag_us = game.flag_us
    end = max(game.presses[-1][0], flag_us) + 4_000_000
    clk.run_until(end)
    frames, _ = clk.frames()
    first = [us for us, i, snap in frames if i == fi and flag_shown(snap)]
    assert first and flag_us <= first[0] < flag_us + 100_000, (flag_us, first[:1])
    assert not any(flag_shown(snap) for us, i, snap in frames if i != fi)
    final = game.final
    other = OTHER[flagged]
    want_other = expected(fmt_time(final[other + "_ms"]), kinds[1 - fi])
    want_flagged = expected(fmt_time(0), kinds[fi])
    after = [(us, i, snap) for us, i, snap in frames if us > first[0]]
    seen = {0: set(), 1: set()}
    for _us, i, snap in after:
        got = shown(snap)
        if snap["type"] == "ssd1306" and got != (want_flagged if i == fi else want_other):
            continue  # a frame in the middle of a redraw
        seen[i].add(got)
    st = clk.state()
    for i in (0, 1):
        seen[i].add(shown(st["displays"][i]))
    assert flag_shown(st["displays"][fi]) and not flag_shown(st["displays"][1 - fi])
    if kinds[fi] == "tm1637":
        # the 4-digit module: 'F' in front of 0:00, and 'FL 1' (first flag) 1 s in 3
        assert seen[fi] <= {"F" + want_flagged, "FL1"} and "FL1" in seen[fi], seen[fi]
        # the other: its time, and 'St 2' 1 s in 3 in a control of stages (S reads as 5)
        assert seen[1 - fi] <= {want_other, "5t2"}, seen[1 - fi]
        assert ("5t2" in seen[1 - fi]) == stage_moment, seen[1 - fi]
    else:
        assert seen[fi] == {want_flagged} and seen[1 - fi] == {want_other}, seen
    assert want_other in seen[1 - fi]


def check_status(clk, game):
    st = status(clk)
    final = game.final
    print("status after the flag:", {k: st[k] for k in sorted(st) if "white" in k
                                     or "black" in k or k == "state"}, flush=True)
    assert st["state"] == "frozen", st
    assert (int(st["white_moves"]), int(st["black_moves"])) == (final["white_moves"],
                                                                final["black_moves"])
    flagged = game.flag["side"]
    assert int(st[flagged + "_ms"]) == 0
    other = OTHER[flagged]
    assert abs(int(st[other + "_ms"]) - final[other + "_ms"]) <= STAMP_MS, (st, final)


# On pico-ssd1306, `sample` once read a panel mid-redraw: White's 2:21 -> 2:20 read 2:27 (the
# last digit's 1 -> 0 half drawn, segments a, b, c) 5.6 ms after White's time crossed, between
# that redraw's rectangles at 85,314.3 and 85,316.2 ms. `sample` now reads such a panel again
# once the bus is quiet (game.settled).
def test_blitz_game_to_a_flag_matches_simulate_and_stays_silent(deployed, tmp_path):
    board, image, _ = deployed
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        game = StagedGame(BLITZ, blitz_thinks())  # simulate first: the emulator runs meanwhile
        ready = wait_ready(clk, "3:00" if board == "pico-ssd1306" else "300")
        kinds = [d["type"] for d in clk.state()["displays"]]
        game.place(ready + LEAD_US)
        assert game.flag is not None and game.flag["side"] == WHITE
        assert game.moves_at_flag() >= 100  # a whole game: 50+ moves each
        play_and_check(clk, game, kinds)
        check_flag(clk, game, kinds)
        # competition: nothing sounded, from the first press to after the flag
        assert clk.op("events")["buzzer"] == []
        check_status(clk, game)


def test_classical_game_with_stages_matches_simulate(deployed, tmp_path, monkeypatch):
    board, image, _ = deployed
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    with EmuClock(board, workdir=tmp_path) as clk:
        clk.boot(image)
        wait_ready(clk, "3:00" if board == "pico-ssd1306" else "300")
        r = clk.chessclock("set", CLASSICAL, "--yes", "--port", clk.serial(), *WAIT,
                           timeout=3000)
        assert "1 min" in r.stdout, r.stdout
        game = StagedGame(CLASSICAL, classical_thinks())
        ready = wait_ready(clk, "1:00" if board == "pico-ssd1306" else "100")
        kinds = [d["type"] for d in clk.state()["displays"]]
        game.place(ready + LEAD_US)
        stages = [e for e in game.events if e["type"] == "stage"]
        assert [(e["side"], e["added_ms"]) for e in stages] == [(WHITE, 30000),
                                                                 (BLACK, 30000)]
        assert game.flag is not None and game.flag["stage"] == 2
        play_and_check(clk, game, kinds)
        # the stage: the press completing a side's 5th move shows the 30 s added
        for e in stages:
            us = game.t0 + e["t_ms"] * 1000
            before = game.remaining(e["side"], us - 1000)
            assert abs(game.remaining(e["side"], us + 1000) - before - 33000) <= 2, e
        check_flag(clk, game, kinds, stage_moment=kinds[0] == "tm1637")
        # casual play (a typed control): the stage pattern (two tones) at each side's stage
        # change, within a pass of its press; nothing else, nothing at the flag
        beeps = [us for us, on in clk.op("events")["buzzer"] if on]
        for e in stages:
            us = game.t0 + e["t_ms"] * 1000
            assert len([b for b in beeps if us <= b < us + 400_000]) == 2, (e, beeps)
        assert len(beeps) == 2 * len(stages), beeps
        check_status(clk, game)
