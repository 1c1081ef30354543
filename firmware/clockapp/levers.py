# Lever input: edges timestamped in the hard interrupt, filtered in the main loop.
#
# The interrupt handler only stores (lever, tick, closed) into a preallocated ring: no
# allocation, no logic, so it is safe as a hard IRQ and fast. The main loop drains the
# ring in order and filters contact bounce: a switch that closes chatters for a few
# milliseconds, and the press counts at the FIRST closing edge of the train (when the
# player's move ended), not when it settled.

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

RING = const(32)           # edges buffered between two loop passes (a pass is ~1 ms)
DEBOUNCE_US = const(15000)  # a transition within 15 ms of the last accepted one is bounce

# What a filtered edge turned out to be (returned by LeverFilter.feed).
NOTHING = const(0)   # bounce, or the same state again
PRESS = const(1)     # the lever closed: a press at the edge's tick
RELEASE = const(2)   # the lever opened
BOTH = const(3)      # the lever closed while the other one was still held: not a press


class LeverRing:
    """Single-producer (interrupt) single-consumer (loop) ring of lever edges."""

    def __init__(self):
        self.levers = bytearray(RING)
        self.closed = bytearray(RING)
        self.ticks = [0] * RING
        self.head = 0     # next slot the interrupt writes
        self.tail = 0     # next slot the loop reads
        self.dropped = 0  # edges lost because the ring was full (logged by the app)

    def push(self, lever, tick, closed):
        """Called in the hard interrupt."""
        h = self.head
        n = h + 1
        if n == RING:
            n = 0
        if n == self.tail:
            self.dropped += 1
            return
        self.levers[h] = lever
        self.closed[h] = 1 if closed else 0
        self.ticks[h] = tick
        self.head = n  # published last: the loop never sees a half-written slot

    def pending(self):
        return self.head != self.tail

    # The loop reads the slot at tail with these, then calls pop().
    def lever(self):
        return self.levers[self.tail]

    def tick(self):
        return self.ticks[self.tail]

    def is_closed(self):
        return self.closed[self.tail] == 1

    def pop(self):
        t = self.tail + 1
        self.tail = 0 if t == RING else t


class LeverFilter:
    """Debounced state of both levers; feed() classifies each edge."""

    def __init__(self, ticks_diff, debounce_us=DEBOUNCE_US):
        self.diff = ticks_diff
        self.debounce = debounce_us
        self.state = [False, False]    # accepted state: closed?
        self.accepted = [0, 0]         # tick of the last accepted transition
        self.seen = [False, False]     # any transition accepted yet (the first is never bounce)
        self.closed_at = [0, 0]        # tick the lever last closed (hold length)

    def feed(self, lever, tick, closed):
        if closed == self.state[lever]:
            return NOTHING
        if self.seen[lever] and self.diff(tick, self.accepted[lever]) < self.debounce:
            return NOTHING  # chatter right after a transition
        self.state[lever] = closed
        self.accepted[lever] = tick
        self.seen[lever] = True
        if not closed:
            return RELEASE
        self.closed_at[lever] = tick
        if self.state[1 - lever]:
            return BOTH
        return PRESS

    def held_us(self, lever, now_tick):
        """How long a closed lever has been held (0 when open)."""
        if not self.state[lever]:
            return 0
        return self.diff(now_tick, self.closed_at[lever])

    def settled(self, lever, now_tick):
        """True when no transition could still be bounce at now_tick."""
        return not self.seen[lever] or self.diff(now_tick, self.accepted[lever]) >= self.debounce
