# The serial protocol between the host (`chessclock`) and the clock: framing, checksum,
# request ids, error codes and the arbiter's HMAC-SHA256 authorisation. Portable: runs on
# MicroPython 1.29 and CPython (the host imports this very module). Full description in
# docs/PROTOCOL.md.
#
#   request   "!" BODY "*" CRC "\n"      BODY = VERSION SP ID SP OP *(SP ARG) [SP "mac=" HEX64]
#   reply     "=" BODY "*" CRC "\n"      BODY = VERSION SP ID SP "ok" *(SP KEY "=" VALUE)
#                                             | VERSION SP ID SP "err" SP CODE SP NAME [SP DETAIL]
#
# CRC is the CRC-32 (IEEE, as zlib) of BODY as 8 lowercase hex digits. Arguments, values
# and details are percent-escaped: a space, "%", "*", "!", "=" in a value and any byte
# outside 0x21..0x7e are written %XX, so a frame is one line of printable ASCII.

import binascii
import hashlib

from clockcore import const
from clockcore.framing import crc32

VERSION = const(1)
LINE_MAX = const(256)      # longest request line the clock takes, "!" to "\n" included
REQ_MARK = const(0x21)     # "!"
_REPLY_MARK = const(0x3D)   # "="
_MAC_HEX = const(64)

# Error codes (reply "err CODE NAME [DETAIL]").
E_FRAME = const(1)          # not a frame: no "!" first, no "*crc", a byte outside ASCII
E_CHECKSUM = const(2)       # the CRC does not match the body
E_TOO_LONG = const(3)       # longer than LINE_MAX: dropped whole
E_TRUNCATED = const(4)      # a new "!" arrived before the frame's end: the frame was cut
E_VERSION = const(5)        # a protocol version this clock does not speak
E_UNKNOWN = const(6)        # unknown operation
E_ARGS = const(7)           # wrong arguments for the operation
E_AUTH_REQUIRED = const(8)  # the arbiter's key is needed (mac= missing)
E_AUTH = const(9)           # wrong mac, no challenge taken, or no key on the clock
E_REPLAY = const(10)        # a request id not above the last authorised one: replay
E_STATE = const(11)         # not possible now (game running, engine refused, ...)
E_NOT_READ = const(12)      # log clear before the log was read to its end
E_INTERNAL = const(13)      # the clock failed to carry it out (nothing changed)

ERROR_NAMES = ("", "frame", "checksum", "too-long", "truncated", "version", "unknown-op",
               "bad-args", "auth-required", "auth-failed", "replay", "state", "not-read",
               "internal")

_HEX = b"0123456789abcdef"


class ProtocolError(Exception):
    """A request (or reply) that cannot be taken: code (E_*), detail text, request id
    (-1 when it could not be read)."""

    def __init__(self, code, detail="", rid=-1):
        super().__init__(code, detail)
        self.code = code
        self.detail = detail
        self.rid = rid


# ---- checksum -------------------------------------------------------------------------
def crc_hex(data):
    return b"%08x" % crc32(data)


# ---- escaping -------------------------------------------------------------------------
def _plain(b):
    return 0x21 <= b <= 0x7E and b not in (0x25, 0x2A, 0x21, 0x3D)  # % * ! =


def escape(text):
    """bytes or str -> bytes with %XX for anything not plain."""
    if isinstance(text, str):
        text = text.encode()
    # Plain, the usual case (names, controls): checked by builtins, not a bytecode loop a
    # byte (a status reply escapes ~15 values; on an RP2040 that loop was milliseconds).
    if not text:
        return b""
    if min(text) > 0x20 and max(text) < 0x7F:
        # Printable: only % * ! = are escaped, by bytes.replace in C (a log reply's base64
        # ends in "=" padding: the byte loop below was ~40 ms of a Pico's M0+ for 1 KB, and
        # a press in it waited). "%" first: the escapes' own "%" stay.
        text = bytes(text)
        if b"%" in text:
            text = text.replace(b"%", b"%25")
        if b"*" in text:
            text = text.replace(b"*", b"%2a")
        if b"!" in text:
            text = text.replace(b"!", b"%21")
        if b"=" in text:
            text = text.replace(b"=", b"%3d")
        return text
    out = bytearray()
    for b in text:
        if _plain(b):
            out.append(b)
        else:
            out.append(0x25)
            out.append(_HEX[b >> 4])
            out.append(_HEX[b & 15])
    return bytes(out)


def unescape(token):
    """bytes -> bytes; ValueError on a bad %XX."""
    if b"%" not in token:
        return bytes(token)
    out = bytearray()
    i = 0
    n = len(token)
    while i < n:
        b = token[i]
        if b == 0x25:
            if i + 3 > n:
                raise ValueError("bad escape")
            out.append(int(token[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(b)
            i += 1
    return bytes(out)


# ---- HMAC-SHA256 (MicroPython has no hmac module) ---------------------------------------
def hmac_sha256(key, msg):
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = bytes(key) + bytes(64 - len(key))
    ipad = bytes([b ^ 0x36 for b in key])
    opad = bytes([b ^ 0x5C for b in key])
    inner = hashlib.sha256(ipad)
    inner.update(msg)
    outer = hashlib.sha256(opad)
    outer.update(inner.digest())
    return outer.digest()


def mac_of(key, nonce, body):
    """The mac= of a privileged request: hex HMAC-SHA256(key, NONCE " " BODY), BODY being
    the request body before " mac=" (version, id, op, args)."""
    return binascii.hexlify(hmac_sha256(key, bytes(nonce) + b" " + bytes(body)))


def equal(a, b):
    """Compare two byte strings in time independent of where they differ."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= a[i] ^ b[i]
    return d == 0


# ---- frames ---------------------------------------------------------------------------
def frame(mark, body):
    # joined once: chained "+" copied the whole body four times (a status reply: ~1.4 KB
    # of a 32-bit board's heap for ~360 bytes)
    return b"".join((bytes((mark,)), body, b"*", crc_hex(body), b"\n"))


def encode_request(rid, op, args=(), key=None, nonce=None):
    """A request line. With key and nonce the request is signed (mac=)."""
    body = b"%d %d %s" % (VERSION, rid, escape(op))
    for a in args:
        body += b" " + escape(a if isinstance(a, (bytes, bytearray)) else str(a))
    if key is not None:
        body += b" mac=" + mac_of(key, nonce, body)
    return frame(REQ_MARK, body)


def check_frame(line, mark):
    """The body of a frame line (without "\n"), after its mark and checksum are checked."""
    n = len(line)
    if n == 0 or line[0] != mark:
        raise ProtocolError(E_FRAME, "no frame mark")
    for i in range(n):
        b = line[i]
        if b < 0x20 or b > 0x7E:
            raise ProtocolError(E_FRAME, "byte %d not printable ascii" % i)
    if n < 11 or line[n - 9] != 0x2A:  # "*"
        raise ProtocolError(E_FRAME, "no *checksum")
    body = bytes(line[1:n - 9])
    if crc_hex(body) != bytes(line[n - 8:]).lower():
        raise ProtocolError(E_CHECKSUM, "checksum mismatch", _rid_of(body))
    return body


def _rid_of(body):
    parts = body.split(b" ")
    if len(parts) > 1 and 0 < len(parts[1]) <= 9 and parts[1].isdigit():
        return int(parts[1])
    return -1


def decode_request(line):
    """line (bytes, no newline) -> (rid, op, args, mac, signed_body). op is str, args a list
    of bytes (unescaped), mac the hex bytes or None, signed_body what the mac covers."""
    body = check_frame(line, REQ_MARK)
    parts = body.split(b" ")
    if len(parts) < 3 or b"" in parts:
        raise ProtocolError(E_FRAME, "expected VERSION ID OP", _rid_of(body))
    if not (0 < len(parts[1]) <= 9 and parts[1].isdigit()):
        raise ProtocolError(E_FRAME, "bad request id")
    rid = int(parts[1])
    if parts[0] != b"%d" % VERSION:
        raise ProtocolError(E_VERSION, "this clock speaks version %d" % VERSION, rid)
    mac = None
    signed = body
    last = parts[-1]
    if last.startswith(b"mac="):
        mac = last[4:]
        if len(mac) != _MAC_HEX:
            raise ProtocolError(E_ARGS, "mac must be 64 hex digits", rid)
        parts = parts[:-1]
        signed = body[:len(body) - len(last) - 1]
        if len(parts) < 3:
            raise ProtocolError(E_FRAME, "expected VERSION ID OP", rid)
    try:
        op = unescape(parts[2]).decode()
        args = [unescape(p) for p in parts[3:]]
    except ValueError:  # bad %XX or bad utf-8
        raise ProtocolError(E_ARGS, "bad escape", rid) from None
    return rid, op, args, mac, signed


def encode_ok(rid, pairs=()):
    """An ok reply; pairs is a sequence of (key, value) (value str, bytes or int)."""
    body = ok_body(rid)
    for k, v in pairs:
        add_field(body, k, v)
    return ok_frame(body)


# encode_ok in parts, for a caller that encodes a long reply in steps (clockapp/link.py)
def ok_body(rid):
    # one growing bytearray: adding to bytes copies the whole body at every field
    return bytearray(b"%d %s ok" % (VERSION, b"-" if rid < 0 else b"%d" % rid))


def add_field(body, k, v):
    """k=v onto the bytearray body, in place."""
    body += b" "
    body += k.encode()
    body += b"="
    if isinstance(v, int):
        body += b"%d" % v
    else:
        body += escape(v)


def ok_frame(body):
    return frame(_REPLY_MARK, body)


def encode_error(rid, code, detail=""):
    body = b"%d %s err %d %s" % (VERSION, b"-" if rid < 0 else b"%d" % rid, code,
                                 ERROR_NAMES[code].encode())
    if detail:
        body += b" " + escape(detail)
    return frame(_REPLY_MARK, body)


def decode_reply(line):
    """line (bytes, no newline) -> (rid, ok, fields). ok replies: fields is a dict of
    str -> str; errors: {"code": int, "name": str, "detail": str}. rid -1 for "-"."""
    body = check_frame(line, _REPLY_MARK)
    parts = body.split(b" ")
    if len(parts) < 3 or parts[0] != b"%d" % VERSION:
        raise ProtocolError(E_FRAME, "not a version %d reply" % VERSION)
    rid = -1 if parts[1] == b"-" else int(parts[1])
    try:
        if parts[2] == b"ok":
            fields = {}
            for p in parts[3:]:
                i = p.find(b"=")
                if i <= 0:
                    raise ProtocolError(E_FRAME, "bad field")
                fields[p[:i].decode()] = unescape(p[i + 1:]).decode()
            return rid, True, fields
        if parts[2] == b"err" and len(parts) >= 5:
            detail = unescape(parts[5]).decode() if len(parts) > 5 else ""
            return rid, False, {"code": int(parts[3]), "name": parts[4].decode(),
                                "detail": detail}
    except ValueError:
        raise ProtocolError(E_FRAME, "bad reply") from None
    raise ProtocolError(E_FRAME, "bad reply")
