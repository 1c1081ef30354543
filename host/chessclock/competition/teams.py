"""The rules behind `chessclock team`: the FCE team-match rules a clock's arbiter checks (seed
S2, RGC).

    chessclock team substitute --at TIME --size N [--made K]   # RGC 13.2
    chessclock team short --size N --present P [--elapsed TIME] [--default-time TIME]
                                                               # RGC 12.3
    chessclock team no-shows --count N [--round R --of T]      # RGC 14.1, 14.3
    chessclock team colours --boards N                         # RGC 5.3.1.2

TIME is counted from the official start of the match (RGC 12.1, 13.2), written with a unit
(75m, 1:15:00). Every answer names its article; `--json` prints it as an object.
"""

from __future__ import annotations

from typing import Any

from chessclock import timetext as T
from chessclock.errors import InputError

MIN = 60000
SUB_FROM_MS = 20 * MIN        # RGC 13.2: «A partir dels primers 20 minuts de joc»
SUB_UNTIL_MS = 60 * MIN       # ... «una hora després de l'hora oficial»
DEFAULT_MS = 60 * MIN         # RGC 12.1: a player loses an hour after the official start


class TeamError(InputError):
    pass


def substitutions_allowed(size: int) -> int:
    """RGC 13.2: two substitutions in teams of eight or more players, else one."""
    return 2 if size >= 8 else 1


def rule_substitute(at_ms: int, size: int, made: int = 0) -> dict[str, Any]:
    allowed = substitutions_allowed(size)
    lines = ["a team of %d may make %d substitution%s (RGC 13.2: two in teams of eight or "
             "more players, else one); %d made before" % (size, allowed,
                                                         "s" if allowed > 1 else "", made)]
    if at_ms < SUB_FROM_MS:
        ok, why = False, "too early: substitutions start after the first 20 minutes of play"
    elif at_ms > SUB_UNTIL_MS:
        ok, why = False, "too late: the last moment is one hour after the official start"
    elif made >= allowed:
        ok, why = False, "no substitution left"
    else:
        ok, why = True, "within the window (20 min to 1 h after the start) and the number"
    lines.append("at %s after the start: %s" % (T.clock_text(at_ms), why))
    return {"article": "RGC 13.2", "allowed": ok, "substitutions": allowed, "lines": lines}


def rule_short(size: int, present: int, elapsed_ms: int | None = None,
               default_ms: int = DEFAULT_MS) -> dict[str, Any]:
    short = 2 * present < size
    lines = ["%d of %d players present; half is %s" % (present, size,
                                                      ("%d" % (size // 2)) if size % 2 == 0
                                                      else "%d.5" % (size // 2))]
    result = "play"
    if not short:
        lines.append("at least half the team is present: the match is played; each absent "
                     "player's clock runs and he loses after the default time (RGC 12.1)")
    else:
        lines.append("fewer than half the team is present: all the clocks run against it and "
                     "none of its players may start (`chessclock start SIDE --all`)")
        if elapsed_ms is not None and elapsed_ms >= default_ms:
            lines.append("%s after the start, the end of the regulation time (%s), still "
                         "short: the team loses the match by default"
                         % (T.clock_text(elapsed_ms), T.clock_text(default_ms)))
            result = "team defaults"
        else:
            lines.append("if half the team is not there %s after the start, the team loses "
                         "by default" % T.clock_text(default_ms))
            result = "clocks run against the team"
    return {"article": "RGC 12.3", "short": short, "result": result, "lines": lines}


def rule_no_shows(count: int, round_no: int | None = None,
                  rounds: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"article": "RGC 14.1", "eliminated": count >= 2}
    lines = ["%d no-show%s: %s" % (count, "" if count == 1 else "s",
                                   "eliminated from the competition (RGC 14.1: two no-shows, "
                                   "in team or individual championships)" if count >= 2
                                   else "not eliminated (RGC 14.1 eliminates at two)")]
    if count >= 2 and round_no is not None and rounds is not None:
        kept = 2 * round_no >= rounds
        out["points"] = "kept" if kept else "annulled"
        lines.append("eliminated after round %d of %d: %s (RGC 14.3%s)" % (
            round_no, rounds,
            "past half the event, the points scored stand for the standings" if kept else
            "before half the event, all the points scored are annulled",
            "" if kept else ".1"))
    out["lines"] = lines
    return out


def board_colours(boards: int) -> dict[str, Any]:
    """RGC 5.3.1.2: White on the home team's odd-numbered boards."""
    rows: list[dict[str, Any]] = [{"board": b, "home": "white" if b % 2 else "black",
                                   "visitor": "black" if b % 2 else "white"}
                                  for b in range(1, boards + 1)]
    lines = ["board %d: home %s, visitor %s" % (r["board"], r["home"], r["visitor"])
             for r in rows]
    lines.append("(individual events not played as a round robin: White to the player named "
                 "first in the pairings)")
    return {"article": "RGC 5.3.1.2", "boards": rows, "lines": lines}

