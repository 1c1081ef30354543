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


@settings(max_examples=300, deadline=None, database=None)
@given(st.binary(max_size=2000))
def test_byte_streams_through_the_serial_buffer(data):
    class Port:
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
    port = Port(data + b"\n")
    link = APP.link
    old = link.serial
    link.serial = port
    before = snapshot()
    try:
        for _ in range(len(data) + 10):
            link.poll()
    finally:
        link.serial = old
        link.cpos = link.cend = link.n = 0
        link.overflow = False
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
