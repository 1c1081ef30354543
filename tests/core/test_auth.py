# Every privileged operation of the serial link: refused without the arbiter's
# key and changing nothing, refused with a wrong key, accepted with the right one, and a
# replayed request refused. The list comes from the link's own table, so an operation
# added later is covered (or this test says it has no arguments for it).
# Runs on CPython and MicroPython.

from simutil import boot

from clockapp import link as K
from clockcore import engine as E
from clockcore import protocol as P

KEY = bytes(range(32))
WRONG = bytes(32)
AUTH_CODES = (P.E_AUTH_REQUIRED, P.E_AUTH, P.E_REPLAY)

ARGS = {
    "verify": (), "set": ("300+2",), "start": (), "pause": (), "resume": (), "end": (),
    "adjust": ("white", "1000"), "settime": ("black", "60000"), "moves": ("black", "3"),
    "stage": ("white", "1"), "undo": (), "addstage": ("both", "15m"),
    "addinc": ("both", "5000"),
    "split": ("1000", "60"), "wallclock": ("1796000000",), "keyset": (KEY.hex(),),
    "logclear": ("0",), "maintenance": (), "logack": ("0",),
    "seal": ("start",), "adjput": ("0", "QUJD"), "adjload": ("00" * 32,),
    "selftest": (), "result": ("1-0",), "incident": (), "schedule": ("0",),
    "arrive": ("white",), "pairing": ("3", "1", "White", "Black"),
}


def reply(app, line):
    return P.decode_reply(app.link.handle(line[:-1])[:-1])


def snapshot(app):
    c = app.clock
    return (c.state, list(c.main), list(c.moves), list(c.stage), app.settings.spec,
            app.link.key, app.link.wall_s)


def test_every_privileged_operation_needs_the_key():
    board, app = boot()
    link = app.link
    privileged = sorted(op for op, flags in link.ops.items() if flags & K.CHANGE)
    assert set(privileged) == set(ARGS), "give the new operation arguments here"
    assert reply(app, P.encode_request(1, "keyset", (KEY.hex(),), None, None))[1]
    rid = 10
    for op in privileged:
        args = ARGS[op]
        nonce = reply(app, P.encode_request(rid, "auth", (), None, None))[2]["nonce"].encode()
        rid += 1
        before = snapshot(app)
        # no mac at all
        r = reply(app, P.encode_request(rid, op, args, None, None))
        assert not r[1] and r[2]["code"] == P.E_AUTH_REQUIRED, (op, r)
        assert snapshot(app) == before, op
        # a mac made with another key
        rid += 1
        r = reply(app, P.encode_request(rid, op, args, WRONG, nonce))
        assert not r[1] and r[2]["code"] == P.E_AUTH, (op, r)
        assert snapshot(app) == before, op
        # the arbiter's key: past authorisation (the operation itself may still say no,
        # e.g. resume on a clock that is not paused)
        rid += 1
        line = P.encode_request(rid, op, args, KEY, nonce)
        r = reply(app, line)
        assert r[1] or r[2]["code"] not in AUTH_CODES, (op, r)
        # the same signed request again: a replay
        after = snapshot(app)
        r = reply(app, line)
        # refused as a replay; setting a key also ends the session, so it has no challenge
        want = P.E_AUTH if op == "keyset" else P.E_REPLAY
        assert not r[1] and r[2]["code"] == want, (op, r)
        assert snapshot(app) == after, op
        rid += 1
    assert link.refused >= 3 * len(privileged)


def test_a_players_cable_cannot_change_a_running_game():
    # No key on the clock: during a game every change is refused, whatever is sent.
    board, app = boot()
    assert reply(app, P.encode_request(1, "start", (), None, None))[1]
    before = snapshot(app)
    for i, op in enumerate(sorted(ARGS)):
        r = reply(app, P.encode_request(10 + i, op, ARGS[op], None, None))
        assert not r[1] and r[2]["code"] in (P.E_AUTH_REQUIRED, P.E_AUTH, P.E_STATE), (op, r)
    after = snapshot(app)
    assert after[0] == E.RUNNING and after[1:] == before[1:]
