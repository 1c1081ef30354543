"""The host's side of the serial link (docs/PROTOCOL.md): pyserial transport, framing,
retries and the arbiter's authorisation. pyserial is imported only when a port opens."""

import os
import time
from typing import Any

from chessclock import timetext as T
from chessclock.errors import ChessclockError
from clockcore import protocol as P

# Exit codes of the clock commands (docs/PROTOCOL.md).
EXIT_OK = 0
EXIT_FAILED = 1      # something unexpected (a bug): the message says what
EXIT_INPUT = 2       # bad arguments, control or key file
EXIT_UNREACHABLE = 3  # the port could not be opened or the clock did not answer
EXIT_REFUSED = 4     # the clock answered with an error (state, arguments, ...)
EXIT_AUTH = 5        # the clock refused: the arbiter's key is needed or wrong

BAUD = 115200
RETRIES = 2


class ClockError(ChessclockError):
    """An expected failure: what went wrong and what to do, with the exit code (EXIT_*)."""

    def __init__(self, code: int, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.code = self.exit_code = code
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message + (" (" + self.hint + ")" if self.hint else "")


def _refusal(op: str, fields: dict[str, Any]) -> ClockError:
    code = fields["code"]
    msg = "%s refused: %s%s" % (op, fields["name"],
                                ": " + fields["detail"] if fields["detail"] else "")
    if code in (P.E_AUTH_REQUIRED, P.E_AUTH, P.E_REPLAY):
        return ClockError(EXIT_AUTH, msg, "use the arbiter's key: `chessclock key use FILE` "
                          "or --key FILE")
    if code in (P.E_ARGS, P.E_UNKNOWN):
        return ClockError(EXIT_INPUT, msg)
    if code == P.E_NOT_READ:
        return ClockError(EXIT_REFUSED, msg, "run `chessclock log-pull` again")
    return ClockError(EXIT_REFUSED, msg)


class Link:
    """One clock on one serial port. `transport` is anything with read(n) (with a timeout),
    write(data) and close(): a pyserial Serial by default."""

    def __init__(self, port: str, key: bytes | None = None, timeout: float = 1.0,
                 transport: Any = None) -> None:
        self.port = port
        self.key = key
        self.timeout = timeout
        self.rid = 0
        self.nonce: bytes | None = None
        self.buf = b""
        if transport is None:
            try:
                import serial
            except ImportError:
                raise ClockError(EXIT_FAILED, "pyserial is not installed",
                                 "pip install pyserial") from None
            try:
                # DTR and RTS held low before the port opens: on an ESP32 bridge they
                # drive EN and GPIO0, and the usual toggle on open would reset the clock.
                transport = serial.Serial(None, BAUD, timeout=0.05, write_timeout=timeout)
                transport.port = port
                transport.dtr = False
                transport.rts = False
                transport.open()
            except (serial.SerialException, OSError) as e:
                raise ClockError(EXIT_UNREACHABLE, "%s: cannot open the port (%s)" % (port, e),
                                 "check the cable and that no other program uses it") from None
        self.t = transport

    def close(self) -> None:
        try:
            self.t.close()
        except OSError:
            pass

    def __enter__(self) -> "Link":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- framing ----------------------------------------------------------------------
    def _line(self, deadline: float) -> bytes | None:
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                line = self.buf[:i].rstrip(b"\r")
                self.buf = self.buf[i + 1:]
                return line
            if time.monotonic() > deadline:
                return None
            waiting = getattr(self.t, "in_waiting", 0)
            chunk = self.t.read(max(1, waiting))
            if chunk:
                self.buf += chunk

    def exchange(self, frame_bytes: bytes, rid: int, op: str) -> Any:
        """Send one frame and wait for the reply with this id: (ok, fields) or None."""
        self.t.write(frame_bytes)
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._line(deadline)
            if line is None:
                return None
            if not line.startswith(b"="):
                continue  # boot messages, noise: not a reply
            try:
                got, ok, fields = P.decode_reply(line)
            except (P.ProtocolError, ValueError):
                continue  # a damaged reply: wait for the retry
            if got == rid:
                return ok, fields
            if got == -1 and not ok and fields["code"] in (P.E_CHECKSUM, P.E_FRAME,
                                                           P.E_TRUNCATED, P.E_TOO_LONG):
                return ok, fields  # our frame arrived damaged

    def request(self, op: str, *args: object, change: bool = False) -> dict[str, str]:
        """Send op with args; the reply's fields (dict of str) or ClockError. Reading ops are
        retried on a lost or damaged frame; a CHANGE op is signed when a key is given and
        retried only when the clock says the frame arrived damaged."""
        attempts = RETRIES + 1
        for attempt in range(attempts):
            self.rid += 1
            rid = self.rid
            if change and self.key is not None:
                if self.nonce is None:
                    self.nonce = self.request("auth")["nonce"].encode()
                frame_bytes = P.encode_request(rid, op, args, self.key, self.nonce)
            else:
                frame_bytes = P.encode_request(rid, op, args)
            try:
                got = self.exchange(frame_bytes, rid, op)
            except OSError as e:
                raise ClockError(EXIT_UNREACHABLE, "%s: serial error (%s)" % (self.port, e),
                                 "check the cable") from None
            if got is None:
                if change:
                    raise ClockError(EXIT_UNREACHABLE, "%s: no reply to %s" % (self.port, op),
                                     "it may or may not have been done: check with "
                                     "`chessclock status`")
                continue
            ok, fields = got
            if ok:
                return fields
            if fields["code"] in (P.E_CHECKSUM, P.E_FRAME, P.E_TRUNCATED) \
                    and attempt + 1 < attempts:
                continue  # damaged on the way: not done, send again
            if change and fields["code"] == P.E_AUTH and self.nonce is not None \
                    and attempt + 1 < attempts:
                self.nonce = None  # another host took a new session: authorise again
                continue
            raise _refusal(op, fields)
        raise ClockError(EXIT_UNREACHABLE, "%s: no reply from a clock" % self.port,
                         "is it a clock, powered and running? try `chessclock ports`")


def parse_ms(text: str, signed: bool = True) -> int:
    """A duration argument of a clock command as chessclock.timetext reads it ('+2m' ->
    120000, '-30s' -> -30000, '1500ms', '+1:30' -> 90000; a bare number has no unit and is
    refused), as a ClockError (bad input) when it is not one."""
    try:
        return T.parse_duration(text, signed)
    except T.DurationError as e:
        raise ClockError(EXIT_INPUT, str(e)) from None


# ---- keys -------------------------------------------------------------------------------
def config_dir() -> str:
    return os.environ.get("CHESSCLOCK_HOME") or os.path.join(
        os.path.expanduser("~"), ".config", "chessclock")


def read_key(path: str) -> bytes:
    try:
        with open(path) as f:
            text = f.read().strip()
        key = bytes.fromhex(text)
    except OSError as e:
        raise ClockError(EXIT_INPUT, "cannot read the key file %s (%s)" % (path, e.strerror),
                         "create one with `chessclock key new FILE`") from None
    except ValueError:
        key = b""
    if len(key) != 32:
        raise ClockError(EXIT_INPUT, "%s is not a key file (64 hex digits)" % path)
    return key


def current_key_path() -> str | None:
    p = os.path.join(config_dir(), "key-path")
    try:
        with open(p) as f:
            return f.read().strip() or None
    except OSError:
        return None


def key_for(args: Any) -> bytes | None:
    """The key a command uses: --key FILE, $CHESSCLOCK_KEY, or the one `key use` chose."""
    path = getattr(args, "key", None) or os.environ.get("CHESSCLOCK_KEY") or current_key_path()
    return read_key(path) if path else None
