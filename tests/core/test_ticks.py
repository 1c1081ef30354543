# Wrapping tick counters and the no-drift millisecond time line. A whole seven-hour game
# runs through a 2**30 microsecond tick source that wraps many times (the unix port's own
# ticks have a 2**62 period, so the wrap is injected here).

from clockcore import engine as E
from clockcore.control import sudden_death
from clockcore.ticks import PERIOD_30, Timebase, wrap_diff

HALF = PERIOD_30 // 2


def test_wrap_diff_across_the_wrap():
    diff = wrap_diff(PERIOD_30)
    assert diff(5, PERIOD_30 - 5) == 10
    assert diff(PERIOD_30 - 5, 5) == -10
    assert diff(HALF - 1, 0) == HALF - 1
    assert diff(HALF, 0) == -HALF  # half a period: ambiguous, read as the past


def test_sub_millisecond_remainders_are_carried_not_dropped():
    tb = Timebase(0, wrap_diff(PERIOD_30))
    t = 0
    seen = []
    for _ in range(6):
        t += 333
        seen.append(tb.advance(t))
    assert seen == [0, 0, 0, 1, 1, 1]  # 999 us is 0 ms, 1332 us is 1 ms
    assert tb.rem == 998


def test_at_reads_a_lever_timestamp_before_or_after_the_base():
    tb = Timebase(PERIOD_30 - 2500, wrap_diff(PERIOD_30))
    assert tb.advance(7500) == 10  # 10 000 us later, across the wrap
    assert tb.at(7499) == 9        # an interrupt timestamp just before the base
    assert tb.at(8500) == 11
    assert tb.advance(8500) == 11


class Lcg:
    """A small deterministic generator (the same on both interpreters)."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x % n


def test_seven_hour_game_through_wrapping_ticks_is_exact_to_the_millisecond():
    period = PERIOD_30
    tick0 = period - 123457        # start just before a wrap
    tb = Timebase(tick0, wrap_diff(period))
    clock = E.Clock(sudden_death(4 * 3600 * 1000))
    rng = Lcg(2026)
    true_us = 0                    # the real elapsed time, never wrapped
    charged = [0, 0]
    clock.start(tb.advance(tick0))
    turn_start_ms = 0
    side = E.WHITE
    while true_us < 7 * 3600 * 1000000:
        # One turn: up to 4 minutes, in loop passes of up to 20 ms each.
        turn_us = 1 + rng.below(240000000)
        press_at = true_us + turn_us
        while true_us + 20000 < press_at:
            true_us += 1 + rng.below(20000)
            clock.tick(tb.advance((tick0 + true_us) % period))
        # The lever closes; the interrupt stamps it; the loop sees it a little later.
        stamp = (tick0 + press_at) % period
        true_us = press_at + rng.below(3000)
        loop_now = tb.advance((tick0 + true_us) % period)
        press_ms = tb.at(stamp)
        assert press_ms == (press_at // 1000)  # floor of the exact time, no drift
        assert clock.press(side, press_ms)
        clock.tick(loop_now)
        charged[side] += press_ms - turn_start_ms
        turn_start_ms = press_ms
        side = 1 - side
    wraps = (tick0 + true_us) // period
    assert wraps >= 20
    assert clock.flag_at == [-1, -1]
    charged[side] += loop_now - turn_start_ms  # the turn still running
    assert clock.main == [4 * 3600 * 1000 - charged[0], 4 * 3600 * 1000 - charged[1]]
    # What the clock took from both sides is the real elapsed time, to the millisecond.
    taken = 2 * 4 * 3600 * 1000 - clock.main[0] - clock.main[1]
    assert taken == true_us // 1000
