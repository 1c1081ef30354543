"""Properties of the engine over random controls and press sequences (hypothesis).

The checker below is a second statement of the rules, written independently of the engine's
interval arithmetic: it looks at the clock after every call and inside every event, and asks
- between two observations only the running side's time moved, and by exactly the time that
  passed (delay first, then main time; hourglass: to the opponent): time charged equals time
  elapsed, to the millisecond, at every step;
- a flag, a byo-yomi period and a stage passed on time-out happen exactly when that side's
  time reaches zero, never earlier or later;
- every credit at a press is the legal one (increment, Bronstein min(used, delay), byo-yomi
  restart, stage time), every press counts for its stage, and a side out of time gains
  nothing but the next stage's time on the press completing a stage's moves;
- byo-yomi starts only after the stage for the rest of the game; a flag in a stage with a
  move count freezes only in move-counter mode, and in TIME mode is a fall only when the
  presses made are fewer than the stage asks;
- an undo takes back exactly what the last press brought, to whichever side it went, and
  gives the turn back to the side that pressed (no fresh delay; the opponent's clock keeps
  what it ran);
- with a move limit N, the game ends (`limit`, then `end`, at that press's instant, times
  untouched) on exactly the press that gives both sides N moves, and at no other.
"""

from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

from clockcore import engine as E
from clockcore import logread as LR
from clockcore.control import (
    DELAY_BRONSTEIN,
    DELAY_NONE,
    DELAY_SIMPLE,
    MODE_COUNTDOWN,
    MODE_HOURGLASS,
    MODE_UPCOUNT,
    Control,
    SideControl,
    Stage,
)


@st.composite
def side_controls(draw, mode):
    if mode != MODE_COUNTDOWN:
        return SideControl([Stage(draw(st.integers(1, 5000)))], mode=mode)
    n = draw(st.integers(1, 3))
    byo = draw(st.booleans())
    stages = []
    for i in range(n):
        last = i == n - 1
        moves = 0 if last and (byo or draw(st.booleans())) else draw(st.integers(1, 4))
        kind = draw(st.sampled_from([DELAY_NONE, DELAY_NONE, DELAY_SIMPLE, DELAY_BRONSTEIN]))
        bonus = draw(st.integers(0, 1500))
        inc = bonus if kind == DELAY_NONE else 0
        delay = bonus if kind != DELAY_NONE else 0
        stages.append(Stage(draw(st.integers(0 if i else 1, 4000)), moves, inc, delay, kind))
        if last and moves and stages[-1].time_ms == 0:
            stages[-1].time_ms = 1
    if byo:
        return SideControl(stages, byo_periods=draw(st.integers(1, 3)),
                           byo_ms=draw(st.integers(1, 2000)), byo_moves=draw(st.integers(1, 3)))
    return SideControl(stages)


@st.composite
def controls(draw):
    mode = draw(st.sampled_from([MODE_COUNTDOWN] * 6 + [MODE_HOURGLASS, MODE_UPCOUNT]))
    white = draw(side_controls(mode))
    if mode == MODE_HOURGLASS or draw(st.booleans()):
        black = draw(side_controls(mode))
    else:
        black = white
    return Control(white, black)


actions = st.lists(
    st.tuples(st.integers(0, 2500),
              st.sampled_from(["press", "press", "press", "press", "press-w", "press-b",
                               "tick", "tick", "pause", "resume", "undo"])),
    min_size=1, max_size=60)


class Obs:
    """What the clock showed at one instant: after a call, or just after an event."""

    def __init__(self, c, t, ev=None, side=E.NOBODY, arg=0):
        self.t, self.ev, self.side, self.arg = t, ev, side, arg
        self.main = list(c.main)
        self.delay = c.delay_left
        self.turn = c.turn
        self.state = c.state
        self.flagged = [c.flag_at[0] >= 0, c.flag_at[1] >= 0]
        self.stage = list(c.stage)
        self.stage_moves = list(c.stage_moves)
        self.periods = list(c.periods)
        self.period_moves = list(c.period_moves)
        self.turn_used = c.turn_used


def run(control, options, script):
    seen = []
    clock = None

    def listener(ev, side, t, arg):
        seen.append(Obs(clock, t, ev, side, arg))

    clock = E.Clock(control, listener, **options)
    seen.append(Obs(clock, 0))
    clock.start(0)
    t = 0
    for dt, act in script:
        t += dt
        if act == "press":  # the side whose clock runs: a real move
            clock.press(clock.turn, t)
        elif act == "press-w":
            clock.press(E.WHITE, t)
        elif act == "press-b":
            clock.press(E.BLACK, t)
        elif act == "pause":
            clock.pause(t)
        elif act == "resume":
            clock.resume(t)
        elif act == "undo":
            clock.undo_press(t)
        else:
            clock.tick(t)
        seen.append(Obs(clock, t))
    return clock, seen


def check(control, options, seen):
    sides = (control.white, control.black)
    time_mode = options["stage_on_flag"]
    elapsed = [0, 0]      # time each side's clock ran, from the observations
    charged = [0, 0]      # what it cost them: delay, main time, or overrun after a flag
    # The checker's own account of each side, never read from the clock:
    out = [False, False]       # out of time: no time added, its clock runs as overrun
    fell = [False, False]      # a flag recorded as a fall (a side's first is kept)
    stage = [0, 0]             # the stage it is in
    in_stage = [0, 0]          # presses made in that stage
    turn_run = 0               # time the current turn has run
    last_press = None          # what undo takes back: (side, before, counters, bonus)
    limit = options.get("move_limit", 0)
    moves = [0, 0]             # presses counted as moves, undos taken off
    limit_due = False          # the last press gave both sides the limit: limit, end next
    prev = seen[0]

    def stage_of(s):
        return sides[s].stages[stage[s]]

    for cur in seen[1:]:
        dt = cur.t - prev.t
        assert dt >= 0
        # What the clock must show at cur.t before the event at cur.t, if any.
        exp_main = list(prev.main)
        exp_delay = prev.delay
        if prev.state == E.RUNNING and dt:
            r = prev.turn
            elapsed[r] += dt
            turn_run += dt
            if sides[r].mode == MODE_UPCOUNT:
                exp_main[r] += dt
                charged[r] += dt
            elif out[r]:
                charged[r] += dt  # overrun, no-freeze
            else:
                from_delay = min(dt, prev.delay)
                exp_delay = prev.delay - from_delay
                exp_main[r] = prev.main[r] - (dt - from_delay)
                assert exp_main[r] >= 0, "time ran out with no event at the instant"
                charged[r] += dt
                if sides[r].mode == MODE_HOURGLASS and not out[1 - r]:
                    exp_main[1 - r] += dt - from_delay
        if cur.ev is None or cur.ev in (E.EV_PAUSE, E.EV_RESUME, E.EV_IGNORED):
            assert not limit_due, "the move limit was reached and the game went on"
            assert cur.main == exp_main, (cur.ev, cur.t, cur.main, exp_main)
            assert cur.delay == exp_delay
            if cur.ev is None and last_press is not None and len(last_press) == 4:
                # the press and all it brought at its instant: what an undo takes back
                s = last_press[0]
                last_press = last_press + (cur.main[s] - last_press[1],)
        elif cur.ev == E.EV_START:  # White's first turn starts: delay, increment if now
            st_w = sides[cur.side].stages[0]
            if options["inc_at_turn_start"]:
                exp_main[cur.side] += st_w.inc_ms
            assert cur.main == exp_main
            assert cur.delay == (st_w.delay_ms if st_w.delay_kind == DELAY_SIMPLE else 0)
        elif cur.ev in (E.EV_FLAG, E.EV_OVERTIME, E.EV_PERIOD) or (
                cur.ev == E.EV_STAGE and time_mode):
            s = cur.side
            if s == prev.turn:
                # exactly at the instant the side's time (delay included) reached zero
                assert exp_main[s] == 0 and exp_delay == 0, (cur.ev, exp_main, exp_delay)
            else:
                # a side out of time whose press passed it into a stage with no time: out of
                # that one too (its flag, or its byo-yomi begins), at the press's instant;
                # the delay running is the opponent's
                assert cur.ev in (E.EV_FLAG, E.EV_OVERTIME) and exp_main[s] == 0 and out[s]
                assert prev.ev == E.EV_STAGE and prev.side == s and dt == 0 and prev.arg == 0
                event("case: a press out of time into a stage with no time")
            st_s = stage_of(s)
            if cur.ev == E.EV_FLAG:
                assert cur.main[s] == 0
                assert cur.arg == in_stage[s]  # the presses made in the stage
                # a fall unless TIME mode passed a stage whose presses were all made
                if not (time_mode and st_s.moves and in_stage[s] >= st_s.moves):
                    fell[s] = True
                else:
                    event("case: TIME mode, a stage passed with its moves made")
                stops = not (time_mode and st_s.moves)  # TIME mode: the next stage follows
                assert (cur.state == E.FROZEN) == (options["freeze"] and stops)
                out[s] = True
            elif cur.ev == E.EV_STAGE:
                # TIME mode: only after the flag event of the stage, at the same instant
                assert prev.ev == E.EV_FLAG and prev.side == s and dt == 0 and st_s.moves
                stage[s] = min(stage[s] + 1, len(sides[s].stages) - 1)
                in_stage[s] = 0
                assert cur.main[s] == stage_of(s).time_ms == cur.arg
                out[s] = cur.main[s] == 0
            else:
                # byo-yomi follows only the stage for the rest of the game (Art. 6.9)
                assert st_s.moves == 0 and sides[s].byo_periods
                assert cur.main[s] == sides[s].byo_ms
                out[s] = False
            assert cur.main[1 - s] == exp_main[1 - s]
        elif cur.ev == E.EV_PRESS:
            s = cur.side
            o = 1 - s
            st_s = stage_of(s)
            counters = (stage[s], in_stage[s], out[s])
            if out[s] or sides[s].mode == MODE_UPCOUNT:
                assert cur.arg == 0
                assert cur.main[s] == exp_main[s]
            elif prev.periods[s] and prev.period_moves[s] + 1 >= sides[s].byo_moves:
                assert cur.main[s] == sides[s].byo_ms  # the period starts again
            else:
                legal = 0 if options["inc_at_turn_start"] else st_s.inc_ms
                if st_s.delay_kind == DELAY_BRONSTEIN:
                    legal += min(turn_run, st_s.delay_ms)
                assert cur.arg == legal
                assert cur.main[s] == exp_main[s] + legal
            if sides[s].mode != MODE_UPCOUNT:
                in_stage[s] += 1  # every press counts for the stage, out of time or not
            moves[s] += 1
            assert not limit_due
            limit_due = bool(limit) and moves[0] >= limit and moves[1] >= limit
            # the opponent's turn starts: its delay, its increment if credited now
            st_o = stage_of(o)
            bonus = 0
            if options["inc_at_turn_start"] and not out[o]:
                bonus = st_o.inc_ms
            assert cur.main[o] == exp_main[o] + bonus
            want_delay = st_o.delay_ms if st_o.delay_kind == DELAY_SIMPLE else 0
            assert cur.delay == (0 if out[o] else want_delay)
            turn_run = 0
            last_press = (s, exp_main[s], counters, bonus)
        elif cur.ev == E.EV_STAGE:  # passed by the press just before, same instant
            s = cur.side
            assert dt == 0 and not time_mode and prev.ev == E.EV_PRESS and prev.side == s
            assert stage_of(s).moves and in_stage[s] >= stage_of(s).moves
            stage[s] = min(stage[s] + 1, len(sides[s].stages) - 1)
            in_stage[s] = 0
            assert cur.arg == stage_of(s).time_ms
            assert cur.main[s] == prev.main[s] + cur.arg
            # a side out of time in a stage with moves gets the next stage's time
            if out[s] and cur.arg:
                event("case: a side out of time gets the next stage's time")
            out[s] = out[s] and cur.main[s] == 0
        elif cur.ev == E.EV_UNDO:
            assert last_press is not None and len(last_press) == 5
            s, before, counters, bonus, gain = last_press
            o = 1 - s
            assert cur.side == s and cur.arg == gain
            assert cur.main[s] == exp_main[s] - gain
            # the opponent's increment at turn start goes too (never below zero)
            assert cur.main[o] == exp_main[o] - min(bonus, exp_main[o])
            stage[s], in_stage[s], out[s] = counters
            moves[s] -= 1
            assert cur.turn == s and cur.delay == 0   # the presser's turn goes on
            turn_run = 0
            if bonus:
                event("case: undo takes back the opponent's increment")
            last_press = None
        elif cur.ev == E.EV_LIMIT:  # after the press (and what it passed) at its instant
            assert limit_due and dt == 0 and cur.arg == limit
            assert cur.main == exp_main and cur.main == prev.main
            event("case: the move limit ends the game")
        elif cur.ev == E.EV_END:
            assert prev.ev == E.EV_LIMIT and dt == 0 and cur.state == E.ENDED
            assert cur.main == prev.main
            limit_due = False
        else:
            raise AssertionError("unexpected event %r" % LR.NAMES[cur.ev])
        for s in (0, 1):
            if out[s]:  # nothing is added to a side out of time
                assert cur.main[s] == 0
            assert cur.flagged[s] == fell[s]
            if sides[s].mode == MODE_COUNTDOWN:
                assert cur.stage[s] == stage[s] and cur.stage_moves[s] == in_stage[s]
        prev = cur
    return elapsed, charged


OPTIONS = st.fixed_dictionaries({
    "inc_at_turn_start": st.booleans(), "stage_on_flag": st.booleans(),
    "freeze": st.booleans(), "move_limit": st.sampled_from([0, 0, 0, 1, 2, 5])})


# Found by a fresh clone's run: White's 1 ms stage passes at its move into a stage of no
# time; Black flags, and its press passes it into a stage of no time either, while White's
# simple delay runs: Black's flag of that stage comes at the press, not on its own clock.
_OUT_INTO_NOTHING = (
    Control(SideControl([Stage(1, 1), Stage(0, 0, 0, 1, DELAY_SIMPLE)]),
            SideControl([Stage(1, 1), Stage(0, 0)])),
    {"inc_at_turn_start": False, "stage_on_flag": False, "freeze": False, "move_limit": 0},
    [(0, "press"), (1, "press")])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(controls(), OPTIONS, actions)
@example(*_OUT_INTO_NOTHING)
def test_time_charged_equals_time_elapsed_and_flags_are_exact(control, options, script):
    try:
        control.validate()
    except ValueError:
        assume(False)
    clock, seen = run(control, options, script)
    elapsed, charged = check(control, options, seen)
    assert charged == elapsed
    for name in sorted({LR.NAMES[o.ev] for o in seen if o.ev is not None}):
        event(name)  # shown by --hypothesis-show-statistics: what the examples reached
    assert elapsed[0] + elapsed[1] <= seen[-1].t
    # flags are recorded in the order they fell
    order = [s for s in clock.flag_order if s != E.NOBODY]
    times = [clock.flag_at[s] for s in order]
    assert times == sorted(times)
    assert len(order) == sum(1 for s in (0, 1) if clock.flag_at[s] >= 0)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 10**7), st.lists(st.integers(0, 600000), min_size=1, max_size=80))
def test_sudden_death_flag_instant_is_base_minus_own_thinking_time(base, turns):
    # Sudden death, no increment: White's flag falls exactly when White's own thinking
    # time reaches the base.
    clock = E.Clock(Control(SideControl([Stage(base)])))
    clock.start(0)
    t = 0
    used = [0, 0]
    for i, d in enumerate(turns):
        s = i % 2
        if used[s] + d >= base:  # this turn would run out
            clock.tick(t + d)
            assert clock.flag_at[s] == t + (base - used[s])
            return
        used[s] += d
        t += d
        assert clock.press(s, t)
    assert clock.main == [base - used[0], base - used[1]]
