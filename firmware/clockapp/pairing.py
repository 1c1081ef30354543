# The round's pairing on this clock (issue 12, docs/PROTOCOL.md `pairing`): its board
# number, the round, the players' names and the event, pushed by `chessclock pairings push`
# and signed like every change. Kept in settings.json (a power cut keeps it), logged as a
# pairing record (eventlog.EV_PAIRING) now and after every game header (App.new_game), so
# each game's records name its players; the board number shows at set-up (App.show_pairing).
# Loaded at the first `pairing` request: a clock never paired carries none of this.

from clockcore import const
from clockcore import engine as E
from clockcore import eventlog as L

BOARD_MAX = const(9999)
ROUND_MAX = const(999)     # 0: the round is not known
NAME_MAX = const(40)       # bytes of UTF-8 in a name (and in the event's)


def op_pairing(link, args):
    """pairing BOARD ROUND WHITE BLACK [EVENT] | pairing clear. On a clock whose game has
    ended, a new game is set up with the same control (the next round at this board)."""
    from clockapp import link as K
    from clockcore import protocol as P

    app = link.app
    if len(args) == 1 and args[0] == b"clear":
        old = app.settings.pairing
        if not old:
            raise P.ProtocolError(P.E_STATE, "no pairing on this clock")
        app.settings.pairing = None
        app.log(L.EV_PAIRING_CLEAR, E.NOBODY, app.now, old[0])
        app.save_settings()
        app.show_pairing()
        return (("board", 0),)
    K._nargs(args, 4, 5)
    board = K._int(args[0])
    rnd = K._int(args[1])
    if not 1 <= board <= BOARD_MAX:
        raise P.ProtocolError(P.E_ARGS, "the board is 1 to %d" % BOARD_MAX)
    if not 0 <= rnd <= ROUND_MAX:
        raise P.ProtocolError(P.E_ARGS, "the round is 0 (unknown) to %d" % ROUND_MAX)
    names = []
    for a in args[2:]:
        if len(a) > NAME_MAX:
            raise P.ProtocolError(P.E_ARGS, "a name is at most %d bytes of UTF-8" % NAME_MAX)
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
    app.settings.pairing = [board, rnd, names[0], names[1], names[2]]
    if app.clock.state == E.ENDED:
        app.new_game(app.settings.spec)    # saves the settings; logs header, then pairing
    else:
        app.logw_big(L.EV_PAIRING, E.NOBODY, app.now, board,
                     L.pairing_body(app.settings.pairing))
        app.save_settings()
    app.show_pairing()
    return (("board", board), ("round", rnd), ("state", E.STATE_NAMES[app.clock.state]))
