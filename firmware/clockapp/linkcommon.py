# What the serial link (clockapp/link.py) and its operations' modules (clockapp/ops_*.py,
# clockapp/sessionops.py) share: the readers of a request's arguments, the clocks' fields
# of a reply, the key's file. The operations' modules import this, never link.py: the
# link imports them (when an operation is first used), so the imports run one way.

from clockcore import const
from clockcore import engine as E
from clockcore import protocol as P

KEY_FILE = "arbiter.key"
# Payload bytes in one log reply (clockapp/ops_log.py), whatever the host asks; hello's
# `chunk`. A 4 KB payload is ~6 KB blocks several times over (its base64, the escaped
# field, the frame): after a power cut the stock Pico image of pico-ssd1306 found no such
# block and refused pulls (MemoryError, the emulated 200-cut run); 1 KB replies pulled the
# same images.
LOG_CHUNK_MAX = const(1024)
SEAL_PHASES = ("-", "sealing", "sealed")   # status and seal's `seal=`: clockapp/seal.py


def side(arg):
    s = arg.decode()
    if s in ("white", "w"):
        return E.WHITE
    if s in ("black", "b"):
        return E.BLACK
    raise P.ProtocolError(P.E_ARGS, "side must be white or black")


def whole(arg):
    try:
        s = arg.decode()
        if len(s) > 12:
            raise ValueError
        return int(s)
    except ValueError:
        raise P.ProtocolError(P.E_ARGS, "expected a whole number") from None


def nargs(args, lo, hi):
    if not lo <= len(args) <= hi:
        raise P.ProtocolError(P.E_ARGS, "takes %d to %d arguments" % (lo, hi))


def times(app):
    """Both clocks, the move counters and the state: the reply of a change to the game."""
    c = app.clock
    return (("w", c.main[0]), ("b", c.main[1]), ("wmoves", c.moves[0]),
            ("bmoves", c.moves[1]), ("state", E.STATE_NAMES[c.state]))
