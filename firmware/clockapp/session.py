# The session at the board (issue 14; docs/SESSION.md): what happens around a game rather
# than inside it. One object the app owns and calls once a pass (step) plus a few hooks:
#   - the power-on self-test (RGC 5.3.1, seed 2.9): every segment lit, the buzzer sounds,
#     each lever must be pressed, the battery read; the result logged and kept for status;
#   - the scheduled start (S1 6.5, seed 2.1): White's clock starts at a set time of day;
#     the default time (60 min in the seeds, down to 0: FIDE 2023 6.7.1) counted from it,
#     logged for each side not arrived (an alert for the arbiter only: log and status, no
#     sound, nothing on the displays the players see); arrival marks per player (seed 2.3);
#   - the low-time mark (ACT 2, 5:00): logged when a side's time falls under it, silent in
#     competition (a beep in casual play);
#   - incident marks (RGC 6.1): both clocks and counters logged, nothing paused;
#   - who resumed after a pause (S1 6.13) and the rules that reserve it to the arbiter.
# step() compares small ints only: nothing allocates in a pass while a clock runs.

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from clockcore import engine as E
from clockcore import eventlog as L

LAMP_MS = const(2000)        # every segment and pixel lit, the buzzer on
LEVERS_MS = const(15000)     # time to press both levers
SHOW_MS = const(3000)        # the result on the displays
HOLD_INCIDENT_MS = const(2000)   # PLUS held this long (menu closed): an incident mark
DEFAULT_TIME_S = const(3600)     # S1 6.7, RGC 12.1: 1 h (FIDE 2023: 0 unless the event says)
LOW_TIME_MS = const(300000)      # ACT 2: score-keeping until one side has under 5 minutes

T_OFF = const(0)
T_LAMP = const(1)
T_LEVERS = const(2)
T_SHOW = const(3)

TEST_TONE = (2000, 300)
LOW_TONE = (1000, 60)

# Presets whose rules reserve the restart after a pause to the arbiter (S1 6.13: "the
# arbiter decides the restart"; FIDE 2023 6.11.2): standard play with an arbiter at the
# board. Rapid and blitz presets (ACT 15, RAP 14: the players stop the clocks in a
# dispute) and typed controls let START resume.
ARBITER_RESUME = ("fide-classical", "fce-six-hour", "wc-2008-first", "fce-finish-15")


def competition(preset):
    """A preset's rules apply (no sound a player could take as a signal), not casual play
    (a control typed by hand, or a preset that sounds its flag)."""
    return preset is not None and not preset.audible_flag


def _put(buf, text):
    n = len(buf)
    t = text[-n:]
    pad = n - len(t)
    for i in range(pad):
        buf[i] = 32
    for i in range(len(t)):
        buf[pad + i] = ord(t[i])


class Session:
    def __init__(self, app):
        self.app = app
        # self-test
        self.phase = T_OFF
        self.until = 0
        self.seen = 0            # bits: levers pressed (1 << LEFT, 1 << RIGHT)
        self.nacks0 = 0
        self.result = -1         # the last self-test's failure bits; -1: none since boot
        self.version = 1
        self.drawn = [0, 0]
        # scheduled start (app time, ms; -1: none)
        self.sched_t = -1
        self.sched_s = 0         # the same as Unix seconds (status, log)
        self.default_ms = DEFAULT_TIME_S * 1000
        self.default_done = False
        self.defaulted = 0       # bits: sides past the default time when it ran out
        self.arrived = 0         # bits: sides marked arrived
        self.arrive_pending = 0  # bits: first presses since the last pass (logged in step)
        # low-time mark
        self.low_ms = LOW_TIME_MS
        self.armed = [False, False]
        self.under = 0           # bits: sides under the mark now
        self.incidents = 0
        self.hold_done = False
        self.game_result = -1    # L.RESULTS index entered; -1: none

    # ---- a new game ------------------------------------------------------------------
    def new_game(self):
        c = self.app.clock
        self.incidents = 0
        self.game_result = -1
        self.under = 0
        for s in (0, 1):
            self.armed[s] = c.main[s] >= self.low_ms

    # ---- each pass -------------------------------------------------------------------
    def step(self, now):
        app = self.app
        c = app.clock
        if self.phase != T_OFF and now >= self.until:
            self._next_phase(now)
        st = self.sched_t
        if st >= 0:
            if c.state == E.IDLE and now >= st and not self.default_done:
                c.start(st, E.WHITE)   # charged from the scheduled instant, not this pass
            if not self.default_done and now >= st + self.default_ms:
                self._default(st + self.default_ms)
            if self.arrive_pending:
                p = self.arrive_pending
                self.arrive_pending = 0
                for s in (0, 1):
                    if p & (1 << s):
                        self.arrive(s, now)
        if c.state == E.RUNNING:
            s = c.turn
            if self.armed[s] and c.main[s] < self.low_ms:
                self.armed[s] = False
                self.under |= 1 << s
                app.log(L.EV_LOW_TIME, s, now, self.low_ms)
                if not competition(app.preset):
                    app.buzzer.play(LOW_TONE, now)
            o = 1 - s
            if not self.armed[o] and c.main[o] >= self.low_ms:  # given time back (+2 min)
                self.armed[o] = True
                self.under &= ~(1 << o)

    def on_press(self, side):
        """A press completed a move: the side is at the board (logged next pass, after
        the engine's events of the press)."""
        if self.sched_t >= 0 and not self.arrived & (1 << side):
            self.arrive_pending |= 1 << side

    # ---- self-test ---------------------------------------------------------------------
    @property
    def testing(self):
        return self.phase != T_OFF

    def selftest(self, now):
        """Start the self-test; only while no game is in progress. True when started."""
        app = self.app
        if self.phase != T_OFF or app.clock.state != E.IDLE:
            return False
        if app.menu.active():
            app.menu.close()
        self.phase = T_LAMP
        self.until = now + LAMP_MS
        self.seen = 0
        self.nacks0 = self._nacks()
        b = app.buzzer
        on = b.enabled
        b.enabled = True       # the buzzer is tested even with the sound off
        b.play(TEST_TONE, now)
        b.enabled = on
        self.version += 1
        return True

    def _nacks(self):
        n = 0
        for d in self.app.displays:
            tm = getattr(d, "tm", None)   # TM1637Display: bytes the module did not ACK
            n += getattr(tm, "nacks", 0) if tm is not None else getattr(d, "errors", 0)
        return n

    def lever(self, lever):
        """A lever closed during the self-test."""
        if self.phase == T_LEVERS:
            self.seen |= 1 << lever
            self.version += 1
            if self.seen == 3:
                self._next_phase(self.app.now)

    def _next_phase(self, now):
        if self.phase == T_LAMP:
            self.phase = T_LEVERS
            self.until = now + LEVERS_MS
        elif self.phase == T_LEVERS:
            self._finish(now)
            self.phase = T_SHOW
            self.until = now + SHOW_MS
        else:
            self.phase = T_OFF
            for v in self.app.views:
                v.test = False
            self.app.refresh(True)
        self.version += 1

    def _finish(self, now):
        app = self.app
        b = app.board
        bits = 0
        if not self.seen & 1:
            bits |= L.ST_LEFT
        if not self.seen & 2:
            bits |= L.ST_RIGHT
        mv = b.battery_mv()
        pct = b.battery_pct()
        if mv < 0 and pct < 0:
            bits |= L.ST_NO_BATTERY
        if (0 <= mv < b.battery_low_mv) or (0 <= pct < b.battery_low_pct):
            bits |= L.ST_BATTERY
        if self._nacks() != self.nacks0:
            bits |= L.ST_DISPLAY
        self.result = bits
        app.log(L.EV_SELFTEST, E.NOBODY, now, bits, mv, pct)

    def render(self, lever, v):
        """The self-test on a display's text; True when it changed."""
        if self.drawn[lever] == self.version and v.text_on:
            return False
        self.drawn[lever] = self.version
        v.test = self.phase == T_LAMP
        if self.phase == T_LAMP:
            _put(v.text, "88888888")
        elif self.phase == T_LEVERS:
            if self.seen & (1 << lever):
                _put(v.text, "Good")
            else:
                _put(v.text, "LEFt" if lever == 0 else "rIGt")
        elif lever == 0:
            _put(v.text, "tESt")
        elif self.result == 0:
            _put(v.text, "PASS")
        else:
            _put(v.text, "F %d" % self.result)
        v.text_on = True
        return True

    # ---- scheduled start, default time, arrivals -------------------------------------
    def schedule(self, unix_s, default_s):
        """White's clock starts at unix_s (the host's wall clock, which the clock must
        have); the default time counts from then. unix_s 0 clears it. ValueError when it
        cannot be."""
        app = self.app
        if unix_s == 0:
            self.sched_t = -1
            self.sched_s = 0
            app.log(L.EV_SCHEDULE, E.NOBODY, app.now, 0, default_s)
            return
        if app.wall_s <= 0:
            raise ValueError("the clock has no time of day: set it first (wallclock)")
        if app.clock.state != E.IDLE:
            raise ValueError("a game is in progress")
        if not 0 <= default_s <= 86400:
            raise ValueError("the default time is 0 to 86400 s")
        t = app.wall_at + (unix_s - app.wall_s) * 1000
        if t < app.now:
            raise ValueError("that time is past")
        if t - app.now > 7 * 86400 * 1000:
            raise ValueError("that time is more than a week away")
        self.sched_t = t
        self.sched_s = unix_s
        self.default_ms = default_s * 1000
        self.default_done = False
        self.defaulted = 0
        self.arrived = 0
        self.arrive_pending = 0
        app.log(L.EV_SCHEDULE, E.NOBODY, app.now, unix_s, default_s)

    def _default(self, t):
        self.default_done = True
        for s in (0, 1):
            if not self.arrived & (1 << s) and not self.arrive_pending & (1 << s):
                self.defaulted |= 1 << s
                self.app.log(L.EV_DEFAULT, s, t, self.default_ms // 1000)

    def arrive(self, side, now):
        """Mark a player at the board (the arbiter, or the side's first press). False when
        already marked."""
        if self.arrived & (1 << side):
            return False
        self.arrived |= 1 << side
        at = now - self.sched_t if self.sched_t >= 0 else 0
        self.app.log(L.EV_ARRIVAL, side, now, at)
        return True

    # ---- incident marks --------------------------------------------------------------
    def hold(self, buttons, ms, now, plus):
        """Buttons held ms (menu closed): PLUS alone for HOLD_INCIDENT_MS is a mark."""
        if buttons != plus or ms < HOLD_INCIDENT_MS:
            self.hold_done = False
            return
        if not self.hold_done:
            self.hold_done = True
            self.incident(now)

    def incident(self, now):
        """Both clocks, the counters and (in the log's UTC) the time of day; no pause."""
        app = self.app
        if app.clock.state == E.IDLE:
            return 0
        self.incidents += 1
        app.log(L.EV_INCIDENT, E.NOBODY, now, self.incidents)
        return self.incidents

    # ---- results ---------------------------------------------------------------------
    def enter_result(self, index, now, by):
        """End the game (if not ended) and log its result (L.RESULTS[index])."""
        app = self.app
        c = app.clock
        if not 0 <= index < len(L.RESULTS):
            raise ValueError("result is one of " + ", ".join(L.RESULTS))
        if c.state == E.IDLE:
            raise ValueError("no game was played")
        if c.state != E.ENDED:
            c.end(now)
        self.game_result = index
        app.log(L.EV_RESULT, E.NOBODY, now, index, by)
