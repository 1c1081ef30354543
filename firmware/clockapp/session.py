# The session at the board (docs/SESSION.md): what happens around a game rather
# than inside it. One object the app owns and calls once a pass (step) plus a few hooks:
#   - the power-on self-test (RGC 5.3.1, seed 2.9; clockapp/selftest.py, loaded only
#     while it runs); its phase and last result are kept here for the loop and status;
#   - the scheduled start (S1 6.5, seed 2.1): White's clock starts at a set time of day
#     (an adjourned game's: the side to move's, RGC 11.4, with the default time, RGC 12.4);
#     the default time (60 min in the seeds, down to 0: FIDE 2023 6.7.1) counted from it,
#     logged for each side not arrived (an alert for the arbiter only: log and status, no
#     sound, nothing on the displays the players see); arrival marks per player (seed 2.3);
#   - the low-time mark (ACT 2, 5:00): logged when a side's time falls under it, silent in
#     competition (a beep in casual play);
#   - incident marks (RGC 6.1): both clocks and counters logged, nothing paused;
#   - who resumed after a pause (S1 6.13) and the rules that reserve it to the arbiter.
# step() compares small ints only: nothing allocates in a pass while a clock runs. What is
# done rarely (setting a schedule, a mark, a result) is in clockapp/sessionops.py, loaded
# when first used, and the self-test in clockapp/selftest.py: a board's heap keeps only this.

from clockcore import const
from clockcore import engine as E
from clockcore import events as EV

_SEALED = const(2)                # clockapp/seal.py SEALED: an adjourned game waits
_HOLD_INCIDENT_MS = const(2000)   # PLUS held this long (menu closed): an incident mark
_DEFAULT_TIME_S = const(3600)     # S1 6.7, RGC 12.1: 1 h (FIDE 2023: 0 unless the event says)
LOW_TIME_MS = const(300000)      # ACT 2: score-keeping until one side has under 5 minutes

# The self-test's phase (status `testing`): 0 none; its others (lamp, levers, result
# shown) are clockapp/selftest.py's, which sets them.
_T_OFF = const(0)

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


class Session:
    def __init__(self, app):
        self.app = app
        # self-test: the SelfTest while it runs (phase != 0), then freed
        self.phase = _T_OFF
        self.until = 0
        self.test = None
        self.result = -1         # the last self-test's failure bits; -1: none since boot
        # scheduled start (app time, ms; -1: none)
        self.sched_t = -1
        self.sched_s = 0         # the same as Unix seconds (status, log)
        self.default_ms = _DEFAULT_TIME_S * 1000
        self.sched_started = False
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
        self.game_result = -1    # EV.RESULTS index entered; -1: none

    # ---- a new game ------------------------------------------------------------------
    def new_game(self):
        c = self.app.clock
        self.game_over()
        self.incidents = 0
        self.game_result = -1
        self.under = 0
        for s in (0, 1):
            self.armed[s] = c.main[s] >= self.low_ms

    def game_over(self):
        """The game a scheduled start ran is over (ended, or another set up): its default
        time alert goes (the log keeps it in that game's records) and a default time not
        reached yet is no longer counted, so the next game never gets it."""
        self.defaulted = 0
        if self.sched_started:
            self.default_done = True

    # ---- each pass -------------------------------------------------------------------
    def step(self, now):
        app = self.app
        c = app.clock
        if self.phase != _T_OFF and now >= self.until:
            self.test.next_phase(now)
        st = self.sched_t
        if st >= 0:
            if not self.sched_started and now >= st:
                self.sched_started = True   # once: a control set again after it waits
                if c.state == E.IDLE:
                    if app.menu.active():   # the set-up menu would swallow the levers
                        app.menu.close()
                    c.start(st, E.WHITE)    # charged from the scheduled instant
                elif c.state == E.PAUSED and app.seal.phase == _SEALED:
                    # an adjourned game's next session (RGC 11.4): the side to move's
                    # clock starts at the set instant, present or not
                    if c.resume(st):
                        app.log(EV.EV_RESUMED_BY, c.turn, st, EV.BY_HOST)
            if not self.default_done and now >= st + self.default_ms:
                from clockapp import sessionops
                sessionops.default_reached(self, st + self.default_ms)
            if self.arrive_pending:
                from clockapp import sessionops
                sessionops.arrived_by_press(self, now)
        if c.state == E.RUNNING:
            s = c.turn
            if self.armed[s] and c.main[s] < self.low_ms:
                self.armed[s] = False
                self.under |= 1 << s
                app.log(EV.EV_LOW_TIME, s, now, self.low_ms)
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

    # ---- self-test (clockapp/selftest.py, loaded only while it runs) -------------------
    @property
    def testing(self):
        return self.phase != _T_OFF

    def checking(self):
        """The self-test is checking the clock (its lamp or its levers), not just showing
        its result (a start then ends the showing: the result is logged)."""
        return self.test is not None and self.test.checking()

    def selftest(self, now):
        """Start the self-test; only while no game is in progress. True when started."""
        app = self.app
        if self.phase != _T_OFF or app.clock.state != E.IDLE:
            return False
        from clockapp.selftest import SelfTest
        self.test = SelfTest(self)
        self.test.start(now)
        return True

    def lever(self, lever, t):
        """A lever closed at t (ms) during the self-test."""
        if self.test is not None:
            self.test.lever(lever, t)

    def cut(self, t):
        """The clock starts running at t (ms) during the self-test: the test ends first,
        logged as cut short (events.ST_CUT)."""
        if self.test is not None:
            self.test.cut(t)

    def render(self, lever, v):
        """The self-test on a display's text; True when it changed."""
        return self.test.render(lever, v) if self.test is not None else False

    # ---- incident marks --------------------------------------------------------------
    def hold(self, buttons, ms, now, plus):
        """Buttons held ms (menu closed): PLUS alone for _HOLD_INCIDENT_MS is a mark."""
        if buttons != plus or ms < _HOLD_INCIDENT_MS:
            self.hold_done = False
            return
        if not self.hold_done:
            self.hold_done = True
            from clockapp import sessionops
            sessionops.incident(self, now)
