# Serial ports for the link (clockapp/link.py): non-blocking reads and writes.
#
#   any()          True when at least one byte waits (no allocation when none does)
#   readinto(buf)  read what is waiting, at most len(buf) bytes; returns the count (0: none)
#   write(data)    send all of data
#   wait(ms)       block until a byte waits or ms pass (simulator servers only)
#
# StreamSerial works on MicroPython's stdin/stdout (the RP2040's USB serial, the ESP32's
# UART REPL, the unix port's stdin/stdout) and on any pair of streams select.poll takes.
# MicroPython streams fill a whole read, so bytes are read one at a time while poll says one
# is waiting. FdSerial is for CPython: os.read/os.write on a file descriptor (a pty master).

import select

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_POLLIN = const(1)


class StreamSerial:
    def __init__(self, rstream, wstream):
        self.r = getattr(rstream, "buffer", rstream)
        self.w = getattr(wstream, "buffer", wstream)
        self.poller = select.poll()
        self.poller.register(rstream, select.POLLIN)
        self.one = bytearray(1)
        self._ipoll = getattr(self.poller, "ipoll", None)

    def any(self):
        ip = self._ipoll
        if ip is not None:
            for _ in ip(0):
                return True
            return False
        return bool(self.poller.poll(0))

    def readinto(self, buf):
        n = 0
        one = self.one
        while n < len(buf) and self.any():
            if not self.r.readinto(one, 1):
                break
            buf[n] = one[0]
            n += 1
        return n

    def write(self, data):
        w = self.w
        w.write(data)
        if hasattr(w, "flush"):
            w.flush()

    def wait(self, ms):
        self.poller.poll(ms)


class FdSerial:
    """CPython: a raw file descriptor (os.read returns what is waiting)."""

    def __init__(self, fd):
        import os
        self.os = os
        self.fd = fd
        self.poller = select.poll()
        self.poller.register(fd, select.POLLIN)

    def any(self):
        return bool(self.poller.poll(0))

    def readinto(self, buf):
        data = self.os.read(self.fd, len(buf))
        buf[:len(data)] = data
        return len(data)

    def write(self, data):
        view = memoryview(data)
        while len(view):
            try:
                n = self.os.write(self.fd, view)
            except BlockingIOError:
                self.poller.poll(1)
                continue
            view = view[n:]

    def wait(self, ms):
        self.poller.poll(ms)
