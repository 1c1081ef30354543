"""The picture, the HTML page and the incident report of `chessclock ruling`.

matplotlib is imported only here and only when a picture is asked for (Agg backend, no
display needed), so `chessclock --help` stays fast.
"""

import base64
import datetime
import html
import io

from chessclock.ruling import CORRECTIONS, Facts, fmt


def series(events):
    """Time left per move for each side: {'white': [(move, ms)], 'black': [...]}, starting
    with move 0 (the start), then the time after each press (after its increment and any
    stage time added by it). Also the markers: flags, stages, stops, corrections, each
    [(move position, ms or None, label)]."""
    pts = {"white": [], "black": []}
    moves = {"white": 0, "black": 0}
    marks = {"flag": [], "stage": [], "stop": [], "correction": []}
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
            # the stage's time is added after the press: update that point
            if pts[side] and pts[side][-1][0] == moves[side]:
                pts[side][-1] = (moves[side], e[side + "_ms"])
            marks["stage"].append((moves[side] + 0.5, e[side + "_ms"],
                                   "%s stage %s" % (side, e.get("stage"))))
        elif typ == "flag" and side in pts:
            marks["flag"].append((moves[side] + 0.5, 0, "%s flag %s" % (side, fmt(e["t_ms"]))))
        elif typ == "pause":
            pos = max(moves.values()) + 0.25
            marks["stop"].append((pos, None, "stop %s" % fmt(e["t_ms"])))
        elif typ in CORRECTIONS:
            pos = max(moves.values()) + 0.25
            marks["correction"].append((pos, None, "%s %s" % (typ, side or "")))
    return pts, marks


def plot(events, path, title=None, fmt_=None):
    """Draw time left per move for both players with flags, stage passes, stops and
    corrections; PNG or SVG by the file's extension. Returns a summary dict."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    pts, marks = series(events)
    fig = Figure(figsize=(9, 4.8), dpi=100)
    ax = fig.add_subplot(1, 1, 1)
    colours = {"white": "#1f77b4", "black": "#222222"}
    drawn = {}
    for side in ("white", "black"):
        xs = [x for x, _ in pts[side]]
        ys = [y / 60000 for _, y in pts[side]]
        ax.plot(xs, ys, marker="o", markersize=3, color=colours[side],
                label="%s (time left after each move)" % side.capitalize())
        drawn[side] = len(xs)
    for x, _, label in marks["flag"]:
        ax.plot([x], [0], marker="v", markersize=12, color="red", linestyle="none")
        ax.annotate(label, (x, 0), textcoords="offset points", xytext=(4, 8), fontsize=8,
                    color="red")
    for x, y, label in marks["stage"]:
        ax.axvline(x, color="green", linestyle="--", linewidth=0.8)
        ax.annotate(label, (x, y / 60000), fontsize=7, color="green")
    for x, _, label in marks["stop"]:
        ax.axvline(x, color="orange", linestyle=":", linewidth=1.2)
        ax.annotate(label, (x, ax.get_ylim()[1] * 0.95), fontsize=7, color="orange",
                    rotation=90, va="top")
    for x, _, label in marks["correction"]:
        ax.axvline(x, color="purple", linestyle="-.", linewidth=1)
        ax.annotate(label, (x, ax.get_ylim()[1] * 0.6), fontsize=7, color="purple",
                    rotation=90, va="top")
    ax.set_xlabel("move (presses by each side)")
    ax.set_ylabel("time left (minutes)")
    ax.set_title(title or "Time left per move")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    if fmt_ is None:
        fmt_ = "svg" if str(path).lower().endswith(".svg") else "png"
    fig.savefig(path, format=fmt_)
    return {"format": fmt_, "points": drawn, "flags": len(marks["flag"]),
            "stages": len(marks["stage"]), "stops": len(marks["stop"]),
            "corrections": len(marks["correction"])}


def _times_of_day(events):
    """'HH:MM:SS UTC' of the first and last event when the log has the wall clock."""
    days = [e["utc"] for e in events if e.get("utc")]
    if not days:
        return None
    return "%s to %s (UTC, from the clock's wall clock)" % (days[0], days[-1])


def write_html(path, events, ruling, title="Clock ruling", event=""):
    """One page: the event, clock, log file and its verification, the facts, the ruling,
    the picture (a PNG embedded as base64)."""
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
             "padding:0.5em}</style>",
             "</head><body>", "<h1>%s</h1>" % esc(title)]
    if src is not None and not src.verified:
        parts.append("<p class='unverified'>%s</p>" % esc(
            "UNVERIFIED: these events are not proven to be the clock's own log. A ruling "
            "on them is not evidence."))
    parts += ["<table>",
              "<tr><th>Event</th><td>%s</td></tr>" % esc(event or "-"),
              "<tr><th>Clock</th><td>%s</td></tr>" % esc(
                  (src.clock if src is not None and src.clock else "-")
                  + (" (game %s of its log)" % src.game if src is not None and src.game
                     else "")),
              "<tr><th>Log file</th><td>%s</td></tr>" % esc(src.path if src else "-"),
              "<tr><th>Times of day</th><td>%s</td></tr>" % esc(
                  _times_of_day(events) or "not in the log (no wall clock given)"),
              "<tr><th>Rules</th><td>%s</td></tr>" % esc(ruling.ruleset.title),
              "</table>"]
    if src is not None:
        parts += ["<h2>Verification</h2>", "<ul>"]
        parts += ["<li>%s</li>" % esc(x) for x in src.lines]
        parts.append("</ul>")
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


def incident_items(events):
    """Every stop, claim, penalty and adjustment in the log, in order (seed 9.3)."""
    facts = Facts(events)
    items = []
    for s in facts.stops:
        kind = "stop (claim?)" if s["after_flag"] else "stop"
        items.append((s["t_ms"], kind, "clocks stopped (%s running)%s; %s" % (
            s["running"] or "nobody", " after a flag" if s["after_flag"] else "",
            "resumed at %s" % fmt(s["resume_t_ms"]) if s["resume_t_ms"] is not None
            else "not resumed")))
    for c in facts.claims:
        items.append((c["t_ms"], "claim", "%s: %s" % (c.get("side", "?"),
                                                     c.get("reason", c.get("claim", "")))))
    from chessclock.ruling import describe_correction

    for c in facts.corrections:
        kind = "adjustment"
        if c["type"] == "adjust" and (c.get("delta_ms") == 120000
                                      or "penalty" in str(c.get("reason", "")).lower()):
            kind = "penalty"
        items.append((c["t_ms"], kind, describe_correction(c)))
    for f in facts.flags:
        items.append((f["t_ms"], "flag", "%s's flag fell" % f["side"]))
    items.sort(key=lambda x: x[0])
    return items


def ruling_banner():
    from chessclock.ruling import UNVERIFIED_BANNER
    return UNVERIFIED_BANNER


def write_incident(path, events, ruling, event="", place="", match="", date="", arbiter="",
                   headers=None):
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
    out += ["", h("Stops, claims, penalties and adjustments"), ""]
    items = incident_items(events)
    if items:
        out += ["- %s  %s: %s" % (fmt(t), kind, text) for t, kind, text in items]
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
            h("How to appeal"), "", ruling.ruleset.appeal, "",
            h("Signatures"), "",
            "Arbiter: %s" % blank, "White: %s" % blank, "Black: %s" % blank,
            "Witnesses (if a party does not sign): 1. %s  2. %s" % (blank, blank), "",
            "Proof of delivery: %s" % blank, ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    return items
