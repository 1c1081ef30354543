# StreamSerial's real poll path on MicroPython: a stream that says POLLOUT only
# while its FIFO has room, as the RP2040's USB CDC does, and that counts a write it could
# not take whole as the 500 ms wait the port would make. MicroPython only: select.poll
# takes a Python stream object (io.IOBase with ioctl) here, not on CPython
# (tests/host/test_serialport_pty.py runs it on a real pty there).

import io
import select

from clockapp import serialport as S

_POLL = 3
_GET_FILENO = 10


class CdcFifo(io.IOBase):
    """The CDC's TX FIFO: `room` free bytes; the host reads `room` back in when it likes."""

    def __init__(self, room):
        self.room = room
        self.got = bytearray()
        self.waits = 0          # writes larger than the room: a real port would wait here

    def ioctl(self, req, arg):
        if req == _GET_FILENO:
            return -1           # not a file descriptor: poll asks _POLL
        if req == _POLL:
            return arg & select.POLLOUT if self.room > 0 else 0
        return 0

    def write(self, b):
        if len(b) > self.room:
            self.waits += 1
        n = min(len(b), self.room)
        self.got += b[:n]
        self.room -= n
        return n

    def readinto(self, b):
        return 0


class Quiet(io.IOBase):
    """stdin with nothing to read."""

    def ioctl(self, req, arg):
        return -1 if req == _GET_FILENO else 0

    def readinto(self, b):
        return 0


def test_usb_cdc_writes_one_byte_per_pollout_and_never_waits():
    fifo = CdcFifo(room=5)
    port = S.StreamSerial(Quiet(), fifo, chunk=1)
    frame = b"=1 7 ok state=running*01234567\n"
    assert port.write(frame)
    assert fifo.got == frame[:5] and fifo.waits == 0
    assert port.drain() == len(frame) - 5       # a full FIFO: nothing more, no wait
    fifo.room = 3
    port.drain()
    fifo.room = 1000
    assert port.drain() == 0
    assert bytes(fifo.got) == frame and fifo.waits == 0
    assert not port.any()


def test_a_chunked_port_writes_chunk_bytes_per_pollout():
    fifo = CdcFifo(room=1000)
    port = S.StreamSerial(Quiet(), fifo, chunk=16, budget=40)
    port.write(b"z" * 100)
    assert len(fifo.got) == 40                  # 16 + 16 + 8: the pass's budget
    assert port.drain() == 20 and port.drain() == 0
    assert fifo.waits == 0


class Edges:
    """A lever ring's two indices: an edge waits while head != tail."""

    def __init__(self):
        self.head = 0
        self.tail = 0


class Host(io.IOBase):
    """stdin with `data` waiting; after byte `edge_at` is read a lever edge comes in."""

    def __init__(self, data, edges, edge_at):
        self.data = data
        self.edges = edges
        self.edge_at = edge_at
        self.read = 0

    def ioctl(self, req, arg):
        if req == _GET_FILENO:
            return -1
        if req == _POLL:
            return arg & select.POLLIN if self.data else 0
        return 0

    def readinto(self, b, n=-1):
        b[0] = self.data[0]
        self.data = self.data[1:]
        self.read += 1
        if self.read == self.edge_at:
            self.edges.head += 1   # the interrupt's push
        return 1


def test_a_read_stops_after_the_byte_a_lever_edge_came_in_and_goes_on_after_it():
    edges = Edges()
    line = b"!7 status*0123abcd\n"
    host = Host(line, edges, 3)
    port = S.StreamSerial(host, CdcFifo(room=0), chunk=1)
    port.edges = edges
    buf = bytearray(64)
    assert port.readinto(buf) == 3 and buf[:3] == line[:3]
    assert port.readinto(buf) == 1          # the edge still waits: a byte a call
    edges.tail = edges.head                 # the press taken
    n = port.readinto(buf)
    assert n == len(line) - 4 and buf[:n] == line[4:]


def test_a_write_stops_after_the_byte_a_lever_edge_came_in_and_keeps_the_frame_whole():
    edges = Edges()
    fifo = CdcFifo(room=1000)
    port = S.StreamSerial(Quiet(), fifo, chunk=1, budget=16)
    port.edges = edges
    real = fifo.write
    frame = b"=1 7 ok state=running*01234567\n"

    def write(b):
        if len(fifo.got) == 4:
            edges.head += 1
        return real(b)

    fifo.write = write
    port.put(frame)
    assert port.drain() == len(frame) - 5 and fifo.got == frame[:5]
    edges.tail = edges.head
    while port.drain():
        pass
    assert bytes(fifo.got) == frame and fifo.waits == 0
