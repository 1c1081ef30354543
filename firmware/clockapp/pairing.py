# The round's pairing on this clock (docs/PROTOCOL.md `pairing`): its board
# number, the round, the players' names and the event, pushed by `chessclock pairings push`
# and signed like every change. Kept in settings.json (a power cut keeps it), logged as a
# pairing record (events.EV_PAIRING) now and after every game header (App.new_game), so
# each game's records name its players; the board number shows at set-up (show()). Loaded
# only on a clock that has a pairing: one never paired carries none of this. The link
# operation itself is in clockapp/ops_session.py (loaded when the host first uses it).

from clockcore import engine as E
from clockcore import events as EV
from clockcore.logbody import pairing_body


def valid(app):
    """The pairing kept in settings.json, or None (and forgotten) when it is not one."""
    p = app.settings.pairing
    if not (isinstance(p, list) and len(p) == 5 and isinstance(p[0], int)
            and isinstance(p[1], int) and isinstance(p[2], str) and isinstance(p[3], str)
            and isinstance(p[4], str)):
        p = app.settings.pairing = None
    return p


def ascii_name(text):
    """A name as the displays' font can draw it: ASCII, '?' for anything else."""
    return bytes([ord(c) if 32 <= ord(c) < 127 else 63 for c in text])


def show(app, redraw=True):
    """The pairing on the displays at set-up (view.pair): the board number (TM1637: in
    the moment, SSD1306: with the side's name)."""
    p = valid(app)
    pair = (p[0], ascii_name(p[2]), ascii_name(p[3])) if p else None
    app.views[0].pair = app.views[1].pair = pair
    if redraw:
        app.refresh(True)


def log_pairing(app):
    p = valid(app)
    if p:
        body = pairing_body(p[1], p[2], p[3], p[4])
        app.logw_big(EV.EV_PAIRING, E.NOBODY, app.now, p[0], body)
