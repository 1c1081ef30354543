# Serial ports for the link (clockapp/link.py): reads and writes that never block the clock.
#
#   any()          True when at least one byte waits (no allocation when none does)
#   readinto(buf)  read what is waiting, at most len(buf) bytes; returns the count (0: none)
#   write(frame)   queue one whole reply frame and send what the port takes now; False when
#                  the queue is full and the frame was dropped whole
#   put(frame)     queue it only (the link: the app drains after the link, no edge waiting)
#   drain()        send more of the queue, what the port takes now (the app calls it every
#                  loop pass); returns the bytes still queued
#   wait(ms)       block until a byte waits, the port can take a queued byte, or ms pass
#                  (simulator servers only)
#
# Why: a host that opens the port and stops reading must not stop the clock. MicroPython's
# stdout write waits for room: on the RP2040's USB CDC (and TinyUSB CDC on ESP32-S2/S3) up to
# 500 ms a write (shared/tinyusb/mp_usbd_cdc.c, MICROPY_HW_USB_CDC_TX_TIMEOUT), on the
# ESP32's UART REPL a FreeRTOS tick (10 ms) every time the 128-byte FIFO is full
# (ports/esp32/uart.c). So replies go into a bounded queue of whole frames, and each pass
# writes only what the port can take at once:
#   - `chunk`: the bytes the port is sure to take once poll() says POLLOUT. The USB CDC
#     says POLLOUT when at least one byte of its TX FIFO is free (mp_usbd_cdc_poll_interfaces),
#     so there it is 1; a Linux pty says POLLOUT only while under 256 bytes wait in a buffer
#     of kilobytes (n_tty_poll's WAKEUP_CHARS), so the simulator uses 256.
#   - `rate`: bytes a millisecond the line drains (0: no limit). The ESP32's UART REPL
#     always says POLLOUT; writing no faster than 115200 baud drains (11.5 bytes/ms) keeps
#     its FIFO from filling, so a write there never waits either.
#   - `budget`: bytes written in one pass at most (bounds the CPU one pass spends on it).
# A frame once started is always finished (the host never sees half a frame followed by
# another); a frame that does not fit the queue is dropped whole. The host sees a dropped
# reply as a timeout and asks again (docs/PROTOCOL.md). The queue holds references to the
# reply bytes the link made anyway: nothing is copied or preallocated.
#
# StreamSerial works on MicroPython's stdin/stdout (the RP2040's USB serial, the ESP32's
# UART REPL, the unix port's stdin/stdout) and on any pair of streams select.poll takes.
# MicroPython streams fill a whole read, so bytes are read one at a time while poll says one
# is waiting. FdSerial is for CPython: os.read/os.write on a non-blocking file descriptor
# (a pty master), where a write returns what the kernel took.

import select
import time

from clockcore import const

_monotonic = getattr(time, "monotonic", time.time)   # CPython's; MicroPython never calls it


def _cpython_ms():
    return int(_monotonic() * 1000)


def _plain_diff(a, b):
    return a - b


# MicroPython's wrapping millisecond ticks; CPython's monotonic clock in their place
ticks_ms = getattr(time, "ticks_ms", _cpython_ms)
ticks_diff = getattr(time, "ticks_diff", _plain_diff)

_POLLIN = const(1)
_POLLOUT = const(4)
QUEUE_FRAMES = const(4)     # replies waiting at most (the link answers one request a pass)
QUEUE_BYTES = const(6144)   # bytes waiting at most; one frame is always taken (a log reply
                            # of 4096 payload bytes is about 5.5 KB of base64 and framing)
PASS_BUDGET = const(64)     # bytes written in one loop pass at most, on a board


class OutQueue:
    """The bounded queue of reply frames; a port class supplies _send(data, off, n) -> the
    bytes written now (0..n), never waiting."""

    def _out_init(self, budget, rate):
        self.frames = [b""] * QUEUE_FRAMES   # the slots (empty: b"")
        self.head = 0
        self.count = 0          # frames queued
        self.off = 0            # bytes of the head frame already written
        self.queued = 0         # bytes queued, not yet written
        self.dropped = 0        # frames dropped whole (queue full)
        self.budget = budget
        self.rate = rate
        self.tokens = 0         # bytes the line has drained since the last write (rate)
        self.tick = ticks_ms()
        # The app's lever ring (clockapp/levers.py: head != tail while an edge waits): the
        # byte-at-a-time reads and writes stop after the byte in which an edge came in, so
        # that its press goes first (on the RP2040 a 46-byte request line took 2.5 ms to
        # read, 16 reply bytes 1.5 ms to write: an edge waited for all of it).
        self.edges = None

    def _send(self, data, off, n):
        """Write data[off:off + n] as far as the port takes it now: the count written."""
        raise NotImplementedError

    def write(self, data):
        if not self.put(data):
            return False
        self.drain()
        return True

    def put(self, data):
        """Queue a frame without sending any of it (the next drain() does)."""
        n = len(data)
        if self.count and (self.count >= QUEUE_FRAMES or self.queued + n > QUEUE_BYTES):
            self.dropped += 1
            return False
        self.frames[(self.head + self.count) % QUEUE_FRAMES] = data
        self.count += 1
        self.queued += n
        return True

    def drain(self):
        if not self.count:
            return 0
        allow = self.budget
        if self.rate:
            now = ticks_ms()
            t = self.tokens + ticks_diff(now, self.tick) * self.rate
            self.tick = now
            if t > allow:
                t = allow   # a burst no larger than one pass's budget
            self.tokens = t
            allow = t
        while self.count and allow > 0:
            data = self.frames[self.head]
            n = len(data) - self.off
            if n > allow:
                n = allow
            w = self._send(data, self.off, n)
            self.off += w
            self.queued -= w
            allow -= w
            if self.rate:
                self.tokens -= w
            if self.off >= len(data):
                self.frames[self.head] = b""
                self.head = (self.head + 1) % QUEUE_FRAMES
                self.count -= 1
                self.off = 0
            elif w < n:
                break   # the port takes no more now
        return self.queued


class StreamSerial(OutQueue):
    def __init__(self, rstream, wstream, chunk=1, rate=0, budget=PASS_BUDGET):
        self.r = getattr(rstream, "buffer", rstream)
        self.w = getattr(wstream, "buffer", wstream)
        self.poller = select.poll()
        self.poller.register(rstream, select.POLLIN)
        self.wpoller = select.poll()
        self.wpoller.register(wstream, select.POLLOUT)
        self.one = bytearray(1)
        self.chunk = chunk
        self._ipoll = getattr(self.poller, "ipoll", None)
        self._wipoll = getattr(self.wpoller, "ipoll", None)
        self._out_init(budget, rate)

    def any(self):
        ip = self._ipoll
        if ip is not None:
            for _ in ip(0):
                return True
            return False
        return bool(self.poller.poll(0))

    def writable(self):
        ip = self._wipoll
        if ip is not None:
            for _, ev in ip(0):
                return ev & _POLLOUT != 0
            return False
        for _, ev in self.wpoller.poll(0):
            return ev & _POLLOUT != 0
        return False

    def readinto(self, buf):
        n = 0
        one = self.one
        edges = self.edges
        while n < len(buf) and self.any():
            if not self.r.readinto(one, 1):
                break
            buf[n] = one[0]
            n += 1
            if edges is not None and edges.head != edges.tail:
                break   # a lever edge: the rest next pass (at least a byte a call)
        return n

    def _send(self, data, off, n):
        w = self.w
        chunk = self.chunk
        one = self.one
        edges = self.edges
        k = 0
        while k < n and self.writable():
            if chunk == 1:
                one[0] = data[off + k]
                w.write(one)
                k += 1
            else:
                m = n - k if n - k < chunk else chunk
                w.write(memoryview(data)[off + k:off + k + m])
                k += m
            if edges is not None and edges.head != edges.tail:
                break   # a lever edge: the rest next pass (as readinto)
        if k and hasattr(w, "flush"):
            w.flush()
        return k

    def wait(self, ms):
        if self.count and self.writable():
            return
        self.poller.poll(ms)


class FdSerial(OutQueue):
    """CPython: a raw file descriptor, made non-blocking (os.read returns what is waiting,
    os.write what the kernel took)."""

    def __init__(self, fd, budget=1 << 20):
        import os
        self.os = os
        self.fd = fd
        os.set_blocking(fd, False)
        self.poller = select.poll()
        self.poller.register(fd, select.POLLIN)
        self.wpoller = select.poll()
        self.wpoller.register(fd, select.POLLOUT)
        self._out_init(budget, 0)

    def any(self):
        return bool(self.poller.poll(0))

    def readinto(self, buf):
        try:
            data = self.os.read(self.fd, len(buf))
        except BlockingIOError:
            return 0
        buf[:len(data)] = data
        return len(data)

    def _send(self, data, off, n):
        try:
            return self.os.write(self.fd, memoryview(data)[off:off + n])
        except BlockingIOError:
            return 0

    def wait(self, ms):
        if self.count and self.wpoller.poll(0):
            return
        self.poller.poll(ms)
