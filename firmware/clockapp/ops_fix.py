# The serial link's corrections of a game (clockapp/link.py loads this module when one is
# first used): the arbiter's adjustments of time, moves and stages, undo, added stages and
# increments, a split of elapsed time. Each takes the Link and the request's arguments and
# returns the reply's (key, value) pairs; a ProtocolError or a ValueError (the engine's)
# refuses, changing nothing.

import clockcore.corrections  # noqa: F401  (loaded parked, with these)
from clockapp.linkcommon import nargs, side, times, whole
from clockcore import engine as E
from clockcore import events as EV
from clockcore import protocol as P
from clockcore.logbody import ground_body


def op_adjust(link, args):
    """adjust SIDE MS [REASON ARTICLE]: with the arbiter's ground, logged with the
    correction (reason R_GROUND, docs/EVENT-LOG.md)."""
    nargs(args, 2, 4)
    if len(args) == 3:
        raise P.ProtocolError(P.E_ARGS, "a ground is a reason and an article")
    ground = None
    if len(args) == 4:
        text = []
        for a in args[2:]:
            if len(a) > EV.GROUND_MAX:
                raise P.ProtocolError(P.E_ARGS, "a reason or article is at most %d "
                                      "bytes" % EV.GROUND_MAX)
            try:
                text.append(a.decode())
            except UnicodeError:
                raise P.ProtocolError(P.E_ARGS, "a reason or article is UTF-8 text") \
                    from None
        ground = ground_body(text[0], text[1])
    s, ms = side(args[0]), whole(args[1])
    app = link.app
    app.log_ground = ground
    try:
        app.clock.adjust(s, ms, app.now)
    finally:
        app.log_ground = None
    return times(app)


def op_settime(link, args):
    nargs(args, 2, 2)
    app = link.app
    app.clock.set_time(side(args[0]), whole(args[1]), app.now)
    return times(app)


def op_moves(link, args):
    nargs(args, 2, 2)
    app = link.app
    app.clock.set_moves(side(args[0]), whole(args[1]), app.now)
    return times(app)


def op_stage(link, args):
    nargs(args, 2, 2)
    app = link.app
    app.clock.set_stage(side(args[0]), whole(args[1]) - 1, app.now)
    return times(app)


def op_undo(link, args):
    nargs(args, 0, 0)
    app = link.app
    c = app.clock
    if not c.undo_press(app.now):
        raise P.ProtocolError(P.E_STATE, "no press to undo")
    return times(app) + (("turn", E.SIDE_NAMES[c.turn]),)   # the presser's again


def op_addstage(link, args):
    nargs(args, 2, 2)
    from clockcore import notation  # lazily: the parser is large

    who = args[0].decode()
    sides = (E.WHITE, E.BLACK) if who == "both" else (side(args[0]),)
    try:
        stage = notation.parse_stage(args[1].decode())
    except ValueError as e:
        raise P.ProtocolError(P.E_ARGS, str(e.args[0]) if e.args else "one stage") from None
    app = link.app
    for s in sides:
        app.clock.add_stage(s, stage, app.now)
    return times(app)


def op_addinc(link, args):
    """`addinc SIDE|both MS`: MS a move from now on (FIDE Guidelines III), one action."""
    nargs(args, 2, 2)
    s = E.NOBODY if args[0] == b"both" else side(args[0])
    ms = whole(args[1])
    if ms <= 0:
        raise P.ProtocolError(P.E_ARGS, "an increment is more than 0 ms")
    app = link.app
    app.clock.add_increment(s, ms, app.now)
    return times(app)


def op_split(link, args):
    nargs(args, 2, 2)
    app = link.app
    app.clock.split(whole(args[0]), whole(args[1]), app.now)
    return times(app)
