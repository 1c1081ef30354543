"""A ruling's input: the clock's events, from its verified log or from JSON Lines, and what
an arbiter types (a control, a duration).

A clock's log (`chessclock log pull`) is verified first (chessclock log verify); JSON Lines
of clock events (the output of `chessclock simulate` or of `chessclock log export --format
jsonl`: dicts with t_ms, type, side, white_ms, black_ms, ...) carry no proof, and a ruling
on them is marked unverified. Bad input of any kind is a RulingError, whose message says
which.
"""

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any

from chessclock import timetext as T
from chessclock.errors import InputError
from clockcore import presets
from clockcore.control import Control

Event = dict[str, Any]   # one clock event, as simulate and `log export` write it

SIDES = ("white", "black")
CORRECTIONS = ("adjust", "set-time", "set-moves", "set-stage", "undo", "add-stage", "unflag",
               "split")


class RulingError(InputError):
    """Bad input for a ruling (file, control, option); the message says which."""


# ---------------------------------------------------------------- input

def load_events(source: str | IO[str]) -> list[Event]:
    """Event dicts from a JSON Lines file path or file object (blank lines skipped)."""
    if hasattr(source, "read"):
        text, where = source.read(), getattr(source, "name", "<input>")
    else:
        where = str(source)
        try:
            with open(source, "rb") as f:
                data = f.read()
        except OSError as e:
            raise RulingError("cannot read %s: %s" % (where, e.strerror or e)) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RulingError("%s is neither a clock's log nor JSON Lines of clock events"
                              % where) from None
    return parse_events(text, where)


def is_clock_log(data: bytes) -> bool:
    """True when the bytes are a clock's log file (framed records, as `log pull` saves)."""
    return data[:2] in (b"LG", b"HD")


@dataclass(frozen=True)
class Source:
    """Where a ruling's events come from and what the verification established."""

    path: str
    kind: str                 # "log" or "jsonl"
    lines: list[str]          # the verification in words
    verified: bool            # True: the clock's authentic log
    game: int | None = None
    clock: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.path, "kind": self.kind, "verified": self.verified,
                "game": self.game, "clock": self.clock, "lines": self.lines}


UNVERIFIED_BANNER = (
    "##############################################################",
    "##  UNVERIFIED: THESE EVENTS ARE NOT PROVEN TO BE THE CLOCK'S ##",
    "##  OWN LOG. A RULING ON THEM IS NOT EVIDENCE.               ##",
    "##############################################################")


def load_source(path: str, key: bytes | None = None, game: int | None = None,
                unverified: bool = False) -> tuple[list[Event], Source]:
    """(events, Source). A clock's .log is verified first (chessclock log verify): one that
    is not authentic is refused unless `unverified`. JSON Lines (simulate output, a log
    export) carries no proof: its ruling is marked unverified."""
    # only a clock's .log needs it: `ruling late` starts light
    from chessclock.log import verify as logtools

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RulingError("cannot read %s: %s" % (path, e.strerror or e)) from None
    if not is_clock_log(data):
        events = load_events(path)
        if game is not None:
            raise RulingError("--game picks a game of a clock's .log, not of JSON Lines")
        return events, Source(path, "jsonl", [
            "%s: JSON Lines of clock events (simulate output or a log export): no proof "
            "that a clock recorded them; rule from the clock's .log (`chessclock log pull`)"
            % path], False)
    res = logtools.verify(data, False, key)
    lines = logtools.verification_lines(res, path)
    ok = not res.problems and not res.auth_problems
    if not ok and not unverified:
        raise RulingError("%s did not verify (%s): no ruling from it. `chessclock log "
                          "verify %s` says why; --unverified rules anyway, marked as such"
                          % (path, res.status(), path))
    games = res.played() or res.games
    if not games:
        raise RulingError("%s: no game in the log" % path)
    if game is None:
        g = games[-1]
    else:
        if not 1 <= game <= len(res.games):
            raise RulingError("--game %d: the log has %d games (1 to %d)"
                              % (game, len(res.games), len(res.games)))
        g = res.games[game - 1]
    nxt = [x.first_seq for x in res.games if x.first_seq > g.first_seq]
    end = min(nxt) if nxt else None
    events = [e for e in res.events if e["seq"] >= g.first_seq
              and (end is None or e["seq"] < end)]
    lines.append("game %d of the log (set at seq %d)" % (g.number, g.first_seq))
    return events, Source(path, "log", lines, ok, g.number, g.header["clock_id"])


_COUNTS = ("moves", "stage", "seq", "presses_in_stage", "white_moves", "black_moves")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent, refused when it is out of range (1e309
    reads as infinity, which no clock time is)."""
    x = float(text)
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError("number %s is out of range" % text[:40])
    return x


def _no_constant(text: str) -> float:
    raise ValueError("%s is not a number a clock writes" % text)


def parse_events(text: str, where: str = "<input>") -> list[Event]:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line, parse_float=_finite, parse_constant=_no_constant)
        except ValueError as e:
            raise RulingError("%s line %d: not JSON: %s" % (where, n, str(e)[:200])) from None
        if not isinstance(rec, dict) or "type" not in rec:
            raise RulingError("%s line %d: not a clock event (no 'type')" % (where, n))
        for k, v in rec.items():   # times and counts are whole numbers in a clock's range
            if (k.endswith("_ms") or k in _COUNTS) and v is not None and (
                    not isinstance(v, int) or isinstance(v, bool) or abs(v) >= 1 << 53):
                raise RulingError("%s line %d: %s must be a whole number (ms or a count), "
                                  "not %s" % (where, n, k, json.dumps(v)[:40]))
        rec.setdefault("seq", rec.get("seq", len(out) + 1))
        out.append(rec)
    if not out:
        raise RulingError("%s: no events" % where)
    return out


def resolve_control(spec: str | None, events: Iterable[Event] = ()
                    ) -> tuple[Control | None, str | None, Any]:
    """(Control or None, spec text or None, preset or None): --control, else a control
    record in the log (type 'control' with 'spec' or 'control', or the game header that
    `chessclock log export --format jsonl` writes); the last one in the log."""
    if spec is None:
        for e in events:  # keep the last: a log may hold several games, the last is current
            if e.get("type") in ("control", "header"):  # a header: `log export` output
                found = e.get("spec") or e.get("control")
                if isinstance(found, str):
                    spec = found
    if spec is None:
        return None, None, None
    try:
        control, preset = presets.resolve(spec)
        control.validate()
    except ValueError as e:
        raise RulingError("control %r: %s" % (spec, e)) from None
    return control, spec, preset


def parse_duration(text: str) -> int:
    """What an arbiter types for a duration (chessclock.timetext: 75m, 1h15m, 90s, 1:15:00;
    a bare number has no unit and is refused) -> ms."""
    try:
        return T.parse_duration(text)
    except T.DurationError as e:
        raise RulingError(str(e)) from None


def fmt(ms: int | None) -> str:
    """Milliseconds as h:mm:ss.mmm (or m:ss.mmm under an hour); None as '-'."""
    return "-" if ms is None else T.clock_text(ms, millis=True)



# ---------------------------------------------------------------- facts

def other(side: str) -> str:
    return "black" if side == "white" else "white"


def wall_time_at(events: list[Event], t_ms: int) -> str | None:
    """The UTC time of day (HH:MM:SS) at clock time t_ms, from the last event at or before
    it that carries the clock's wall clock ("utc"); None when the log has none."""
    ref = None
    for e in events:
        if e.get("utc") and isinstance(e.get("t_ms"), int) and e["t_ms"] <= t_ms:
            ref = e
    if ref is None:
        return None
    try:
        at = datetime.datetime.strptime(ref["utc"], "%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError):
        return None
    return (at + datetime.timedelta(milliseconds=t_ms - ref["t_ms"])).strftime("%H:%M:%S")
