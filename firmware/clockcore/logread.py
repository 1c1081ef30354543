# The event log read back: records decoded from their bytes, with names. The host's
# (chessclock log verify/export) and the tests': it is not in the image that goes onto a
# board (chessclock/board/deploy.py HOST_ONLY, firmware/manifest.py), where only the Writer half
# (clockcore/eventlog.py) runs. Portable all the same: the core tests read the app's log
# with it under MicroPython too. The format: docs/EVENT-LOG.md.

from clockcore import events as EV
from clockcore.eventlog import (
    CHAIN,
    DIGEST,
    FORMAT,
    OPT_FREEZE,
    OPT_INC_AT_TURN_START,
    OPT_LIMIT_SHIFT,
    OPT_STAGE_ON_FLAG,
    ZERO_CHAIN,
    chain_of,
    seq_of,
)
from clockcore.framing import unframe


def names_of(prefix):
    """{number: name} of the constants of clockcore/events.py that start with prefix: the
    name is the constant's rest, lower case, "_" as "-" (EV_SET_MOVES: "set-moves")."""
    out = {}
    for key in dir(EV):
        if key.startswith(prefix):
            out[getattr(EV, key)] = key[len(prefix):].lower().replace("_", "-")
    return out


def _by_number(table):
    return tuple([table[i] for i in range(len(table))])


NAMES = names_of("EV_")                   # event codes
REASONS = _by_number(names_of("R_"))      # a correction's reason (events.R_*), by number
BY = _by_number(names_of("BY_"))          # who resumed (events.BY_*), by number
# A restoring boot's snapshot (eventlog.snapshot_body), field by field.
SNAPSHOT = ("state", "turn", "stage_cause", "flag_order0", "flag_order1", "turn_used",
            "delay_left", "last", "undo_side", "undo_gain", "undo_moves", "undo_stage",
            "undo_stage_moves", "undo_period_moves")
SNAPSHOT_SIDE = ("moves", "stage", "stage_moves", "periods", "period_moves", "flag_at",
                 "overrun")
# Appended after the sides (older logs end before them: read as absent, see Reader).
SNAPSHOT_TAIL = ("undo_opp_gain", "white_out", "black_out")


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


def _get_str(data, pos):
    n, pos = get_varint(data, pos)
    if n < 0 or pos + n > len(data):
        raise ValueError("string truncated")
    return bytes(data[pos:pos + n]).decode(), pos + n


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
        self.ground = None   # a correction's (reason, article) when its reason is R_GROUND
        self.chain = b""
        self.link = None    # True: chained to the record before; None: nothing to check
        self.anchor = False  # a header starting a log: chained from the chain it carries

    def name(self):
        return NAMES.get(self.code, "code-%d" % self.code)

    def tuple(self):
        return (self.code, self.side, self.t, self.arg, self.w, self.b)


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
        key = rec.code in EV.KEY_CODES
        end = len(data) - CHAIN
        body = data[:end]
        dt, p = get_varint(body, 5)
        dw, p = get_varint(body, p)
        db, p = get_varint(body, p)
        rec.t = dt + (0 if key else self.prev_t)
        rec.w = dw + (0 if key else self.prev_w)
        rec.b = db + (0 if key else self.prev_b)
        f = {}
        for name in EV.fields(rec.code):
            v, p = get_varint(body, p)
            f[name] = v
        rec.fields = f
        rec.arg = f.get("arg", 0)
        if rec.code in (EV.EV_SEALED, EV.EV_ADJOURNED_LOADED):
            if p + DIGEST > end:
                raise ValueError("record %d: digest truncated" % rec.seq)
            rec.digest = bytes(body[p:p + DIGEST])
            p += DIGEST
        if rec.code == EV.EV_BOOT or rec.code == EV.EV_ADJOURNED_LOADED:
            if rec.arg == EV.BOOT_RESTORED or rec.code == EV.EV_ADJOURNED_LOADED:
                snap = {}
                for name in SNAPSHOT:
                    snap[name], p = get_varint(body, p)
                for s in ("white_", "black_"):
                    for name in SNAPSHOT_SIDE:
                        snap[s + name], p = get_varint(body, p)
                if p < end:  # a log written before these fields: not in the snapshot
                    for name in SNAPSHOT_TAIL:
                        snap[name], p = get_varint(body, p)
                if rec.code == EV.EV_ADJOURNED_LOADED:  # then the stages added (added_stages_body)
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
        if rec.code in EV.CORRECTIONS and f.get("reason") == EV.R_GROUND:
            # the arbiter's ground (eventlog.ground_body); a log written before grounds
            # has no reason R_GROUND, so nothing here
            reason, p = _get_str(body, p)
            article, p = _get_str(body, p)
            rec.ground = (reason, article)
        if rec.code == EV.EV_PAIRING:
            pr = {"board": rec.arg}
            pr["round"], p = get_varint(body, p)
            for k in ("white", "black", "event"):
                pr[k], p = _get_str(body, p)
            rec.pairing = pr
        prev = None
        if rec.code == EV.EV_HEADER:
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
            stages.append(Stage(*sv))
        sides.append(SideControl(stages, mode, periods, byo_ms, byo_moves))
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
