# The clock engine: a pure state machine that decides how much time each side has.
#
# Time is injected: every call takes `now`, integer milliseconds on one monotonic time line
# chosen by the caller (ticks.Timebase turns wrapping hardware ticks into one). The engine
# never reads a clock. Behaviour follows shared/CLOCK-RULES.md (FIDE Laws Art. 6).
#
# Hot path (press, tick): no allocation once a game runs: only small ints are stored and
# the listener is called with four ints. Events go to `listener(ev, side, t_ms, arg)`.

from clockcore import const
from clockcore.control import (
    DELAY_BRONSTEIN,
    DELAY_SIMPLE,
    MODE_HOURGLASS,
    MODE_UPCOUNT,
    Stage,  # noqa: F401  (re-exported; corrections.py's)
)
from clockcore.events import (
    EV_ADD_STAGE,  # noqa: F401  (re-exported; corrections.py's)
    EV_ADJUST,
    EV_END,
    EV_FLAG,
    EV_IGNORED,
    EV_LIMIT,
    EV_OVERTIME,
    EV_PAUSE,
    EV_PERIOD,
    EV_PRESS,
    EV_RESUME,
    EV_SET_MOVES,  # noqa: F401  (re-exported; corrections.py's)
    EV_SET_STAGE,  # noqa: F401  (re-exported; corrections.py's)
    EV_SET_TIME,
    EV_STAGE,
    EV_START,
    EV_UNDO,  # noqa: F401  (re-exported; corrections.py's)
    EV_UNFLAG,
)

WHITE = const(0)
BLACK = const(1)
NOBODY = const(-1)

# Clock states.
IDLE = const(0)     # set up, not started
RUNNING = const(1)
PAUSED = const(2)
FROZEN = const(3)   # a flag fell with freeze on: both stopped, displays keep their values
ENDED = const(4)

# Events go to the listener as (ev, side, t_ms, arg): the codes and what `arg` is for each
# are in clockcore/events.py (EV_START ... EV_LIMIT, 0-17).
STATE_NAMES = ("idle", "running", "paused", "frozen", "ended")
SIDE_NAMES = ("white", "black")

# Why a stage was passed (clock.stage_cause).
CAUSE_MOVES = const(0)    # the press completing the stage's N-th move
CAUSE_TIMEOUT = const(1)  # main time reached zero (DGT "TIME" mode)
CAUSE_ARBITER = const(2)  # set by set_moves

MAX_MOVE_LIMIT = const(999)  # a move-limit game (play-off) is short; the log keeps it small


def _nothing(ev, side, t, arg):
    pass


class Clock:
    """Both players' clocks for one game.

    Options: `inc_at_turn_start` credits the Fischer increment when a side's turn starts
    (DGT style: White sees base+inc at the start) instead of on its press; `stage_on_flag`
    adds the next stage's time when main time reaches zero instead of on the press that
    completes the stage's moves; `freeze` stops both clocks at a flag (else the other side
    keeps playing and its flag can fall too); `move_limit` N > 0 ends the game on the press
    that gives both sides N moves (a play-off of at most N moves each, seed S3 4.1)."""

    def __init__(self, control, listener=None, inc_at_turn_start=False, stage_on_flag=False,
                 freeze=True, move_limit=0):
        if not 0 <= move_limit <= MAX_MOVE_LIMIT:
            raise ValueError("a move limit is 0 (none) to %d moves a side" % MAX_MOVE_LIMIT)
        control.validate()
        self.sides = (control.white, control.black)
        # Own copies of the stage lists: add_stage() must not change a shared Control.
        self.stages = [list(control.white.stages), list(control.black.stages)]
        self.listener = listener or _nothing
        self.inc_at_turn_start = inc_at_turn_start
        self.stage_on_flag = stage_on_flag
        self.freeze = freeze
        self.move_limit = move_limit

        self.state = IDLE
        self.turn = WHITE          # whose clock runs (or would run, when paused)
        self.last = 0              # time up to which the running side has been charged
        self.main = [self.stages[0][0].time_ms, self.stages[1][0].time_ms]
        self.moves = [0, 0]        # presses counted as moves
        self.stage = [0, 0]        # index into self.stages[side]
        self.stage_moves = [0, 0]  # moves made in the current stage
        self.stage_cause = CAUSE_MOVES
        # Byo-yomi: periods left (0 = not in overtime) and moves made in the current period.
        self.periods = [0, 0]
        self.period_moves = [0, 0]
        self.flag_at = [-1, -1]    # instant each side's flag fell, -1 while it stands
        self.flag_order = [NOBODY, NOBODY]
        self.overrun = [0, 0]      # time run after a side's flag fell (no-freeze only)
        # Out of time: its flag fell and no time came since. Its clock runs as overrun and
        # nothing is added but the next stage's time on the press completing a stage's
        # moves. A side's first flag stays in flag_at when it gets time again that way.
        self.out = [False, False]
        # The turn in progress.
        self.turn_used = 0         # time this turn has run, delay included
        self.delay_left = 0        # simple delay still to run before main time moves
        # The last press, so that an arbiter can undo it as a move.
        self.undo_side = NOBODY
        self.undo_gain = 0
        self.undo_moves = 0
        self.undo_stage = 0
        self.undo_stage_moves = 0
        self.undo_period_moves = 0
        self.undo_opp_gain = 0     # what the press credited the opponent (turn-start increment)
        self.undo_taken_opp = 0    # what the last undo took from the opponent (for listeners)
        # (31 attributes: MicroPython's instance map then has 53 slots; at 29 it is a full
        # 29-slot table and every press costs ~15% more in `make bench`.)

    # ---- reading -----------------------------------------------------------------
    def current_stage(self, side):
        return self.stages[side][self.stage[side]]

    def flagged(self, side):
        return self.flag_at[side] >= 0

    def running(self):
        """The side whose clock is running now, or NOBODY."""
        return self.turn if self.state == RUNNING else NOBODY

    def in_overtime(self, side):
        return self.periods[side] > 0

    # ---- time running ------------------------------------------------------------
    def tick(self, now):
        """Bring the clock up to `now`. Flags fall at their exact instants whenever this
        is called; a `now` at or before the last time seen changes nothing."""
        while self.state == RUNNING and now > self.last:
            s = self.turn
            dt = now - self.last
            if self.sides[s].mode == MODE_UPCOUNT:
                self.main[s] += dt
                self.turn_used += dt
                self.last = now
                return
            if self.out[s]:  # out of time, clocks kept running (no freeze): the overrun
                self.overrun[s] += dt
                self.turn_used += dt
                self.last = now
                return
            d = self.delay_left
            if d:
                if dt < d:
                    self.delay_left = d - dt
                    self.turn_used += dt
                    self.last = now
                    return
                self.delay_left = 0
                self.turn_used += d
                self.last += d
                continue
            m = self.main[s]
            # Hourglass: the mover's time goes to the opponent, unless the opponent's flag
            # is down (no time is added after the last control is passed).
            hourglass = self.sides[s].mode == MODE_HOURGLASS and not self.out[1 - s]
            if dt < m:
                self.main[s] = m - dt
                if hourglass:
                    self.main[1 - s] += dt
                self.turn_used += dt
                self.last = now
                return
            # Main time runs out inside this span, at an exact instant.
            self.main[s] = 0
            if hourglass:
                self.main[1 - s] += m
            self.turn_used += m
            self.last += m
            self._time_out(s, self.last)

    def _time_out(self, s, t):
        side = self.sides[s]
        st = self.stages[s][self.stage[s]]
        if st.moves:
            # A stage with a move count (a last one repeats) ran out: a flag of that stage
            # (Art. 6.9; the arbiter checks the moves, 6.4). In "TIME" mode the next stage's
            # time comes now and the flag is only recorded as a fall when the presses made
            # are fewer than the stage asks (as in move-counter mode, where the press
            # completing them passes the stage first); the event is always logged.
            if self.stage_on_flag:
                self._flag(s, t, self.stage_moves[s] < st.moves, False)
                self._pass_stage(s, t, CAUSE_TIMEOUT)
                if self.out[s]:  # a stage with no time of its own: out of it too
                    self._time_out(s, t)
                return
            self._flag(s, t, True, True)
            return
        # The stage for the rest of the game: byo-yomi follows its main time, and only its.
        if side.byo_periods:
            p = self.periods[s]
            if p == 0:
                self.periods[s] = side.byo_periods
                self.period_moves[s] = 0
                self.main[s] = side.byo_ms
                self.out[s] = False
                self.listener(EV_OVERTIME, s, t, side.byo_periods)
                return
            if p > 1:
                self.periods[s] = p - 1
                self.period_moves[s] = 0
                self.main[s] = side.byo_ms
                self.listener(EV_PERIOD, s, t, p - 1)
                return
            self.periods[s] = 0  # the last period is gone
        self._flag(s, t, True, True)

    def _flag(self, s, t, record, stop):
        """The flag event of side s's stage; `record` enters it as a fall (flag_at, the
        order; a side's first fall is the one kept), `stop` freezes when freeze is on."""
        if record and self.flag_at[s] < 0:
            self.flag_at[s] = t
            if self.flag_order[0] == NOBODY:
                self.flag_order[0] = s
            else:
                self.flag_order[1] = s
        self.out[s] = True
        if stop and self.freeze:
            self.state = FROZEN
        self.listener(EV_FLAG, s, t, self.stage_moves[s])

    def _pass_stage(self, s, t, cause):
        """Move side s to its next stage (a last stage with moves repeats) and add its time."""
        stages = self.stages[s]
        i = self.stage[s] + 1
        if i >= len(stages):
            i = len(stages) - 1
        self.stage[s] = i
        self.stage_moves[s] = 0
        add = stages[i].time_ms
        self.main[s] += add
        if add:
            self.out[s] = False
        self.stage_cause = cause
        self.listener(EV_STAGE, s, t, add)

    def _begin_turn(self, s):
        """Side s's turn starts: its delay, and its increment when credited at turn start."""
        self.turn = s
        self.turn_used = 0
        if self.out[s]:  # out of time: no delay, no increment
            self.delay_left = 0
            return
        st = self.stages[s][self.stage[s]]
        self.delay_left = st.delay_ms if st.delay_kind == DELAY_SIMPLE else 0
        if self.inc_at_turn_start and st.inc_ms:
            self.main[s] += st.inc_ms

    # ---- players -----------------------------------------------------------------
    def start(self, now, side=WHITE):
        """The arbiter starts the game: `side` (White, Art. 6.6; S1 6.5) runs from `now`."""
        if self.state != IDLE:
            self.tick(now)
            return False
        self.state = RUNNING
        self.last = now
        self._begin_turn(side)
        self.listener(EV_START, side, now, 0)
        return True

    def press(self, side, now):
        """`side` pressed its lever at `now` (the lever timestamp). Returns True when the
        press completed a move or started the game; other presses change nothing."""
        if self.state == IDLE:
            if side == BLACK:  # Black's press starts White's clock
                return self.start(now)
            self.listener(EV_IGNORED, side, now, self.state)
            return False
        self.tick(now)
        if self.state != RUNNING or side != self.turn:
            self.listener(EV_IGNORED, side, now, self.state)
            return False
        if now < self.last:  # a timestamp older than what was charged: charge it now
            now = self.last
        s = side
        o = 1 - s
        before = self.main[s]
        before_o = self.main[o]
        self.undo_moves = self.moves[s]
        self.undo_stage = self.stage[s]
        self.undo_stage_moves = self.stage_moves[s]
        self.undo_period_moves = self.period_moves[s]
        credit = 0
        passes = False
        if self.sides[s].mode != MODE_UPCOUNT:
            st = self.stages[s][self.stage[s]]
            if not self.out[s]:  # out of time: nothing for this move
                if st.delay_kind == DELAY_BRONSTEIN:
                    credit = self.turn_used if self.turn_used < st.delay_ms else st.delay_ms
                if not self.inc_at_turn_start:
                    credit += st.inc_ms
                self.main[s] += credit
                if self.periods[s]:
                    n = self.period_moves[s] + 1
                    if n >= self.sides[s].byo_moves:  # period done in time: it starts again
                        n = 0
                        self.main[s] = self.sides[s].byo_ms
                    self.period_moves[s] = n
            # Every move counts for the stage, in a byo-yomi period or after a flag: a side
            # out of time in a stage with a move count still gets the next stage's time on
            # the press completing its moves (as an analog clock's next control would).
            self.stage_moves[s] += 1
            if st.moves and not self.stage_on_flag and self.stage_moves[s] >= st.moves:
                passes = True
        self.moves[s] += 1
        self._begin_turn(o)
        self.listener(EV_PRESS, s, now, credit)
        if passes:
            self._pass_stage(s, now, CAUSE_MOVES)
            if self.out[s]:  # out of time and the new stage brings none
                self._time_out(s, now)
        self.undo_side = s
        self.undo_gain = self.main[s] - before
        self.undo_opp_gain = self.main[o] - before_o
        lim = self.move_limit
        if lim and self.moves[s] >= lim and self.moves[o] >= lim:
            # Both sides have made their N moves: the play-off is over (S3 4.1).
            self.listener(EV_LIMIT, s, now, lim)
            self.end(now)
        return True

    # ---- arbiter -----------------------------------------------------------------
    def pause(self, now):
        """Stop both clocks (Art. 6.11; S1 6.13); the turn and its delay are kept."""
        self.tick(now)
        if self.state != RUNNING:
            return False
        self.state = PAUSED
        self.listener(EV_PAUSE, self.turn, now, 0)
        return True

    def resume(self, now, side=NOBODY):
        """Continue after a pause. `side` lets the arbiter run the other clock instead; the
        turn then starts afresh for that side."""
        self.tick(now)
        if self.state != PAUSED:
            return False
        if side != NOBODY and side != self.turn:
            self._begin_turn(side)
            self.undo_side = NOBODY
        self.state = RUNNING
        self.last = now
        self.listener(EV_RESUME, self.turn, now, 0)
        return True

    def end(self, now):
        """The game is over: nothing runs any more."""
        self.tick(now)
        if self.state == ENDED:
            return False
        self.state = ENDED
        self.listener(EV_END, NOBODY, now, 0)
        return True

    def _set_main(self, s, ms, now, ev, arg):
        if ms < 0:
            raise ValueError("%s would have negative time (%d ms)" % (SIDE_NAMES[s], ms))
        was_out = self.out[s]
        self.main[s] = ms
        self.listener(ev, s, now, arg)
        if ms > 0 and was_out:  # a side that got past its flag keeps it recorded
            self._unflag(s, now)

    def _unflag(self, s, now):
        """An arbiter's correction gave a flagged side time again: its flag is taken back."""
        self.flag_at[s] = -1
        self.out[s] = False
        self.overrun[s] = 0
        if self.flag_order[0] == s:
            self.flag_order[0] = self.flag_order[1]
        self.flag_order[1] = NOBODY
        if self.state == FROZEN:
            self.state = PAUSED
        self.listener(EV_UNFLAG, s, now, 0)

    def adjust(self, side, delta, now):
        """Add (or, negative, take) time: the +2 min penalty is adjust(opponent, 120000)."""
        self.tick(now)
        self._set_main(side, self.main[side] + delta, now, EV_ADJUST, delta)

    def set_time(self, side, ms, now):
        self.tick(now)
        self._set_main(side, ms, now, EV_SET_TIME, ms)

    def set_moves(self, side, n, now):
        """Correct a move counter (Art. 6.12.2; S1 6.14). The stage counter moves with it;
        in move-counter mode reaching the stage's count passes the stage, adding its time."""
        from clockcore import corrections
        return corrections.set_moves(self, side, n, now)

    def set_stage(self, side, index, now):
        """Put a side in another stage (its time is set separately)."""
        from clockcore import corrections
        return corrections.set_stage(self, side, index, now)

    def add_stage(self, side, stage, now):
        """Add a stage and enter it now, its time added to what the side has (e.g. "finish
        with 15 minutes each", RGC 10.1). side NOBODY: both sides. A stage with no time and
        an increment is "+5 s a move from now on" (FIDE Guidelines III): add_increment()."""
        from clockcore import corrections
        return corrections.add_stage(self, side, stage, now)

    def add_increment(self, side, inc_ms, now):
        """"+inc_ms a move from now on" for side (NOBODY: both), FIDE Guidelines III: one
        arbiter action, a stage with no time of its own and that increment for the rest of
        the game (it replaces the increment or delay of the stage the side was in)."""
        from clockcore import corrections
        return corrections.add_increment(self, side, inc_ms, now)

    def undo_press(self, now):
        """Mark the last press as not a move (Art. 7.5.4): corrections.undo_press says how."""
        from clockcore import corrections
        return corrections.undo_press(self, now)

    def split(self, elapsed, white_percent, now):
        """Charge `elapsed` ms to both sides in a ratio (late arrival: 60/40, RGC 12.1).
        White's share is elapsed * white_percent // 100, Black gets the rest: exact."""
        from clockcore import corrections
        return corrections.split(self, elapsed, white_percent, now)
