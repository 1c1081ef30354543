# The serial link's operations on the game (clockapp/link.py loads this module when one is
# first used): set the control, start, pause, resume, end (the arbiter's corrections:
# ops_fix.py).
# Each takes the Link and the request's arguments and returns the reply's (key, value)
# pairs; a ProtocolError or a ValueError (the engine's) refuses, changing nothing.

from clockapp.linkcommon import nargs, side
from clockcore import engine as E
from clockcore import events as EV
from clockcore import protocol as P


def op_set(link, args):
    nargs(args, 1, 1)
    try:
        spec = args[0].decode()
    except ValueError:
        raise P.ProtocolError(P.E_ARGS, "control must be text") from None
    try:
        link.app.new_game(spec)
    except ValueError as e:
        raise P.ProtocolError(P.E_ARGS, str(e.args[0]) if e.args else "bad control") \
            from None
    return (("spec", spec),)


def _done(app, ok, what):
    if not ok:
        raise P.ProtocolError(P.E_STATE, "the clock is %s: cannot %s"
                              % (E.STATE_NAMES[app.clock.state], what))
    return (("state", E.STATE_NAMES[app.clock.state]),)


def op_start(link, args):
    nargs(args, 0, 1)
    s = side(args[0]) if args else E.WHITE
    app = link.app
    c = app.clock
    if c.state != E.IDLE:
        return _done(app, False, "start")
    if app.session.checking():   # someone at the board is checking the clock
        raise P.ProtocolError(P.E_STATE, "the self-test is running: start when it is "
                              "over (at most 20 s)")
    return _done(app, c.start(app.now, s), "start")


def op_pause(link, args):
    nargs(args, 0, 0)
    app = link.app
    return _done(app, app.clock.pause(app.now), "pause")


def op_resume(link, args):
    nargs(args, 0, 1)
    s = side(args[0]) if args else E.NOBODY
    app = link.app
    ok = app.clock.resume(app.now, s)
    if ok:
        app.log(EV.EV_RESUMED_BY, app.clock.turn, app.now, EV.BY_HOST)
    return _done(app, ok, "resume")


def op_end(link, args):
    nargs(args, 0, 0)
    app = link.app
    return _done(app, app.clock.end(app.now), "end")
