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
