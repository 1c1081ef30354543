# The round's pairing on a clock (clockapp/pairing.py, docs/PROTOCOL.md
# `pairing`): the link operation and its refusals, what the clock keeps across a power cut,
# what it logs (code 62 after the game header, 63 when cleared) and what its displays show
# at set-up. Runs on CPython and on the MicroPython unix port.

from simutil import boot
from test_displays import draw, oled, read_text, shown, tm_display, view

from boards.sim import SimBoard
from clockapp.app import App
from clockcore import engine as E
from clockcore import events as EV
from clockcore import logread as LR
from clockcore import protocol as P

KEY = bytes(range(32))


def records(app):
    app.flush()
    r = LR.Reader()
    return [r.decode(p) for p in app.store.read_log()]


def reply(app, op, *args, key=None):
    link = app.link
    nonce = None
    if key is not None:
        nonce = P.decode_reply(link.handle(P.encode_request(
            link.requests + 1, "auth", (), None, None)[:-1])[:-1])[2]["nonce"].encode()
    line = P.encode_request(link.requests + 1, op, args, key, nonce)
    return P.decode_reply(link.handle(line[:-1])[:-1])


def status(app):
    return reply(app, "status")[2]


def test_pairing_is_shown_in_status_logged_and_kept_across_a_power_cut():
    board, app = boot()
    r = reply(app, "pairing", "12", "3", "Anna Müller", "Bob Li", "Spring Open")
    assert r[1] and r[2]["board"] == "12" and r[2]["state"] == "idle", r
    st = status(app)
    assert (st["board"], st["round"], st["white"], st["black"]) == (
        "12", "3", "Anna Müller", "Bob Li")
    recs = [x for x in records(app) if x.code == EV.EV_PAIRING]
    assert len(recs) == 1 and recs[0].pairing == {
        "board": 12, "round": 3, "white": "Anna Müller", "black": "Bob Li",
        "event": "Spring Open"}, recs
    assert app.views[0].pair == (12, b"Anna M?ller", b"Bob Li") == app.views[1].pair
    # power cut: a new App on the same flash
    app2 = App(SimBoard(board.root))
    app2.step()
    assert app2.settings.pairing == [12, 3, "Anna Müller", "Bob Li", "Spring Open"]
    assert app2.views[1].pair[0] == 12
    assert status(app2)["white"] == "Anna Müller"


def test_each_new_game_logs_its_pairing_after_the_header():
    board, app = boot()
    assert reply(app, "pairing", "7", "2", "A", "B")[1]
    assert reply(app, "set", "300+2")[1]
    recs = records(app)
    i = max(k for k, x in enumerate(recs) if x.code == EV.EV_HEADER)
    assert recs[i + 1].code == EV.EV_PAIRING and recs[i + 1].pairing["board"] == 7
    assert recs[i + 1].pairing["event"] == ""


def test_an_ended_game_makes_room_for_the_next_round():
    board, app = boot()
    assert reply(app, "keyset", KEY.hex())[1]
    assert reply(app, "pairing", "4", "1", "White One", "Black One", key=KEY)[1]
    assert reply(app, "start", key=KEY)[1] and reply(app, "end", key=KEY)[1]
    assert app.clock.state == E.ENDED
    r = reply(app, "pairing", "9", "2", "White Two", "Black Two", key=KEY)
    assert r[1] and r[2]["state"] == "idle", r
    recs = records(app)
    assert recs[-2].code == EV.EV_HEADER and recs[-1].code == EV.EV_PAIRING
    assert recs[-1].pairing["white"] == "White Two"


def test_a_running_game_keeps_running_and_its_names_are_corrected():
    board, app = boot()
    assert reply(app, "start")[1]
    r = reply(app, "pairing", "5", "1", "X", "Y")   # no key on this clock: refused in play
    assert not r[1] and r[2]["code"] == P.E_AUTH_REQUIRED, r
    assert app.settings.pairing is None
    board, app = boot()
    assert reply(app, "keyset", KEY.hex())[1]
    assert reply(app, "start", key=KEY)[1]
    r = reply(app, "pairing", "5", "1", "X", "Y", key=KEY)
    assert r[1] and app.clock.state == E.RUNNING, r
    assert records(app)[-1].pairing["white"] == "X"


BAD = (
    (("0", "1", "A", "B"), P.E_ARGS),            # board 0
    (("-3", "1", "A", "B"), P.E_ARGS),           # negative board
    (("10000", "1", "A", "B"), P.E_ARGS),        # past the largest board
    (("x1", "1", "A", "B"), P.E_ARGS),           # not a number
    (("1", "1000", "A", "B"), P.E_ARGS),         # past the largest round
    (("1", "-1", "A", "B"), P.E_ARGS),
    (("1", "1", "A" * 41, "B"), P.E_ARGS),       # a name too long
    (("1", "1", "A", "B", "E" * 41), P.E_ARGS),  # an event too long
    (("1", "1", b"\xff\xfe", "B"), P.E_ARGS),    # not UTF-8
    (("1", "1", "A\tB", "B"), P.E_ARGS),         # a control character
    (("1", "1", "A"), P.E_ARGS),                 # too few
    (("1", "1", "A", "B", "E", "F"), P.E_ARGS),  # too many
    (("clear",), P.E_STATE),                     # nothing to clear
)


def test_bad_pairings_are_refused_and_change_nothing():
    board, app = boot()
    n = len(records(app))
    for args, code in BAD:
        r = reply(app, "pairing", *args)
        assert not r[1] and r[2]["code"] == code, (args, r)
        assert app.settings.pairing is None, args
        assert "board" not in status(app), args
    assert len(records(app)) == n
    # the longest accepted name fits a request line
    assert reply(app, "pairing", "9999", "999", "A" * 40, "B" * 40, "E" * 40)[1]


def test_a_keyed_clock_wants_the_key():
    board, app = boot()
    assert reply(app, "keyset", KEY.hex())[1]
    r = reply(app, "pairing", "1", "1", "A", "B")
    assert not r[1] and r[2]["code"] == P.E_AUTH_REQUIRED, r
    r = reply(app, "pairing", "1", "1", "A", "B", key=bytes(32))
    assert not r[1] and r[2]["code"] == P.E_AUTH, r
    assert app.settings.pairing is None
    assert reply(app, "pairing", "1", "1", "A", "B", key=KEY)[1]
    assert app.settings.pairing[0] == 1


def test_clear_logs_and_forgets_it():
    board, app = boot()
    assert reply(app, "pairing", "3", "1", "A", "B")[1]
    r = reply(app, "pairing", "clear")
    assert r[1] and r[2]["board"] == "0"
    assert "board" not in status(app) and app.views[0].pair is None
    last = records(app)[-1]
    assert last.code == EV.EV_PAIRING_CLEARED and last.arg == 3
    app2 = App(SimBoard(board.root))
    assert app2.settings.pairing is None


def test_tm1637_shows_the_board_on_whites_display_at_set_up():
    bus, d = tm_display()
    b, dd = 0x7C, 0x5E
    digit = (0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F)
    assert shown(bus, d, view(pair=(12, b"W", b"B"), idle=True, white=True, moment=True)) == [
        b, dd, digit[1], digit[2]]
    assert shown(bus, d, view(pair=(7, b"W", b"B"), idle=True, white=True, moment=True)) == [
        b, dd, 0, digit[7]]
    assert shown(bus, d, view(pair=(123, b"W", b"B"), idle=True, white=True, moment=True)) == [
        b, digit[1], digit[2], digit[3]]
    assert shown(bus, d, view(pair=(1234, b"W", b"B"), idle=True, white=True, moment=True)) == [
        digit[1], digit[2], digit[3], digit[4]]
    # Black's display says bLAc; once the game started the moment shows no board
    assert shown(bus, d, view(pair=(12, b"W", b"B"), idle=True, white=False, moment=True)) == [
        0x7C, 0x38, 0x77, 0x39]
    assert shown(bus, d, view(pair=(12, b"W", b"B"), idle=False, white=True, moment=True)) == [
        0, digit[4] | 0x80, digit[5], digit[9]]


def test_ssd1306_shows_board_and_name_at_set_up_then_the_game():
    bus, d = oled()
    pair = (12, b"Anna M?ller", b"Bob Li")
    v = view(b"    4:59", pair=pair, idle=True, white=True, moves=0)
    draw(bus, d, v)
    assert read_text(bus, 0, 8, 8) == b"BOARD 12"
    assert read_text(bus, 0, 56, 17) == b"WHITE ANNA M?LLER"
    v = view(b"    4:59", pair=pair, idle=True, white=False, moves=0)
    draw(bus, d, v)
    assert read_text(bus, 0, 56, 12) == b"BLACK BOB LI"
    assert bus.lit(72, 56, 56, 8) == 0      # the longer name's tail is gone
    # the game starts: the status and bottom lines are the game's again
    v = view(b"    4:58", pair=pair, idle=False, white=True, moves=0)
    draw(bus, d, v)
    assert read_text(bus, 0, 8, 4) == b"    " and read_text(bus, 28, 8, 5) == b"M0   "
    assert read_text(bus, 0, 56, 6) == b"      " and read_text(bus, 40, 56, 5) == b"WHITE"
    # a name longer than the line is cut at its width
    v = view(b"    4:59", pair=(3, b"X" * 40, b"Y"), idle=True, white=True)
    draw(bus, d, v)
    assert read_text(bus, 0, 56, 21) == b"WHITE " + b"X" * 15


def test_a_damaged_pairing_in_settings_is_forgotten_at_boot():
    for junk in ("junk", [1, "x"], [0, 1, 2, 3, 4], {"board": 1}):
        board, app = boot()
        app.store.save_json("settings.json", {"spec": "fide-blitz", "pairing": junk})
        app2 = App(SimBoard(board.root))
        app2.step()
        assert app2.settings.pairing is None, junk
        assert app2.views[0].pair is None and "board" not in status(app2), junk
