# The serial link's operations of an adjournment (clockapp/seal.py, docs/ADJOURNMENT.md;
# clockapp/link.py loads this module when one is first used): seal, and moving the sealed
# game to another clock (adjexport, adjput, adjload). Each takes the Link and the
# request's arguments and returns the reply's (key, value) pairs.

import binascii

from clockapp.linkcommon import SEAL_PHASES, nargs, times, whole
from clockcore import const
from clockcore import engine as E
from clockcore import protocol as P

_ADJ_MAX = const(8192)         # bytes of an adjourned game's snapshot (adjput)


def op_seal(link, args):
    """seal start | seal done [MOVE] | seal cancel. MOVE: the sealed-move text or its
    hash as the host gives it (kept in the snapshot; `chessclock seal` sends a salted
    hash)."""
    nargs(args, 1, 2)
    app = link.app
    sl = app.seal
    what = args[0]
    now = app.now
    if what == b"start" and len(args) == 1:
        sl.begin(now)
    elif what == b"done":
        sl.hand_in(now, args[1].decode() if len(args) > 1 else "")
    elif what == b"cancel" and len(args) == 1:
        sl.cancel(now)
    else:
        raise P.ProtocolError(P.E_ARGS, "seal start | done [MOVE] | cancel")
    sl = app.seal   # the first seal of a boot hands app.seal over to seal.py's Seal
    c = app.clock
    pairs = (("seal", SEAL_PHASES[sl.phase]), ("sealer", E.SIDE_NAMES[sl.sealer]))
    if sl.phase == 2:
        pairs += (("sha256", binascii.hexlify(sl.digest)),)
    return pairs + times(app) + (("turn", E.SIDE_NAMES[c.turn]),)


def op_adjexport(link, args):
    """The sealed snapshot kept on flash: base64 and its SHA-256 (what the log has)."""
    nargs(args, 0, 0)
    app = link.app
    if app.seal.phase != 2:
        raise P.ProtocolError(P.E_STATE, "no adjourned game on this clock (seal first)")
    from clockapp.seal import SNAPSHOT_FILE
    data = app.store.load(SNAPSHOT_FILE)
    if data is None:
        raise P.ProtocolError(P.E_INTERNAL, "the sealed snapshot is not on flash")
    import hashlib
    return (("sha256", binascii.hexlify(hashlib.sha256(data).digest())),
            ("data", binascii.b2a_base64(data).strip()))


def op_adjput(link, args):
    """adjput N BASE64: chunk N (from 0; 0 starts again) of an adjourned game."""
    nargs(args, 2, 2)
    n = whole(args[0])
    if n == 0:
        link.adj = bytearray()
    elif link.adj is None or n < 0:
        raise P.ProtocolError(P.E_ARGS, "adjput starts with chunk 0")
    try:
        part = binascii.a2b_base64(args[1])
    except ValueError:
        raise P.ProtocolError(P.E_ARGS, "the chunk is not base64") from None
    if len(link.adj) + len(part) > _ADJ_MAX:
        link.adj = None
        raise P.ProtocolError(P.E_ARGS, "an adjourned game is at most %d bytes" % _ADJ_MAX)
    link.adj += part
    return (("bytes", len(link.adj)),)


def op_adjload(link, args):
    """adjload SHA256: load the adjourned game sent with adjput, when its SHA-256 is
    this one (what the sealing clock logged). Refused while another game is in play."""
    nargs(args, 1, 1)
    app = link.app
    if link.adj is None:
        raise P.ProtocolError(P.E_ARGS, "send the game with adjput first")
    import hashlib
    got = binascii.hexlify(hashlib.sha256(bytes(link.adj)).digest())
    if got != args[0].lower():
        raise P.ProtocolError(P.E_ARGS, "the game sent does not match its SHA-256")
    c = app.clock
    if c.state == E.RUNNING or (c.state in (E.PAUSED, E.FROZEN) and app.seal.phase != 2):
        raise P.ProtocolError(P.E_STATE, "a game is in progress on this clock: end it "
                              "first")
    try:
        app.load_adjourned(bytes(link.adj))
    except ValueError as e:
        raise P.ProtocolError(P.E_ARGS, str(e.args[0]) if e.args else "not a game") \
            from None
    link.adj = None
    c = app.clock
    return (("sha256", got), ("session", app.seal.session),
            ("turn", E.SIDE_NAMES[c.turn])) + times(app)
