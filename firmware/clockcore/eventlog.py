# The event log's record format: one module for the firmware (Writer) and the host (Reader,
# verify, export). Portable: MicroPython 1.29 and CPython; integers only. The format is
# documented in docs/EVENT-LOG.md; keep the two in step.
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

try:
    import binascii

    _crc32 = binascii.crc32
except (ImportError, AttributeError):  # pragma: no cover - ports without binascii.crc32
    _crc32 = None

FORMAT = const(2)   # the header's format version (2: a header carries the chain before it)
CHAIN = const(8)    # bytes of chain per record
ZERO_CHAIN = b"\x00" * 8
SLOTS = const(32)   # records kept in RAM between flushes
_W = const(12)      # ints per RAM slot: code, side, t, arg, w, b, x0..x5

# Event codes: the engine's (clockcore.engine.EV_*, 0-17) and the app's.
EV_BOOT = const(32)          # arg 1: a saved game was restored (snapshot follows); key record
EV_LEVER_BOTH = const(33)
EV_LEVER_DROPPED = const(34)
EV_LEVER_HELD = const(35)
EV_HEADER = const(36)        # control set: a game header; key record
EV_LOW_BATTERY = const(37)   # arg mV
EV_MISSED_EDGE = const(38)
EV_STORAGE_FULL = const(39)  # a state or log write failed for lack of space
EV_POWER_OFF = const(40)     # critical battery: last writes, then no more flash
EV_LOG_FULL = const(41)      # log over its budget, unpulled games kept; arg: bytes in the log
EV_AUTH_FAIL = const(42)     # reserved for the serial link; arg: its reason code
EV_LOG_LOST = const(43)      # arg: events lost while the RAM ring was full
EV_WALL_CLOCK = const(44)    # the clock was given the wall-clock time; arg: unix seconds
EV_LOG_PRUNED = const(45)    # old pulled games removed; arg: the first sequence number kept
EV_LOW_CHARGE = const(46)    # the fuel gauge's state of charge fell below the warning; arg %
# Adjournment (clockapp/seal.py, docs/ADJOURNMENT.md): codes 48-52.
EV_SEAL_START = const(48)    # seal mode: the sealer's clock runs; arg: session closed (from 1)
EV_SEAL_ALERT = const(49)    # 15 minutes of sealing (P6); arg: ms of sealing so far
EV_SEALED = const(50)        # handed in, clocks stopped; arg: ms of sealing; body: SHA-256
EV_ADJ_LOADED = const(51)    # adjourned game loaded; arg: session; key; body: SHA-256, snapshot
EV_SEAL_CANCEL = const(52)   # seal mode left without a seal; arg: ms of sealing
DIGEST = const(32)           # bytes of a snapshot's SHA-256 in records 50 and 51
# The session at the board (issue 14; docs/SESSION.md), codes 53-63:
EV_SELFTEST = const(53)      # power-on self-test done; arg: failure bits (ST_*), 0 = pass
EV_RESULT = const(54)        # result entered; arg: RESULT_* ; by: 0 clock, 8 host (R_HOST)
EV_INCIDENT = const(55)      # incident mark (play goes on); arg: its number in this game
EV_RESUMER = const(56)       # who resumed after a pause; arg: BY_*; side: the side now running
EV_ARBITER = const(57)       # the arbiter menu; arg 1 opened, 0 closed
EV_SCHEDULE = const(58)      # scheduled start set; arg: unix seconds (0: cleared)
EV_DEFAULT = const(59)       # default time reached with side absent; arg: default time, s
EV_ARRIVAL = const(60)       # side arrived; arg: ms after the scheduled start
EV_LOW_TIME = const(61)      # side's time fell under the low-time mark; arg: the mark, ms
EV_PAIRING = const(62)       # the round's pairing; arg: board; body: round, White, Black, event
EV_PAIRING_CLEAR = const(63)  # the pairing removed; arg: the board it was

NAMES = {0: "start", 1: "press", 2: "ignored", 3: "stage", 4: "flag", 5: "pause",
         6: "resume", 7: "adjust", 8: "set-moves", 9: "end", 10: "overtime", 11: "period",
         12: "undo", 13: "set-stage", 14: "add-stage", 15: "set-time", 16: "unflag",
         17: "limit",
         32: "boot", 33: "lever-both", 34: "lever-dropped", 35: "lever-held",
         36: "header", 37: "low-battery", 38: "missed-edge", 39: "storage-full",
         40: "power-off", 41: "log-full", 42: "auth-fail", 43: "log-lost",
         44: "wall-clock", 45: "log-pruned", 46: "low-charge",
         48: "seal-start", 49: "seal-alert", 50: "sealed", 51: "adjourned-loaded",
         52: "seal-cancel",
         53: "self-test", 54: "result", 55: "incident", 56: "resumed-by", 57: "arbiter",
         58: "schedule", 59: "default-time", 60: "arrival", 61: "low-time",
         62: "pairing", 63: "pairing-cleared"}

# Self-test failure bits (EV_SELFTEST arg).
ST_LEFT = const(1)       # the left lever was not pressed in time
ST_RIGHT = const(2)      # the right lever was not pressed in time
ST_BATTERY = const(4)    # the battery is low
ST_NO_BATTERY = const(8)  # no battery reading (not wired, no fuel gauge answering)
ST_DISPLAY = const(16)   # a display did not acknowledge (TM1637 ACK, SSD1306 I2C)
# (their names: chessclock/logtools.py ST_NAMES, host only: not on the clock's heap)
RESULTS = ("*", "1-0", "0-1", "1/2-1/2")   # EV_RESULT arg: index
# EV_RESUMER arg (their names: chessclock/logtools.py BY_NAMES, host only)
BY_PLAYER = const(0)     # START on the clock (where the rules let players resume)
BY_ARBITER = const(1)    # the arbiter menu's rES
BY_HOST = const(2)       # over the serial link (the arbiter's key)
BY_REFUSED = const(3)    # a player's START refused: the rules reserve it to the arbiter

# Why an arbiter corrected the clock (the `reason` field of a correction).
R_OTHER = const(0)
R_PENALTY = const(1)    # +2 minutes to the opponent (Art. 7.5.5, 11.3, 12.9)
R_TIME = const(2)       # a time corrected (Art. 6.10, 6.14)
R_MOVES = const(3)      # a move counter corrected
R_STAGE = const(4)      # a stage corrected
R_UNDO = const(5)       # the last press was not a move
R_RESUME = const(6)     # the other side's clock started
R_END = const(7)
R_HOST = const(8)       # by the host over the serial link (reserved)
REASONS = ("other", "penalty", "time", "moves", "stage", "undo", "resume", "end", "host")

# Fields after dt, dw, db, per code; "arg" first when present. Codes not listed: ("arg",).
FIELDS = {0: (), 1: ("moves", "stage"), 2: ("arg",), 3: ("arg", "stage", "cause"),
          4: ("arg", "stage", "moves"), 5: (), 6: (), 7: ("arg", "reason"),
          8: ("arg", "reason"), 9: (), 10: ("arg",), 11: ("arg",), 12: ("arg", "reason"),
          13: ("arg", "reason"),
          14: ("arg", "reason", "moves", "inc_ms", "delay_ms", "delay_kind"),
          15: ("arg", "reason"), 16: (), 36: (), 42: ("arg", "count"),
          53: ("arg", "mv", "pct"), 54: ("arg", "by"), 55: ("arg", "wmoves", "bmoves"),
          58: ("arg", "default_s")}
ARG_ONLY = ("arg",)
KEY_CODES = (EV_BOOT, EV_HEADER, EV_ADJ_LOADED)
# Records that carry a body after their fields without being key records (50: a digest,
# 62: the pairing's round and names).
BODY_CODES = (EV_SEALED, EV_PAIRING)
CORRECTIONS = (7, 8, 12, 13, 14, 15)
SNAPSHOT = ("state", "turn", "stage_cause", "flag_order0", "flag_order1", "turn_used",
            "delay_left", "last", "undo_side", "undo_gain", "undo_moves", "undo_stage",
            "undo_stage_moves", "undo_period_moves")
SNAPSHOT_SIDE = ("moves", "stage", "stage_moves", "periods", "period_moves", "flag_at",
                 "overrun")
# Appended after the sides (older logs end before them: read as absent, see Reader).
SNAPSHOT_TAIL = ("undo_opp_gain", "white_out", "black_out")
OPT_INC_AT_TURN_START = const(1)
OPT_STAGE_ON_FLAG = const(2)
OPT_FREEZE = const(4)
# The options' bits from 3 up are the move limit (0: none), so a header written before the
# move limit existed reads as "no limit" and the header's layout is unchanged.
OPT_LIMIT_SHIFT = const(3)


def fields(code):
    f = FIELDS.get(code)
    return ARG_ONLY if f is None else f


def crc32(data, crc=0):
    """CRC-32 as storage.py frames records (zlib's)."""
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    c = crc ^ 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
    return c ^ 0xFFFFFFFF


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


def get_varint(data, pos):
    """(value, position after) of the zigzag varint at pos; ValueError when truncated."""
    u = 0
    shift = 0
    n = len(data)
    while True:
        if pos >= n or shift > 63:
            raise ValueError("varint truncated")
        b = data[pos]
        pos += 1
        u |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            break
    return ((u >> 1) if not u & 1 else -((u + 1) >> 1)), pos


def _put_str(buf, pos, s):
    b = s.encode()
    pos = put_varint(buf, pos, len(b))
    buf[pos:pos + len(b)] = b
    return pos + len(b)


def _get_str(data, pos):
    n, pos = get_varint(data, pos)
    if n < 0 or pos + n > len(data):
        raise ValueError("string truncated")
    return bytes(data[pos:pos + n]).decode(), pos + n


# ---- storage framing (clockapp/storage.py's log records) -------------------------------
def frame(payload):
    """A payload as storage.append_log writes it: b"LG", length u16, CRC-32, payload."""
    head = b"LG" + struct.pack("<H", len(payload))
    return head + struct.pack("<I", crc32(payload, crc32(head))) + payload


def unframe(data):
    """[(offset, payload)] of the valid framed records in a log file's bytes, and the
    [(offset, length)] regions that belong to no valid record (torn or changed bytes)."""
    out = []
    bad = []
    n = len(data)
    pos = 0
    bad_at = -1
    while pos < n:
        if data[pos:pos + 2] == b"LG" and pos + 8 <= n:
            ln = data[pos + 2] | (data[pos + 3] << 8)
            end = pos + 8 + ln
            if end <= n:
                crc = data[pos + 4] | (data[pos + 5] << 8) | (data[pos + 6] << 16) | (
                    data[pos + 7] << 24)
                payload = data[pos + 8:end]
                if crc32(payload, crc32(data[pos:pos + 4])) == crc:
                    if bad_at >= 0:
                        bad.append((bad_at, pos - bad_at))
                        bad_at = -1
                    out.append((pos, bytes(payload)))
                    pos = end
                    continue
        if bad_at < 0:
            bad_at = pos
        nxt = data.find(b"LG", pos + 1)
        pos = n if nxt < 0 else nxt
    if bad_at >= 0:
        bad.append((bad_at, n - bad_at))
    return out, bad


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
        for v in (sc.mode, sc.byo_periods, sc.byo_ms, sc.byo_moves, len(sc.stages)):
            p = put_varint(buf, p, v)
        for st in sc.stages:
            for v in (st.time_ms, st.moves, st.inc_ms, st.delay_ms, st.delay_kind):
                p = put_varint(buf, p, v)
    return bytes(buf[:p])


def clock_options(clock):
    return ((OPT_INC_AT_TURN_START if clock.inc_at_turn_start else 0)
            | (OPT_STAGE_ON_FLAG if clock.stage_on_flag else 0)
            | (OPT_FREEZE if clock.freeze else 0)
            | (clock.move_limit << OPT_LIMIT_SHIFT))


def snapshot_body(clock):
    """A restored clock's state (boot arg 1): what the replay takes over after a cut."""
    c = clock
    vals = [c.state, c.turn, c.stage_cause, c.flag_order[0], c.flag_order[1], c.turn_used,
            c.delay_left, c.last, c.undo_side, c.undo_gain, c.undo_moves, c.undo_stage,
            c.undo_stage_moves, c.undo_period_moves]
    for s in (0, 1):
        vals += [c.moves[s], c.stage[s], c.stage_moves[s], c.periods[s], c.period_moves[s],
                 c.flag_at[s], c.overrun[s]]
    vals += [c.undo_opp_gain, 1 if c.out[0] else 0, 1 if c.out[1] else 0]
    buf = bytearray(10 * len(vals))
    p = 0
    for v in vals:
        p = put_varint(buf, p, v)
    return bytes(buf[:p])


def added_stages_body(clock):
    """After an adjourned game's snapshot (51): per side, the stages an arbiter added to
    its control (count, then time_ms, moves, inc_ms, delay_ms, delay_kind each)."""
    vals = []
    for s in (0, 1):
        extra = clock.stages[s][len(clock.sides[s].stages):]
        vals.append(len(extra))
        for st in extra:
            vals += [st.time_ms, st.moves, st.inc_ms, st.delay_ms, st.delay_kind]
    buf = bytearray(10 * len(vals))
    p = 0
    for v in vals:
        p = put_varint(buf, p, v)
    return bytes(buf[:p])


def extras_into(clock, ev, side, reason, x, reason2=0):
    """The fields after `arg` an event code records, read from the clock right after the
    event, into x[0..5] (a preallocated list: no allocation). Shared by the firmware's
    Writer and the host's replay, so both read the same values."""
    c = clock
    if ev == 1:
        x[0] = c.moves[side]
        x[1] = c.stage[side]
    elif ev == 3:
        x[0] = c.stage[side]
        x[1] = c.stage_cause
    elif ev == 4:
        x[0] = c.stage[side]
        x[1] = c.moves[side]
    elif ev == 14:
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
    elif ev == EV_SELFTEST or ev == EV_RESULT or ev == EV_SCHEDULE:
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

    def log_big(self, ev, side, t, arg, clock, body):
        """A record with a body: a header or boot (header_body()/snapshot_body() bytes), a
        seal's digest, an adjourned game's digest and snapshot."""
        if self.log(ev, side, t, arg, clock):
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
        big = key or ev in BODY_CODES
        body = self.big[0] if big else b""
        need = 64 + CHAIN + len(body)
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
        return bytes(mv[:p]) + ch, ch

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
            if r[i] in KEY_CODES or r[i] in BODY_CODES:
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


# ---- reading ---------------------------------------------------------------------------
class Record:
    """One decoded record. `fields`: the code's fields by name (a dict); a header has
    `header`, a restoring boot `snapshot`."""

    def __init__(self):
        self.seq = 0
        self.code = 0
        self.side = -1
        self.t = 0
        self.w = 0
        self.b = 0
        self.arg = 0
        self.fields = {}
        self.header = None
        self.snapshot = None
        self.digest = None  # a seal's or an adjourned game's snapshot SHA-256 (50, 51)
        self.pairing = None  # 62: {"board", "round", "white", "black", "event"}
        self.chain = b""
        self.link = None    # True: chained to the record before; None: nothing to check
        self.anchor = False  # a header starting a log: chained from the chain it carries

    def name(self):
        return NAMES.get(self.code, "code-%d" % self.code)

    def tuple(self):
        return (self.code, self.side, self.t, self.arg, self.w, self.b)


def seq_of(payload):
    """The sequence number of a payload: its first 4 bytes, whatever the rest."""
    return payload[0] | (payload[1] << 8) | (payload[2] << 16) | (payload[3] << 24)


class Reader:
    """Decodes payloads in log order (prev values and chain carried along). decode()
    raises ValueError on a payload that is not a record of this format."""

    def __init__(self):
        self.prev_t = 0
        self.prev_w = 0
        self.prev_b = 0
        self.chain = None   # None: the first record read is the anchor
        self.seq = -1

    def decode(self, payload):
        data = payload
        if len(data) < 5 + 3 + CHAIN:
            raise ValueError("record too short (%d bytes)" % len(data))
        rec = Record()
        rec.seq = seq_of(data)
        code = data[4]
        rec.code = code & 0x3F
        rec.side = (code >> 6) - 1
        if rec.side > 1:
            raise ValueError("bad side")
        key = rec.code in KEY_CODES
        end = len(data) - CHAIN
        body = data[:end]
        dt, p = get_varint(body, 5)
        dw, p = get_varint(body, p)
        db, p = get_varint(body, p)
        rec.t = dt + (0 if key else self.prev_t)
        rec.w = dw + (0 if key else self.prev_w)
        rec.b = db + (0 if key else self.prev_b)
        f = {}
        for name in fields(rec.code):
            v, p = get_varint(body, p)
            f[name] = v
        rec.fields = f
        rec.arg = f.get("arg", 0)
        if rec.code in (EV_SEALED, EV_ADJ_LOADED):
            if p + DIGEST > end:
                raise ValueError("record %d: digest truncated" % rec.seq)
            rec.digest = bytes(body[p:p + DIGEST])
            p += DIGEST
        if rec.code == EV_BOOT or rec.code == EV_ADJ_LOADED:
            if rec.arg == 1 or rec.code == EV_ADJ_LOADED:
                snap = {}
                for name in SNAPSHOT:
                    snap[name], p = get_varint(body, p)
                for s in ("white_", "black_"):
                    for name in SNAPSHOT_SIDE:
                        snap[s + name], p = get_varint(body, p)
                if p < end:  # a log written before these fields: not in the snapshot
                    for name in SNAPSHOT_TAIL:
                        snap[name], p = get_varint(body, p)
                if rec.code == EV_ADJ_LOADED:  # then the stages added (added_stages_body)
                    for s in ("white_", "black_"):
                        n, p = get_varint(body, p)
                        if n < 0 or n > 1000:
                            raise ValueError("record %d: bad stage count" % rec.seq)
                        added = []
                        for _ in range(n):
                            sv = []
                            for _ in range(5):
                                v, p = get_varint(body, p)
                                sv.append(v)
                            added.append(tuple(sv))
                        snap[s + "stages_added"] = added
                rec.snapshot = snap
        if rec.code == EV_PAIRING:
            pr = {"board": rec.arg}
            pr["round"], p = get_varint(body, p)
            for k in ("white", "black", "event"):
                pr[k], p = _get_str(body, p)
            rec.pairing = pr
        prev = None
        if rec.code == EV_HEADER:
            if p + CHAIN > end:
                raise ValueError("header truncated")
            prev = bytes(body[p:p + CHAIN])
            rec.header, p = _decode_header(body, p + CHAIN)
        if p != end:
            raise ValueError("%d bytes too many in record %d" % (end - p, rec.seq))
        rec.chain = bytes(data[end:])
        if self.chain is not None:
            rec.link = (rec.seq == (self.seq + 1) & 0xFFFFFFFF
                        and (prev is None or prev == self.chain)
                        and chain_of(self.chain, body) == rec.chain)
        elif rec.seq == 0:
            rec.link = ((prev is None or prev == ZERO_CHAIN)
                        and chain_of(ZERO_CHAIN, body) == rec.chain)
        elif prev is not None:
            # the first record of a log whose older games were removed: a header, whose
            # chain is recomputed from the chain it carries (so its content is covered too)
            rec.link = chain_of(prev, body) == rec.chain
            rec.anchor = True
        self.chain = rec.chain
        self.seq = rec.seq
        self.prev_t = rec.t
        self.prev_w = rec.w
        self.prev_b = rec.b
        return rec


def _decode_header(body, p):
    from clockcore.control import Control, SideControl, Stage

    h = {}
    h["format"], p = get_varint(body, p)
    if h["format"] != FORMAT:
        raise ValueError("log format %d, this reads %d" % (h["format"], FORMAT))
    h["options"], p = get_varint(body, p)
    wl, p = get_varint(body, p)
    h["white_left"] = wl == 1
    h["wall_s"], p = get_varint(body, p)
    h["clock_id"], p = _get_str(body, p)
    h["firmware"], p = _get_str(body, p)
    h["spec"], p = _get_str(body, p)
    sides = []
    for _ in (0, 1):
        vals = []
        for _ in range(5):
            v, p = get_varint(body, p)
            vals.append(v)
        mode, periods, byo_ms, byo_moves, n = vals
        if n < 1 or n > 1000:
            raise ValueError("bad stage count")
        stages = []
        for _ in range(n):
            sv = []
            for _ in range(5):
                v, p = get_varint(body, p)
                sv.append(v)
            stages.append(Stage(sv[0], sv[1], sv[2], sv[3], sv[4]))
        sides.append(SideControl(stages, mode=mode, byo_periods=periods, byo_ms=byo_ms,
                                 byo_moves=byo_moves))
    h["control"] = Control(sides[0], sides[1])
    o = h["options"]
    h["inc_at_turn_start"] = bool(o & OPT_INC_AT_TURN_START)
    h["stage_on_flag"] = bool(o & OPT_STAGE_ON_FLAG)
    h["freeze"] = bool(o & OPT_FREEZE)
    h["move_limit"] = o >> OPT_LIMIT_SHIFT
    return h, p


def read(data):
    """(records, bad regions, errors) of a framed log file's bytes: records decoded in
    order; bad: [(offset, length)] of bytes in no valid frame; errors: [(offset, text)]
    of frames whose payload is not a record."""
    frames, bad = unframe(data)
    r = Reader()
    out = []
    errors = []
    for off, payload in frames:
        try:
            rec = r.decode(payload)
        except ValueError as e:
            errors.append((off, str(e)))
            r.chain = None
            continue
        rec.offset = off
        out.append(rec)
    return out, bad, errors
