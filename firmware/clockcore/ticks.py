# Turning a wrapping hardware tick counter into the engine's time line.
#
# Boards count microseconds in a counter that wraps (2**30 on RP2040 and ESP32 ports, so
# ticks stay small ints). The Timebase keeps one monotonic millisecond count for the game,
# carrying the sub-millisecond remainder so that no time is ever dropped (no drift). The
# difference function is injected: time.ticks_diff on a board, wrap_diff() in tests.
# Differences are only taken across short spans (under half the period: ~8.9 min for
# microsecond ticks), so the caller must advance() at least that often.

from clockcore import const

PERIOD_30 = const(0x40000000)  # 2**30: MicroPython's tick period on 32-bit ports


def wrap_diff(period):
    """A ticks_diff for a counter of the given power-of-two period, as MicroPython's."""
    mask = period - 1
    half = period >> 1

    def diff(a, b):
        d = (a - b) & mask
        return d - period if d >= half else d

    return diff


class Timebase:
    """Milliseconds since `tick0`, from a counter of `unit_us` microseconds per tick."""

    def __init__(self, tick0, diff, unit_us=1):
        self.diff = diff
        self.per_ms = 1000 // unit_us  # ticks in one millisecond
        self.base = tick0
        self.ms = 0
        self.rem = 0  # ticks past self.ms not yet a whole millisecond, 0 <= rem < per_ms

    def advance(self, tick):
        """Move the base to `tick` (no older than half a period) and return its ms."""
        r = self.rem + self.diff(tick, self.base)
        self.base = tick
        q = r // self.per_ms
        self.ms += q
        self.rem = r - q * self.per_ms
        return self.ms

    def at(self, tick):
        """The ms of a tick near the base, before or after it (a lever timestamp taken in an
        interrupt), without moving the base. Agrees with advance(): floor of exact time."""
        return self.ms + (self.rem + self.diff(tick, self.base)) // self.per_ms
