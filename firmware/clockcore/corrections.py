# The arbiter's rarer corrections of a running clock (engine.Clock's set_moves,
# set_stage, add_stage, add_increment, undo_press and split call these): loaded when one
# is first made, so that a game's heap carries only the engine's play. Each takes the
# Clock as `c`. Portable: MicroPython and CPython.

from clockcore import const
from clockcore.control import Stage
from clockcore.events import EV_ADD_STAGE, EV_SET_MOVES, EV_SET_STAGE, EV_UNDO

# engine.py's (this module does not import the engine, which imports it)
NOBODY = const(-1)
WHITE = const(0)
BLACK = const(1)
CAUSE_ARBITER = const(2)
_SIDE_NAMES = ("white", "black")


def set_moves(c, side, n, now):
    """Correct a move counter (Art. 6.12.2; S1 6.14). The stage counter moves with it;
    in move-counter mode reaching the stage's count passes the stage, adding its time."""
    if n < 0:
        raise ValueError("a move counter cannot be negative")
    c.tick(now)
    delta = n - c.moves[side]
    c.moves[side] = n
    sm = c.stage_moves[side] + delta
    c.stage_moves[side] = sm if sm > 0 else 0
    c.undo_side = NOBODY
    c.listener(EV_SET_MOVES, side, now, n)
    st = c.current_stage(side)
    if st.moves and not c.stage_on_flag and c.stage_moves[side] >= st.moves:
        # The moves were made after all (Art. 6.4): the next stage's time is due, and a
        # flag that fell only because it was missing is taken back.
        was_out = c.out[side]
        c._pass_stage(side, now, CAUSE_ARBITER)
        if was_out and c.main[side] > 0:
            c._unflag(side, now)


def set_stage(c, side, index, now):
    """Put a side in another stage (its time is set separately)."""
    if not 0 <= index < len(c.stages[side]):
        raise ValueError("%s has no stage %d" % (_SIDE_NAMES[side], index + 1))
    c.tick(now)
    c.stage[side] = index
    c.stage_moves[side] = 0
    if c.stages[side][index].moves:  # byo-yomi follows only the rest of the game
        c.periods[side] = 0
        c.period_moves[side] = 0
    c.undo_side = NOBODY
    c.listener(EV_SET_STAGE, side, now, index)


def add_stage(c, side, stage, now):
    """Add a stage and enter it now, its time added to what the side has (e.g. "finish
    with 15 minutes each", RGC 10.1). side NOBODY: both sides. A stage with no time and
    an increment is "+5 s a move from now on" (FIDE Guidelines III): add_increment()."""
    if stage.time_ms < 0 or stage.inc_ms < 0 or stage.delay_ms < 0 or stage.moves < 0:
        raise ValueError("a stage cannot have negative values")
    if stage.inc_ms and stage.delay_ms:
        raise ValueError("an increment and a delay cannot both apply")
    if stage.time_ms == 0 and not stage.inc_ms and not stage.delay_ms:
        raise ValueError("the stage adds nothing: give a time, an increment or a delay")
    if stage.moves and stage.time_ms == 0:
        raise ValueError("a stage with a move count needs time (it repeats)")
    c.tick(now)
    for s in (WHITE, BLACK):
        if side == NOBODY or side == s:
            c.stages[s].append(Stage(stage.time_ms, stage.moves, stage.inc_ms,
                                        stage.delay_ms, stage.delay_kind))
            c.stage[s] = len(c.stages[s]) - 1
            c.stage_moves[s] = 0
            c.periods[s] = 0
            c.undo_side = NOBODY
            c._set_main(s, c.main[s] + stage.time_ms, now, EV_ADD_STAGE,
                           stage.time_ms)


def add_increment(c, side, inc_ms, now):
    """"+inc_ms a move from now on" for side (NOBODY: both), FIDE Guidelines III: one
    arbiter action, a stage with no time of its own and that increment for the rest of
    the game (it replaces the increment or delay of the stage the side was in)."""
    if inc_ms <= 0:
        raise ValueError("an increment is more than 0 ms")
    add_stage(c, side, Stage(0, inc_ms=inc_ms), now)


def undo_press(c, now):
    """Mark the last press as not a move (a press with no move made, Art. 7.5.4): its
    move count, increment, delay credit, byo-yomi restart and stage passage are taken
    back, and so is what it credited the opponent (its increment at turn start). The
    turn goes back to the side that pressed: its clock runs again (paused: runs at the
    resume) as the same turn, with no fresh delay and no second increment at turn
    start; the time the opponent's clock ran since the press stays on it (the clock
    ran; the arbiter gives it back with adjust where the ruling says so). Only the last
    press, while the turn it started is still the current one. A side never goes below
    zero: at most what it has is taken."""
    c.tick(now)
    s = c.undo_side
    if s == NOBODY or c.turn == s:
        return False
    o = 1 - s
    g = c.undo_gain
    if g > c.main[s]:
        g = c.main[s]
    c.main[s] -= g
    # Out of time again if the press only brought it the next stage's time.
    c.out[s] = c.flag_at[s] >= 0 and c.main[s] == 0
    go = c.undo_opp_gain
    if go > c.main[o]:
        go = c.main[o]
    c.main[o] -= go
    c.moves[s] = c.undo_moves
    if c.stage[s] != c.undo_stage:
        # The press passed a stage: byo-yomi it began (the new stage had no time) goes
        # too. Byo-yomi follows only the last stage, so there were no periods before.
        c.periods[s] = 0
    c.stage[s] = c.undo_stage
    c.stage_moves[s] = c.undo_stage_moves
    c.period_moves[s] = c.undo_period_moves
    c.undo_side = NOBODY
    c.undo_taken_opp = go
    # the presser's turn again, from now: what it had of its delay was ended by the
    # press (time used from here on is what a Bronstein credit counts at its move)
    c.turn = s
    c.turn_used = 0
    c.delay_left = 0
    c.listener(EV_UNDO, s, now, g)
    return True


def split(c, elapsed, white_percent, now):
    """Charge `elapsed` ms to both sides in a ratio (late arrival: 60/40, RGC 12.1).
    White's share is elapsed * white_percent // 100, Black gets the rest: exact."""
    if elapsed < 0 or not 0 <= white_percent <= 100:
        raise ValueError("split needs elapsed >= 0 and a share from 0 to 100")
    w = elapsed * white_percent // 100
    b = elapsed - w
    if w > c.main[WHITE] or b > c.main[BLACK]:
        raise ValueError("split would leave a side with negative time")
    c.adjust(WHITE, -w, now)
    c.adjust(BLACK, -b, now)
