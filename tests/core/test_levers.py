# Lever edges: the interrupt's ring and the loop's bounce filter.

from clockapp.levers import (
    BOTH,
    DEBOUNCE_US,
    NOTHING,
    PRESS,
    RELEASE,
    RING,
    LeverFilter,
    LeverRing,
)
from clockcore.ticks import PERIOD_30, wrap_diff

DIFF = wrap_diff(PERIOD_30)


def drain(ring):
    out = []
    while ring.pending():
        out.append((ring.lever(), ring.tick(), ring.is_closed()))
        ring.pop()
    return out


def test_ring_keeps_edges_in_order_and_wraps():
    r = LeverRing()
    for round_ in range(3):  # more edges than slots over time
        for i in range(RING - 1):
            r.push(i % 2, 1000 * i + round_, i % 3 == 0)
        got = drain(r)
        assert got == [(i % 2, 1000 * i + round_, i % 3 == 0) for i in range(RING - 1)]
    assert r.dropped == 0


def test_ring_full_drops_newest_and_counts():
    r = LeverRing()
    for i in range(RING + 5):
        r.push(0, i, True)
    assert r.dropped == 6  # one slot stays empty to tell full from empty
    assert [e[1] for e in drain(r)] == list(range(RING - 1))


def test_bounce_train_is_one_press_at_the_first_edge():
    f = LeverFilter(DIFF)
    t0 = 5000000
    kinds = [f.feed(0, t0, True)]
    # chatter: open/close within a few ms
    for off, closed in ((300, False), (700, True), (1900, False), (2600, True)):
        kinds.append(f.feed(0, t0 + off, closed))
    assert kinds == [PRESS, NOTHING, NOTHING, NOTHING, NOTHING]
    assert f.state[0] is True
    # release, with its own chatter
    t1 = t0 + 120000
    assert f.feed(0, t1, False) == RELEASE
    assert f.feed(0, t1 + 500, True) == NOTHING
    assert f.feed(0, t1 + 900, False) == NOTHING
    assert f.state[0] is False


def test_a_quick_second_press_after_debounce_counts():
    f = LeverFilter(DIFF)
    assert f.feed(1, 0, True) == PRESS
    assert f.feed(1, DEBOUNCE_US, False) == RELEASE
    assert f.feed(1, 2 * DEBOUNCE_US - 1, True) == NOTHING  # still bounce of the release
    assert f.feed(1, 2 * DEBOUNCE_US, True) == PRESS


def test_closing_while_the_other_lever_is_held_is_not_a_press():
    f = LeverFilter(DIFF)
    assert f.feed(0, 0, True) == PRESS
    assert f.feed(1, 40000, True) == BOTH
    assert f.feed(0, 90000, False) == RELEASE
    assert f.feed(1, 150000, False) == RELEASE
    assert f.feed(1, 300000, True) == PRESS


def test_filter_works_across_the_tick_wrap():
    f = LeverFilter(DIFF)
    t0 = PERIOD_30 - 1000
    assert f.feed(0, t0, True) == PRESS
    assert f.feed(0, (t0 + 3000) % PERIOD_30, False) == NOTHING  # 3 ms later, across the wrap
    assert f.held_us(0, (t0 + 2000000) % PERIOD_30) == 2000000
    assert f.settled(0, (t0 + DEBOUNCE_US) % PERIOD_30)


def test_a_lever_left_alone_longer_than_half_the_tick_period_still_presses():
    # A classical player may think 20 minutes: 2**30 us ticks wrap every ~17.9 min and a
    # difference is only valid under ~8.9 min. Before settle() existed, this press fell at a
    # phase where the stale difference read as "1 ms after the release": lost as bounce.
    f = LeverFilter(DIFF)
    t = 2000000
    assert f.feed(0, t, True) == PRESS
    assert f.feed(0, t + 80000, False) == RELEASE
    now = t + 80000
    for _ in range(20 * 60 * 1000):       # the loop passes every millisecond
        now += 1000
        if now % 7000000 == 0:            # (settle is cheap; sampled here for speed)
            f.settle(now % PERIOD_30)
    f.settle(now % PERIOD_30)
    late = (t + 80000 + PERIOD_30 - 5000) % PERIOD_30  # reads as 5 ms "before" the release
    assert f.feed(0, late, True) == PRESS


def test_bounce_is_still_filtered_after_a_long_quiet_spell():
    f = LeverFilter(DIFF)
    f.settle(123)
    assert f.feed(1, 10 ** 8, True) == PRESS
    assert f.feed(1, 10 ** 8 + 3000, False) == NOTHING   # chatter: not quiet any more
    f.settle(10 ** 8 + 3000)                               # too early to be quiet
    assert f.feed(1, 10 ** 8 + 5000, True) == NOTHING
    assert f.state[1] is True


def test_a_hold_longer_than_the_tick_span_stays_a_hold():
    f = LeverFilter(DIFF)
    assert f.feed(0, 0, True) == PRESS
    held = [f.held_us(0, (k * 30000000) % PERIOD_30) for k in range(1, 80)]  # 40 minutes
    assert held[0] == 30000000
    assert all(h == 60000000 for h in held[1:])  # capped, never a wrapped negative


def test_a_tap_latched_in_a_flash_write_closes_and_opens_at_one_stamp():
    # boards/mcu.py reports both latched edges of a tap at the same stamp: the press, then
    # the release (not bounce), so the lever is open again for the other lever's press.
    f = LeverFilter(lambda a, b: a - b)
    assert f.feed(0, 5000, True) == PRESS
    assert f.feed(0, 5000, False) == RELEASE
    assert f.feed(1, 9000, True) == PRESS            # not both levers
    # a real bounce (a later stamp) is still chatter
    assert f.feed(1, 9400, False) == NOTHING


def test_an_open_taken_for_bounce_then_a_close_later_is_a_new_press():
    # A close stamped late (after a flash write) and the real release inside the window:
    # the release reads as bounce. A close after the window is a new press, not nothing.
    f = LeverFilter(lambda a, b: a - b)
    assert f.feed(0, 5000, True) == PRESS
    assert f.feed(0, 12000, False) == NOTHING        # within 15 ms: bounce, or the release
    assert f.feed(0, 300000, True) == PRESS          # it was the release
    # a bounce train while held stays one press
    assert f.feed(0, 303000, False) == NOTHING
    assert f.feed(0, 306000, True) == NOTHING
