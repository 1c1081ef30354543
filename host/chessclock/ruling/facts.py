"""What a clock's log shows: the facts a ruling states (Facts, walked once in order), a
correction in words, and the clock's state at a point of the log (state_at, replaying it on
the engine)."""

from dataclasses import dataclass
from typing import Any, Self

from chessclock.log import replay as logreplay
from chessclock.ruling.events import CORRECTIONS, Event, RulingError, fmt, other, wall_time_at
from clockcore.control import Control
from clockcore.logread import REASONS  # the clock's own reason codes, by name


def _side_of(e: Event) -> Any:
    """The event's side: "white", "black", or None (an event of both or of nobody)."""
    return e.get("side")


class _Walk:
    """The walk over the log that Facts.of makes, one event at a time."""

    def __init__(self) -> None:
        self.presses = {"white": 0, "black": 0}
        self.ignored: list[Event] = []
        self.stage_passes: list[Event] = []
        self.flags: list[Event] = []
        self.stops: list[dict[str, Any]] = []
        self.corrections: list[Event] = []
        self.claims: list[Event] = []
        self.limit: Event | None = None
        self.defaults: list[Event] = []
        self.arrivals: list[Event] = []
        self.start: Event | None = None
        self.end: Event | None = None
        self.stage_start_moves = {"white": 0, "black": 0}
        self.running: str | None = None
        self.open_stop: dict[str, Any] | None = None

    def take(self, e: Event) -> None:
        """One event of the walk: the lists it joins, the side it leaves running."""
        typ, side = e["type"], _side_of(e)
        if typ == "start":
            self.start = e
            self.running = side or "white"
        elif typ == "press":
            self.presses[side] += 1
            self.running = other(side)
        elif typ == "ignored":
            self.ignored.append(e)
        elif typ == "stage":
            moves = self.presses.get(side, 0)
            rec = dict(e, presses_in_stage=moves - self.stage_start_moves[side], moves=moves)
            self.stage_start_moves[side] = moves
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
            self.open_stop = {
                "t_ms": e["t_ms"], "running": self.running, "resume_t_ms": None,
                "after_flag": any("unflag_t_ms" not in f for f in self.flags),
                "white_ms": e.get("white_ms"), "black_ms": e.get("black_ms")}
            self.stops.append(self.open_stop)
            self.running = None
        elif typ == "resume":
            if self.open_stop is not None:
                self.open_stop["resume_t_ms"] = e["t_ms"]
                self.open_stop = None
            self.running = side
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
            if typ == "undo" and side and self.running is not None:
                self.running = side   # the turn goes back to the side that pressed
        if typ == "set-moves" and side:
            self.presses[side] = e.get("moves", self.presses[side])


@dataclass(frozen=True)
class Facts:
    """What the log shows, walked once in order (Facts.of)."""

    events: list[Event]           # the log's events but its `final` record
    final: Event | None           # the last `final` record (a log export's summary)
    presses: dict[str, int]       # presses of each side (set-moves corrections applied)
    ignored: list[Event]          # ignored presses or actions
    stage_passes: list[Event]     # the stage event plus presses_in_stage and moves computed
    flags: list[Event]            # the flag event plus 'unflag_t_ms' when taken back
    stops: list[dict[str, Any]]   # {'t_ms', 'resume_t_ms', 'running', 'after_flag', times}
    corrections: list[Event]      # the arbiter's corrections (CORRECTIONS), unflags too
    claims: list[Event]           # explicit claim records, if the log has them
    limit: Event | None           # the move limit's event (a play-off's end, S3 4.1)
    defaults: list[Event]         # `default-time`: the default time passed, a side absent
    arrivals: list[Event]         # `arrival`: a player marked at the board
    start: Event | None
    end: Event | None
    t0: int                       # the game's time 0: its start, else its first event

    @classmethod
    def of(cls, events: list[Event]) -> Self:
        """The facts of `events`, walked once in order."""
        kept = [e for e in events if e.get("type") != "final"]
        finals = [e for e in events if e.get("type") == "final"]
        w = _Walk()
        for e in kept:
            w.take(e)
        # The game's time runs from its start (else from its first event); a clock's t_ms
        # is its time since power-on, which means nothing to the players.
        timed_events = [e["t_ms"] for e in kept if isinstance(e.get("t_ms"), int)]
        t0 = w.start["t_ms"] if w.start is not None and isinstance(
            w.start.get("t_ms"), int) else (timed_events[0] if timed_events else 0)
        return cls(events=kept, final=finals[-1] if finals else None, presses=w.presses,
                   ignored=w.ignored, stage_passes=w.stage_passes, flags=w.flags,
                   stops=w.stops, corrections=w.corrections, claims=w.claims, limit=w.limit,
                   defaults=w.defaults, arrivals=w.arrivals, start=w.start, end=w.end, t0=t0)

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
              rules_title: str | None = None) -> list[str]:
        """The facts in words, in the order they happened; the control and the rule set's
        title (when given) first."""
        out = []
        if control_text:
            out.append("Control: %s" % control_text)
        if rules_title is not None:
            out.append("Rules: %s" % rules_title)
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


# ---------------------------------------------------------------- the state at a point

def state_at(events: list[Event], at_seq: int | None = None, at_ms: int | None = None,
             control: Control | None = None, options: Any = None) -> dict[str, Any]:
    """The clock's state at a sequence number or an instant: times, counters, stages, the
    side whose clock runs, as the engine (clockcore.engine) gives them replaying the log
    (chessclock.log.replay) with the game's control and options (the log header's, else
    `options`, else simulate's defaults). The last consistent record at or before the
    point is named; `notes` say where the log and the engine disagree. Without a control
    only a record's own state can be given (`at_seq`)."""
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
