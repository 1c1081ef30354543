# The serial link's operations on the session at the board (docs/SESSION.md; the
# session's own work is in clockapp/sessionops.py): the self-test, the result, incident
# and arrival marks, the scheduled start, the round's pairing. clockapp/link.py loads this
# module when one of them is first used. Each takes the Link and the request's arguments
# and returns the reply's (key, value) pairs; a ProtocolError or a ValueError refuses.

from clockapp import sessionops
from clockapp.linkcommon import nargs, side, times, whole
from clockcore import engine as E
from clockcore import events as EV
from clockcore import protocol as P


def op_selftest(link, args):
    """selftest: run the power-on self-test (no game in progress); status shows it."""
    nargs(args, 0, 0)
    if not link.app.session.selftest(link.app.now):
        raise P.ProtocolError(P.E_STATE, "the self-test runs only while no game is in "
                              "progress (and not twice at once)")
    return (("testing", 1),)


def op_result(link, args):
    """result 1-0|0-1|1/2-1/2|*: end the game (if not ended) and log its result."""
    nargs(args, 1, 1)
    r = args[0].decode()
    if r == "1/2":
        r = "1/2-1/2"
    if r not in EV.RESULTS:
        raise P.ProtocolError(P.E_ARGS, "result is 1-0, 0-1, 1/2-1/2 or *")
    sessionops.enter_result(link.app.session, EV.RESULTS.index(r), link.app.now, EV.R_HOST)
    return (("result", r), ("state", E.STATE_NAMES[link.app.clock.state]))


def op_incident(link, args):
    """incident: mark both clocks and counters now, without pausing."""
    nargs(args, 0, 0)
    n = sessionops.incident(link.app.session, link.app.now)
    if not n:
        raise P.ProtocolError(P.E_STATE, "no game is in progress")
    return (("incident", n),) + times(link.app)


def op_schedule(link, args):
    """schedule UNIX_S [DEFAULT_S]: White's clock starts then; 0 clears."""
    nargs(args, 1, 2)
    t = whole(args[0])
    d = whole(args[1]) if len(args) > 1 else sessionops.DEFAULT_S
    if t < 0 or d < 0:
        raise P.ProtocolError(P.E_ARGS, "schedule UNIX_SECONDS (>= 0) [DEFAULT_SECONDS]")
    sessionops.schedule(link.app.session, t, d)
    return (("sched", t), ("default_s", d))


def op_arrive(link, args):
    """arrive white|black: the player is at the board (seed 2.3)."""
    nargs(args, 1, 1)
    s = side(args[0])
    ss = link.app.session
    if not sessionops.arrive(ss, s, link.app.now):
        raise P.ProtocolError(P.E_STATE, "%s is already marked arrived" % E.SIDE_NAMES[s])
    return (("arrived", ss.arrived),)


# The round's pairing (kept, logged and shown by clockapp/pairing.py).
PAIR_BOARD_MAX = 9999
PAIR_ROUND_MAX = 999     # 0: the round is not known
PAIR_NAME_MAX = 40       # bytes of UTF-8 in a name (and in the event's)


def op_pairing(link, args):
    """pairing BOARD ROUND WHITE BLACK [EVENT] | pairing clear. On a clock whose game has
    ended, a new game is set up with the same control (the next round at this board)."""
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
    nargs(args, 4, 5)
    board = whole(args[0])
    rnd = whole(args[1])
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

