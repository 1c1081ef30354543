"""A game played on the emulated clock by lever edges, and what `chessclock simulate` says
it must show, for any control (stages, a flag). Used by test_board_games.py.

test_board.py's check_frames and wait_ready are used as they are (they only ask a game for
`t0`, `presses` and `remaining(side, us)`); `sample` here reads the instant from the state
itself.
"""

from displays import expected, fmt_time, shown, simulate, ssd1306_ram

WHITE, BLACK = "white", "black"
OTHER = {WHITE: BLACK, BLACK: WHITE}


class StagedGame:
    """Presses at chosen emulated instants (us) and simulate's events for the same script.

    thinks: the think time (ms) of each move after Black's starting press, White first;
    whole milliseconds, so every press keeps t0's sub-millisecond phase and the lever's
    interrupt latency never charges one side a millisecond the other is not (the turns
    telescope). The game stops at the first press after a flag (the flagged side pressing
    too late, which the clock must ignore): `flag` is simulate's flag event, or None."""

    def __init__(self, control, thinks):
        self.control = control
        self.t0 = 0
        self.presses = [(0, "right", BLACK)]  # Black's press starts White's clock
        t, side = 0, WHITE
        for th in thinks:
            t += th * 1000
            self.presses.append((t, "left" if side == WHITE else "right", side))
            side = OTHER[side]
        self.events = self._simulate()
        self.flag = next((e for e in self.events if e["type"] == "flag"), None)
        if self.flag is not None:  # nothing after the flagged side's late press
            late = [p for p in self.presses if self.ms(p[0]) > self.flag["t_ms"]]
            if late:
                self.presses = self.presses[:self.presses.index(late[0]) + 1]
                self.events = self._simulate()
        self.final = self.events[-1]
        assert self.final["type"] == "final", self.final

    def place(self, t0_us):
        """Put the game at emulated instant t0_us (Black's starting press)."""
        self.presses = [(us - self.t0 + t0_us, lever, side) for us, lever, side in self.presses]
        self.t0 = t0_us
        return self

    def ms(self, us):
        return round((us - self.t0) / 1000)

    def _simulate(self):
        script = [(0, "start")] + [(self.ms(u), "press " + s) for u, _, s in self.presses[1:]]
        return simulate(self.control, script)

    @property
    def flag_us(self):
        return None if self.flag is None else self.t0 + self.flag["t_ms"] * 1000

    def moves_at_flag(self):
        return sum(1 for e in self.events if e["type"] == "press"
                   and e["t_ms"] <= self.flag["t_ms"])

    def play(self, clk, bounce=(300, 900)):
        """Schedule every press, the emulated clock held meanwhile (the first press must lie
        ahead when play is called)."""
        with clk.held():
            for us, lever, _ in self.presses:
                clk.press(lever, at=us, hold=60_000, bounce=bounce)

    def state_at(self, t_ms):
        """(the last event with times at or before t_ms, the side running after it)."""
        last, running = None, None
        for e in self.events:
            if e["t_ms"] > t_ms or "white_ms" not in e or e["type"] == "final":
                continue
            last = e
            if e["type"] == "start":
                running = WHITE
            elif e["type"] == "press":
                running = OTHER[e["side"]]
            elif e["type"] == "flag":
                running = None  # frozen (the default after a flag in the last stage)
        return last, running

    def remaining(self, side, us):
        """Time left of `side` at emulated instant `us` (ms), from simulate's events."""
        t = (us - self.t0) / 1000
        last, running = self.state_at(t)
        if last is None:
            return self.events[0][side + "_ms"]
        ms = last[side + "_ms"]
        if running == side:
            ms -= t - last["t_ms"]
        return max(0, int(round(ms)))


def sample(game, clk, at_us, kinds):
    """At `at_us` (or the instant the state was read, which may be later: the emulator
    does not wait for the test): each display's time equals simulate's there, allowing
    the display a lag of 30 ms and the engine's ms line a phase of 2 ms."""
    clk.run_until(at_us)
    st = clk.state()
    for i, side in ((0, WHITE), (1, BLACK)):
        got = shown(st["displays"][i])
        want = _want(game, side, st["us"], kinds[i])
        if got not in want and kinds[i] == "ssd1306":
            # An SSD1306 redraw goes out in rectangles 1-2 ms apart over 25-45 ms: a panel
            # read between two of them shows half-drawn digits (a 1 turning 0 reads 7).
            # Read it again once its writes are done; that panel is checked as strictly.
            st = settled(clk)
            got = shown(st["displays"][i])
            want = _want(game, side, st["us"], kinds[i])
        assert got in want, "%s at %d us: %r, simulate %r" % (side, st["us"], got, want)
    return st


def _want(game, side, us, kind):
    return {expected(fmt_time(game.remaining(side, us - d)), kind) for d in (-2000, 0, 30_000)}


def settled(clk, quiet_us=5000, limit_us=200_000):
    """Run on until the I2C bus has been quiet for quiet_us (a redraw's rectangles go out
    1-2 ms apart: it is done); the state then."""
    clk.run_until_quiet("bus_log", quiet_us, 1000, limit_us)
    return clk.state()


def flag_shown(snap):
    """Does a display show a flag? TM1637: an 'F' in the first digit (the 'FL 1' moment
    too); SSD1306: the flag drawn at the bottom left (a pole at x 0, rows 56-63, and its
    cloth, x 1-6, rows 56-59)."""
    if snap["type"] == "tm1637":
        return snap["segments"][0] & 0x7F == 0x71
    ram = ssd1306_ram(snap)

    def px(x, y):
        return (ram[(y >> 3) * 128 + x] >> (y & 7)) & 1
    return (all(px(0, y) for y in range(56, 64))
            and all(px(x, y) for x in range(1, 7) for y in range(56, 60)))
