"""The ruling on a replaced clock: the state to set on the replacement, from the log."""

from typing import Any

from chessclock.ruling.events import Event, fmt
from chessclock.ruling.facts import state_at
from chessclock.ruling.rules import RuleSet
from chessclock.ruling.verdict import Ruling
from clockcore.control import Control


def _rec_time(events: list[Event], st: dict[str, Any], side: str) -> int | None:
    """A side's time in the record state_at named, as the log has it."""
    for n, e in enumerate(events, 1):
        if e.get("seq", n) == st["seq"]:
            return e.get(side + "_ms")
    return None


def rule_replace(events: list[Event], ruleset: RuleSet, at_seq: int | None = None,
                 at_ms: int | None = None, control: Control | None = None,
                 options: Any = None) -> Ruling:
    """The times, counters and stages to set on a replacement clock: the state at a
    record (`at_seq`) or an instant (`at_ms`), from the log."""
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
