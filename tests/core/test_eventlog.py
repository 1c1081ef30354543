# The event log's record format (clockcore/eventlog.py) on CPython and MicroPython:
# every record kind round-trips, the chain breaks at any changed byte, a torn last record
# is dropped, and the app's log() records presses without allocating a record each.

from clockcore import engine as E
from clockcore import eventlog as L
from clockcore import events as EV
from clockcore import framing as F
from clockcore import logbody as LB
from clockcore import logread as LR
from clockcore.control import DELAY_BRONSTEIN, Control, SideControl, Stage


class Sink:
    def __init__(self):
        self.payloads = []
        self.refuse = False

    def append(self, payload):
        if self.refuse:
            return False
        self.payloads.append(payload)
        return True

    def file(self):
        return b"".join([F.frame(p) for p in self.payloads])


def control():
    return Control(SideControl([Stage(5400000, 40, inc_ms=30000), Stage(1800000, 0, 30000)]),
                   SideControl([Stage(300000, 0, 0, 5000, DELAY_BRONSTEIN)], byo_periods=3,
                               byo_ms=30000, byo_moves=1))


def every_kind():
    """A Writer fed one record of every code, and the (code, side, t, arg) it was fed."""
    sink = Sink()
    w = L.Writer(sink.append)
    c = E.Clock(control())
    fed = []

    def log(code, side, t, arg, reason=0):
        w.log(code, side, t, arg, c, reason)
        fed.append((code, side, t, arg))

    body = L.header_body("sim-0000", "0.1.0", "fide-classical", True, L.clock_options(c),
                         1700000000, c.sides)
    w.log_big(EV.EV_HEADER, -1, 0, 0, c, body)
    fed.append((EV.EV_HEADER, -1, 0, 0))
    w.log_big(EV.EV_BOOT, -1, 5, 1, c, LB.snapshot_body(c))
    fed.append((EV.EV_BOOT, -1, 5, 1))
    c.start(100)
    log(0, 0, 100, 0)
    c.press(0, 20100)
    log(1, 0, 20100, 30000)
    t = 30000
    for code in range(2, 17):
        t += 1000 + code * 7
        arg = -120000 if code == 7 else code * 1000
        log(code, code & 1, t, arg, 2)
    for code in range(33, 46):
        if code != EV.EV_HEADER:
            t -= 3  # app events may be dated before the previous record
            log(code, -1 if code & 1 else 1, t, code * 11, 0)
    w.flush()
    return sink, fed


def test_every_record_kind_round_trips():
    sink, fed = every_kind()
    r = LR.Reader()
    recs = [r.decode(p) for p in sink.payloads]
    assert len(recs) == len(fed)
    for i in range(len(recs)):
        rec = recs[i]
        code, side, t, arg = fed[i]
        assert rec.seq == i and L.seq_of(sink.payloads[i]) == i
        assert (rec.code, rec.side, rec.t) == (code, side, t), (i, rec.tuple(), fed[i])
        if "arg" in EV.fields(code):  # a press keeps no arg: the replay gives the credit
            assert rec.arg == arg, (code, rec.arg, arg)
        assert rec.link is True
    h = recs[0].header
    assert h["clock_id"] == "sim-0000" and h["spec"] == "fide-classical"
    assert h["control"] == control() and h["wall_s"] == 1700000000 and h["freeze"]
    assert recs[1].snapshot["state"] == E.IDLE
    assert recs[3].fields == {"moves": 1, "stage": 0}
    assert recs[3].w == 5400000 - 20000 + 30000
    assert recs[9].code == 7 and recs[9].fields["reason"] == 2


def test_log_press_keeps_the_record_log_keeps():
    """The app's short way for a press (Writer.log_press) writes the very bytes log() does,
    between other records and across stages and sides (a changed field breaks it)."""
    out = []
    for short in (False, True):
        sink = Sink()
        w = L.Writer(sink.append)
        c = E.Clock(Control(SideControl([Stage(60000, 2, inc_ms=1000), Stage(30000)])))
        c.start(100)
        w.log(EV.EV_START, 0, 100, 0, c)
        t = 100
        for k in range(7):
            t += 700 + 13 * k
            side = c.turn
            c.press(side, t)
            if short:
                assert w.log_press(side, t, 1000, c)
            else:
                assert w.log(EV.EV_PRESS, side, t, 1000, c)
            if k == 3:
                w.log(EV.EV_ADJUST, side, t + 5, -2000, c, 1)
        w.flush()
        out.append(sink.payloads)
    assert len(out[1]) == 9 and out[0] == out[1]
    stages = [LR.Reader().decode(p).fields.get("stage") for p in out[1]]
    assert 1 in stages   # the press records cross into the second stage


def test_writes_fit_the_budget_and_seq_is_the_first_four_bytes():
    sink, _ = every_kind()
    press = sink.payloads[3]
    assert len(press) + 8 <= 32, len(press)
    assert press[:4] == bytes([3, 0, 0, 0])


def test_any_changed_byte_breaks_the_chain_or_the_decoding():
    sink, _ = every_kind()
    payloads = sink.payloads
    for i in range(len(payloads) - 1):  # a change in record i shows at record i or i + 1
        p = payloads[i]
        for k in range(len(p)):
            bad = bytearray(p)
            bad[k] ^= 0x10
            r = LR.Reader()
            ok = True
            try:
                for j in range(len(payloads)):
                    rec = r.decode(bytes(bad) if j == i else payloads[j])
                    if rec.link is False:
                        ok = False
            except ValueError:
                ok = False
            assert not ok, (i, k)


def test_torn_last_record_is_dropped_and_a_changed_frame_is_skipped():
    sink, fed = every_kind()
    data = sink.file()
    recs, bad, errors = LR.read(data[:-5])
    assert len(recs) == len(fed) - 1 and errors == []
    assert bad == [(len(data) - 5 - (len(F.frame(sink.payloads[-1])) - 5),
                    len(F.frame(sink.payloads[-1])) - 5)]
    changed = bytearray(data)
    changed[20] ^= 1
    recs, bad, errors = LR.read(bytes(changed))
    assert bad and recs[0].seq == 1 and len(recs) == len(fed) - 1


def test_a_refused_append_is_retried_without_a_gap():
    sink = Sink()
    w = L.Writer(sink.append)
    c = E.Clock(control())
    w.log(0, 0, 10, 0, c)
    sink.refuse = True
    assert w.flush() == 0 and w.n == 1
    w.log(5, 0, 20, 0, c)
    sink.refuse = False
    assert w.flush() == 2
    r = LR.Reader()
    assert [r.decode(p).seq for p in sink.payloads] == [0, 1]
    for _ in range(L.SLOTS + 3):
        w.log(5, 0, 30, 0, c)
    assert w.lost == 3


def test_varints():
    buf = bytearray(12)
    for v in (0, 1, -1, 63, -64, 64, 300, -300, 2 ** 30, -(2 ** 31), 2 ** 40):
        p = L.put_varint(buf, 0, v)
        assert LR.get_varint(buf, 0) == (v, p)


def test_boot_snapshot_has_the_out_of_time_state_and_older_ones_still_read():
    c = E.Clock(Control(SideControl([Stage(10000, 2), Stage(5000)])), freeze=False)
    c.start(0)
    c.tick(12000)                       # White out of time in stage 1
    assert c.out == [True, False]
    for cut in (0, 3):                  # as written now; as written before the tail
        body = LB.snapshot_body(c)
        body = body[:len(body) - cut]
        sink = Sink()
        w = L.Writer(sink.append)
        w.log_big(EV.EV_BOOT, -1, 12000, 1, c, body)
        w.flush()
        snap = LR.Reader().decode(sink.payloads[0]).snapshot
        assert snap["white_flag_at"] == 10000 and snap["white_overrun"] == 2000
        if cut:
            assert "white_out" not in snap and "undo_opp_gain" not in snap
        else:
            assert (snap["white_out"], snap["black_out"], snap["undo_opp_gain"]) == (1, 0, 0)


def test_a_correction_with_a_ground_carries_it_and_others_read_as_before():
    # seed ACT 22, S1 6.8d: the arbiter's ground goes into the log with the correction
    # (reason R_GROUND and a body); the records around it, with no ground, are unchanged.
    sink = Sink()
    w = L.Writer(sink.append)
    c = E.Clock(control())
    c.start(100)
    w.log(EV.EV_START, 0, 100, 0, c)
    w.log(EV.EV_ADJUST, 1, 200, 120000, c, EV.R_HOST)
    w.log_ground(EV.EV_ADJUST, 1, 300, 120000, c, LB.ground_body("illegal move", "ACT 7"))
    w.log_ground(EV.EV_SET_TIME, 0, 400, 60000, c, LB.ground_body("clock fault é", "-"))
    w.log(EV.EV_ADJUST, 0, 500, -30000, c, EV.R_PENALTY)
    w.flush()
    r = LR.Reader()
    recs = [r.decode(p) for p in sink.payloads]
    assert [x.link for x in recs] == [True] * 5
    assert recs[1].fields["reason"] == EV.R_HOST and recs[1].ground is None
    assert recs[2].fields["reason"] == EV.R_GROUND and recs[2].arg == 120000
    assert recs[2].ground == ("illegal move", "ACT 7")
    assert recs[3].ground == ("clock fault é", "-") and recs[3].code == EV.EV_SET_TIME
    assert recs[4].ground is None and recs[4].fields["reason"] == EV.R_PENALTY
    assert LR.REASONS[EV.R_GROUND] == "ground"
    # a changed byte in the ground breaks the chain
    bad = bytearray(sink.payloads[2])
    bad[-L.CHAIN - 2] ^= 1
    r2 = LR.Reader()
    r2.decode(sink.payloads[0])
    r2.decode(sink.payloads[1])
    assert r2.decode(bytes(bad)).link is False
