# The event log's record format, the writing half (the board's): the Writer. The reading
# half is clockcore/logread.py (the host's, and the tests': not in the board's image); the
# event codes and each code's fields are clockcore/events.py. Portable: MicroPython 1.29
# and CPython; integers only. The format is documented in docs/EVENT-LOG.md; keep the two
# in step.
#
# A record's payload (what storage.append_log frames with b"LG", length u16 and CRC-32):
#
#     seq    u32 LE      sequence number, +1 per record (the serial link resumes pulls by it)
#     code   u8          event code (bits 0-5) | (side + 1) << 6   (side: -1 none, 0 W, 1 B)
#     dt     varint      t - previous record's t       (zigzag LEB128; absolute in a key record)
#     dw     varint      white_ms - previous white_ms  (times after the event)
#     db     varint      black_ms - previous black_ms
#     ...    varints     the fields of the event code (FIELDS), then a header's or boot's body
#                        (a header's body starts with the previous record's chain, 8 bytes:
#                        a log whose older games were removed starts at a header, and its
#                        chain can still be recomputed from what it holds)
#     chain  8 bytes     sha256(previous chain || every byte above)[:8]
#
# Key records (KEY_CODES: the game header and the boot) are encoded against zeros, so their
# time and both main times are absolute and decoding can start at any of them.
#
# The Writer keeps events in a preallocated RAM ring (log(): no allocation on a press) and
# encodes them at flush(), when the sequence number and the chain advance only once the
# storage accepted the record: a failed append is retried and never leaves a gap.

import hashlib
import struct

from clockcore import const
from clockcore.control import side_ints, stage_ints
from clockcore.events import (
    BODY_CODES,
    CORRECTIONS,
    EV_ADD_STAGE,
    EV_AUTH_FAIL,
    EV_FLAG,
    EV_HEADER,
    EV_INCIDENT,
    EV_PRESS,
    EV_RESULT,
    EV_SCHEDULE,
    EV_SELF_TEST,
    EV_STAGE,
    KEY_CODES,
    R_GROUND,
    fields,
)

FORMAT = const(2)   # the header's format version (2: a header carries the chain before it)
CHAIN = const(8)    # bytes of chain per record
ZERO_CHAIN = b"\x00" * 8
SLOTS = const(32)   # records kept in RAM between flushes
_W = const(12)      # ints per RAM slot: code, side, t, arg, w, b, x0..x5
DIGEST = const(32)  # bytes of a snapshot's SHA-256 in records 50 and 51
OPT_INC_AT_TURN_START = const(1)
OPT_STAGE_ON_FLAG = const(2)
OPT_FREEZE = const(4)
# The options' bits from 3 up are the move limit (0: none), so a header written before the
# move limit existed reads as "no limit" and the header's layout is unchanged.
OPT_LIMIT_SHIFT = const(3)


def chain_of(prev, body):
    h = hashlib.sha256(prev)
    h.update(body)
    return h.digest()[:CHAIN]


# ---- varints -------------------------------------------------------------------------
def put_varint(buf, pos, v):
    """Zigzag LEB128 of the int v into buf at pos; returns the position after it."""
    u = (v << 1) if v >= 0 else ((-v) << 1) - 1
    while u >= 0x80:
        buf[pos] = (u & 0x7F) | 0x80
        u >>= 7
        pos += 1
    buf[pos] = u
    return pos + 1


def _put_str(buf, pos, s):
    b = s.encode()
    pos = put_varint(buf, pos, len(b))
    buf[pos:pos + len(b)] = b
    return pos + len(b)


# ---- the game header and the boot snapshot (allocation is fine: rare) ------------------
def header_body(clock_id, firmware, spec, white_left, options, wall_s, sides):
    """The bytes after dt/dw/db of a header: format, options, lever mapping, wall clock,
    clock id, firmware version, the spec typed, then each side's full control."""
    buf = bytearray(96 + len(clock_id) + len(firmware) + len(spec) + 60 * (
        len(sides[0].stages) + len(sides[1].stages)))
    p = put_varint(buf, 0, FORMAT)
    p = put_varint(buf, p, options)
    p = put_varint(buf, p, 1 if white_left else 0)
    p = put_varint(buf, p, wall_s)
    p = _put_str(buf, p, clock_id)
    p = _put_str(buf, p, firmware)
    p = _put_str(buf, p, spec)
    for sc in sides:
        for v in side_ints(sc):
            p = put_varint(buf, p, v)
        p = put_varint(buf, p, len(sc.stages))
        for st in sc.stages:
            for v in stage_ints(st):
                p = put_varint(buf, p, v)
    return bytes(memoryview(buf)[:p])


def clock_options(clock):
    return ((OPT_INC_AT_TURN_START if clock.inc_at_turn_start else 0)
            | (OPT_STAGE_ON_FLAG if clock.stage_on_flag else 0)
            | (OPT_FREEZE if clock.freeze else 0)
            | (clock.move_limit << OPT_LIMIT_SHIFT))


def has_body(ev, x0):
    """True for a record that carries a body after its fields: a key record, a code of
    BODY_CODES, a correction with a ground (its first field after arg, x0, is R_GROUND)."""
    return ev in KEY_CODES or ev in BODY_CODES or (ev in CORRECTIONS and x0 == R_GROUND)


def extras_into(clock, ev, side, reason, x, reason2=0):
    """The fields after `arg` an event code records, read from the clock right after the
    event, into x[0..5] (a preallocated list: no allocation). Shared by the firmware's
    Writer and the host's replay, so both read the same values."""
    c = clock
    if ev == EV_PRESS:
        x[0] = c.moves[side]
        x[1] = c.stage[side]
    elif ev == EV_STAGE:
        x[0] = c.stage[side]
        x[1] = c.stage_cause
    elif ev == EV_FLAG:
        x[0] = c.stage[side]
        x[1] = c.moves[side]
    elif ev == EV_ADD_STAGE:
        st = c.stages[side][c.stage[side]]
        x[0] = reason
        x[1] = st.moves
        x[2] = st.inc_ms
        x[3] = st.delay_ms
        x[4] = st.delay_kind
    elif ev in CORRECTIONS or ev == EV_AUTH_FAIL:
        x[0] = reason   # a refusal's: how many it stands for
    elif ev == EV_INCIDENT:
        x[0] = c.moves[0]
        x[1] = c.moves[1]
    elif ev == EV_SELF_TEST or ev == EV_RESULT or ev == EV_SCHEDULE:
        x[0] = reason   # the caller's fields after arg (mv and pct, by, default_s)
        x[1] = reason2


# ---- writing (firmware) ----------------------------------------------------------------
class Writer:
    """Events in a RAM ring until flush(); `append(payload) -> bool` stores one record
    (Store.append_log on the clock). `seq` and `chain` continue an existing log."""

    def __init__(self, append, seq=0, chain=ZERO_CHAIN):
        self.append = append
        self.seq = seq
        self.chain = chain
        self.ring = [0] * (SLOTS * _W)
        self.head = 0       # oldest slot
        self.n = 0          # slots in use
        self.lost = 0       # events not kept: the ring was full
        self.big = []       # bodies of header/boot records, in order
        self.x = [0, 0, 0, 0, 0, 0]
        self.buf = bytearray(64)
        self.prev_t = 0
        self.prev_w = 0
        self.prev_b = 0
        self.written = 0    # bytes appended (framing included)

    def log(self, ev, side, t, arg, clock, reason=0, reason2=0):
        """Keep one event (no allocation). clock: the engine (None before a game).
        reason, reason2: the fields after arg that the caller gives (see extras_into)."""
        if self.n == SLOTS:
            self.lost += 1
            return False
        x = self.x
        if clock is not None:
            extras_into(clock, ev, side, reason, x, reason2)
            w = clock.main[0]
            b = clock.main[1]
        else:
            w = b = 0
        r = self.ring
        i = ((self.head + self.n) % SLOTS) * _W
        r[i] = ev
        r[i + 1] = side
        r[i + 2] = t
        r[i + 3] = arg
        r[i + 4] = w
        r[i + 5] = b
        r[i + 6] = x[0]
        r[i + 7] = x[1]
        r[i + 8] = x[2]
        r[i + 9] = x[3]
        r[i + 10] = x[4]
        r[i + 11] = x[5]
        self.n += 1
        return True

    def log_press(self, side, t, arg, clock):
        """log(EV_PRESS, side, t, arg, clock): the same slot, the same record, without the
        general path's calls (App.log, EventLog.log, log, extras_into). A press's record
        is kept before its display is drawn; the short way took ~0.4 ms off a press on the
        emulated Pico's M0+ (docs/BENCHMARKS.md)."""
        n = self.n
        if n == SLOTS:
            self.lost += 1
            return False
        r = self.ring
        i = ((self.head + n) % SLOTS) * _W
        r[i] = EV_PRESS
        r[i + 1] = side
        r[i + 2] = t
        r[i + 3] = arg
        m = clock.main
        r[i + 4] = m[0]
        r[i + 5] = m[1]
        r[i + 6] = clock.moves[side]   # extras_into's EV_PRESS fields: moves, stage
        r[i + 7] = clock.stage[side]
        self.n = n + 1
        return True

    def log_big(self, ev, side, t, arg, clock, body):
        """A record with a body: a header or boot (header_body()/snapshot_body() bytes), a
        seal's digest, an adjourned game's digest and snapshot."""
        if self.log(ev, side, t, arg, clock):
            self.big.append(body)

    def log_ground(self, ev, side, t, arg, clock, body):
        """A correction with the arbiter's ground (ground_body() bytes): reason R_GROUND."""
        if self.log(ev, side, t, arg, clock, R_GROUND):
            self.big.append(body)

    def pending(self):
        return self.n

    def _encode(self, i):
        """The payload of slot i with the current seq, chain and previous values."""
        r = self.ring
        ev = r[i]
        side = r[i + 1]
        key = ev in KEY_CODES
        pt = 0 if key else self.prev_t
        pw = 0 if key else self.prev_w
        pb = 0 if key else self.prev_b
        big = has_body(ev, r[i + 6])
        body = self.big[0] if big else b""
        need = 64 + 2 * CHAIN + len(body)   # a header's chain before, the record's after
        if len(self.buf) < need:
            self.buf = bytearray(need)
        buf = self.buf
        struct.pack_into("<I", buf, 0, self.seq & 0xFFFFFFFF)
        buf[4] = (ev & 0x3F) | ((side + 1) << 6)
        p = put_varint(buf, 5, r[i + 2] - pt)
        p = put_varint(buf, p, r[i + 4] - pw)
        p = put_varint(buf, p, r[i + 5] - pb)
        k = 6
        for name in fields(ev):
            if name == "arg":
                p = put_varint(buf, p, r[i + 3])
            else:
                p = put_varint(buf, p, r[i + k])
                k += 1
        if ev == EV_HEADER:
            buf[p:p + CHAIN] = self.chain
            p += CHAIN
        if big:
            buf[p:p + len(body)] = body
            p += len(body)
        mv = memoryview(buf)
        ch = chain_of(self.chain, mv[:p])
        buf[p:p + CHAIN] = ch   # one copy makes the payload
        return bytes(mv[:p + CHAIN]), ch

    def flush(self):
        """Encode and store the pending records in order. Stops at the first that storage
        refuses (kept for the next flush). Returns the number written."""
        done = 0
        while self.n:
            i = self.head * _W
            payload, ch = self._encode(i)
            if not self.append(payload):
                break
            r = self.ring
            if has_body(r[i], r[i + 6]):
                self.big.pop(0)
            self.prev_t = r[i + 2]
            self.prev_w = r[i + 4]
            self.prev_b = r[i + 5]
            self.seq = (self.seq + 1) & 0xFFFFFFFF
            self.chain = ch
            self.head = (self.head + 1) % SLOTS
            self.n -= 1
            self.written += len(payload) + 8
            done += 1
        return done


# ---- reading the tail (logstore) -------------------------------------------------------
def seq_of(payload):
    """The sequence number of a payload: its first 4 bytes, whatever the rest."""
    return payload[0] | (payload[1] << 8) | (payload[2] << 16) | (payload[3] << 24)
