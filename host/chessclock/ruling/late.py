"""The ruling on a late arrival: the rule set's default time and, under the FCE regulations
(RGC 12.1-12.2), the home player's 90-minute wait and the 60/40 split of the time elapsed
for a visitor from another town."""

from chessclock.ruling import rules as R
from chessclock.ruling.events import SIDES, fmt, other
from chessclock.ruling.rules import RuleSet
from chessclock.ruling.verdict import Result, Ruling, refer, win
from clockcore.control import Control


def rule_late(elapsed_ms: int, visitor: str, ruleset: RuleSet, control: Control | None = None,
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
            return refer(r, "a late arrival, and S3 sets no default time")
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
        r.result = win(home)
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
    r.result = Result.OPEN
    r.summary = "play: %s -%s, %s -%s" % (visitor, fmt(vshare), home, fmt(hshare))
    return r


def _late_by_default(r: Ruling, elapsed_ms: int, late: str, d: int) -> Ruling:
    """The default time alone: later than it loses, else the late player's clock has run."""
    if elapsed_ms > d:
        r.rule("%s arrived %s after the start, later than the default time: %s loses by "
               "default" % (late.capitalize(), fmt(elapsed_ms), late), "default")
        r.result = win(other(late))
        r.summary = "%s defaults" % late
        return r
    r.rule("%s arrived within the default time: the game is played; the time elapsed is his "
           "(his clock has run since the start), no correction" % late.capitalize(),
           "default")
    r.result = Result.OPEN
    r.summary = "play; %s's clock keeps the time it lost" % late
    return r
