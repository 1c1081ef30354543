# The serial protocol (clockcore/protocol.py) and the clock's link (clockapp/link.py):
# framing, errors, HMAC, authorisation, log chunks. Runs on CPython and MicroPython.

import struct

from check import raises
from simutil import boot, until

from clockcore import engine as E
from clockcore import protocol as P

KEY = bytes(range(32))


def req(app, rid, op, args=(), key=None, nonce=None):
    line = P.encode_request(rid, op, args, key, nonce)
    return P.decode_reply(app.link.handle(line[:-1])[:-1])


def test_hmac_matches_rfc4231_case_2():
    mac = P.hmac_sha256(b"Jefe", b"what do ya want for nothing?")
    assert mac == bytes.fromhex("5bdcc146bf60754e6a042426089575c7"
                                "5a003f089d2739839dec58b964ec3843")


def test_request_round_trip_with_escapes():
    line = P.encode_request(7, "set", ["60m + byo 5x30s", "*180"])
    assert line.endswith(b"\n") and line.count(b" ") == 4
    rid, op, args, mac, signed = P.decode_request(line[:-1])
    assert (rid, op, args, mac) == (7, "set", [b"60m + byo 5x30s", b"*180"], None)


def _escape_byte_by_byte(text):
    out = bytearray()
    for b in text:
        if 0x21 <= b <= 0x7E and b not in (0x25, 0x2A, 0x21, 0x3D):
            out.append(b)
        else:
            out += b"%%%02x" % b
    return bytes(out)


def test_escape_of_printable_text_is_the_byte_by_byte_escape_and_reads_back():
    """Printable text (a log reply's base64, its "=" padding) takes the quick path: the
    same bytes as escaping each byte, and unescape gives the text back."""
    cases = [b"QUJD", b"QUI=", b"QQ==", b"%", b"%%25", b"a*b!c=d%e", b"=*!%" * 40,
             bytes(range(0x21, 0x7F)), b"x" * 1400 + b"=="]
    for text in cases:
        got = P.escape(text)
        assert got == _escape_byte_by_byte(text), text
        assert P.unescape(got) == text
    assert P.escape("") == b"" and P.escape(b"a b") == b"a%20b"


def test_bad_frames_raise_with_codes():
    good = P.encode_request(3, "status")[:-1]
    assert raises(P.ProtocolError, P.decode_request, b"status").code == P.E_FRAME
    bad = good[:-1] + (b"0" if good[-1:] != b"0" else b"1")
    e = raises(P.ProtocolError, P.decode_request, bad)
    assert e.code == P.E_CHECKSUM and e.rid == 3
    body = b"9 3 status"
    e = raises(P.ProtocolError, P.decode_request, b"!" + body + b"*" + P.crc_hex(body))
    assert e.code == P.E_VERSION


def test_reply_round_trip():
    rid, ok, f = P.decode_reply(P.encode_ok(5, (("a", 1), ("b", "x y=z")))[:-1])
    assert (rid, ok, f) == (5, True, {"a": "1", "b": "x y=z"})
    rid, ok, f = P.decode_reply(P.encode_error(-1, P.E_TOO_LONG, "too long")[:-1])
    assert rid == -1 and not ok and f["code"] == P.E_TOO_LONG and f["detail"] == "too long"


def test_hello_and_status():
    board, app = boot()
    rid, ok, f = req(app, 1, "hello")
    assert ok and f["proto"] == "1" and f["board"] == "sim" and f["key"] == "0"
    rid, ok, f = req(app, 2, "status")
    assert ok and f["state"] == "idle" and f["w"] == str(app.clock.main[0])
    assert (f["bat"], f["batlow"], f["soc"]) == ("4000", "0", "-1")   # no fuel gauge
    board.battery_low_pct = 45
    board.pct = 44
    app.battery_at -= 10000        # the next loop pass reads the battery
    app.step()
    rid, ok, f = req(app, 3, "status")
    assert (f["batlow"], f["soc"]) == ("1", "44")


def test_unknown_op_and_bad_args_change_nothing():
    board, app = boot()
    assert req(app, 1, "explode")[2]["code"] == P.E_UNKNOWN
    assert req(app, 2, "adjust", ["green", "5"])[2]["code"] == P.E_ARGS
    assert req(app, 3, "set", ["no such control"])[2]["code"] == P.E_ARGS
    assert app.settings.spec == "fide-blitz"


def test_set_refuses_pgn_no_event_plays_unless_written_pgn_on_purpose():
    # "90+30" is PGN, 1 min 30 s + 30 s; a clock is not set to that by mistake
    board, app = boot()
    rid, ok, f = req(app, 1, "set", ["90+30"])
    assert not ok and f["code"] == P.E_ARGS
    assert "write 90m+30s" in f["detail"] and "pgn:90+30" in f["detail"], f
    assert app.settings.spec == "fide-blitz" and app.clock.main[0] == 180000
    rid, ok, f = req(app, 2, "set", ["90m+30s"])
    assert ok and app.clock.main == [5400000, 5400000]
    rid, ok, f = req(app, 3, "set", ["pgn:90+30"])  # what `chessclock set --pgn` sends
    assert ok and app.clock.main == [90000, 90000] and app.settings.spec == "pgn:90+30"
    rid, ok, f = req(app, 4, "set", ["300 + 2"])  # PGN whatever its spaces
    assert ok and app.clock.main == [300000, 300000]


def test_a_stored_control_this_notation_refuses_boots_the_default():
    # an older settings.json may hold "15+10" (then 15 minutes); read as PGN it
    # is 15 s, which no event plays: the clock boots with the default, never with 15 s
    board, app = boot()
    app.store.save_json("settings.json", {"spec": "15+10", "favourites": ["15+10"]})
    board2, app2 = boot(board.root)
    assert app2.settings.spec == "fide-blitz" and app2.clock.main == [180000, 180000]


def test_without_a_key_no_change_during_a_game():
    board, app = boot()
    assert req(app, 1, "start")[1]
    assert app.clock.state == E.RUNNING
    for op, args in (("pause", ()), ("adjust", ("white", "60000")), ("set", ("300+2",)),
                     ("moves", ("black", "40")), ("end", ())):
        rid, ok, f = req(app, 2, op, args)
        assert not ok and f["code"] == P.E_AUTH_REQUIRED, op
    assert app.clock.state == E.RUNNING and app.clock.main[1] == 180000


def test_with_a_key_signed_requests_pass_and_replays_fail():
    board, app = boot()
    assert req(app, 1, "keyset", [KEY.hex()])[1]
    assert req(app, 2, "start")[2]["code"] == P.E_AUTH_REQUIRED
    nonce = req(app, 3, "auth")[2]["nonce"].encode()
    line = P.encode_request(4, "start", (), KEY, nonce)[:-1]
    assert P.decode_reply(app.link.handle(line)[:-1])[1]
    assert app.clock.state == E.RUNNING
    assert P.decode_reply(app.link.handle(line)[:-1])[2]["code"] == P.E_REPLAY
    assert req(app, 5, "pause", (), bytes(32), nonce)[2]["code"] == P.E_AUTH
    assert app.clock.state == E.RUNNING
    # a new session: the old nonce's macs are worthless
    nonce2 = req(app, 6, "auth")[2]["nonce"].encode()
    assert nonce2 != nonce
    assert req(app, 7, "pause", (), KEY, nonce)[2]["code"] == P.E_AUTH
    assert req(app, 8, "pause", (), KEY, nonce2)[1]
    assert app.clock.state == E.PAUSED


def refusals(app):
    """(code, count) of the refusal records of the clock's log."""
    from clockcore import events as EV
    from clockcore import logread as LR
    app.flush()
    reader = LR.Reader()
    out = []
    for p in app.store.read_log():
        r = reader.decode(p)
        if r.code == EV.EV_AUTH_FAIL:
            out.append((r.arg, r.fields["count"]))
    return out


def test_refusals_are_logged_each_and_a_flood_counted():
    board, app = boot()
    req(app, 1, "start")
    req(app, 2, "pause")
    req(app, 3, "pause")   # within a second: a record each
    assert refusals(app) == [(P.E_AUTH_REQUIRED, 1)] * 2 and app.link.refused == 2
    for i in range(20):    # a flood: the first few one by one, the rest counted
        req(app, 10 + i, "end")
    until(app, board, app.now + 1500)
    got = refusals(app)
    assert sum(c for _, c in got) == 22 and len(got) < 10, got
    assert app.link.refused == 22


def pull_records(app, maxbytes, start=0):
    """Every log record, read with `log FROM MAXBYTES` from `start` while more=1; returns
    the record payloads and each reply's decoded size."""
    import binascii
    got = []
    sizes = []
    while True:
        rid, ok, f = req(app, 1, "log", [start, maxbytes])
        assert ok
        blob = binascii.a2b_base64(f["data"]) if f["data"] else b""
        sizes.append(len(blob))
        i = 0
        while i < len(blob):
            n = struct.unpack_from("<H", blob, i)[0]
            got.append(blob[i + 2:i + 2 + n])
            i += 2 + n
        start = int(f["next"])
        if f["more"] == "0":
            return got, sizes


def _log_of(app, n):
    app.store.clear_log()
    for seq in range(n):
        app.store.append_log(struct.pack("<I", seq) + b"record %d" % seq)


def test_a_pull_the_heap_cannot_answer_goes_on_in_smaller_replies():
    # After power cuts the Pico's heap had no block for a reply: the request is refused
    # (internal: MemoryError), nothing is lost, and the next replies carry half as much.
    board, app = boot()
    _log_of(app, 200)
    want = [struct.pack("<I", s) + b"record %d" % s for s in range(200)]
    real = app.store.read_log

    def short_of_memory():
        for i, p in enumerate(real()):
            if i == 100:
                raise MemoryError
            yield p
    app.store.read_log = short_of_memory
    ok, f = req(app, 1, "log", [0, 1024])[1:]
    assert ok and f["more"] == "1" and int(f["next"]) < 100
    start = int(f["next"])
    ok, f = req(app, 2, "log", [start, 1024])[1:]   # the reader dies inside this one
    assert not ok and int(f["code"]) == P.E_INTERNAL and f["detail"] == "MemoryError"
    app.store.read_log = real
    got, sizes = pull_records(app, 1024, start)     # from where the host was
    assert got == want[start:] and max(sizes) <= 512


def test_log_read_in_chunks_and_clear_after_read_with_the_key():
    board, app = boot()
    assert req(app, 1, "keyset", [KEY.hex()])[1]
    _log_of(app, 100)
    got, _ = pull_records(app, 128)
    assert got == [struct.pack("<I", s) + b"record %d" % s for s in range(100)]
    nonce = req(app, 2, "auth")[2]["nonce"].encode()
    assert req(app, 3, "logclear", [98], KEY, nonce)[2]["code"] == P.E_NOT_READ
    ok, f = req(app, 4, "logclear", [99], KEY, nonce)[1:]
    assert ok and f["cleared"] == "99"         # the key authorises: no question asked
    assert list(app.store.read_log()) == [] and not app.menu.active()


def test_a_clock_without_a_key_erases_its_log_only_when_the_arbiter_holds_menu():
    from simutil import text

    from clockapp.board import BTN_MENU
    board, app = boot()
    _log_of(app, 20)
    pull_records(app, 4096)
    assert req(app, 2, "logclear", [18])[2]["code"] == P.E_NOT_READ
    ok, f = req(app, 3, "logclear", [19])[1:]
    assert ok and "cleared" not in f and f["confirm"] == "30", f
    assert len(list(app.store.read_log())) == 20           # not yet
    until(app, board, app.now + 100)
    assert text(board.left) == "CLr?" and text(board.right) == "HoLd"
    assert req(app, 4, "status")[2]["logclear"] == "1"
    t = app.now
    board.press_buttons(BTN_MENU, (t + 100) * 1000, hold_us=2500000)
    until(app, board, t + 1500)
    assert len(list(app.store.read_log())) == 20           # a tap of MENU is not enough
    until(app, board, t + 3000)
    assert list(app.store.read_log()) == []
    assert req(app, 5, "status")[2]["logclear"] == "2" and not app.menu.active()
    assert text(board.left) == "3:00"                      # the clock again


def test_the_erasure_is_declined_by_another_button_by_the_time_or_by_a_new_record():
    from clockapp.board import BTN_MENU, BTN_START, LEFT
    for how in ("start", "time", "lever"):
        board, app = boot()
        _log_of(app, 5)
        pull_records(app, 4096)
        assert req(app, 2, "logclear", [4])[1]
        t = app.now
        if how == "start":
            board.press_buttons(BTN_START, (t + 200) * 1000)
            until(app, board, t + 600)
            assert app.clock.state == E.IDLE, how          # START said no: no game
            assert req(app, 3, "status")[2]["logclear"] == "3", how
        elif how == "time":
            until(app, board, t + 31000)
            assert req(app, 3, "status")[2]["logclear"] == "3", how
        else:   # a lever pressed meanwhile is logged: the log is no longer what was read
            board.press_lever(LEFT, (t + 200) * 1000)
            until(app, board, t + 500)
            board.press_buttons(BTN_MENU, (t + 600) * 1000, hold_us=2500000)
            until(app, board, t + 3500)
            assert req(app, 3, "status")[2]["logclear"] == "4", how
        assert not app.menu.active(), how
        assert len(list(app.store.read_log())) >= 5, how


def test_an_erasure_asked_while_a_menu_is_open_is_refused():
    from clockapp.board import BTN_MENU
    board, app = boot()
    _log_of(app, 5)
    pull_records(app, 4096)
    board.press_buttons(BTN_MENU, (app.now + 100) * 1000)
    until(app, board, app.now + 500)
    assert app.menu.active()
    ok, f = req(app, 2, "logclear", [4])[1:]
    assert not ok and f["code"] == P.E_STATE and "menu" in f["detail"], f
    assert len(list(app.store.read_log())) == 5


def test_a_log_reply_carries_at_most_1_kb_whatever_the_host_asks():
    # A 4 KB reply needed ~6 KB heap blocks that a power-cut boot of the stock Pico image
    # did not have (linkcommon.LOG_CHUNK_MAX); the host asks 4096 and reads on while more=1.
    board, app = boot()
    app.store.clear_log()
    for seq in range(200):
        app.store.append_log(struct.pack("<I", seq) + b"record %d of the game" % seq)
    got, sizes = pull_records(app, 4096)
    assert got == [struct.pack("<I", s) + b"record %d of the game" % s for s in range(200)]
    assert max(sizes) <= 1024 and len(sizes) >= 6, sizes   # ~5.7 KB of records


def test_an_acknowledged_pull_marks_the_log_pulled_and_wall_clock_is_logged():
    # docs/EVENT-LOG.md: only pulled games may be pruned when the flash fills up.
    board, app = boot()
    assert req(app, 1, "wallclock", [1796000000])[1]  # no key set, no game: allowed
    app.step()  # flush the RAM log
    assert app.wall_s == 1796000000
    start = 0
    last = -1
    while True:
        rid, ok, f = req(app, 2, "log", [start, 4096])
        assert ok
        if f["n"] != "0":
            last = int(f["last"])
        start = int(f["next"])
        if f["more"] == "0":
            break
    assert last >= 0
    assert app.logw.pulled == -1          # reading marks nothing
    assert req(app, 3, "logack", [last])[1]   # no key, no game: the acknowledgement does
    assert app.logw.pulled == last
    # and it survives a restart: the marker is on flash
    board2, app2 = boot(board.root)
    app2.log(E.EV_PAUSE, 0, 0, 0)  # the log writer is created at the first event
    assert app2.logw.pulled == last


def test_the_hold_that_erases_an_ended_games_log_opens_no_arbiter_menu():
    from clockapp.board import BTN_MENU, BTN_START
    board, app = boot()
    board.press_buttons(BTN_START, 200000)
    until(app, board, 500)
    app.clock.end(app.now)
    until(app, board, 800)
    pull_records(app, 4096)
    last = app.link.read_end_seq
    assert req(app, 2, "logclear", [last])[1]
    t = app.now
    board.press_buttons(BTN_MENU, (t + 100) * 1000, hold_us=4000000)   # held on and on
    until(app, board, t + 5000)
    assert req(app, 3, "status")[2]["logclear"] == "2"
    assert not app.menu.active()     # the same hold does not go on to the arbiter menu
