"""A clock's event log as read: its records, the games in it and the clock's signed heads.

A log is as stored on the clock (`log.bin`: storage.py's framed records) or as
`chessclock log pull` saves it (the same framing, with the clock's signed heads). The record
format is clockcore/eventlog.py (docs/EVENT-LOG.md); chessclock.log.verify reads a file into
these."""


from dataclasses import dataclass
from typing import Any

from clockcore import engine as E
from clockcore import events as EV
from clockcore import framing as F
from clockcore import logread as LR

DRIVERS = (0, 1, 5, 6, 7, 8, 9, 12, 13, 14, 15)   # events an action causes
SPONTANEOUS = (3, 4, 10, 11, 16)                  # events time (or an action) brings


HEAD_MAGIC = b"HD"


class Result:
    def __init__(self) -> None:
        self.records = []
        self.problems = []   # what makes verify fail
        self.notes = []      # what an arbiter should know (torn write dropped, cut, ...)
        self.games = []      # [Game]
        self.events = []     # export dicts, in log order
        self.heads = []      # [Head] the clock's signed heads found in the file, in order
        self.auth: Head | None = None   # the head that authenticates the log, when one does
        self.auth_problems = []  # why the log is not authenticated (see verify())

    def played(self) -> "list[Game]":
        """Games in which a clock was started (not every control set)."""
        return [g for g in self.games if g.started]

    def status(self) -> str:
        """One phrase: what the verification established."""
        if self.problems:
            return "FAILED"
        if self.auth_problems:
            return "INTACT, NOT AUTHENTICATED"
        return "AUTHENTIC"


@dataclass(frozen=True)
class Head:
    """The clock's signed head (`chessclock log pull` stores the one of each pull, framed
    as b"HD" + length + CRC-32 + "TEXT MAC"): "ccl-head 1 CLOCK SEQ CHAIN T WALL"."""

    offset: int     # where its frame starts in the file
    text: str
    mac: str        # hex HMAC, or "-" from a clock without a key
    clock: str
    seq: int        # the last record it covers
    chain: bytes    # the hash chain up to that record
    t: int          # the clock's time then, ms
    wall: int       # Unix seconds then, -1 when the clock had no time of day

    @classmethod
    def parse(cls, offset: int, text: str, mac: str) -> "Head":
        """The head in `text`; ValueError when it is not one."""
        parts = text.split(" ")
        if len(parts) != 7 or parts[0] != "ccl-head" or parts[1] != "1":
            raise ValueError("not a signed head")
        return cls(offset, text, mac, parts[2], int(parts[3]), bytes.fromhex(parts[4]),
                   int(parts[5]), int(parts[6]))

    def check(self, key: bytes | None) -> bool:
        """True when `mac` is the clock's HMAC with this arbiter key (32 bytes)."""
        import hmac

        from clockcore import protocol as P
        if self.mac == "-" or key is None:
            return False
        log_key = P.hmac_sha256(key, b"chessclock log head key")
        want = P.hmac_sha256(log_key, self.text.encode()).hex()
        return hmac.compare_digest(want, self.mac.lower())

    def describe(self) -> str:
        when = ("wall clock %s UTC" % _utc(self.wall)) if self.wall >= 0 else \
            "wall clock unknown"
        return "clock %s, up to seq %d, clock time %s, %s" % (
            self.clock, self.seq, hms(self.t, False), when)


def _utc(wall_s: int) -> str:
    import datetime
    try:
        return datetime.datetime.fromtimestamp(wall_s, datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return "?"


def iso_utc(wall_s: int) -> str | None:
    import datetime
    try:
        return datetime.datetime.fromtimestamp(wall_s, datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return None


def head_frame(text: str, mac: str) -> bytes:
    """The bytes `log pull` appends for a signed head: a frame (clockcore/framing.py) with
    the magic b"HD" in the log file."""
    return F.frame(("%s %s" % (text, mac)).encode("ascii"), HEAD_MAGIC)


def find_heads(data: bytes) -> list[tuple[int, int, Head]]:
    """[(offset, length, Head)] of the valid signed-head frames in a log file's bytes."""
    out = []
    pos = data.find(HEAD_MAGIC)
    while pos >= 0:
        end = F.frame_end(data, pos, HEAD_MAGIC)
        if end:
            try:
                text, mac = bytes(data[pos + F.HEADER_SIZE:end]).decode("ascii").rsplit(" ", 1)
                out.append((pos, end - pos, Head.parse(pos, text, mac)))
                pos = data.find(HEAD_MAGIC, end)
                continue
            except ValueError:
                pass
        pos = data.find(HEAD_MAGIC, pos + 1)
    return out


def minus_heads(bad: list[tuple[int, int]], heads: list[tuple[int, int, Head]]
                ) -> list[tuple[int, int]]:
    """Bad regions (bytes in no log record) less the signed-head frames in them."""
    out = []
    for off, n in bad:
        end = off + n
        pos = off
        for h_off, h_len, _ in heads:
            if h_off == pos and h_off + h_len <= end:
                pos = h_off + h_len
        # anything else in the region is bytes in no frame
        if pos < end:
            out.append((pos, end - pos))
    return out


class Game:
    def __init__(self, rec: Any) -> None:
        self.header = rec.header
        self.first_seq = rec.seq
        self.started = False
        self.flagged = False
        self.ended = False
        self.number = 0      # from 1, in the log
        self.flag_side = -1  # the side whose flag fell first
        self.utc_start = None  # ISO UTC of the start (else of the header), when known
        if rec.header["wall_s"] > 0:
            self.utc_start = iso_utc(rec.header["wall_s"])
        self.plies = []      # [(side, clk_ms, emt_ms, seq)]
        self.before = (0, 0)  # moves (White, Black) made before the log's first ply: an
                              # adjourned game loaded from an earlier session (record 51)
        self.replay: Any = None
        self.result = None   # the result entered on the clock or by the host ("1-0", ...)
        self.pairing = None  # the round's pairing the clock logged (code 62): board, names


NO_ARTICLE = "-"   # a ground given without the rule's article (`adjust --reason` alone)
RAP_SPECS = ("fide-5min-1990", "5min-1990")   # the 1990 5-minute rules (RAP 10g)

REFUSALS = {8: "a change without the arbiter's key", 9: "a wrong key or mac, or no session",
            10: "a replayed request"}


def app_dict(rec: Any) -> dict[str, Any]:
    d = {"t_ms": rec.t, "type": rec.name()}
    if rec.side != E.NOBODY:
        d["side"] = E.SIDE_NAMES[rec.side]
    if rec.code == EV.EV_BOOT:
        d["restored"] = rec.arg == EV.BOOT_RESTORED
        if rec.arg == EV.BOOT_RESTORE_FAILED:   # a saved game the clock could not read
            d["restore_failed"] = True
    elif rec.code == EV.EV_HEADER:
        h = rec.header
        d.update({"clock_id": h["clock_id"], "firmware": h["firmware"], "spec": h["spec"],
                  "time_control": _tc(h["control"]), "white_left": h["white_left"],
                  "wall_s": h["wall_s"], "freeze": h["freeze"],
                  "stage_on_flag": h["stage_on_flag"],
                  "inc_at_turn_start": h["inc_at_turn_start"]})
        if h.get("move_limit"):
            d["move_limit"] = h["move_limit"]
    elif rec.code == EV.EV_IGNORED:
        d["state"] = E.STATE_NAMES[rec.arg] if 0 <= rec.arg < 5 else rec.arg
    elif rec.code == EV.EV_AUTH_FAIL:
        d["refused"] = REFUSALS.get(rec.arg, "error %d" % rec.arg)
        d["count"] = rec.fields.get("count", 1)
    elif rec.code in (EV.EV_SEAL_START, EV.EV_ADJOURNED_LOADED):   # docs/ADJOURNMENT.md
        d["session"] = rec.arg
    elif rec.code in (EV.EV_SEAL_ALERT, EV.EV_SEALED, EV.EV_SEAL_CANCEL):
        d["sealing_ms"] = rec.arg
    elif rec.code in SESSION_CODES:
        _session_fields(rec, d)
    elif rec.code == EV.EV_PAIRING:   # `chessclock pairings push`
        d.update(rec.pairing)
    elif rec.code == EV.EV_PAIRING_CLEARED:
        d["board"] = rec.arg
    else:
        d["arg"] = rec.arg
    if rec.digest is not None:
        d["snapshot_sha256"] = rec.digest.hex()
    if rec.code == EV.EV_ADJOURNED_LOADED:
        snap = rec.snapshot
        d["to_move"] = E.SIDE_NAMES[snap["turn"]] if snap["turn"] in (0, 1) else snap["turn"]
        d["white_moves"] = snap["white_moves"]
        d["black_moves"] = snap["black_moves"]
    d["white_ms"] = rec.w
    d["black_ms"] = rec.b
    return d


# The session at the board (firmware/clockapp/session.py, docs/SESSION.md).
ST_NAMES = ("left lever", "right lever", "battery low", "no battery reading", "display",
            "cut short by the game's start")
BY_NAMES = LR.BY   # events.BY_*: who resumed
SESSION_CODES = (EV.EV_SELF_TEST, EV.EV_RESULT, EV.EV_INCIDENT, EV.EV_RESUMED_BY, EV.EV_ARBITER,
                 EV.EV_SCHEDULE, EV.EV_DEFAULT_TIME, EV.EV_ARRIVAL, EV.EV_LOW_TIME)


def selftest_failures(bits: int) -> list[str]:
    """The names of a self-test's failure bits (eventlog.ST_*)."""
    return [name for i, name in enumerate(ST_NAMES) if bits & (1 << i)]


def _session_fields(rec: Any, d: dict[str, Any]) -> None:
    f = rec.fields
    a = rec.arg
    if rec.code == EV.EV_SELF_TEST:
        d["passed"] = a == 0
        d["failures"] = ", ".join(selftest_failures(a)) or "none"
        d["battery_mv"] = f.get("mv", -1)
        d["battery_pct"] = f.get("pct", -1)
    elif rec.code == EV.EV_RESULT:
        d["result"] = EV.RESULTS[a] if 0 <= a < len(EV.RESULTS) else "?"
        d["by"] = "host" if f.get("by") == EV.R_HOST else "clock"
    elif rec.code == EV.EV_INCIDENT:
        d["incident"] = a
        d["white_moves"] = f.get("wmoves", 0)
        d["black_moves"] = f.get("bmoves", 0)
    elif rec.code == EV.EV_RESUMED_BY:
        d["by"] = BY_NAMES[a] if 0 <= a < len(BY_NAMES) else a
    elif rec.code == EV.EV_ARBITER:
        d["menu"] = "opened" if a else "closed"
    elif rec.code == EV.EV_SCHEDULE:
        if a:
            d["scheduled_utc"] = iso_utc(a)
        else:
            d["scheduled_utc"] = "cleared"
        d["default_s"] = f.get("default_s", 0)
    elif rec.code == EV.EV_DEFAULT_TIME:
        d["default_s"] = a
    elif rec.code == EV.EV_ARRIVAL:
        d["after_start_ms"] = a
    elif rec.code == EV.EV_LOW_TIME:
        d["mark_ms"] = a


def rap_10g(own_ms: int, opp_ms: int) -> bool:
    """RAP 10g (FIDE 5-minute rules, 1990): a player may claim a draw in an obviously drawn
    position with at least 30 s left, or with less than 30 s but more than the opponent."""
    return own_ms >= 30000 or own_ms > opp_ms


def _tc(control: Any) -> str:
    from clockcore import notation

    try:
        return notation.format_pgn(control)
    except ValueError:
        return notation.format_readable(control)


def hms(ms: int, frac: bool = True) -> str:
    """h:mm:ss and, with `frac`, the milliseconds that are not 0 (PGN's [%clk])."""
    from chessclock.timetext import clock_text

    return clock_text(max(ms, 0), millis=frac, hours=True, trim=True)

