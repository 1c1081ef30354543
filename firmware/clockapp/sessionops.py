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


# ---- over the serial link (clockapp/link.py: the session's operations, each
# op(link, args) -> the reply's pairs; ProtocolError or ValueError refuse) --------------
def _link_helpers():
    from clockapp import link as K
    from clockcore import protocol as P
    return K, P


def op_selftest(link, args):
    """selftest: run the power-on self-test (no game in progress); status shows it."""
    K, P = _link_helpers()
    K._nargs(args, 0, 0)
    if not link.app.session.selftest(link.app.now):
        raise P.ProtocolError(P.E_STATE, "the self-test runs only while no game is in "
                              "progress (and not twice at once)")
    return (("testing", 1),)


def op_result(link, args):
    """result 1-0|0-1|1/2-1/2|*: end the game (if not ended) and log its result."""
    K, P = _link_helpers()
    K._nargs(args, 1, 1)
    r = args[0].decode()
    if r == "1/2":
        r = "1/2-1/2"
    if r not in EV.RESULTS:
        raise P.ProtocolError(P.E_ARGS, "result is 1-0, 0-1, 1/2-1/2 or *")
    enter_result(link.app.session, EV.RESULTS.index(r), link.app.now, EV.R_HOST)
    return (("result", r), ("state", E.STATE_NAMES[link.app.clock.state]))


def op_incident(link, args):
    """incident: mark both clocks and counters now, without pausing."""
    K, P = _link_helpers()
    K._nargs(args, 0, 0)
    n = incident(link.app.session, link.app.now)
    if not n:
        raise P.ProtocolError(P.E_STATE, "no game is in progress")
    return (("incident", n),) + link._times()


def op_schedule(link, args):
    """schedule UNIX_S [DEFAULT_S]: White's clock starts then; 0 clears."""
    K, P = _link_helpers()
    K._nargs(args, 1, 2)
    t = K._int(args[0])
    d = K._int(args[1]) if len(args) > 1 else DEFAULT_S
    if t < 0 or d < 0:
        raise P.ProtocolError(P.E_ARGS, "schedule UNIX_SECONDS (>= 0) [DEFAULT_SECONDS]")
    schedule(link.app.session, t, d)
    return (("sched", t), ("default_s", d))


def op_arrive(link, args):
    """arrive white|black: the player is at the board (seed 2.3)."""
    K, P = _link_helpers()
    K._nargs(args, 1, 1)
    side = K._side(args[0])
    ss = link.app.session
    if not arrive(ss, side, link.app.now):
        raise P.ProtocolError(P.E_STATE, "%s is already marked arrived" % E.SIDE_NAMES[side])
    return (("arrived", ss.arrived),)


# The round's pairing (kept, logged and shown by clockapp/pairing.py).
PAIR_BOARD_MAX = 9999
PAIR_ROUND_MAX = 999     # 0: the round is not known
PAIR_NAME_MAX = 40       # bytes of UTF-8 in a name (and in the event's)


def op_pairing(link, args):
    """pairing BOARD ROUND WHITE BLACK [EVENT] | pairing clear. On a clock whose game has
    ended, a new game is set up with the same control (the next round at this board)."""
    K, P = _link_helpers()
    from clockapp.pairing import log_pairing, show

    app = link.app
    if len(args) == 1 and args[0] == b"clear":
        old = app.settings.pairing
        if not old:
            raise P.ProtocolError(P.E_STATE, "no pairing on this clock")
        app.settings.pairing = None
        app.log(EV.EV_PAIRING_CLEARED, E.NOBODY, app.now, old[0])
        app.save_settings()
        show(app)
        return (("board", 0),)
    K._nargs(args, 4, 5)
    board = K._int(args[0])
    rnd = K._int(args[1])
    if not 1 <= board <= PAIR_BOARD_MAX:
        raise P.ProtocolError(P.E_ARGS, "the board is 1 to %d" % PAIR_BOARD_MAX)
    if not 0 <= rnd <= PAIR_ROUND_MAX:
        raise P.ProtocolError(P.E_ARGS, "the round is 0 (unknown) to %d" % PAIR_ROUND_MAX)
    names = []
    for a in args[2:]:
        if len(a) > PAIR_NAME_MAX:
            raise P.ProtocolError(P.E_ARGS, "a name is at most %d bytes of UTF-8" % PAIR_NAME_MAX)
        try:
            s = a.decode()
        except ValueError:   # UnicodeError on both interpreters
            raise P.ProtocolError(P.E_ARGS, "names are UTF-8 text") from None
        for c in s:
            if ord(c) < 32 or ord(c) == 127:
                raise P.ProtocolError(P.E_ARGS, "names are printable text")
        names.append(s)
    if len(names) == 2:
        names.append("")
    old = app.settings.pairing
    app.settings.pairing = [board, rnd, names[0], names[1], names[2]]
    if app.clock.state == E.ENDED:
        try:
            app.new_game(app.settings.spec)   # saves the settings; logs header, then pairing
        except ValueError:
            app.settings.pairing = old        # nothing changed
            raise
    else:
        log_pairing(app)
        app.save_settings()
    show(app)
    return (("board", board), ("round", rnd), ("state", E.STATE_NAMES[app.clock.state]))


LINK_OPS = {"selftest": op_selftest, "result": op_result, "incident": op_incident,
            "schedule": op_schedule, "arrive": op_arrive, "pairing": op_pairing}
