"""Protocol fuzz: thousands of random and mutated frames fed to the clock's link in
process. No crash, every frame answered, nothing changes, the clock's times stay exact."""

from hypothesis import given, settings
from hypothesis import strategies as st
from simutil import boot, until

from clockcore import engine as E
from clockcore import protocol as P

OPS = ["hello", "status", "set", "start", "pause", "resume", "adjust", "moves", "stage",
       "undo", "addstage", "addinc", "split", "settime", "keyset", "logclear", "maintenance", "log",
       "auth", "verify", "wallclock", "end", "sim", "x"]
BOARD, APP = boot()
until(APP, BOARD, 100)
APP.link.handle(P.encode_request(1, "keyset", [bytes(range(32)).hex()])[:-1])
APP.link.handle(P.encode_request(2, "start")[:-1])  # refused: locked; start by hand
APP.clock.start(APP.now)
TIMES = None


def snapshot():
    c = APP.clock
    return (c.state, list(c.main), list(c.moves), list(c.stage), APP.settings.spec,
            APP.link.key, c.last)


def valid_frame(rid, op, args):
    return P.encode_request(rid, op, args)[:-1]


frames = st.one_of(
    st.binary(max_size=300),
    st.builds(valid_frame, st.integers(0, 10**9), st.sampled_from(OPS),
              st.lists(st.text(max_size=12), max_size=4)),
    st.builds(lambda f, i, b: f[:i] + bytes([b]) + f[i + 1:],
              st.builds(valid_frame, st.integers(0, 999), st.sampled_from(OPS),
                        st.lists(st.sampled_from(["white", "black", "60000", "3+2"]),
                                 max_size=2)),
              st.integers(0, 40), st.integers(0, 255)),
)


@settings(max_examples=4000, deadline=None, database=None)
@given(frames)
def test_random_frames_change_nothing(frame):
    before = snapshot()
    reply = APP.link.handle(bytes(frame))
    assert reply.startswith(b"=") and reply.endswith(b"\n")
    P.decode_reply(reply[:-1])   # a well-formed reply
    assert snapshot() == before, frame


class StreamPort:
    """A serial port with `data` waiting; what the link writes goes to `out`."""

    def __init__(self, data):
        self.data = data
        self.out = []

    def any(self):
        return bool(self.data)

    def readinto(self, buf):
        n = min(len(buf), len(self.data))
        buf[:n] = self.data[:n]
        self.data = self.data[n:]
        return n

    def write(self, d):
        self.out.append(d)


def poll_through(port, passes):
    """The link polled `passes` times on `port`, then put back as it was."""
    link = APP.link
    old = link.serial
    link.serial = port
    try:
        for _ in range(passes):
            link.poll()
    finally:
        link.serial = old
        link.cpos = link.cend = link.n = 0
        link.overflow = False
        link.job = None


@settings(max_examples=300, deadline=None, database=None)
@given(st.binary(max_size=2000))
def test_byte_streams_through_the_serial_buffer(data):
    port = StreamPort(data + b"\n")
    before = snapshot()
    poll_through(port, len(data) + 10)
    assert snapshot() == before
    for reply in port.out:
        P.decode_reply(reply[:-1])


def test_the_clock_keeps_exact_time_after_the_fuzz():
    c = APP.clock
    assert c.state == E.RUNNING
    t = APP.now
    w = c.main[c.turn]
    until(APP, BOARD, BOARD.t // 1000 + 1000)
    assert c.main[c.turn] == w - (APP.now - t)


def frames_byte_by_byte(data):
    """The link's framing, a byte at a time (what Link.poll did before it searched with
    bytearray.find): the lines it hands on and the codes of the frames it drops, in order."""
    out, line, overflow, i = [], bytearray(), False, 0
    while i < len(data):
        b = data[i]
        i += 1
        if b in (10, 13):
            if overflow:
                out.append(("drop", P.E_TOO_LONG))
                overflow = False
                line = bytearray()
            elif line:
                out.append(("line", bytes(line)))
                line = bytearray()
            continue
        if b == P.REQ_MARK and (line or overflow):
            i -= 1   # the next frame starts here
            code = (P.E_TOO_LONG if overflow
                    else P.E_TRUNCATED if line[0] == P.REQ_MARK else P.E_FRAME)
            out.append(("drop", code))
            overflow = False
            line = bytearray()
            continue
        if overflow:
            continue
        if len(line) >= P.LINE_MAX - 1:
            overflow = True
            continue
        line.append(b)
    return out


def framing_of(data):
    """What Link.poll makes of a byte stream: lines handed to its request steps, codes of
    the frames it drops, in order (the steps are replaced: nothing is carried out)."""
    got = []

    class Port(StreamPort):
        def write(self, d):
            got.append(("drop", P.decode_reply(d[:-1])[2]["code"]))

    def steps(line):
        got.append(("line", line))
        yield

    APP.link._steps = steps
    try:
        poll_through(Port(data), len(data) + 10)
    finally:
        del APP.link._steps
    return got


STREAM_BYTES = st.sampled_from([b"!", b"\n", b"\r", b"\r\n", b"a", b"{", b"!1 status",
                                b"x" * 100, b"y" * 255])


@settings(max_examples=1500, deadline=None, database=None)
@given(st.lists(STREAM_BYTES, max_size=40).map(b"".join))
def test_the_link_frames_a_stream_as_a_byte_by_byte_scan_does(data):
    data += b"\n"
    assert framing_of(data) == frames_byte_by_byte(data)


def test_the_framing_cases_by_hand():
    x = b"x" * (P.LINE_MAX - 1)
    cases = [
        (b"!1 status\n", [("line", b"!1 status")]),
        (b"\r\n\n!1 a\r\n", [("line", b"!1 a")]),
        (b"!1 a!2 b\n", [("drop", P.E_TRUNCATED), ("line", b"!2 b")]),
        (b"junk!2 b\n", [("drop", P.E_FRAME), ("line", b"!2 b")]),
        (x + b"\n", [("line", x)]),
        (x + b"z\n!3\n", [("drop", P.E_TOO_LONG), ("line", b"!3")]),
        (x + b"zz!3\n", [("drop", P.E_TOO_LONG), ("line", b"!3")]),
    ]
    for data, want in cases:
        assert frames_byte_by_byte(data) == want, data
        assert framing_of(data) == want, data
