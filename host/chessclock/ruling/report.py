"""The picture, the HTML page and the incident report of `chessclock ruling`.

matplotlib is imported only here and only when a picture is asked for (Agg backend, no
display needed), so `chessclock --help` stays fast.
"""

import base64
import datetime
import html
import io
from collections.abc import Mapping
from typing import IO, Any

from chessclock import timetext
from chessclock.ruling.events import CORRECTIONS, UNVERIFIED_BANNER, Event, fmt, wall_time_at
from chessclock.ruling.facts import Facts, describe_correction
from chessclock.ruling.verdict import Ruling


def series(events: list[Event]) -> tuple[dict[str, list], dict[str, Any]]:
    """Time left per move for each side: {'white': [(move, ms)], 'black': [...]}, starting
    with move 0 (the start), then the time after each press (after its increment). A stage
    passed or a correction adds a point at the same move, so each side's line drops to what
    was left and rises with the stage's time; a flag ends the line at 0 during the move the
    side was thinking about. Also the markers: flags, stages, stops, corrections, each
    [(move position, ms or None, label)], and `moves` {side: presses}."""
    pts = {"white": [], "black": []}
    moves = {"white": 0, "black": 0}
    marks: dict[str, Any] = {"flag": [], "stage": [], "stop": [], "correction": [],
                             "moves": moves}
    for e in events:
        typ, side = e.get("type"), e.get("side")
        if typ == "final":
            continue
        if typ == "start":
            for s in ("white", "black"):
                pts[s].append((0, e.get(s + "_ms", 0)))
        elif typ == "press" and side in pts:
            moves[side] = e.get("moves", moves[side] + 1)
            pts[side].append((moves[side], e[side + "_ms"]))
        elif typ == "stage" and side in pts:
            pts[side].append((moves[side], e[side + "_ms"]))
            marks["stage"].append((moves[side], e[side + "_ms"],
                                   "%s stage %s" % (side, e.get("stage"))))
        elif typ == "flag" and side in pts:
            x = moves[side] + 1   # it fell while that side thought about its next move
            pts[side].append((x, 0))
            marks["flag"].append((x, 0, "%s flag %s" % (side, fmt(e["t_ms"]))))
        elif typ == "pause":
            pos = max(moves.values()) + 0.25
            marks["stop"].append((pos, None, "stop %s" % fmt(e["t_ms"])))
        elif typ in CORRECTIONS:
            pos = max(moves.values()) + 0.25
            marks["correction"].append((pos, None, "%s %s" % (typ, side or "")))
            for s in ("white", "black"):   # the times it set, on both lines
                if pts[s] and isinstance(e.get(s + "_ms"), int) \
                        and e[s + "_ms"] != pts[s][-1][1]:
                    pts[s].append((moves[s], e[s + "_ms"]))
    return pts, marks


# y-axis steps: the first that gives at most 8 ticks over the picture's height
_STEPS_MS = (5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000,
             3600000, 7200000)


def clock_text(ms: float, _pos: Any = None) -> str:
    """An axis tick: m:ss, or h:mm:ss from an hour (never minutes as decimals)."""
    return timetext.clock_text(int(round(ms)))


def figure(events: list[Event], title: str | None = None) -> tuple[Any, Any, dict[str, Any]]:
    """The matplotlib Figure of time left per move (no file written) and its summary."""
    from matplotlib.figure import Figure  # an extra, and heavy: only when a picture is asked
    from matplotlib.ticker import FuncFormatter, MaxNLocator, MultipleLocator

    pts, marks = series(events)
    fig = Figure(figsize=(9, 4.8), dpi=100, layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    colours = {"white": "#1f77b4", "black": "#222222"}
    drawn = {}
    for side in ("white", "black"):
        xs = [x for x, _ in pts[side]]
        ys = [y for _, y in pts[side]]
        ax.plot(xs, ys, marker="o", markersize=3, color=colours[side],
                label="%s: time left after each move" % side.capitalize())
        drawn[side] = 1 + marks["moves"][side] if pts[side] else 0
    top = max([y for side in pts for _, y in pts[side]] + [60000])
    right = max([x for side in pts for x, _ in pts[side]] + [1])
    # room below 0 and right of the last move, so that a flag's marker is inside
    ax.set_ylim(-0.08 * top, top * 1.08)
    ax.set_xlim(-0.3, right + 0.7)
    for x, _, label in marks["flag"]:
        ax.plot([x], [0], marker="v", markersize=12, color="red", linestyle="none")
        near_right = x > right * 0.7
        ax.annotate(label, (x, 0), textcoords="offset points", xytext=(-6 if near_right
                                                                       else 6, 10),
                    ha="right" if near_right else "left", fontsize=8, color="red")
    at_x = {}
    for x, y, label in marks["stage"]:
        ax.axvline(x, color="green", linestyle="--", linewidth=0.8)
        k = at_x[x] = at_x.get(x, -1) + 1     # both sides' stages at one move: stacked
        y = max(y2 for x2, y2, _ in marks["stage"] if x2 == x)
        ax.annotate(label, (x, y), textcoords="offset points", xytext=(5, -12 - 10 * k),
                    fontsize=7, color="green")
    for x, _, label in marks["stop"]:
        ax.axvline(x, color="orange", linestyle=":", linewidth=1.2)
        ax.annotate(label, (x, top * 1.02), fontsize=7, color="orange", rotation=90,
                    va="top")
    for x, _, label in marks["correction"]:
        ax.axvline(x, color="purple", linestyle="-.", linewidth=1)
        ax.annotate(label, (x, top * 0.6), fontsize=7, color="purple", rotation=90,
                    va="top")
    step = next((s for s in _STEPS_MS if top / s <= 8), _STEPS_MS[-1])
    ax.yaxis.set_major_locator(MultipleLocator(step))
    ax.yaxis.set_major_formatter(FuncFormatter(clock_text))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))   # whole moves only
    ax.set_xlabel("move")
    ax.set_ylabel("time left (m:ss)")
    ax.set_title(title or "Time left per move")
    ax.grid(True, alpha=0.3)
    # the legend under the picture, never over a line
    fig.legend(loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    summary = {"points": drawn, "flags": len(marks["flag"]),
               "stages": len(marks["stage"]), "stops": len(marks["stop"]),
               "corrections": len(marks["correction"])}
    return fig, ax, summary


def plot(events: list[Event], path: str | IO[bytes], title: str | None = None,
         fmt_: str | None = None) -> dict[str, Any]:
    """Draw time left per move for both players with flags, stage passes, stops and
    corrections; PNG or SVG by the file's extension. Returns a summary dict."""
    import matplotlib  # an extra, and heavy: only when a picture is asked for

    matplotlib.use("Agg")
    fig, _, summary = figure(events, title)
    if fmt_ is None:
        fmt_ = "svg" if str(path).lower().endswith(".svg") else "png"
    fig.savefig(path, format=fmt_)
    return dict(summary, format=fmt_)


def _times_of_day(events: list[Event]) -> str | None:
    """'HH:MM:SS UTC' of the first and last event when the log has the wall clock."""
    days = [e["utc"] for e in events if e.get("utc")]
    if not days:
        return None
    return "%s to %s (UTC, from the clock's wall clock)" % (days[0], days[-1])


def time_of_day(events: list[Event], t_ms: int) -> str | None:
    """The UTC time of day (HH:MM:SS) at clock time t_ms, from the last event at or before
    it that carries the clock's wall clock ("utc"); None when the log has none."""
    return wall_time_at(events, t_ms)


def write_html(path: str, events: list[Event], ruling: Ruling, title: str = "Clock ruling",
               event: str = "", headers: Mapping[str, str] | None = None
               ) -> dict[str, Any]:
    """One page: the event, clock, log file and its verification, what happened (with the
    time of day when the log has the wall clock), the facts, the ruling, the picture (a PNG
    embedded as base64). `headers`: the scoresheet's PGN headers (Event, Site, White,
    Black) when the arbiter gave one."""
    headers = dict(headers or {})
    event = event or " ".join(x for x in (headers.get("Event", ""), headers.get("Round", ""))
                              if x and x != "?")
    buf = io.BytesIO()
    summary = plot(events, buf, fmt_="png")
    img = base64.b64encode(buf.getvalue()).decode("ascii")
    esc = html.escape
    src = ruling.source
    parts = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'>",
             "<title>%s</title>" % esc(title),
             "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
             "td,th{padding:2px 8px;text-align:left}.art{color:#555}"
             ".unverified{color:#b00;font-size:1.6em;font-weight:bold;border:4px solid #b00;"
             "padding:0.5em}.verified{color:#060;font-weight:bold}</style>",
             "</head><body>", "<h1>%s</h1>" % esc(title)]
    if src is not None and not src.verified:
        parts.append("<p class='unverified'>%s</p>" % esc(
            "UNVERIFIED: these events are not proven to be the clock's own log. A ruling "
            "on them is not evidence."))
    players = " - ".join(headers.get(k, "") for k in ("White", "Black")
                         if headers.get(k, "") not in ("", "?"))
    parts += ["<table>",
              "<tr><th>Event</th><td>%s</td></tr>" % esc(event or "-"),
              "<tr><th>Clock</th><td>%s</td></tr>" % esc(
                  (src.clock if src is not None and src.clock else "-")
                  + (" (game %s of its log)" % src.game if src is not None and src.game
                     else "")),
              "<tr><th>Log file</th><td>%s</td></tr>" % esc(src.path if src else "-"),
              "<tr><th>Verification</th><td class='%s'>%s</td></tr>" % (
                  "verified" if src is not None and src.verified else "unverified-cell",
                  esc("authentic: the clock's own log" if src is not None and src.verified
                      else "NOT VERIFIED" if src is not None else "-")),
              "<tr><th>Times of day</th><td>%s</td></tr>" % esc(
                  _times_of_day(events) or "not in the log (no wall clock given)"),
              "<tr><th>Rules</th><td>%s</td></tr>" % esc(ruling.ruleset.title)]
    if headers.get("Board"):   # the round's pairing (chessclock/gamenames.py)
        parts.append("<tr><th>Board</th><td>%s</td></tr>" % esc(headers["Board"]))
    if players:
        parts.append("<tr><th>Players</th><td>%s</td></tr>" % esc(players))
    parts.append("</table>")
    if src is not None:
        parts += ["<h2>Verification</h2>", "<ul>"]
        parts += ["<li>%s</li>" % esc(x) for x in src.lines]
        parts.append("</ul>")
    items = incident_items(events)
    if items:
        parts += ["<h2>What happened, in order</h2>",
                  "<table><tr><th>game time</th><th>time of day (UTC)</th><th>what</th>"
                  "<th></th></tr>"]
        t0 = Facts.of(events).t0
        parts += ["<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
            esc(fmt(t - t0) if t >= t0 else "-" + fmt(t0 - t)),
            esc(time_of_day(events, t) or "-"), esc(kind), esc(text))
            for t, kind, text in items]
        parts.append("</table>")
    parts += ["<h2>Facts (from the clock's log)</h2>", "<ul>"]
    parts += ["<li>%s</li>" % esc(f) for f in ruling.facts]
    parts += ["</ul>", "<h2>Ruling</h2>", "<table><tr><th>ruling</th><th>article</th></tr>"]
    parts += ["<tr><td>%s</td><td class='art'>%s</td></tr>" % (esc(t), esc(a))
              for t, a in ruling.lines]
    parts += ["</table>",
              "<p><strong>Result: %s</strong> %s</p>" % (esc(ruling.result),
                                                         esc(ruling.summary)),
              "<h2>Time left per move</h2>",
              "<img alt='time left per move' src='data:image/png;base64,%s'>" % img,
              "</body></html>"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")
    return summary


def _times(e: Event) -> str:
    return "White %s, Black %s" % (fmt(e.get("white_ms")), fmt(e.get("black_ms")))


def _side(e: Event) -> str:
    return str(e.get("side") or "?")


# What the log shows that bears on a dispute and is not a stop, claim, correction or flag
# (those come from Facts): event type -> (kind, its text). Every type `log export` can
# write is here or in NOT_ON_DISPUTE (tests/host/test_arbiter_cli.py checks both).
ON_DISPUTE: dict[str, tuple[str, Any]] = {
    "start": ("start", lambda e: "%s's clock started; %s" % (e.get("side", "white"),
                                                            _times(e))),
    "stage": ("stage", lambda e: "%s reached stage %s (%s added)" % (
        _side(e), e.get("stage", "?"), fmt(e.get("added_ms", e.get("arg"))))),
    "incident": ("incident mark", lambda e: "incident %s marked, play went on: White %s "
                 "moves, Black %s moves; %s" % (e.get("incident", "?"),
                                                 e.get("white_moves", "?"),
                                                 e.get("black_moves", "?"), _times(e))),
    "result": ("result", lambda e: "result %s entered (%s)" % (
        e.get("result", "?"), "from the host" if e.get("by") == "host" else "on the clock")),
    "schedule": ("schedule", lambda e: "scheduled start cleared"
                 if e.get("scheduled_utc") in (None, "cleared") else
                 "start scheduled at %s UTC, default time %s" % (
                     str(e["scheduled_utc"]).replace("T", " ").rstrip("Z"),
                     fmt(int(e.get("default_s", 0)) * 1000))),
    "arrival": ("arrival", lambda e: "%s at the board, %s after the scheduled start" % (
        _side(e), fmt(e.get("after_start_ms")))),
    "default-time": ("default time", lambda e: "the default time (%s) passed with %s not "
                     "at the board" % (fmt(int(e.get("default_s", 0)) * 1000), _side(e))),
    "resumed-by": ("resumed by", lambda e: "resumed by %s; %s's clock runs" % (
        e.get("by", "?"), _side(e))),
    "arbiter": ("arbiter menu", lambda e: "the arbiter menu %s on the clock" % e.get(
        "menu", "?")),
    "end": ("end", lambda e: "game ended on the clock; %s" % _times(e)),
    "limit": ("move limit", lambda e: "move limit reached by both sides (%s)" % e.get(
        "move_limit", e.get("arg", "?"))),
    "auth-fail": ("refused change", lambda e: "the clock refused a change over the link: "
                  "%s (%s)" % (e.get("refused", "?"), e.get("count", 1))),
    "ignored": ("ignored press", lambda e: "%s's press ignored (clock %s)" % (
        _side(e), e.get("state", "?"))),
    "lever-both": ("lever", lambda e: "%s's lever closed while the other was held" % _side(e)),
    "lever-held": ("lever", lambda e: "%s held the lever down" % _side(e)),
    "overtime": ("byo-yomi", lambda e: "%s entered byo-yomi" % _side(e)),
    "period": ("byo-yomi", lambda e: "%s lost a byo-yomi period" % _side(e)),
    "seal-start": ("adjournment", lambda e: "seal mode: %s seals" % _side(e)),
    "seal-alert": ("adjournment", lambda e: "15 minutes of sealing"),
    "sealed": ("adjournment", lambda e: "sealed move handed in; clocks stopped"),
    "seal-cancel": ("adjournment", lambda e: "seal mode left without a seal"),
    "adjourned-loaded": ("adjournment", lambda e: "adjourned game loaded; %s to move; %s" % (
        e.get("to_move", "?"), _times(e))),
    "boot": ("clock", lambda e: "the clock powered on%s" % (
        ", its saved game restored" if e.get("restored") else "")),
    "restarted": ("clock", lambda e: "the clock restarted after an error"),
    "power-off": ("clock", lambda e: "critical battery: the clock stopped writing"),
    "storage-full": ("clock", lambda e: "a write failed: storage full"),
    "log-lost": ("clock", lambda e: "events lost from the log (%s)" % e.get("arg", "?")),
    "missed-edge": ("clock", lambda e: "a lever's level was re-read (%s)" % _side(e)),
    "lever-dropped": ("clock", lambda e: "lever edges lost (%s)" % e.get("arg", "?")),
    "self-test": ("self-test", lambda e: "self-test %s" % (
        "passed" if e.get("passed") else "FAILED: %s" % e.get("failures", "?"))),
}
# In the report elsewhere (Facts: presses, corrections, stops, flags, claims) or not about
# the game's dispute (the log's housekeeping, a reminder shown to the player).
NOT_ON_DISPUTE = ("press", "pause", "resume", "flag", "unflag", "claim", "adjust",
                  "set-time", "set-moves", "set-stage", "undo", "add-stage", "split",
                  "header", "wall-clock", "low-time", "low-battery", "low-charge",
                  "log-full", "log-pruned", "pairing", "pairing-cleared", "final")


def incident_items(events: list[Event]) -> list[tuple[int, str, str]]:
    """Every event in the log that bears on a dispute, in order (seed 9.3): the stops,
    claims, penalties and adjustments, the flags, and the marks of ON_DISPUTE (incident
    marks, the result, the schedule, arrivals, the default time passing, ...)."""
    facts = Facts.of(events)
    items = []
    for s in facts.stops:
        kind = "stop (claim?)" if s["after_flag"] else "stop"
        items.append((s["t_ms"], kind, "clocks stopped (%s running)%s; %s" % (
            s["running"] or "nobody", " after a flag" if s["after_flag"] else "",
            "resumed at %s" % facts.when(s["resume_t_ms"]) if s["resume_t_ms"] is not None
            else "not resumed")))
    for c in facts.claims:
        items.append((c["t_ms"], "claim", "%s: %s" % (c.get("side", "?"),
                                                     c.get("reason", c.get("claim", "")))))
    for c in facts.corrections:   # its ground (if given) in its text: never guessed
        items.append((c["t_ms"], "adjustment", describe_correction(c)))
    for f in facts.flags:
        items.append((f["t_ms"], "flag", "%s's flag fell" % f["side"]))
    for e in facts.events:
        what = ON_DISPUTE.get(e.get("type", ""))
        if what is not None and isinstance(e.get("t_ms"), int):
            items.append((e["t_ms"], what[0], what[1](e)))
    items.sort(key=lambda x: x[0])
    return items


def ruling_banner() -> tuple[str, ...]:
    return UNVERIFIED_BANNER


def write_incident(path: str, events: list[Event], ruling: Ruling, event: str = "",
                   place: str = "", match: str = "", date: str = "", arbiter: str = "",
                   headers: Mapping[str, str] | None = None
                   ) -> list[tuple[int, str, str]]:
    """The incident annex (seed DISC 22.3, 23.3, 24.3): date, place, match, the persons,
    the facts, the rule, the ruling, how to appeal, signatures; filled from the log."""
    headers = dict(headers or {})
    if not date:
        date = headers.get("Date", "")
        if not date or "?" in date:
            wall = next((e.get("wall") or e.get("utc") for e in events
                         if e.get("wall") or e.get("utc")), "")
            date = str(wall)[:10] if wall else ""
    md = str(path).lower().endswith(".md")
    h = (lambda s: "## " + s) if md else (lambda s: s.upper())
    blank = "________________"
    white = headers.get("White", "") or blank
    black = headers.get("Black", "") or blank
    out = ["# Incident report" if md else "INCIDENT REPORT", "",
           "Date: %s" % (date or blank),
           "Place: %s" % (place or headers.get("Site", "") or blank),
           "Event: %s" % (event or headers.get("Event", "") or blank),
           "Match / round: %s" % (match or headers.get("Round", "") or blank),
           "Players: White %s, Black %s" % (white, black),
           "Authority (arbiter): %s" % (arbiter or blank),
           "Rules applied: %s" % ruling.ruleset.title,
           "Written: %s" % datetime.date.today().isoformat(), ""]
    if ruling.source is not None:
        if not ruling.source.verified:
            out += list(ruling_banner()) + [""]
        out += [h("Verification of the log"), ""]
        out += ["- " + x for x in ruling.source.lines]
        out.append("")
    tod = _times_of_day(events)
    if tod:
        out += ["Times of day: %s" % tod, ""]
    out += [h("Facts (from the clock's log)"), ""]
    out += ["- " + f for f in ruling.facts]
    out += ["", h("What happened, in order: stops, claims, corrections, flags and marks"), ""]
    items = incident_items(events)
    if items:
        when = Facts.of(events).when
        for t, kind, text in items:   # game time, and the time of day when the log has it
            out.append("- %s  %s: %s" % (when(t), kind, text))
    else:
        out.append("- none recorded in the log")
    out += ["", h("Rule"), ""]
    arts = []
    for _, a in ruling.lines:
        if a and a not in arts:
            arts.append(a)
    out += ["- " + a for a in arts]
    out += ["", h("Ruling"), ""]
    out += ["- %s [%s]" % (t, a) if a else "- " + t for t, a in ruling.lines]
    out += ["", "Result: %s (%s)" % (ruling.result, ruling.summary), ""]
    if getattr(ruling, "referred", None):  # the rules are silent: the organisers decide
        out += ["Referred to the Organising Committee: %s" % ruling.referred, ""]
    out += [h("Mitigating or aggravating factors"), "", blank, "",
            h("How to appeal"), "", ruling.ruleset.appeal, ""]
    appeal = getattr(ruling, "appeal", None)
    if appeal:
        out += ["Appealed: filed %s; %s" % (appeal["filed"], appeal["appealed"]), ""]
    out += [h("Signatures"), "",
            "Arbiter: %s" % blank, "White: %s" % blank, "Black: %s" % blank,
            "Witnesses (if a party does not sign): 1. %s  2. %s" % (blank, blank), "",
            "Proof of delivery: %s" % blank, ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    return items
