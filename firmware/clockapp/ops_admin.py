# The serial link's operations on the clock itself (clockapp/link.py loads this module
# when one is first used): the wall clock, the arbiter's key, the maintenance mode, and
# the simulator's levers. Each takes the Link and the request's arguments and returns the
# reply's (key, value) pairs.

import binascii

from clockapp.linkcommon import KEY_FILE, nargs, whole
from clockcore import const
from clockcore import events as EV
from clockcore import protocol as P

_KEY_BYTES = const(32)


def op_wallclock(link, args):
    nargs(args, 1, 1)
    t = whole(args[0])
    if t < 0:
        raise P.ProtocolError(P.E_ARGS, "seconds since 1970, not negative")
    app = link.app
    link.wall_s = t
    link.wall_at = app.now
    app.wall_s = t  # game headers carry it (counted on from wall_at)
    app.wall_at = app.now
    app.log(EV.EV_WALL_CLOCK, -1, app.now, t)
    return (("wall", t),)


def op_keyset(link, args):
    nargs(args, 1, 1)
    if link.in_game():
        raise P.ProtocolError(P.E_STATE, "the key is set only when no game is in progress")
    try:
        key = binascii.unhexlify(args[0])
    except ValueError:
        key = b""
    if len(key) != _KEY_BYTES:
        raise P.ProtocolError(P.E_ARGS, "the key is 64 hex digits")
    if not link.app.store.save(KEY_FILE, key):
        raise P.ProtocolError(P.E_INTERNAL, "could not save the key")
    link.use_key(key)
    link.nonce = None   # a new session is needed with the new key
    link.last_rid = -1
    return (("key", 1),)


def op_maintenance(link, args):
    nargs(args, 0, 0)
    b = link.app.board
    if not hasattr(b, "enter_maintenance"):
        raise P.ProtocolError(P.E_STATE, "this board has no maintenance mode")
    link.after = b.enter_maintenance
    return (("maintenance", 1),)


def op_sim(link, args):
    # Simulator board only (tests press its levers through it): on a real board the
    # operation does not exist.
    hook = getattr(link.app.board, "sim_op", None)
    if hook is None:
        raise P.ProtocolError(P.E_UNKNOWN, "unknown operation")
    return hook([a.decode() for a in args])
