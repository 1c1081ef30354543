"""`chessclock ruling`: what the log shows and what the Laws say about it.

Three forms:

    chessclock ruling FLAGFILE [--control SPEC] [--rules R] [--pgn GAME.pgn] [--fen FEN]
                      [--json] [--plot out.png|out.svg] [--html report.html]
                      [--incident out.txt|out.md --event E --place P --match M]
    chessclock ruling late --elapsed 75m --visitor white [--control SPEC] [--rules R]
    chessclock ruling replace FLAGFILE (--at-seq N | --at TIME) [--control SPEC]
    chessclock ruling illegal-move | both-kings | draw-claim | complaint | playoff ...
                      (on the board and the play-off: chessclock.claims, chessclock.playoff)

FLAGFILE is JSON Lines of clock events: the output of `chessclock simulate` or of
`chessclock log export --format jsonl` (same dicts: t_ms, type, side, white_ms, black_ms,
...). The ruling states the facts from the log, then applies the selected rule set
(`chessclock.rules`), each line citing its article. The clock counts presses, not moves:
the move counter is advisory and the scoresheet (--pgn) decides whether a control was met.
"""

from __future__ import annotations  # the annotations name chess and Control, imported late

import importlib.util
import json
from collections.abc import Callable, Iterable
from typing import IO, TYPE_CHECKING, Any

from chessclock import rules as R
from chessclock import timetext as T

if TYPE_CHECKING:   # for the annotations only: chess is imported where it is used
    import argparse

    import chess
    import chess.pgn

    from clockcore.control import Control

Event = dict[str, Any]   # one clock event, as simulate and `log export` write it

SIDES = ("white", "black")
CORRECTIONS = ("adjust", "set-time", "set-moves", "set-stage", "undo", "add-stage", "unflag",
               "split")


class RulingError(ValueError):
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


class Source:
    """Where a ruling's events come from and what the verification established."""

    def __init__(self, path: str, kind: str, lines: list[str], verified: bool,
                 game: int | None = None, clock: str | None = None) -> None:
        self.path = path
        self.kind = kind          # "log" or "jsonl"
        self.lines = lines        # the verification in words
        self.verified = verified  # True: the clock's authentic log
        self.game = game
        self.clock = clock

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
    from clockcore import presets

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


def read_pgn(path: str) -> chess.pgn.Game:
    import chess.pgn

    try:
        with open(path, encoding="utf-8") as f:
            game = chess.pgn.read_game(f)
    except OSError as e:
        raise RulingError("cannot read %s: %s" % (path, e.strerror or e)) from None
    except (UnicodeDecodeError, ValueError):
        raise RulingError("%s is not a scoresheet (not PGN text)" % path) from None
    if game is None:
        raise RulingError("%s: no game in the PGN" % path)
    if game.errors:
        raise RulingError("%s is not a scoresheet: %s" % (path, game.errors[0]))
    if game.next() is None:
        raise RulingError("%s is not a scoresheet: no moves in it (--pgn is the game's "
                          "moves up to the flag, as the arbiter has them)" % path)
    return game


def scoresheet(game: chess.pgn.Game) -> dict[str, Any]:
    """{'white': n, 'black': n, 'board': final board, 'last_mover': side or None}."""
    board = game.board()
    counts = {"white": 0, "black": 0}
    last = None
    for move in game.mainline_moves():
        last = "white" if board.turn else "black"
        counts[last] += 1
        board.push(move)
    return {"white": counts["white"], "black": counts["black"], "board": board,
            "last_mover": last, "headers": dict(game.headers)}


# ---------------------------------------------------------------- facts

def _side_of(e: Event) -> Any:
    """The event's side: "white", "black", or None (an event of both or of nobody)."""
    return e.get("side")


def other(side: str) -> str:
    return "black" if side == "white" else "white"


def wall_time_at(events: list[Event], t_ms: int) -> str | None:
    """The UTC time of day (HH:MM:SS) at clock time t_ms, from the last event at or before
    it that carries the clock's wall clock ("utc"); None when the log has none."""
    import datetime

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


class Facts:
    """What the log shows, walked once in order."""

    def __init__(self, events: list[Event]) -> None:
        self.events = [e for e in events if e.get("type") != "final"]
        finals = [e for e in events if e.get("type") == "final"]
        self.final = finals[-1] if finals else None
        self.presses = {"white": 0, "black": 0}
        self.ignored = []
        self.stage_passes = []   # dicts: the stage event plus presses_in_stage computed
        self.flags = []          # dicts: the flag event plus 'unflag_t_ms' when taken back
        self.stops = []          # {'t_ms', 'resume_t_ms', 'running', 'after_flag'}
        self.corrections = []
        self.claims = []         # explicit claim records, if the log has them
        self.limit = None        # the move limit's event (a play-off's end, S3 4.1)
        self.defaults = []       # `default-time`: the default time passed, the side absent
        self.arrivals = []       # `arrival`: a player marked at the board
        self.start = None
        self.end = None
        stage_start_moves = {"white": 0, "black": 0}
        running = None
        open_stop = None
        for e in self.events:
            typ, side = e["type"], _side_of(e)
            if typ == "start":
                self.start = e
                running = side or "white"
            elif typ == "press":
                self.presses[side] += 1
                running = other(side)
            elif typ == "ignored":
                self.ignored.append(e)
            elif typ == "stage":
                moves = self.presses.get(side, 0)
                rec = dict(e, presses_in_stage=moves - stage_start_moves[side],
                           moves=moves)
                stage_start_moves[side] = moves
                self.stage_passes.append(rec)
            elif typ == "flag":
                self.flags.append(dict(e))
            elif typ == "unflag":
                for f in reversed(self.flags):
                    if f["side"] == side and "unflag_t_ms" not in f:
                        f["unflag_t_ms"] = e["t_ms"]
                        break
                self.corrections.append(e)
            elif typ == "pause":
                open_stop = {"t_ms": e["t_ms"], "running": running, "resume_t_ms": None,
                             "after_flag": any("unflag_t_ms" not in f for f in self.flags),
                             "white_ms": e.get("white_ms"), "black_ms": e.get("black_ms")}
                self.stops.append(open_stop)
                running = None
            elif typ == "resume":
                if open_stop is not None:
                    open_stop["resume_t_ms"] = e["t_ms"]
                    open_stop = None
                running = side
            elif typ == "end":
                self.end = e
            elif typ == "claim":
                self.claims.append(e)
            elif typ == "limit":
                self.limit = e
            elif typ == "default-time":
                self.defaults.append(e)
            elif typ == "arrival":
                self.arrivals.append(e)
            elif typ in CORRECTIONS:
                self.corrections.append(e)
                if typ == "undo" and side and running is not None:
                    running = side   # the turn goes back to the side that pressed
            if typ == "set-moves" and side:
                self.presses[side] = e.get("moves", self.presses[side])
        # The game's time runs from its start (else from its first event); a clock's t_ms
        # is its time since power-on, which means nothing to the players.
        timed_events = [e["t_ms"] for e in self.events if isinstance(e.get("t_ms"), int)]
        self.t0 = self.start["t_ms"] if self.start is not None and isinstance(
            self.start.get("t_ms"), int) else (timed_events[0] if timed_events else 0)

    def when(self, t_ms: int | None) -> str:
        """An instant as the report gives it: the game time (from the start) and, when the
        log has the clock's wall clock, the time of day: 'game time 1:25.380 (14:31:05
        UTC)'."""
        if t_ms is None:
            return "-"
        g = t_ms - self.t0
        text = "game time %s" % fmt(g) if g >= 0 else "%s before the start" % fmt(-g)
        tod = wall_time_at(self.events, t_ms)
        return text + (" (%s UTC)" % tod if tod else "")

    def frozen_after(self, t_ms: int) -> bool:
        """True if the log shows the clock frozen after t_ms (a flag with freeze on)."""
        return any(e.get("state") == "frozen" or e.get("frozen") for e in self.events
                   if e["type"] in ("ignored", "flag") and e.get("t_ms", -1) >= t_ms)

    @property
    def standing_flags(self) -> list[Event]:
        return [f for f in self.flags if "unflag_t_ms" not in f]

    def stop_after(self, t_ms: int) -> int | None:
        """The first stop of the clocks (pause or end) at or after t_ms, or None."""
        times = [s["t_ms"] for s in self.stops if s["t_ms"] >= t_ms]
        if self.end is not None and self.end["t_ms"] >= t_ms:
            times.append(self.end["t_ms"])
        return min(times) if times else None

    def lines(self, control_text: str | None = None,
              ruleset: R.RuleSet | None = None) -> list[str]:
        out = []
        if control_text:
            out.append("Control: %s" % control_text)
        if ruleset is not None:
            out.append("Rules: %s" % ruleset.title)
        if self.start:
            out.append("Start at %s: %s's clock started; White %s, Black %s" % (
                self.when(self.start["t_ms"]), self.start.get("side", "white"),
                fmt(self.start.get("white_ms")), fmt(self.start.get("black_ms"))))
        out.append("Presses: White %d, Black %d (the clock counts presses, not moves)"
                   % (self.presses["white"], self.presses["black"]))
        if self.ignored:
            out.append("Ignored presses or actions: %d (first at %s)"
                       % (len(self.ignored), self.when(self.ignored[0]["t_ms"])))
        timed = []  # (t_ms, text), listed in the order they happened
        for s in self.stage_passes:
            timed.append((s["t_ms"], "Stage %d reached by %s at %s (cause: %s; %d presses in "
                          "the stage before it; %s added)" % (
                              s.get("stage", 0), s["side"], self.when(s["t_ms"]),
                              s.get("cause", "?"), s["presses_in_stage"],
                              fmt(s.get("added_ms")))))
        for s in self.stops:
            timed.append((s["t_ms"], "Clocks stopped at %s (%s was running)%s; %s" % (
                self.when(s["t_ms"]), s["running"] or "nobody",
                " after a flag" if s["after_flag"] else "",
                "resumed at %s" % self.when(s["resume_t_ms"]) if s["resume_t_ms"] is not None
                else "not resumed")))
        for c in self.claims:
            timed.append((c["t_ms"], "Claim at %s by %s: %s" % (
                self.when(c["t_ms"]), c.get("side", "?"), c.get("reason", c.get("claim", "")))))
        for c in self.corrections:
            timed.append((c["t_ms"], "Arbiter correction at %s: %s"
                          % (self.when(c["t_ms"]), describe_correction(c))))
        for f in self.flags:
            timed.append((f["t_ms"], "%s's flag fell at %s in stage %s after %s presses in the "
                          "stage (%s in all); White %s, Black %s%s" % (
                              f["side"].capitalize(), self.when(f["t_ms"]), f.get("stage", "?"),
                              f.get("presses_in_stage", "?"), f.get("moves", "?"),
                              fmt(f.get("white_ms")), fmt(f.get("black_ms")),
                              "; taken back at %s" % self.when(f["unflag_t_ms"])
                              if "unflag_t_ms" in f else "")))
        for d in self.defaults:
            timed.append((d["t_ms"], "Default time (%s) passed at %s with %s not at the board "
                          "(logged `default-time`%s)" % (
                              fmt(1000 * int(d.get("default_s", 0))), fmt(d["t_ms"]),
                              d.get("side", "?"),
                              ", %s" % d["utc"] if d.get("utc") else "")))
        for a in self.arrivals:
            timed.append((a["t_ms"], "%s marked at the board at %s (%s after the scheduled "
                          "start)" % (str(a.get("side", "?")).capitalize(), fmt(a["t_ms"]),
                                      fmt(a.get("after_start_ms")))))
        if self.limit is not None:
            lim = self.limit
            n = lim.get("move_limit", lim.get("arg"))
            timed.append((lim["t_ms"], "Move limit reached at %s: both sides had made %s "
                          "moves (presses); the clock ended the game (a play-off of at "
                          "most %s moves each, S3 4.1)" % (self.when(lim["t_ms"]), n, n)))
        timed.sort(key=lambda x: x[0])
        out += [text for _, text in timed]
        if self.end:
            out.append("Game ended on the clock at %s: White %s, Black %s" % (
                self.when(self.end["t_ms"]), fmt(self.end.get("white_ms")),
                fmt(self.end.get("black_ms"))))
        return out


def ground_text(c: Event) -> str:
    """A correction's ground as the report gives it: "ground: illegal move, ACT 7" when the
    arbiter gave one (`adjust --reason --article`), else who made it ("host", "menu", ...),
    else ""."""
    from clockcore.logread import REASONS  # the clock's own reason codes, by name

    if c.get("article") or (c.get("reason") and c.get("reason") not in REASONS):
        return "ground: %s" % ", ".join(str(c[k]) for k in ("reason", "article")
                                         if c.get(k))
    return str(c.get("reason") or "")


def describe_correction(c: Event) -> str:
    typ, side = c["type"], c.get("side", "both")
    ground = ground_text(c)
    reason = " (%s)" % ground if ground else ""
    if typ == "adjust":   # an amount is no ground: +2 min says nothing of a penalty
        d = c.get("delta_ms", 0)
        what = "%s%s to %s" % ("+" if d >= 0 else "-", fmt(abs(d)), side)
        return what + reason
    if typ == "undo":
        opp = c.get("opponent_delta_ms", 0)
        return "last press by %s marked as not a move (%s taken back%s; its turn again)%s" % (
            side, fmt(-c.get("delta_ms", 0)),
            ", and %s from %s's increment at turn start" % (fmt(-opp), other(side))
            if opp and side in ("white", "black") else "", reason)
    if typ == "set-time":
        return "%s's time set; now White %s, Black %s%s" % (
            side, fmt(c.get("white_ms")), fmt(c.get("black_ms")), reason)
    if typ == "set-moves":
        return "%s's move counter set to %s%s" % (side, c.get("moves"), reason)
    if typ == "set-stage":
        return "%s put in stage %s%s" % (side, c.get("stage"), reason)
    if typ == "add-stage":
        if not c.get("added_ms") and c.get("inc_ms"):  # FIDE Guidelines III
            return "from now on +%s a move for %s%s" % (fmt(c["inc_ms"]), side, reason)
        return "stage added for %s: %s more%s" % (side, fmt(c.get("added_ms")), reason)
    if typ == "unflag":
        return "%s's flag taken back%s" % (side, reason)
    return "%s %s%s" % (typ, side, reason)


# ---------------------------------------------------------------- the flag ruling

class Ruling:
    """A ruling: the facts, the lines (text, article), the result. Some kinds carry more,
    set only by them (as_dict lists those that are set)."""

    split: dict[str, int] | None    # late: each side's share of the elapsed time (None: default)
    times: dict[str, int]           # late: the times to set after the split
    state: dict[str, Any]           # replace: state_at's answer
    points: dict[str, Any]          # playoff
    in_time: bool                   # complaint
    illegal: dict[str, Any]         # illegal-move
    appeal: dict[str, Any]          # --appealed-on: the body, the deadline, in time

    def __init__(self, ruleset: R.RuleSet) -> None:
        self.ruleset = ruleset
        self.facts = []
        self.lines = []      # (text, article)
        self.result = "*"
        self.summary = ""
        self.mate = None     # MateVerdict dict
        self.moves_check = None
        self.source = None   # Source: the file and its verification
        self.referred = None  # why the case goes to the organisers (rules silent: S3)
        self.facts_title = "FACTS (from the clock's log)"
        self.pairing = None  # who played (chessclock/gamenames.py), when known
        self.pairing_from = ""
        # an instant in words: Facts.when once the log is read
        self.when: Callable[[int | None], str] = fmt

    def rule(self, text: str, topic: str | None = None, article: str | None = None) -> None:
        self.lines.append((text, article or (self.ruleset.art(topic) if topic else "")))

    def as_dict(self) -> dict[str, Any]:
        return {"rules": self.ruleset.key, "facts": self.facts,
                "ruling": [{"text": t, "article": a} for t, a in self.lines],
                "result": self.result, "summary": self.summary, "mate": self.mate,
                "moves_check": self.moves_check, "referred": self.referred,
                "verification": self.source.as_dict() if self.source else None,
                "pairing": self.pairing,
                **{k: getattr(self, k) for k in ("split", "times", "state", "points",
                                                 "in_time", "illegal", "appeal")
                   if hasattr(self, k)}}

    def verification_lines(self) -> list[str]:
        if self.source is None:
            return []
        out = []
        if not self.source.verified:
            out += list(UNVERIFIED_BANNER)
        out.append("VERIFICATION")
        out += ["  - " + x for x in self.source.lines]
        return out

    def text(self) -> str:
        out = self.verification_lines()
        if self.pairing:
            from chessclock.gamenames import describe
            out.append("GAME")
            out.append("  - %s (%s)" % (describe(self.pairing), self.pairing_from))
        out.append(self.facts_title)
        out += ["  - " + f for f in self.facts]
        out.append("RULING (%s)" % self.ruleset.title)
        out += ["  - %s [%s]" % (t, a) if a else "  - " + t for t, a in self.lines]
        if self.referred:
            out.append("REFERRED TO THE ORGANISING COMMITTEE: %s" % self.referred)
        out.append("RESULT: %s  %s%s" % (self.result, self.summary,
                                          "  (UNVERIFIED)" if self.source is not None
                                          and not self.source.verified else ""))
        return "\n".join(out) + "\n"


def _stage_requirement(control, side, flag):
    """(moves required in the stage, cumulative moves by the end of it, is_last_sd) for the
    stage a flag fell in; None when the control is unknown."""
    if control is None:
        return None
    stages = control.side(0 if side == "white" else 1).stages
    k = max(1, int(flag.get("stage", 1)))
    st = stages[min(k, len(stages)) - 1]
    if not st.moves:
        return 0, None, True
    if k < len(stages):
        cumulative = sum(s.moves for s in stages[:k])
    else:  # a last stage with a move count repeats: count from the stage's start
        cumulative = int(flag.get("moves", 0)) - int(flag.get("presses_in_stage", 0)) + st.moves
    return st.moves, cumulative, False


def _win(side):
    return "1-0" if side == "white" else "0-1"


def rule_flag(events: list[Event], ruleset: R.RuleSet, control: Control | None = None,
              control_text: str | None = None, game: chess.pgn.Game | None = None,
              board: chess.Board | None = None, max_nodes: int | None = None) -> Ruling:
    """The ruling on the flag(s) in `events`. `game` a chess.pgn.Game (the scoresheet up
    to the flag), `board` a chess.Board (the final position) if no game. The facts are
    gathered first (Facts, the scoresheet, the flags to rule on); then each question is
    decided and explained in turn, the first that settles the game ending the ruling."""
    from chessclock import deadpos

    facts = Facts(events)
    r = Ruling(ruleset)
    r.when = facts.when
    r.facts = facts.lines(control_text, ruleset)
    sheet, board = _position_facts(r, game, board)
    if facts.defaults and _rule_default(r, facts, ruleset):
        return r
    candidates = _flag_candidates(facts, control, sheet)
    if not candidates:
        r.rule("No flag stands in the log: nothing to rule on for time.", "flag_fall")
        r.summary = "no flag"
        return r

    first = candidates[0]
    loser = first["side"]
    r.rule("%s's flag fell first, at %s (the clock records the instant time ran out)"
           % (loser.capitalize(), r.when(first["t_ms"])), "flag_fall")
    req = _stage_requirement(control, loser, first)
    if _rule_moves_made(r, first, req, sheet, ruleset):
        return r
    done, r = _rule_both_flags(r, facts, candidates, first, req, control, ruleset)
    if done:
        return r
    nodes = max_nodes or deadpos.DEFAULT_NODES
    if ruleset.cannot_mate == R.MATE_ANY_SERIES:
        return _rule_mate_any_series(r, board, loser, nodes)
    return _rule_material(r, board, loser, nodes, ruleset)


def _rule_default(r: Ruling, facts: Facts, ruleset: R.RuleSet) -> bool:
    """The log records the default time passing with a player absent: that decides the game
    before any flag (FIDE 6.7.1; S1 6.7; RGC 12.1, 12.4 at a resumption). True when it
    settles the ruling."""
    absent = []
    for d in facts.defaults:
        side = d.get("side")
        if side in SIDES and side not in absent:
            absent.append(side)
    if not absent:
        return False
    first = facts.defaults[0]
    when = "%s (%s after the scheduled start)" % (fmt(first["t_ms"]),
                                                  fmt(1000 * int(first.get("default_s", 0))))
    if ruleset.key == "br-knockout":
        from chessclock import claims

        claims.refer(r, "the log records the default time passing at %s with %s absent, and "
                     "S3 sets no default time" % (when, " and ".join(absent)))
        return True
    if len(absent) == 2:
        r.rule("The log records the default time passing at %s with neither player at the "
               "board: both lose by default, unless the regulations or the arbiter decide "
               "otherwise" % when, "default")
        r.result, r.summary = "0-0", "both players default"
        return True
    late = absent[0]
    r.rule("The log records the default time passing at %s with %s not at the board: %s "
           "loses by default, unless the regulations or the arbiter decide otherwise; the "
           "flags do not matter" % (when, late, late), "default")
    r.result, r.summary = _win(other(late)), "%s defaults" % late
    return True


def _position_facts(r, game, board):
    """The scoresheet's facts and the position at the flag: (sheet or None, board)."""
    sheet = scoresheet(game) if game is not None else None
    if sheet is not None:
        board = sheet["board"]
        r.facts.append("Scoresheet: White %d moves, Black %d moves; %s to move at its end"
                       % (sheet["white"], sheet["black"], "White" if board.turn else "Black"))
    if board is not None:
        r.facts.append("Position at the flag: %s" % board.fen())
    return sheet, board


def _flag_candidates(facts, control, sheet):
    """The flags to rule on, earliest first: the standing flags, and the stages passed on
    time-out whose moves were missed."""
    # A control missed at a stage passed on time-out (the clock's "TIME" mode) is a flag too.
    # The clock logs such a time-out as a flag of the stage followed by the stage passed at
    # the same instant: it is ruled on below from the stage pass, with the presses made.
    timeouts = {(s["side"], s["t_ms"]) for s in facts.stage_passes
                if s.get("cause") == "timeout"}
    candidates = [dict(f, kind="flag") for f in facts.standing_flags
                  if (f["side"], f["t_ms"]) not in timeouts]
    for s in facts.stage_passes:
        if s.get("cause") != "timeout" or control is None:
            continue
        stages = control.side(0 if s["side"] == "white" else 1).stages
        prev = stages[min(int(s["stage"]) - 1, len(stages)) - 1]
        need = prev.moves
        made = s["presses_in_stage"]
        if sheet is not None and sheet[s["side"]] < sum(x.moves for x in
                                                         stages[:int(s["stage"]) - 1]):
            made = -1  # the whole scoresheet has fewer moves than the control asked
        if need and made < need:
            candidates.append(dict(s, kind="timeout", presses_in_stage=s["presses_in_stage"],
                                   stage=int(s["stage"]) - 1, proven=made == -1))
    candidates.sort(key=lambda c: c["t_ms"])
    return candidates


def _rule_moves_made(r, first, req, sheet, ruleset):
    """Decide and explain whether the flagged side had made the stage's moves (6.3.1, 6.4;
    the counter is advisory). True when that settles the ruling (the control was met, or
    only the scoresheet can tell)."""
    loser = first["side"]
    control_met = False
    if first["kind"] == "timeout":
        r.rule("The clock passed %s to stage %d on time-out after %d presses in stage %d, "
               "which asks for %d moves: %s" % (
                   loser, first["stage"] + 1, first["presses_in_stage"], first["stage"],
                   req[0] if req else 0,
                   "the scoresheet has fewer moves in all, so the control was missed"
                   if first.get("proven") else
                   "the counter is advisory: the arbiter checks the scoresheet at that moment"),
               "moves_check")
        r.rule("The counter alone proves nothing.", "counter")
        if not first.get("proven") and sheet is not None:
            r.result = "*"
            r.summary = ("the arbiter checks on the scoresheet whether %s had made the moves "
                         "by %s" % (loser, r.when(first["t_ms"])))
            r.rule("The scoresheet has %d moves by %s in all; whether they were made before "
                   "the time-out the log cannot show" % (sheet[loser], loser), "moves_check")
            return True
    elif req is None:
        r.rule("The control is not known (give --control): whether the stage asked for a "
               "number of moves cannot be checked", "moves_check")
    elif req[2]:
        r.rule("The flag fell in the last period, where all remaining moves must be made: "
               "the control cannot have been met", "moves_check")
    else:
        need, cumulative, _ = req
        presses = int(first.get("moves", 0))
        if sheet is not None:
            made = sheet[loser]
            note = ""
            if sheet["last_mover"] == loser and made > presses \
                    and ruleset.key == "fide2023":
                made -= 1
                note = ("; its last move on the scoresheet was not completed by a press of "
                        "the clock (FIDE 6.2.1), so it does not count")
            if sheet["last_mover"] == loser and made > presses and not note:
                note = ("; its last move counts though the clock got no press for it (a "
                        "move is made when the hand leaves the piece)")
            control_met = made >= cumulative
            r.moves_check = {"required": cumulative, "scoresheet": made, "counter": presses}
            r.rule("Stage %s asks for %d moves (%d in all by its end); the scoresheet shows %d "
                   "completed moves by %s%s, the clock's counter %d: the control was %s"
                   % (first.get("stage"), need, cumulative, made, loser, note, presses,
                      "MET" if control_met else "MISSED"), "moves_check")
            from chessclock.claims import press_time_note

            press_time_note(r, "Which moves were made before the flag")
            if control_met:
                r.rule("The counter showed fewer presses than moves; no claim rests on it "
                       "and the arbiter corrects the clock (counter and next stage's time)",
                       "counter")
        else:
            r.moves_check = {"required": cumulative, "scoresheet": None, "counter": presses}
            r.rule("Stage %s asks for %d moves (%d in all by its end); the clock counted %d "
                   "presses. The counter is advisory: check the scoresheet (give --pgn)"
                   % (first.get("stage"), need, cumulative, presses), "counter")
    if control_met:
        r.result = "*"
        r.summary = "no loss on time: %s made the control; play continues after the " \
                    "arbiter corrects the clock" % loser
        r.rule("No loss on time; the arbiter sets the clock right and play continues",
               "wrong_setting")
        return True

    return False


def _rule_both_flags(r, facts, candidates, first, req, control, ruleset):
    """Decide and explain what the other flag and the stop of the clocks change (6.8 and
    each rule set's own answer). (True, ruling) when that settles it, else (False, r)."""
    loser = first["side"]
    winner = other(loser)
    second = next((c for c in candidates[1:] if c["side"] == winner), None)
    stop = facts.stop_after(first["t_ms"])
    if facts.frozen_after(first["t_ms"]):
        stop = first["t_ms"]
        if ruleset.both_flags != R.BOTH_FIRST_LOSES:
            r.rule("The clock froze at the flag (both clocks stopped, so the other flag "
                   "could not fall): taken as the stop of the clocks", "claim")
    if second is not None:
        r.rule("%s's flag fell too, at %s; the order is recorded: %s first"
               % (winner.capitalize(), r.when(second["t_ms"]), loser), "both_flags")
        claimed_before = stop is not None and stop < second["t_ms"]
        if ruleset.both_flags == R.BOTH_DRAW:
            if claimed_before:
                r.rule("The clocks were stopped at %s with only %s's flag down: the claim "
                       "was made before the second flag fell" % (r.when(stop), loser),
                       "claim")
            else:
                r.rule("Both flags are down: the game is drawn, whatever the order",
                       "both_flags")
                r.result, r.summary = "1/2-1/2", "both flags down: draw"
                return True, r
        elif ruleset.both_flags == R.BOTH_REFERRED:
            if claimed_before:
                r.rule("The clocks were stopped at %s with only %s's flag down: the flag "
                       "was announced before the second fell" % (r.when(stop), loser), "claim")
            else:
                from chessclock.claims import refer

                r.rule("The opponent must announce the flag; with both flags down the "
                       "rules do not say who wins", "both_flags")
                return True, refer(r, "both flags down (%s first)" % loser)
        elif ruleset.both_flags == R.BOTH_LATER_UNCLAIMED_DRAW:
            if claimed_before:
                r.rule("%s stopped the clocks at %s with his own flag up: a valid claim "
                       "(the log cannot tell who stopped them)" % (winner.capitalize(),
                                                                   r.when(stop)), "claim")
            else:
                r.rule("%s's flag fell after %s's flag, which had not been claimed: the "
                       "game is drawn" % (winner.capitalize(), loser), "both_flags")
                r.result, r.summary = "1/2-1/2", "flag after an unclaimed flag: draw"
                return True, r
        else:
            last = req is not None and req[2]
            r.rule("The first flag decides; had the order not been established, the game "
                   "would %s" % ("be drawn (the last period)" if last
                                  else "continue (not the last period)"), "order_unknown")
            if control is not None and any(st.inc_ms or st.delay_ms for i in (0, 1)
                                           for st in control.side(i).stages):
                r.rule("(Guidelines III cover games without increment; this control has an "
                       "increment or delay)", "order_unknown")
    elif ruleset.both_flags != R.BOTH_FIRST_LOSES:
        if stop is not None and stop > first["t_ms"]:
            r.rule("The clocks were stopped at %s with %s's flag down and %s's up: the "
                   "claim (the log cannot tell who stopped them)"
                   % (r.when(stop), loser, winner), "claim")

    return False, r


def _rule_mate_any_series(r, board, loser, nodes):
    """FIDE 6.9: a loss on time unless no series of legal moves mates (deadpos's search)."""
    from chessclock import deadpos

    winner = other(loser)
    if board is None:
        r.rule("%s loses on time, unless the position is such that %s cannot checkmate "
               "by any series of legal moves (give --pgn or --fen to check)"
               % (loser.capitalize(), winner), "time_loss")
        r.result, r.summary = _win(winner), "loss on time (position not checked)"
        return r
    import chess

    v = deadpos.can_mate(board, chess.WHITE if winner == "white" else chess.BLACK,
                         max_nodes=nodes)
    r.mate = v.as_dict()
    r.rule(v.describe(), "cannot_mate")
    if v.status == deadpos.PROVEN:
        r.rule("%s cannot checkmate %s's king by any series of legal moves: the game "
               "is drawn" % (winner.capitalize(), loser), "time_loss")
        r.result, r.summary = "1/2-1/2", "flag fell, but the opponent cannot mate: draw"
    elif v.status == deadpos.FOUND:
        r.rule("%s can still checkmate: %s loses on time" % (winner.capitalize(), loser),
               "time_loss")
        r.result, r.summary = _win(winner), "%s loses on time" % loser
    else:
        r.rule("%s loses on time unless the arbiter establishes that no series of legal "
               "moves mates (the search did not settle it)" % loser.capitalize(),
               "time_loss")
        r.result, r.summary = _win(winner), "loss on time (dead position undecided)"
    return r


def _rule_material(r, board, loser, nodes, ruleset):
    """The old rules: a list of material that cannot mate, RAP with the "unless he shows
    mate" exception."""
    from chessclock import deadpos

    winner = other(loser)
    if board is None:
        r.rule("%s loses on time unless %s has not enough material to mate (give --pgn or "
               "--fen to check)" % (loser.capitalize(), winner), "time_loss")
        r.result, r.summary = _win(winner), "loss on time (material not checked)"
        return r
    import chess

    wcol = chess.WHITE if winner == "white" else chess.BLACK
    sig_w = deadpos.material_signature(board, wcol)
    sig_l = deadpos.material_signature(board, not wcol)
    listed = sig_w[1:] in ruleset.lone_material
    r.facts.append("Material: %s %s, %s %s" % (winner, sig_w, loser, sig_l))
    dead_ending = _listed_ending(board, sig_w, sig_l)
    if dead_ending:
        r.rule("The ending %s is in the list of draws" % dead_ending, "cannot_mate")
    if not listed and not dead_ending:
        r.rule("%s has %s: enough material to mate; %s loses on time"
               % (winner.capitalize(), sig_w, loser), "time_loss")
        r.result, r.summary = _win(winner), "%s loses on time" % loser
        return r
    if ruleset.cannot_mate == R.MATE_LIST_UNLESS_SHOWN:
        v = deadpos.can_mate(board, wcol, max_nodes=nodes)
        r.mate = v.as_dict()
        r.rule(v.describe(), "cannot_mate")
        if v.status == deadpos.FOUND:
            r.rule("%s has only %s but can show that mate is possible: %s loses on time"
                   % (winner.capitalize(), sig_w, loser), "cannot_mate")
            r.result, r.summary = _win(winner), "%s loses on time" % loser
            return r
    r.rule("%s has only %s, not enough to mate: the game is drawn"
           % (winner.capitalize(), sig_w), "cannot_mate")
    r.result, r.summary = "1/2-1/2", "the opponent has not enough material: draw"
    return r


def _listed_ending(board, sig_a, sig_b):
    from chessclock import deadpos

    pair = sorted((sig_a, sig_b))
    if pair == ["K", "K"]:
        return "K v K"
    if pair in (["K", "KB"], ["K", "KN"]):
        return "K v %s" % pair[1].replace("K", "K+")
    if pair == ["KB", "KB"] and deadpos.same_colour_bishops(board):
        return "K+B v K+B, bishops on the same colour"
    return None


# ---------------------------------------------------------------- late arrival

def rule_late(elapsed_ms: int, visitor: str, ruleset: R.RuleSet, control: Control | None = None,
              default_ms: int | None = None, towns: tuple[str, str] | None = None) -> Ruling:
    """A late arrival: the rule set's default time; under the FCE regulations (RGC 12.1-12.2)
    the 90-minute wait and the 60/40 split for a visitor from another town. `towns`: the
    towns of the home player's and the visitor's clubs, if known."""
    r = Ruling(ruleset)
    home = other(visitor)
    r.facts = ["Elapsed since the scheduled start: %s" % fmt(elapsed_ms),
               "Late player: %s%s" % (visitor, "; home player: %s" % home
                                      if ruleset.late_split else "")]
    d = ruleset.default_time_ms if default_ms is None else default_ms
    r.rule("Default time: %s (%s)" % (fmt(d), ruleset.default_note), "default")
    same_town = False
    if towns is not None:
        r.facts.append("Clubs' towns: home %s, visitor %s" % towns)
        same_town = towns[0].strip().casefold() == towns[1].strip().casefold()
    if not ruleset.late_split:
        r.split = None
        if towns is not None:
            r.rule("The clubs' towns do not matter under %s: only the FCE regulations "
                   "(RGC 12.1-12.2, --rules fce-rgc1990) make a visitor from another town "
                   "wait-worthy" % ruleset.key, "default")
        r.rule("The 60/40 split of a visitor delayed by public transport is an FCE "
               "regulation (RGC 12.1), not part of %s: outside these rules "
               "(`--rules fce-rgc1990` applies it)" % ruleset.title, "default")
        if ruleset.key == "br-knockout" and default_ms is None:
            from chessclock import claims

            return claims.refer(r, "a late arrival, and S3 sets no default time")
        return _late_by_default(r, elapsed_ms, visitor, d)
    if same_town:
        r.rule("Both players count as from their clubs' town, the same town: the 90-minute "
               "wait and the split are for players from different towns; the default time "
               "alone decides", article="RGC 12.2")
        r.split = None
        return _late_by_default(r, elapsed_ms, visitor, d)
    if towns is not None:
        r.rule("The players count as from their clubs' towns, which differ: the home player "
               "waits 90 min", article="RGC 12.2")
    vshare = elapsed_ms * R.LATE_VISITOR_PERCENT // 100
    hshare = elapsed_ms - vshare
    if elapsed_ms > R.LATE_WAIT_MS:
        r.rule("The home player had to wait %s and the visitor came later: the visitor "
               "loses by default" % fmt(R.LATE_WAIT_MS), "late_split")
        r.result = _win(home)
        r.summary = "visitor defaults"
        r.split = None
        return r
    r.rule("A visitor delayed by public transport may still play; the elapsed time is "
           "charged 60%% to the visitor and 40%% to the home player: %s -%s, %s -%s "
           "(proof of the delay goes to the Competition Committee)"
           % (visitor, fmt(vshare), home, fmt(hshare)), "late_split")
    if elapsed_ms > d:
        r.rule("By the default time alone (%s) the visitor would lose; the regulations "
               "(RGC 12.1: a visitor delayed by public transport may play up to %s after the "
               "start) decide otherwise" % (fmt(d), fmt(R.LATE_WAIT_MS)), "default")
    r.split = {visitor: vshare, home: hshare}
    white_pct = R.LATE_VISITOR_PERCENT if visitor == "white" else 100 - R.LATE_VISITOR_PERCENT
    r.rule("On the clock: `chessclock split %dms --visitor %s` (the link's split %d %d; "
           "or the arbiter menu), exact to the millisecond"
           % (elapsed_ms, visitor, elapsed_ms, white_pct), "late_split")
    if control is not None:
        times = {s: control.side(i).stages[0].time_ms for i, s in enumerate(SIDES)}
        left = {s: times[s] - r.split[s] for s in SIDES}
        r.facts.append("Times before the split: White %s, Black %s"
                       % (fmt(times["white"]), fmt(times["black"])))
        r.rule("Set the clock to White %s, Black %s" % (fmt(left["white"]), fmt(left["black"])),
               "late_split")
        r.times = left
    r.result = "*"
    r.summary = "play: %s -%s, %s -%s" % (visitor, fmt(vshare), home, fmt(hshare))
    return r


def _late_by_default(r: Ruling, elapsed_ms: int, late: str, d: int) -> Ruling:
    """The default time alone: later than it loses, else the late player's clock has run."""
    if elapsed_ms > d:
        r.rule("%s arrived %s after the start, later than the default time: %s loses by "
               "default" % (late.capitalize(), fmt(elapsed_ms), late), "default")
        r.result = _win(other(late))
        r.summary = "%s defaults" % late
        return r
    r.rule("%s arrived within the default time: the game is played; the time elapsed is his "
           "(his clock has run since the start), no correction" % late.capitalize(),
           "default")
    r.result = "*"
    r.summary = "play; %s's clock keeps the time it lost" % late
    return r


# ---------------------------------------------------------------- replacement clock

def state_at(events: list[Event], at_seq: int | None = None, at_ms: int | None = None,
             control: Control | None = None, options: Any = None) -> dict[str, Any]:
    """The clock's state at a sequence number or an instant: times, counters, stages, the
    side whose clock runs, as the engine (clockcore.engine) gives them replaying the log
    (chessclock.logreplay) with the game's control and options (the log header's, else
    `options`, else simulate's defaults). The last consistent record at or before the
    point is named; `notes` say where the log and the engine disagree. Without a control
    only a record's own state can be given (`at_seq`)."""
    from chessclock.log import replay as logreplay

    if control is None and at_ms is not None:
        raise RulingError("the times at an instant come from the engine replaying the log, "
                          "which needs the game's control: give --control SPEC")
    rep = None
    if control is not None:
        rep = logreplay.LogReplay(control, logreplay.options_of(events, options))
    last, state = None, None
    counted = _RecordCounters()
    for n, e in enumerate(events, 1):
        if e.get("type") == "final":
            continue
        if "seq" not in e:
            e = dict(e, seq=n)
        if at_seq is not None and int(e["seq"]) > at_seq:
            break
        if at_ms is not None and e.get("t_ms", 0) > at_ms:
            break
        if "white_ms" not in e or "black_ms" not in e:
            continue  # not a state record (e.g. a header): keep the last consistent one
        last = e
        state = rep.step(e, e["seq"]) if rep is not None else counted.step(e)
    if last is None or state is None:
        raise RulingError("no consistent clock state at or before that point")
    t = last["t_ms"]
    if rep is not None and at_ms is not None:
        state = rep.at(at_ms)
        if state["running"] is not None and at_ms > t:
            t = at_ms
    return {"t_ms": t, "record_t_ms": last["t_ms"], "seq": last.get("seq"),
            "record": last["type"], "times": state["times"], "moves": state["moves"],
            "stage": state["stage"], "running": state["running"],
            "notes": rep.notes if rep is not None else []}


class _RecordCounters:
    """A record's own state when there is no control to replay the log with: its times, the
    counters and stages the records carry, the side their order leaves running."""

    def __init__(self) -> None:
        self.running: str | None = None
        self.moves = {"white": 0, "black": 0}
        self.stage = {"white": 1, "black": 1}

    def step(self, e: Event) -> dict[str, Any]:
        typ, side = e["type"], _side_of(e)
        if typ == "start":
            self.running = side or "white"
        elif typ == "press":
            self.moves[side] = e.get("moves", self.moves[side] + 1)
            self.running = other(side)
        elif typ in ("pause", "end") or (typ == "flag" and e.get("frozen", True)):
            self.running = None
        elif typ == "resume":
            self.running = side
        elif typ == "set-moves":
            self.moves[side] = e.get("moves", self.moves[side])
        elif typ in ("stage", "set-stage", "add-stage"):
            self.stage[side] = e.get("stage", self.stage[side])
        return {"times": {"white": e["white_ms"], "black": e["black_ms"]},
                "moves": dict(self.moves), "stage": dict(self.stage), "running": self.running}


def _rec_time(events, st, side):
    for n, e in enumerate(events, 1):
        if e.get("seq", n) == st["seq"]:
            return e.get(side + "_ms")
    return None


def rule_replace(events: list[Event], ruleset: R.RuleSet, at_seq: int | None = None,
                 at_ms: int | None = None, control: Control | None = None,
                 options: Any = None) -> Ruling:
    st = state_at(events, at_seq, at_ms, control, options)
    r = Ruling(ruleset)
    r.facts = ["Last consistent record: #%s (%s) at %s, White %s, Black %s" % (
        st["seq"], st["record"], fmt(st["record_t_ms"]), fmt(_rec_time(events, st, "white")),
        fmt(_rec_time(events, st, "black")))]
    if at_ms is not None:
        r.facts.append("Times carried forward to %s, charging the running side (%s)"
                       % (fmt(at_ms), st["running"] or "nobody"))
    if st["notes"]:
        r.facts.append("The engine replaying the log disagrees with it (is the control the "
                       "game's?); the log's times are kept: %s" % "; ".join(st["notes"][:3])
                       + ("; ..." if len(st["notes"]) > 3 else ""))
    r.rule("The clock's readings are conclusive unless it is visibly defective; a defective "
           "clock is replaced and the arbiter sets the replacement's times by his best "
           "judgement, here from the log", "faulty_clock")
    w, b = st["times"]["white"], st["times"]["black"]
    r.rule("Set the replacement clock: White %s, Black %s; move counters White %d, Black %d; "
           "stages White %d, Black %d" % (fmt(w), fmt(b), st["moves"]["white"],
                                          st["moves"]["black"], st["stage"]["white"],
                                          st["stage"]["black"]), "irregularity")
    r.rule("Start %s's clock when play resumes" % (st["running"] or "the side to move"),
           "interruption")
    r.rule("Commands for the replacement clock: chessclock set CONTROL, then chessclock "
           "settime white %dms; chessclock settime black %dms; chessclock moves white %d; "
           "chessclock moves black %d" % (w, b, st["moves"]["white"], st["moves"]["black"]),
           "counter")
    r.state = st
    r.summary = "replacement: White %s, Black %s" % (fmt(w), fmt(b))
    return r


# ---------------------------------------------------------------- command

def add_arguments(p: argparse.ArgumentParser) -> None:
    p.usage = ("chessclock ruling FLAGFILE [options]\n"
               "       chessclock ruling late --elapsed TIME --visitor white|black [options]\n"
               "       chessclock ruling replace FLAGFILE (--at-seq N | --at TIME) [options]\n"
               "       chessclock ruling illegal-move (--pgn F | --fen FEN) --move e1f2 "
               "[options]\n"
               "       chessclock ruling both-kings --fen FEN [--retracted FEN]\n"
               "       chessclock ruling draw-claim (--pgn F | --fen FEN) [--ground G] "
               "[--moves N] [--move M]\n"
               "       chessclock ruling complaint FLAGFILE --at TIME [--by SIDE]\n"
               "       chessclock ruling playoff [FLAGFILE] (--pgn F | --fen FEN) [--limit N]")
    p.add_argument("what", nargs="+", metavar="FLAGFILE",
                   help="the clock's log (`chessclock log pull`: verified first), or JSON "
                        "Lines of clock events (simulate output, log export: marked "
                        "unverified); or late, replace FLAGFILE, illegal-move, both-kings, "
                        "draw-claim, complaint FLAGFILE, playoff")
    p.add_argument("--key", metavar="FILE", help="the arbiter's key, to check the log's "
                   "signature (default: `chessclock key use`'s, or $CHESSCLOCK_KEY)")
    p.add_argument("--unverified", action="store_true",
                   help="rule on a log that fails verification (marked in large letters)")
    p.add_argument("--game", type=int, default=None, metavar="N",
                   help="which game of the log, from 1 (default: the last played)")
    p.add_argument("--control", metavar="SPEC", help="the time control (else the log's)")
    p.add_argument("--rules", default=None, choices=sorted(R.RULESETS),
                   help="rule set (default fide2023; for playoff br-knockout)")
    p.add_argument("--pgn", metavar="GAME.pgn", help="the scoresheet the arbiter has: the "
                   "game's moves up to the flag, as PGN")
    p.add_argument("--fen", help="the position at the flag (if no PGN)")
    p.add_argument("--json", action="store_true", help="print the ruling as JSON")
    p.add_argument("--appealed-on", metavar="YYYY-MM-DD", help="the ruling was appealed on "
                   "this date: to which body, and in time? (the ruling's date: --date, else "
                   "today)")
    p.add_argument("--cites", action="append", choices=sorted(DEMO_SOURCES),
                   help="the claim cites a demonstration board, a screen or the move "
                        "counter (no claim may rest on them: S1 6.15); repeat for more")
    p.add_argument("--nodes", type=int, default=None,
                   help="helpmate search bound in positions")
    p.add_argument("--plot", metavar="OUT.png|OUT.svg", help="draw time left per move")
    p.add_argument("--html", metavar="REPORT.html", help="one page: facts, ruling, picture")
    p.add_argument("--incident", metavar="OUT.txt|OUT.md", help="write an incident report")
    p.add_argument("--event", default="", help="incident report: the event")
    p.add_argument("--place", default="", help="incident report: the place")
    p.add_argument("--match", default="", help="incident report: the match or round")
    p.add_argument("--date", default="", help="incident report: the date (else the log's)")
    p.add_argument("--arbiter", default="", help="incident report: the arbiter's name")
    p.add_argument("--pairings", metavar="FILE", help="the round's pairings (CSV or FIDE "
                   "TRF): the players of --board N when the log does not name them")
    p.add_argument("--board", type=int, default=None, metavar="N",
                   help="with --pairings: the board the clock was on")
    p.add_argument("--round", default=None, metavar="N", help="with --pairings (TRF): "
                   "the round (default: the last one paired)")
    p.add_argument("--elapsed", metavar="TIME", help="late: time since the scheduled start: "
                   "75m, 1h15m or 1:15:00 (with a unit)")
    p.add_argument("--visitor", choices=SIDES, help="late: the late (visiting) player's "
                   "colour")
    p.add_argument("--home-town", metavar="TOWN", help="late (RGC 12.2): the town of the home "
                   "player's club")
    p.add_argument("--visitor-town", metavar="TOWN", help="late (RGC 12.2): the town of the "
                   "visitor's club")
    p.add_argument("--default-time", metavar="TIME",
                   help="late: the event's default time, e.g. 60m")
    p.add_argument("--at-seq", type=int, metavar="N", help="replace: state after record N")
    p.add_argument("--at", metavar="TIME", help="replace: state at this clock time; "
                   "complaint: when the complaint was made (clock time): 20m, 0:40, 1:02:00")
    g = p.add_argument_group("on the board (illegal-move, both-kings, draw-claim, "
                             "complaint, playoff)")
    g.add_argument("--move", metavar="MOVE", help="illegal-move: the move played, in "
                   "coordinates (e1f2, e7e8q); draw-claim: the intended move written")
    g.add_argument("--count", type=int, default=1, metavar="N",
                   help="illegal-move: the player's illegal move number N (default 1)")
    g.add_argument("--blitz", action="store_true", help="illegal-move: a blitz game")
    g.add_argument("--claim", choices=("before-touch", "after-touch"),
                   help="illegal-move (RAP 8c): the opponent claimed before/after touching "
                        "a piece")
    g.add_argument("--king-captured", choices=("before-press", "after-press"),
                   help="illegal-move (RAP 8c): the king was taken before/after the press")
    g.add_argument("--noticed", choices=("now", "later"), default="now",
                   help="illegal-move: noticed at once (default) or only later")
    g.add_argument("--retracted", metavar="FEN", help="both-kings (ACT 21): the position "
                   "after taking back a move of each side")
    g.add_argument("--ground", default="moves", choices=("moves", "repetition", "perpetual",
                                                          "no-chances"),
                   help="draw-claim: the ground (default: moves without capture or pawn "
                        "move)")
    g.add_argument("--moves", type=int, default=None, metavar="N", dest="claim_moves",
                   help="draw-claim: N moves of each player (default: the rule set's: "
                        "br-knockout 5, FIDE 50)")
    g.add_argument("--found", choices=("correct", "incorrect"),
                   help="draw-claim (ACT 14): the arbiter's finding on the claim")
    g.add_argument("--own-flag", choices=("up", "fallen"),
                   help="draw-claim (ACT 14): the claimant's own flag (the claim is made "
                        "with it up)")
    g.add_argument("--by", choices=SIDES, help="complaint: who complained")
    g.add_argument("--limit", type=int, default=None, metavar="N",
                   help="playoff: moves a side that count (default 10)")


BOARD_FORMS = ("illegal-move", "both-kings", "draw-claim", "complaint", "playoff")


def _board_input(args, need=True):
    """(game or None, board or None) from --pgn / --fen."""
    from chessclock import claims

    if args.pgn and args.fen:
        raise RulingError("give --pgn or --fen, not both")
    game = read_pgn(args.pgn) if args.pgn else None
    if game is None and args.fen is None:
        if need:
            raise RulingError("give the position: --pgn GAME.pgn (the scoresheet) or "
                              "--fen FEN")
        return None, None
    board = claims.board_from(game, args.fen)
    return game, board


def _legal_position(board):
    """Refuse a position no game can reach (a king missing, pawns on the last rank, the
    side not to move in check), with python-chess's reason."""
    import chess

    status = board.status()
    if status != chess.STATUS_VALID:
        names = [n[7:].lower().replace("_", " ") for n in dir(chess)
                 if n.startswith("STATUS_") and n != "STATUS_VALID"
                 and status & getattr(chess, n)]
        raise RulingError("the position is not one a game can reach (%s)" % ", ".join(
            sorted(names)))


def _run_board(what, ruleset, args, stdout):
    from chessclock import claims, playoff

    form = what[0]
    if form not in ("complaint", "playoff") and len(what) != 1:
        raise RulingError("%s takes no file: the position comes from --pgn or --fen" % form)
    if form == "playoff" and len(what) > 2:
        raise RulingError("playoff takes at most one FLAGFILE (the play-off's clock log)")
    events = []
    if form == "illegal-move":
        if not args.move:
            raise RulingError("illegal-move takes --move (the move played, e.g. e1f2)")
        if args.count < 1:
            raise RulingError("--count %d: the illegal move's number, 1 or more" % args.count)
        _, board = _board_input(args)
        _legal_position(board)
        r = claims.rule_illegal(board, claims.parse_move(board, args.move), ruleset,
                                args.count, args.blitz, args.claim, args.king_captured,
                                args.noticed, args.nodes)
    elif form == "both-kings":
        _, board = _board_input(args)
        import chess

        if len(board.pieces(chess.KING, chess.WHITE)) != 1 or \
                len(board.pieces(chess.KING, chess.BLACK)) != 1:
            raise RulingError("the position needs one king of each colour")
        retracted = None
        if args.retracted:
            try:
                retracted = chess_board(args.retracted)
            except ValueError as e:
                raise RulingError("--retracted: %s" % e) from None
        r = claims.rule_both_kings(board, ruleset, retracted)
    elif form == "draw-claim":
        game, board = _board_input(args)
        _legal_position(board)
        r = claims.rule_draw_claim(board, ruleset, args.ground, args.claim_moves, args.move,
                                   args.found, from_fen=game is None,
                                   own_flag=args.own_flag)
    elif form == "complaint":
        if len(what) != 2 or not args.at:
            raise RulingError("complaint takes FLAGFILE and --at TIME (when the complaint "
                              "was made)")
        events, source = _source(what[1], args)
        r = claims.rule_complaint(events, ruleset, parse_duration(args.at), args.by)
        r.source = source
    else:
        game = read_pgn(args.pgn) if args.pgn else None
        if game is not None and args.fen:
            raise RulingError("give --pgn or --fen, not both")
        board = playoff.fen_board(args.fen) if args.fen and game is None else None
        if game is None and board is None:
            raise RulingError("playoff takes the final position: --pgn PLAYOFF.pgn or "
                              "--fen FEN")
        source = None
        if len(what) == 2:
            events, source = _source(what[1], args)
        r = playoff.rule_playoff(ruleset, game, board,
                                 R.PLAYOFF_MOVES if args.limit is None else args.limit,
                                 events or None)
        r.source = source
    _write_result(r, args, stdout)
    if args.incident:  # a record of the case, e.g. one referred to the organisers
        from chessclock import ruling_report as RR

        try:
            RR.write_incident(args.incident, events, r, event=args.event, place=args.place,
                              match=args.match, date=args.date, arbiter=args.arbiter)
        except OSError as e:
            raise RulingError("cannot write %s: %s" % (e.filename or "the report",
                                                       e.strerror or e)) from None
    return 0


def chess_board(fen: str) -> chess.Board:
    import chess

    return chess.Board(fen)


def _source(path, args):
    from chessclock.link import transport as K
    try:
        key = K.key_for(args)
    except K.ClockError as e:
        raise RulingError(str(e)) from None
    return load_source(path, key, args.game, args.unverified)


def _names(r, events, args):
    """Who played: the clock's log names them (`chessclock pairings push`); else board
    --board of --pairings FILE."""
    from chessclock import gamenames

    if args.board is not None and not args.pairings:
        raise RulingError("--board N goes with --pairings FILE (the round's pairings)")
    p = gamenames.from_events(events)
    if p is not None:
        r.pairing, r.pairing_from = p, "from the clock's log"
        return
    if args.pairings:
        if args.board is None:
            raise RulingError("the log names no board: give --board N with --pairings")
        try:
            r.pairing = gamenames.from_file(args.pairings, args.board, args.round)
        except ValueError as e:
            raise RulingError("--pairings: %s" % e) from None
        r.pairing_from = "from %s, not from the clock" % args.pairings


def _headers(r, game):
    """PGN headers for the reports: the scoresheet's, the pairing's where it has none."""
    from chessclock.gamenames import pgn_headers

    h = dict(pgn_headers(r.pairing)) if r.pairing else {}
    for k, v in (game.headers.items() if game is not None else ()):
        if v not in ("", "?") or k not in h:
            h[k] = v
    return h or None


DEMO_SOURCES = {
    "demo-board": "a demonstration board",
    "screen": "a screen or monitor showing the position or the moves",
    "move-counter": "the clock's move counter",
}


def note_cited(r: Ruling, cites: list[str] | None) -> None:
    """A claim that cites a demonstration board, a screen or the move counter: no claim may
    rest on what they show (S1 6.15; FIDE 6.12.2); the board and the scoresheet decide."""
    for c in cites or ():
        r.facts.append("The claim cites %s" % DEMO_SOURCES[c])
        r.rule("No claim may rest on what %s shows: the ruling rests on the scoresheet, "
               "the board and the clock's times, not on it" % DEMO_SOURCES[c], "demo_board")


def note_appeal(r: Ruling, filed: str | None, ruled: str | None) -> None:
    """--appealed-on: whether the ruling was appealed, to which body, and in time (the
    rule set's own appeal: ACT 15, RAP 14 final, DISC 23.10, the event's regulations)."""
    if filed is None:
        return
    import datetime as dt

    from chessclock.competition import deadlines as D

    try:
        on = D.parse_date(filed, "--appealed-on")
        day = dt.date.today()
        if ruled:
            try:
                day = dt.date.fromisoformat(ruled.strip())
            except ValueError:
                raise RulingError("--date %r: with --appealed-on, the ruling's date is "
                                  "YYYY-MM-DD" % ruled[:30]) from None
        if on < day:
            raise RulingError("--appealed-on %s is before the ruling (%s)" % (on, day))
        a = D.appeal(r.ruleset.key, day, on)
    except D.DeadlineError as e:
        raise RulingError(str(e)) from None
    r.appeal = a
    r.facts.append("Appeal filed %s against the ruling of %s" % (a["filed"], a["from"]))
    r.rule("Appeal: %s (%s)" % (a["appealed"], "the last day was %s" % a["last_day"]
                                if a["last_day"] else a["count"]), article=a["article"])


def _write_result(r, args, stdout):
    note_cited(r, args.cites)
    note_appeal(r, args.appealed_on, args.date)
    if args.json:
        stdout.write(json.dumps(r.as_dict(), indent=1) + "\n")
    else:
        stdout.write(r.text())


def run(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    try:
        return _run(args, stdout)
    except RulingError as e:
        stderr.write("chessclock ruling: %s\n" % e)
        return 2


def _run(args, stdout):
    if (args.plot or args.html) and importlib.util.find_spec("matplotlib") is None:
        raise RulingError("--plot and --html draw with matplotlib, which is not installed: "
                          "pip install 'chessclock[plot]'")  # an extra: 170 MB for one option
    what = args.what
    ruleset = R.get(args.rules or ("br-knockout" if what[0] == "playoff" else "fide2023"))
    if what[0] in BOARD_FORMS:
        return _run_board(what, ruleset, args, stdout)
    if what[0] == "late":
        if len(what) != 1 or not args.elapsed or not args.visitor:
            raise RulingError("late takes --elapsed TIME and --visitor white|black")
        control, _, _ = resolve_control(args.control)
        default = parse_duration(args.default_time) if args.default_time else None
        towns = None
        if (args.home_town is None) != (args.visitor_town is None):
            raise RulingError("give both --home-town and --visitor-town (the clubs' towns)")
        if args.home_town is not None:
            if not args.home_town.strip() or not args.visitor_town.strip():
                raise RulingError("--home-town and --visitor-town name a town")
            towns = (args.home_town, args.visitor_town)
        r = rule_late(parse_duration(args.elapsed), args.visitor, ruleset, control, default,
                      towns)
        _write_result(r, args, stdout)
        return 0
    if what[0] == "replace":
        if len(what) != 2 or (args.at_seq is None) == (args.at is None):
            raise RulingError("replace takes FLAGFILE and one of --at-seq N or --at TIME")
        events, source = _source(what[1], args)
        control, _, preset = resolve_control(args.control, events)
        at_ms = parse_duration(args.at) if args.at else None
        r = rule_replace(events, ruleset, args.at_seq, at_ms, control, preset)
        r.source = source
        _names(r, events, args)
        _write_result(r, args, stdout)
        return 0
    if len(what) != 1:
        raise RulingError("give one FLAGFILE (or 'late', or 'replace FLAGFILE')")
    events, source = _source(what[0], args)
    control, spec, _ = resolve_control(args.control, events)
    game = read_pgn(args.pgn) if args.pgn else None
    board = None
    if args.fen and game is None:
        import chess

        try:
            board = chess.Board(args.fen)
        except ValueError as e:
            raise RulingError("--fen: %s" % e) from None
    r = rule_flag(events, ruleset, control, spec, game=game, board=board,
                  max_nodes=args.nodes)
    r.source = source
    _names(r, events, args)
    _write_result(r, args, stdout)
    if args.plot or args.html or args.incident:
        from chessclock import ruling_report as RR

        if args.plot and not str(args.plot).lower().endswith((".png", ".svg")):
            raise RulingError("--plot %s: the picture is a .png or a .svg file" % args.plot)
        try:
            if args.plot:
                RR.plot(events, args.plot)
            if args.html:
                RR.write_html(args.html, events, r, event=args.event,
                              headers=_headers(r, game))
            if args.incident:
                RR.write_incident(args.incident, events, r, event=args.event,
                                  place=args.place, match=args.match, date=args.date,
                                  arbiter=args.arbiter,
                                  headers=_headers(r, game))
        except OSError as e:
            raise RulingError("cannot write %s: %s" % (e.filename or "the report",
                                                       e.strerror or e)) from None
        except ValueError as e:   # matplotlib: an extension it cannot write
            raise RulingError("cannot draw: %s" % e) from None
    return 0
