# The session's rare operations (clockapp/session.py keeps the state and the per-pass
# checks): setting the scheduled start, the default time reached, arrival marks, incident
# marks, the result. Loaded when first used, so a clock that never uses them does not
# carry their code on its heap. Each takes the Session.

from clockcore import engine as E
from clockcore import events as EV

DEFAULT_S = 3600   # the default time when `schedule` gives none (S1 6.7: 1 h)


def adjourned(app):
    """An adjourned game waits for its next session (sealed here, or loaded)."""
    from clockapp.seal import SEALED
    return app.clock.state == E.PAUSED and app.seal.phase == SEALED


def schedule(ss, unix_s, default_s):
    """White's clock starts at unix_s (the host's wall clock, which the clock must have);
    the default time counts from then. On an adjourned game the side to move's clock starts
    then, present or not (RGC 11.4), and a player absent after the default time loses
    (RGC 12.4). unix_s 0 clears it. ValueError when it cannot be."""
    app = ss.app
    if unix_s == 0:
        ss.sched_t = -1
        ss.sched_s = 0
        app.log(EV.EV_SCHEDULE, E.NOBODY, app.now, 0, default_s)
        return
    if app.wall_s <= 0:
        raise ValueError("the clock has no time of day: set it first (wallclock)")
    if app.clock.state != E.IDLE and not adjourned(app):
        raise ValueError("a game is in progress")
    if not 0 <= default_s <= 86400:
        raise ValueError("the default time is 0 to 86400 s")
    t = app.wall_at + (unix_s - app.wall_s) * 1000
    if t < app.now:
        raise ValueError("that time is past")
    if t - app.now > 7 * 86400 * 1000:
        raise ValueError("that time is more than a week away")
    ss.sched_t = t
    ss.sched_s = unix_s
    ss.default_ms = default_s * 1000
    ss.sched_started = False
    ss.default_done = False
    ss.defaulted = 0
    ss.arrived = 0
    ss.arrive_pending = 0
    app.log(EV.EV_SCHEDULE, E.NOBODY, app.now, unix_s, default_s)


def default_reached(ss, t):
    """The default time ran out at t: each side not at the board is logged (for the
    arbiter: the log and `status`, nothing the players see or hear)."""
    ss.default_done = True
    for s in (0, 1):
        if not ss.arrived & (1 << s) and not ss.arrive_pending & (1 << s):
            ss.defaulted |= 1 << s
            ss.app.log(EV.EV_DEFAULT_TIME, s, t, ss.default_ms // 1000)


def arrived_by_press(ss, now):
    p = ss.arrive_pending
    ss.arrive_pending = 0
    for s in (0, 1):
        if p & (1 << s):
            arrive(ss, s, now)


def arrive(ss, side, now):
    """Mark a player at the board (the arbiter, or the side's first press after a
    schedule). False when already marked."""
    if ss.arrived & (1 << side):
        return False
    ss.arrived |= 1 << side
    at = now - ss.sched_t if ss.sched_t >= 0 else 0
    ss.app.log(EV.EV_ARRIVAL, side, now, at)
    return True


def incident(ss, now):
    """Both clocks, the counters and (in the log's UTC) the time of day; no pause.
    Returns its number, 0 when no game is in progress."""
    app = ss.app
    if app.clock.state == E.IDLE:
        return 0
    ss.incidents += 1
    app.log(EV.EV_INCIDENT, E.NOBODY, now, ss.incidents)
    return ss.incidents


def enter_result(ss, index, now, by):
    """End the game (if not ended) and log its result (events.RESULTS[index])."""
    app = ss.app
    c = app.clock
    if not 0 <= index < len(EV.RESULTS):
        raise ValueError("result is one of " + ", ".join(EV.RESULTS))
    if c.state == E.IDLE:
        raise ValueError("no game was played")
    if c.state != E.ENDED:
        c.end(now)
    ss.game_result = index
    app.log(EV.EV_RESULT, E.NOBODY, now, index, by)
