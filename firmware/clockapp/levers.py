# Lever input: edges timestamped in the hard interrupt, filtered in the main loop.
#
# The interrupt handler stores (lever, tick, closed) into a preallocated ring: no
# allocation, so it is safe as a hard IRQ and fast. The main loop drains the ring in order
# and filters contact bounce: a switch that closes chatters for a few milliseconds, and
# the press counts at the FIRST closing edge of the train (when the player's move ended),
# not when it settled.
#
# One piece of logic runs in the interrupt: the running LEDs. The loop arms the running
# side's lever when a press of it is sure to be taken (armed[]); its first closing edge
# then switches the LEDs at once, within microseconds, even while the loop is held by a
# collection or a flash write, and disarms both. The loop reads `lit` to know what the
# LEDs show, and its refresh puts them right should the engine decide otherwise.

from clockcore import const

RING = const(32)           # edges buffered between two loop passes (a pass is ~1 ms)
DEBOUNCE_US = const(15000)  # a transition within 15 ms of the last accepted one is bounce

# What a filtered edge turned out to be (returned by LeverFilter.feed).
NOTHING = const(0)   # bounce, or the same state again
PRESS = const(1)     # the lever closed: a press at the edge's tick
RELEASE = const(2)   # the lever opened
BOTH = const(3)      # the lever closed while the other one was still held: not a press

HOLD_CAP_US = const(60000000)  # hold lengths are measured up to a minute
NONE_LIT = const(255)          # LeverRing.lit: the interrupt lit no LED
LEVERS = (0, 1)                # built once (a tuple in a loop is built every pass)


def _no_switch(lever):
    pass


class LeverRing:
    """Single-producer (interrupt) single-consumer (loop) ring of lever edges."""

    def __init__(self):
        self.levers = bytearray(RING)
        self.closed = bytearray(RING)
        self.ticks = [0] * RING
        self.head = 0     # next slot the interrupt writes
        self.tail = 0     # next slot the loop reads
        self.dropped = 0  # edges lost because the ring was full (logged by the app)
        self.armed = bytearray(2)  # per lever: a close switches the LEDs in the interrupt
        self.lit = NONE_LIT        # the lever whose LED the interrupt lit, until the loop reads it
        self.switch = _no_switch   # the board's set_running(lever), called in the interrupt

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
        if closed and self.armed[lever]:
            armed = self.armed
            armed[0] = 0
            armed[1] = 0
            self.lit = 1 - lever
            self.switch(1 - lever)

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
    """Debounced state of both levers; feed() classifies each edge.

    Ticks wrap (2**30 us), and a difference is only valid across less than half the period
    (about 8.9 minutes), while a player may leave a lever alone for far longer. So no tick
    is ever compared with an old one: the loop calls settle() every pass, which marks a
    lever `quiet` once its debounce window has passed (a short span); an edge on a quiet
    lever is a real transition without any comparison."""

    def __init__(self, ticks_diff, debounce_us=DEBOUNCE_US):
        self.diff = ticks_diff
        self.debounce = debounce_us
        self.state = [False, False]    # accepted state: closed?
        self.accepted = [0, 0]         # tick of the last accepted transition
        self.quiet = [True, True]      # no transition within the debounce window
        self.closed_at = [0, 0]        # tick the lever last closed (hold length)
        self.hold_seen = [True, True]  # hold length past HOLD_CAP_US: stop measuring
        self.doubt = [False, False]    # closed, but an open since was taken for bounce

    def feed(self, lever, tick, closed):
        if closed == self.state[lever]:
            if closed and self.doubt[lever] and self.settled(lever, tick):
                # A close on a lever taken as closed, whose open was taken for bounce: that
                # open was its release (a close stamped late, after a flash write, then its
                # real release within the window). This is a new press.
                self.state[lever] = False
            else:
                return NOTHING
        elif not self.quiet[lever] and self.diff(tick, self.accepted[lever]) < self.debounce \
                and (closed or tick != self.accepted[lever]):
            # Chatter right after a transition. Not an open stamped at the very instant of
            # the close: both edges of a tap were latched while interrupts were off (a flash
            # write) and reported together (boards/mcu.py). The lever is open: kept closed
            # here it would make the other lever's next press "both levers" until re-synced.
            if not closed:
                self.doubt[lever] = True   # bounce, or the release of a late close
            return NOTHING
        self.doubt[lever] = False
        self.state[lever] = closed
        self.accepted[lever] = tick
        self.quiet[lever] = False
        if not closed:
            return RELEASE
        self.closed_at[lever] = tick
        self.hold_seen[lever] = False
        if self.state[1 - lever]:
            return BOTH
        return PRESS

    def settle(self, now_tick):
        """Every loop pass, after the ring was drained (edges drained later are stamped
        after now_tick, so a lever quiet now is quiet for them too)."""
        for lever in LEVERS:
            if not self.quiet[lever] and \
                    self.diff(now_tick, self.accepted[lever]) >= self.debounce:
                self.quiet[lever] = True

    def held_us(self, lever, now_tick):
        """How long a closed lever has been held (0 when open), up to HOLD_CAP_US: the
        span is measured only while it is short enough for tick arithmetic."""
        if not self.state[lever] or self.hold_seen[lever]:
            return HOLD_CAP_US if self.state[lever] else 0
        d = self.diff(now_tick, self.closed_at[lever])
        if d >= HOLD_CAP_US:
            self.hold_seen[lever] = True
            return HOLD_CAP_US
        return d

    def settled(self, lever, now_tick):
        """True when no transition could still be bounce at now_tick."""
        return self.quiet[lever] or self.diff(now_tick, self.accepted[lever]) >= self.debounce
