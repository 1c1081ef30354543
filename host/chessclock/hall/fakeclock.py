"""A lightweight simulated clock for the bench and the broker tests: the engine
(clockcore.engine.Clock, real time) behind the serial protocol (clockcore.protocol),
in-process, as a transport for chessclock.link.transport.Link. Hundreds fit in one process where a
`chessclock sim-serve` (the whole firmware app on a pty, a process each) would not.

It answers hello, status, auth, sim press, and the arbiter's changes (signed with the key
as a real clock checks them); `unplug()` makes its port fail like a pulled cable.
"""

import binascii
import os
import threading
import time
from typing import Any

from clockcore import engine as E
from clockcore import presets
from clockcore import protocol as P


class FakeClock:
    def __init__(self, clock_id: str, control: str = "300+2", key: Any = None,
                 start: bool = True) -> None:
        self.clock_id = clock_id
        self.key = key
        self.t0 = time.monotonic()
        self.clock = E.Clock(presets.resolve(control)[0])
        self.spec = control
        self.nonce: bytes | None = None
        self.last_rid = -1
        self.out = b""
        self.lock = threading.Lock()
        self.plugged = True
        self.refused = 0          # authorisation refusals (status `refused`)
        if start:
            self.clock.start(self.now(), E.WHITE)

    def now(self) -> int:
        return int((time.monotonic() - self.t0) * 1000)

    # ---- as a transport (Link(port, transport=clock)) ---------------------------------
    def write(self, data: bytes) -> int:
        if not self.plugged:
            raise OSError(5, "Input/output error")
        for line in data.split(b"\n"):
            if line:
                reply = self._handle(line.rstrip(b"\r"))
                with self.lock:
                    self.out += reply
        return len(data)

    def read(self, n: int = 1) -> bytes:
        if not self.plugged:
            raise OSError(5, "Input/output error")
        with self.lock:
            chunk, self.out = self.out[:n], self.out[n:]
        if not chunk:
            time.sleep(0.005)
        return chunk

    @property
    def in_waiting(self) -> int:
        return len(self.out)

    def close(self) -> None:
        pass

    def unplug(self) -> None:
        self.plugged = False

    # ---- the clock side ---------------------------------------------------------------
    def press(self, side: str) -> None:
        """A lever: side WHITE or BLACK ends its turn now."""
        with self.lock:
            now = self.now()
            self.clock.tick(now)
            return self.clock.press(side, now)

    def _handle(self, line: bytes) -> Any:
        rid = -1
        try:
            rid, op, args, mac, signed = P.decode_request(line)
            with self.lock:
                now = self.now()
                self.clock.tick(now)
                pairs = self._op(rid, op, args, mac, signed, now)
            return P.encode_ok(rid, pairs)
        except P.ProtocolError as e:
            return P.encode_error(e.rid if e.rid >= 0 else rid, e.code, e.detail)
        except ValueError as e:
            return P.encode_error(rid, P.E_STATE, str(e))

    def _op(self, rid: Any, op: Any, args: list[Any], mac: Any, signed: Any, now: Any) -> Any:
        c = self.clock
        if op == "hello":
            return (("fw", "fake"), ("board", "fake"), ("clock", self.clock_id), ("proto", 1),
                    ("key", 1 if self.key else 0))
        if op == "status":
            run = c.running()
            return (("state", E.STATE_NAMES[c.state]), ("turn", E.SIDE_NAMES[c.turn]),
                    ("run", E.SIDE_NAMES[run] if run >= 0 else "-"), ("t", now),
                    ("w", c.main[0]), ("b", c.main[1]), ("wmoves", c.moves[0]),
                    ("bmoves", c.moves[1]), ("wflag", c.flag_at[0]), ("bflag", c.flag_at[1]),
                    ("bat", 4000), ("batlow", 0), ("soc", -1), ("spec", self.spec),
                    ("refused", self.refused), ("key", 1 if self.key else 0))
        if op == "auth":
            self.nonce = binascii.hexlify(os.urandom(16))
            self.last_rid = -1
            return (("nonce", self.nonce),)
        if op == "sim" and len(args) >= 2 and args[0] == b"press":
            side = E.WHITE if args[1] == b"left" else E.BLACK
            c.press(side, now)
            return (("t_us", now * 1000),)
        changes = {"pause": lambda: c.pause(now), "resume": lambda: c.resume(now, E.NOBODY),
                   "undo": lambda: c.undo_press(now)}
        if op in changes or op in ("adjust", "settime"):
            self._authorise(rid, mac, signed)
            if op in changes:
                ok = changes[op]()
            else:
                side = E.WHITE if args[0] == b"white" else E.BLACK
                ms = int(args[1])
                ok = c.adjust(side, ms, now) if op == "adjust" else c.set_time(side, ms, now)
            if ok is False:
                raise P.ProtocolError(P.E_STATE, "not now", rid)
            return (("state", E.STATE_NAMES[c.state]),)
        raise P.ProtocolError(P.E_UNKNOWN, "unknown operation", rid)

    def _authorise(self, rid: Any, mac: str, signed: Any) -> Any:
        if self.key is None:
            return
        if mac is None:
            self.refused += 1
            raise P.ProtocolError(P.E_AUTH_REQUIRED, "needs the arbiter's key", rid)
        if self.nonce is None or rid <= self.last_rid or not P.equal(
                P.mac_of(self.key, self.nonce, signed), mac.lower()):
            self.refused += 1
            raise P.ProtocolError(P.E_AUTH, "wrong mac", rid)
        self.last_rid = rid


def opener(clocks: Any) -> Any:
    """Station(open_link=...) for fake clocks named by their port: {port: FakeClock}."""
    from chessclock.link import transport as L

    def open_link(port: Any) -> Any:
        fake = clocks[port]
        if not fake.plugged:
            raise L.ClockError(L.EXIT_UNREACHABLE, "%s: cannot open the port" % port)
        return L.Link(port, timeout=1.0, transport=fake)
    return open_link
