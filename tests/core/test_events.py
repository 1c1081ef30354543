# The facts the firmware writes down once, and the extension points that must
# fail loudly. The event codes (clockcore/events.py) each with a name and a record that
# round-trips; every mode and delay kind through every codec of a control (the saved game,
# the log's header, the notation); every serial-link command with a handler that answers.
# Runs on CPython and on the MicroPython unix port.

from simutil import boot

from clockapp import gamestate as G
from clockcore import engine as E
from clockcore import eventlog as L
from clockcore import events as EV
from clockcore import logbody as LB
from clockcore import logread as LR
from clockcore import notation
from clockcore import protocol as P
from clockcore.control import (
    DELAY_NAMES,
    DELAY_NONE,
    MODE_COUNTDOWN,
    MODE_NAMES,
    Control,
    SideControl,
    Stage,
)


def codes():
    """{name: code} of every EV_ constant in the table."""
    out = {}
    for key in dir(EV):
        if key.startswith("EV_"):
            out[key] = getattr(EV, key)
    return out


def test_no_two_names_share_a_code_and_every_code_fits_six_bits():
    by_code = {}
    for key, code in codes().items():
        assert isinstance(code, int) and 0 <= code < 64, key
        assert code not in by_code, "%s and %s are both code %d" % (by_code.get(code), key,
                                                                    code)
        by_code[code] = key
    assert len(by_code) == len(codes())
    # the names the host shows are the constants' (one list, not two)
    assert LR.NAMES[EV.EV_SET_MOVES] == "set-moves"
    assert LR.NAMES[EV.EV_ADJOURNED_LOADED] == "adjourned-loaded"
    assert sorted(LR.NAMES) == sorted(by_code)
    assert len(set(LR.NAMES.values())) == len(LR.NAMES)


def test_the_layout_tables_name_only_codes_of_the_table():
    known = set(codes().values())
    for table in (EV.FIELDS, EV.KEY_CODES, EV.BODY_CODES, EV.CORRECTIONS):
        for code in table:
            assert code in known, code
    for code, names in EV.FIELDS.items():
        assert "arg" not in names[1:], code   # "arg" first when present


class _Sink:
    def __init__(self):
        self.payloads = []

    def append(self, payload):
        self.payloads.append(payload)
        return True


def test_every_code_of_the_table_round_trips_through_the_log():
    """A record of each code, with each of its fields set, written and read back: a code
    added to the table without its layout fails here."""
    sink = _Sink()
    w = L.Writer(sink.append)
    c = E.Clock(Control(SideControl([Stage(300000, inc_ms=2000)])))
    fed = []
    t = 0
    for name, code in sorted(codes().items(), key=lambda kv: kv[1]):
        t += 1000
        side = code % 3 - 1
        if code == EV.EV_HEADER:
            body = L.header_body("sim-1", "0.3.0", "5+2", True, L.clock_options(c), 0,
                                 c.sides)
            w.log_big(code, side, t, 0, c, body)
        elif code == EV.EV_BOOT:
            w.log_big(code, side, t, EV.BOOT_RESTORED, c, LB.snapshot_body(c))
        elif code == EV.EV_ADJOURNED_LOADED:
            w.log_big(code, side, t, 2, c, b"\x07" * L.DIGEST + LB.snapshot_body(c)
                      + LB.added_stages_body(c))
        elif code == EV.EV_PAIRING:
            w.log_big(code, side, t, 12, c, LB.pairing_body(3, "Ana", "Bo", "Open"))
        elif code in EV.BODY_CODES:
            w.log_big(code, side, t, 3, c, b"\x09" * L.DIGEST)
        else:
            # the fields after arg that the caller gives (extras_into) are 11 and 12
            w.log(code, side, t, code * 10 + 1, c, 11, 12)
        fed.append((name, code, side, t))
        assert w.flush() == 1, name
    r = LR.Reader()
    for i in range(len(fed)):
        name, code, side, t = fed[i]
        rec = r.decode(sink.payloads[i])
        assert (rec.code, rec.side, rec.t) == (code, side, t), name
        assert rec.link is True, name
        assert rec.name() == name[3:].lower().replace("_", "-"), name
        assert sorted(rec.fields) == sorted(EV.fields(code)), name
        if code in EV.KEY_CODES and code != EV.EV_HEADER:
            assert rec.snapshot["state"] == E.IDLE, name
        if code == EV.EV_PAIRING:
            assert rec.pairing == {"board": 12, "round": 3, "white": "Ana", "black": "Bo",
                                   "event": "Open"}, name
        elif code in EV.BODY_CODES or code == EV.EV_ADJOURNED_LOADED:
            assert len(rec.digest) == L.DIGEST, name


def _control(mode, kind):
    """A control a new game takes, in this mode, with this delay kind where the mode has
    delays (countdown): a new mode or kind that needs more fails validate() here."""
    if mode == MODE_COUNTDOWN:
        st = Stage(300000, 40, 0, 5000 if kind != DELAY_NONE else 0, kind)
        return Control(SideControl([st, Stage(60000, 0, 0, 3000 if kind else 0, kind)]))
    return Control(SideControl([Stage(300000)], mode=mode))


def test_every_mode_and_delay_kind_round_trips_through_every_codec():
    for mode in range(len(MODE_NAMES)):
        for kind in range(len(DELAY_NAMES)):
            what = "%s, %s" % (MODE_NAMES[mode], DELAY_NAMES[kind])
            control = _control(mode, kind).validate()
            clock = E.Clock(control)
            clock.start(0)
            clock.press(E.WHITE, 1500)
            clock.tick(2500)
            # the saved game (power cut)
            back, meta = G.decode(G.encode(clock, {"spec": "x"}))
            assert back.sides == clock.sides and back.main == clock.main, what
            assert back.stages == clock.stages and meta == {"spec": "x"}, what
            # the log's game header
            body = L.header_body("sim-1", "0.3.0", "x", True, L.clock_options(clock), 0,
                                 clock.sides)
            sink = _Sink()
            w = L.Writer(sink.append)
            w.log_big(EV.EV_HEADER, -1, 0, 0, clock, body)
            w.flush()
            rec = LR.Reader().decode(sink.payloads[0])
            assert rec.header["control"] == control, what
            # the notation the host and the clock type controls in
            assert notation.parse(notation.format_readable(control)) == control, what


def test_a_saved_game_in_a_mode_this_firmware_lacks_is_refused_with_its_reason():
    clock = E.Clock(_control(MODE_COUNTDOWN, DELAY_NONE))
    good = G.encode(clock, {})
    assert G.decode(good)[0].sides == clock.sides
    # the first side's mode byte: after GS, version, head (7), turn (9 q), sides (2 x 9 q)
    at = 2 + 1 + 7 + 9 * 8 + 2 * 9 * 8
    assert good[at] == MODE_COUNTDOWN
    for mode in (len(MODE_NAMES), 200):
        bad = bytearray(good)
        bad[at] = mode
        try:
            G.decode(bytes(bad))
        except ValueError as e:
            assert "unknown mode" in str(e) and str(e).startswith("game state"), str(e)
        else:
            raise AssertionError("mode %d restored" % mode)
    # a control a new game refuses (hourglass on one side only) is refused on restore too
    hg = bytearray(good)
    hg[at] = 1
    try:
        G.decode(bytes(hg))
    except ValueError as e:
        assert "hourglass" in str(e), str(e)
    else:
        raise AssertionError("a one-sided hourglass restored")


def _reply(app, rid, op, args):
    line = P.encode_request(rid, op, args)
    rid2, op2, args2, mac, signed = P.decode_request(line[:-1])
    assert (rid2, op2, [a.decode() for a in args2]) == (rid, op, list(args)), op
    return P.decode_reply(app.link.handle(line[:-1])[:-1])


def test_every_link_command_has_a_handler_that_answers_bad_input_with_an_error_code():
    """Each op of the clock's table, with no arguments and with nonsense ones: an answer
    (ok, or a refusal with its code), never "unknown op" and never a handler's crash."""
    board, app = boot()
    ops = sorted(app.link.ops)
    assert len(ops) > 20 and "status" in ops and "result" in ops
    rid = 1
    for op in ops:
        if op == "maintenance":
            continue  # leaves the clock for the REPL: tested in test_main_repl
        for args in ((), ("zz", "-", "99999999999")):
            rid += 1
            got_rid, ok, f = _reply(app, rid, op, args)
            assert got_rid == rid, op
            if not ok:
                code = int(f["code"])
                assert code not in (P.E_UNKNOWN, P.E_INTERNAL), (op, args, f)
                assert 0 < code < len(P.ERROR_NAMES), (op, f)
