# Replies never block the clock: the serial port's bounded queue of whole frames
# (clockapp/serialport.py) under a host that reads nothing, or a few bytes at a time, and
# the app's loop meanwhile. Runs on CPython and on the MicroPython unix port.

from simutil import fresh_dir

from boards.sim import SimBoard, run_until
from clockapp import serialport as S
from clockapp.app import App
from clockapp.board import BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import protocol as P


class FakePort(S.OutQueue):
    """A port whose host sends `inbox` and takes at most `room` bytes a drain (None: all);
    every _send call is counted, so a test sees that nothing waits for room."""

    def __init__(self, room=None, budget=S.PASS_BUDGET, rate=0):
        self.inbox = bytearray()
        self.out = bytearray()
        self.room = room
        self.per_drain = room
        self.sends = 0
        self._out_init(budget, rate)

    def any(self):
        return len(self.inbox) > 0

    def readinto(self, buf):
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        self.inbox = self.inbox[n:]
        return n

    def _send(self, data, off, n):
        self.sends += 1
        if self.room is not None:
            n = min(n, self.room)
            self.room -= n
        self.out += data[off:off + n]
        return n

    def drain(self):
        if self.per_drain is not None:
            self.room = self.per_drain   # the host took `per_drain` bytes since last time
        return S.OutQueue.drain(self)


def frames(n, size=40):
    return [bytes([65 + i]) * (size - 1) + b"\n" for i in range(n)]


def test_a_port_that_takes_nothing_keeps_whole_frames_and_drops_the_rest():
    p = FakePort(room=0)
    fs = frames(S.QUEUE_FRAMES + 2)
    took = [p.write(f) for f in fs]
    assert took == [True] * S.QUEUE_FRAMES + [False, False]
    assert p.dropped == 2 and p.count == S.QUEUE_FRAMES
    assert p.queued == 40 * S.QUEUE_FRAMES and p.out == b""
    for _ in range(10):
        assert p.drain() == 40 * S.QUEUE_FRAMES
    # the host reads again: exactly the queued frames, in order, whole
    p.per_drain = None
    p.room = None
    assert p.drain() == 0 or p.drain() == 0 or p.drain() == 0 or p.drain() == 0
    assert bytes(p.out) == b"".join(fs[:S.QUEUE_FRAMES])
    assert p.count == 0 and p.queued == 0


def test_a_few_bytes_at_a_time_and_the_budget_a_pass():
    p = FakePort(room=3)
    f = frames(2, 100)
    p.write(f[0])
    p.write(f[1])
    assert len(p.out) == 6      # each write sent what the port took at once
    was = 6
    while p.drain():
        assert len(p.out) == was + 3
        was += 3
    assert bytes(p.out) == f[0] + f[1]
    # a port that takes all: no more than the budget in one drain
    p = FakePort(room=None, budget=64)
    p.write(b"x" * 300)
    assert len(p.out) == 64 and p.queued == 236
    p.drain()
    assert len(p.out) == 128


def test_the_byte_bound_takes_one_large_frame_and_drops_a_second():
    p = FakePort(room=0)
    big = b"L" * (S.QUEUE_BYTES + 100)
    assert p.write(big)                  # an empty queue takes any frame
    assert not p.write(b"small\n")       # over the byte bound
    assert p.dropped == 1
    p.room = None
    p.per_drain = None
    while p.drain():
        pass
    assert bytes(p.out) == big


def test_a_rate_limited_port_writes_what_the_line_drains():
    t = [1000]
    old = S.ticks_ms
    S.ticks_ms = lambda: t[0]
    try:
        p = FakePort(room=None, budget=64, rate=11)
        p.write(b"y" * 200)
        assert len(p.out) == 0           # no time has passed since the port was made
        t[0] += 2
        p.drain()
        assert len(p.out) == 22          # 2 ms at 11 bytes/ms
        t[0] += 1000
        p.drain()
        assert len(p.out) == 22 + 64     # a long pause: one pass's budget, no more
        t[0] += 1
        p.drain()
        assert len(p.out) == 22 + 64 + 11
    finally:
        S.ticks_ms = old


def _request(port, rid, op, *args):
    port.inbox += P.encode_request(rid, op, list(args))


def _app(port):
    board = SimBoard(fresh_dir())
    board.port = port
    app = App(board)
    app.step()
    return board, app


def _replies(out):
    """Every line of what the clock sent is a whole, valid reply frame: their ids."""
    ids = []
    for line in bytes(out).split(b"\n")[:-1]:
        rid, ok, f = P.decode_reply(line)
        assert ok, f
        ids.append(rid)
    assert out[-1:] in (b"", b"\n")
    return ids


def test_the_clock_runs_on_while_the_host_reads_nothing():
    port = FakePort(room=0)
    board, app = _app(port)
    board.press_buttons(BTN_START, 100000)
    run_until(app, board, 200000)
    assert app.clock.state == E.RUNNING
    # 10 s of play; the host asks for status every 100 ms and never reads a reply
    fed = board.watchdog_fed
    renders = board.left.renders + board.right.renders
    rid = 0
    shown = []
    t = board.t
    for k in range(100):
        rid += 1
        _request(port, rid, "status")
        if k % 20 == 10:    # a press every 2 s
            board.press_lever(app.lever_of_side(app.clock.turn), board.t + 500)
        t += 100000
        run_until(app, board, t)
        d = board.left if app.lever_of_side(app.clock.turn) == LEFT else board.right
        shown.append(board.t - d.drawn_at)
    assert board.watchdog_fed - fed >= 9500   # a pass a ms (flash writes take some)
    assert board.left.renders + board.right.renders - renders >= 10   # the seconds moved
    assert max(shown) <= 1000000    # the running side's display drawn within the second
    assert app.clock.moves == [3, 2]                      # every press counted
    assert port.out == b"" and port.count == S.QUEUE_FRAMES
    assert port.dropped == 100 - S.QUEUE_FRAMES
    assert app.link.requests == 100                       # every request was handled
    # The host reads again: the four oldest replies, whole; a fresh request is answered.
    port.room = None
    port.per_drain = None
    rid += 1
    _request(port, rid, "status")   # while four replies wait: dropped, the host times out
    run_until(app, board, board.t + 50000)
    assert _replies(port.out) == [1, 2, 3, 4] and port.queued == 0
    rid += 1
    _request(port, rid, "status")   # ... and asks again
    run_until(app, board, board.t + 20000)
    assert _replies(port.out) == [1, 2, 3, 4, rid]


def test_the_clock_runs_on_while_the_host_reads_three_bytes_a_pass():
    port = FakePort(room=3)
    board, app = _app(port)
    board.press_buttons(BTN_START, 100000)
    run_until(app, board, 200000)
    board.press_lever(LEFT, 300000)
    board.press_lever(RIGHT, 2300000)
    for rid in range(1, 6):     # one request every 500 ms, each reply about 350 bytes
        _request(port, rid, "status")
        run_until(app, board, 200000 + rid * 500000)
    assert app.clock.moves == [1, 1] and app.clock.state == E.RUNNING
    # 2,500 passes of 3 to 6 bytes: every reply came out whole, in order, none dropped
    assert _replies(port.out) == [1, 2, 3, 4, 5] and port.dropped == 0
    assert port.sends >= len(port.out) // 3


def test_the_link_loads_at_boot_where_the_board_has_room_else_at_the_first_byte():
    # The import holds one pass (~230 ms on the emulated Pico): where the board says the
    # heap has room (the RP2040, clockcore/parts.py), it happens at boot, not mid-game.
    for early in (False, True):
        port = FakePort()
        board = SimBoard(fresh_dir(), link_at_boot=early)
        board.port = port
        app = App(board)
        assert (app._link is not None) == early
        run_until(app, board, 50000)
        assert (app._link is not None) == early     # no byte from a host yet
        _request(port, 1, "status")
        run_until(app, board, 100000)
        assert app._link is not None
        assert _replies(port.out) == [1]


def _white_running(port):
    """A game started by START, White's clock running; (board, app, White's lever)."""
    board, app = _app(port)
    board.press_buttons(BTN_START, 100000)
    run_until(app, board, 300000)
    assert app.clock.state == E.RUNNING and app.clock.turn == E.WHITE
    return board, app, app.lever_of_side(E.WHITE)


def _edge_now(board, lever):
    """The lever closes now and its interrupt fires at once (called from inside a pass)."""
    board.press_lever(lever, board.t)
    board.advance_to(board.t)


def test_an_edge_that_came_in_during_the_pass_is_shown_in_it_before_a_request():
    # The edge's interrupt fires after the pass read the levers (here: as it reads the
    # buttons): the pass takes it before the displays (not the next pass: on a board a
    # pass is ~2.5 ms), shows the press, and only then carries out the host's request
    # (slow on a board), whose reply says what is true after the press.
    port = FakePort()
    board, app, lever = _white_running(port)
    real = board.read_buttons
    fired = []
    seen = []

    def read_buttons():
        if not fired:
            fired.append(1)
            _edge_now(board, lever)
        return real()

    board.read_buttons = read_buttons
    _request(port, 1, "status")
    link = app.link
    real_poll = link.poll

    def poll():
        d = board.displays()[lever]
        seen.append((app.clock.turn, bytes(d.view.time), board.renders))
        return real_poll()

    link.poll = poll
    renders = board.renders
    app.step()
    assert app.clock.turn == E.BLACK and app.clock.moves[E.WHITE] == 1
    turn, shown, at = seen[0]
    assert turn == E.BLACK and at > renders   # the press was drawn before the request
    assert shown == bytes(app.views[lever].time)
    assert app.link.requests == 1 and not app.ring.pending()
    run_until(app, board, board.t + 20000)
    assert _replies(port.out) == [1]


def test_an_edge_while_a_reply_is_encoded_is_taken_in_the_interrupt_there():
    # A status reply is encoded a few fields a step (~4 ms of a board's M0+ in all), the
    # loop parked (nothing of the game is touched): an edge whose interrupt fires at the
    # 2nd field is taken, and its press shown, in the interrupt, before the 3rd field; the
    # reply says what was true when the status was carried out.
    port = FakePort()
    board, app, lever = _white_running(port)
    link = app.link
    fields = []
    real_add = P.add_field

    def add_field(body, k, v):
        fields.append((k, app.clock.turn, app.parked))
        if len(fields) == 2:
            _edge_now(board, lever)
        real_add(body, k, v)

    P.add_field = add_field
    try:
        _request(port, 1, "status")
        app.step()
        assert link.requests == 1 and not app.ring.pending() and app.parked_presses == 1
        assert fields[1][1:] == (E.WHITE, True) and fields[2][1:] == (E.BLACK, True)
        assert not app.parked
        run_until(app, board, board.t + 20000)
    finally:
        P.add_field = real_add
    assert _replies(port.out) == [1]
    got = P.decode_reply(port.out.split(b"\n")[0])[2]
    assert got["turn"] == "white" and got["wmoves"] == "0"   # as it was when carried out
    assert len(got) == len(fields) and app.clock.moves[E.WHITE] == 1


def test_an_edge_while_a_request_is_carried_out_waits_for_its_step():
    # Carrying out (here: a status reading the clock) is not parked: an edge in it is
    # taken by the loop when the step ends, before the reply is encoded.
    port = FakePort()
    board, app, lever = _white_running(port)
    real = app.link.op_status
    seen = []

    def op_status(args):
        seen.append(app.parked)
        _edge_now(board, lever)
        return real(args)

    app.link.op_status = op_status
    _request(port, 1, "status")
    app.step()
    assert seen == [False] and app.ring.pending() and app.parked_presses == 0
    assert app.clock.turn == E.WHITE and port.out == b""
    app.step()
    assert app.clock.turn == E.BLACK
    run_until(app, board, board.t + 20000)
    assert _replies(port.out) == [1]


def test_an_edge_as_a_reply_is_queued_is_shown_before_the_reply_is_sent():
    # The edge's interrupt fires as the link's step queues the reply (on a board: a
    # collection held that step): the pass sends nothing more (a drain is ~1.3 ms of USB
    # writes on a Pico); the next one takes and shows the press, then sends the rest.
    port = FakePort()
    board, app, lever = _white_running(port)
    link = app.link
    real_poll = link.poll
    fired = []

    def poll():
        real_poll()
        if port.queued and not fired:
            fired.append(len(port.out))
            _edge_now(board, lever)
    link.poll = poll
    _request(port, 1, "status")
    for _ in range(50):
        app.step()
        if fired:
            break
    assert fired and app.ring.pending() and port.queued
    assert len(port.out) == fired[0]     # nothing more sent in that pass
    app.step()
    assert app.clock.turn == E.BLACK and app.clock.moves[E.WHITE] == 1
    assert len(port.out) > fired[0]      # the press's pass goes on sending
    run_until(app, board, board.t + 20000)
    assert _replies(port.out) == [1] and not port.queued


def test_an_edge_while_reply_bytes_are_written_is_taken_in_the_interrupt():
    # Writing queued reply bytes (a drain: ~1.8 ms of USB writes a pass on the emulated
    # Pico) touches nothing of the game: the loop is parked, and an edge in it is taken and
    # shown in the interrupt there, the bytes going on.
    port = FakePort(room=16)
    board, app, lever = _white_running(port)
    real = port._send
    seen = []

    def send(data, off, n):
        if len(port.out) >= 32 and not seen:
            seen.append(app.parked)
            _edge_now(board, lever)
        return real(data, off, n)

    port._send = send
    _request(port, 1, "status")
    for _ in range(60):
        app.step()
        if seen:
            break
    assert seen == [True] and app.parked_presses == 1 and not app.parked
    assert app.clock.turn == E.BLACK and not app.ring.pending()
    run_until(app, board, board.t + 100000)
    assert _replies(port.out) == [1]


def test_an_edge_while_a_requests_bytes_are_read_is_taken_in_the_interrupt():
    # Reading and framing a request's bytes touch nothing of the game either.
    port = FakePort()
    board, app, lever = _white_running(port)
    real = port.readinto
    seen = []

    def readinto(buf):
        if not seen:
            seen.append(app.parked)
            _edge_now(board, lever)
        return real(buf)

    port.readinto = readinto
    _request(port, 1, "status")
    app.step()
    assert seen == [True] and app.parked_presses == 1 and not app.parked
    assert app.clock.turn == E.BLACK
    run_until(app, board, board.t + 20000)
    assert _replies(port.out) == [1]


def test_an_edge_during_a_request_is_shown_before_the_rest_of_the_request():
    # The edge's interrupt fires while the link carries out a status (on a board: ~2 ms of
    # its ~7): the reply is neither encoded nor sent in that pass; the next pass takes and
    # shows the press, then finishes the request, whose reply says what was true before it.
    port = FakePort()
    board, app, lever = _white_running(port)
    link = app.link
    real = link.op_status
    encoded = []

    def op_status(args):
        _edge_now(board, lever)
        return real(args)

    link.op_status = op_status   # the link answers status itself (Link.op_status)
    real_encode = P.ok_body

    def ok_body(rid):   # the reply's encoding begins
        encoded.append((app.clock.turn, board.right.renders + board.left.renders))
        return real_encode(rid)

    P.ok_body = ok_body
    try:
        _request(port, 1, "status")
        renders = board.right.renders + board.left.renders
        app.step()
        assert link.requests == 1 and app.ring.pending()
        assert port.out == b"" and encoded == []        # the rest waits for the press
        app.step()
        assert app.clock.turn == E.BLACK and app.clock.moves[E.WHITE] == 1
        assert encoded and encoded[0][0] == E.BLACK and encoded[0][1] > renders  # shown first
        run_until(app, board, board.t + 20000)
    finally:
        P.ok_body = real_encode
        del link.op_status
    out = _replies(port.out)
    assert out == [1]
    fields = P.decode_reply(port.out.split(b"\n")[0])[2]
    assert fields["turn"] == "white" and fields["wmoves"] == "0"   # as it was when carried out
    # a request alone, no edge: all its steps in the pass that reads its end
    _request(port, 2, "status")
    while link.requests < 2:
        app.step()
        board.advance_to(board.t + 1000)
    assert link.job is None and (port.queued or _replies(port.out) == [1, 2])


def test_an_edge_during_a_refusal_is_shown_before_the_error_reply_is_made():
    # A change asked without the arbiter's key during a game is refused and logged (on a
    # board ~6 ms), then its error encoded (~2 ms): an edge whose interrupt fires in the
    # refusal is taken and shown first, and the error is made in the pass after.
    port = FakePort()
    board, app, lever = _white_running(port)
    link = app.link
    real_log = link._log_refusal
    made = []

    def _log_refusal(code, count):
        _edge_now(board, lever)
        real_log(code, count)

    link._log_refusal = _log_refusal
    real_error = P.encode_error

    def encode_error(rid, code, detail):
        made.append((app.clock.turn, board.right.renders + board.left.renders))
        return real_error(rid, code, detail)

    P.encode_error = encode_error
    try:
        _request(port, 1, "moves", "white", "3")
        renders = board.right.renders + board.left.renders
        app.step()
        assert link.refused == 1 and app.ring.pending() and made == []
        app.step()
        assert app.clock.turn == E.BLACK and app.clock.moves[E.WHITE] == 1
        assert made and made[0][0] == E.BLACK and made[0][1] > renders   # shown first
        run_until(app, board, board.t + 20000)
    finally:
        P.encode_error = real_error
        del link._log_refusal
    rid, ok, fields = P.decode_reply(bytes(port.out).split(b"\n")[0])
    assert (rid, ok, fields["name"]) == (1, False, "auth-required")


def test_an_edge_during_a_log_reply_is_shown_before_the_rest_of_the_reply():
    # A log reply is read and encoded in steps (a 1 KB one was ~75 ms of the M0+ at once):
    # an edge whose interrupt fires while its records are read is taken and shown the next
    # pass, and the reply, finished after it, still carries every record asked for.
    port = FakePort()
    board, app, lever = _white_running(port)
    t = board.t
    for _k in range(16):                      # records enough for several steps
        t += 300000
        board.press_lever(app.lever_of_side(app.clock.turn), t, hold_us=40000)
        run_until(app, board, t + 100000)
    lever = app.lever_of_side(app.clock.turn)
    turn = app.clock.turn
    real = app.store.read_log
    total = len(list(real()))
    read = []

    def read_log():
        for k, rec in enumerate(real()):
            if k == 6:
                _edge_now(board, lever)
            read.append(k)
            yield rec

    app.store.read_log = read_log
    try:
        _request(port, 1, "log", "0", "1024")
        app.step()
        assert app.link.job is not None and app.ring.pending()   # the reply waits,
        assert len(read) < total                                 # its records half read
        app.step()
        assert app.clock.turn != turn                           # the press came first
        run_until(app, board, board.t + 20000)
    finally:
        app.store.read_log = real
    line = bytes(port.out).split(b"\n")[0]
    rid, ok, f = P.decode_reply(line)
    assert rid == 1 and ok and int(f["n"]) >= 16 and f["more"] == "0"


def test_a_long_value_escaped_in_parts_is_the_value_escaped_at_once():
    # A long value (a log reply's base64) is escaped a part a step, with a look at the
    # levers between two: the reply is the same bytes as one escaped at once.
    port = FakePort()
    board, app, lever = _white_running(port)
    link = app.link
    value = (bytes(range(1, 128)) + b"abc=*!%XY ") * 5 + b"=="
    link.op_hello = lambda args: (("v", value), ("n", 7))
    escape = P.escape
    parts = []    # per step, the lengths escaped in it

    def counted(text):
        parts[-1].append(len(text))
        return escape(text)

    P.escape = counted
    try:
        parts.append([])
        for _ in link._steps(P.encode_request(5, "hello").rstrip(b"\n")):
            parts.append([])
    finally:
        del link.op_hello
        P.escape = escape
    body = P.ok_body(5)
    P.add_field(body, "v", value)
    P.add_field(body, "n", 7)
    assert link.reply == P.ok_frame(body)
    assert P.decode_reply(bytes(link.reply).rstrip(b"\n"))[2]["v"] == value.decode()
    assert max(sum(p) for p in parts) <= 256    # no step escaped more than 256 bytes
