"""Papers for the director: the excess-claim file (Art. 17 §1-2) and the end-of-event
package (Art. 31-42): last acknowledged move per game, games for adjudication with their
papers' due dates, and the PGN of every game with its dates."""

from typing import Any

from .dates import CorrError
from .exchange import pgn
from .model import SIDES

PAPERS, ADJUDICATE, APPEAL = 30, 30, 15   # Art. 31, 35, 42


def claim_file(g: Any, n: int) -> str:
    if not 1 <= n <= len(g.claims):
        raise CorrError("game %s has no claim %d" % (g.id, n))
    c = g.claims[n - 1]
    by, off = SIDES.index(c["by"]), SIDES.index(c["against"])
    ev = g.ev
    lines = ["To the director of %s%s" % (ev.name, ", " + ev.phase if ev.phase else ""),
             "Excess-of-time claim %d, game %s: %s (White) - %s (Black)" % (
                 n, g.id, g.players[0], g.players[1]),
             "Claimant: %s (%s). Against: %s (%s). Claimed on %s; opponent notified %s." % (
                 g.players[by], c["by"], g.players[off], c["against"], c["date"], c["notified"]),
             "This would be %s's %s excess (Art. %s)." % (
                 g.players[off], "first" if c["ordinal"] == 1 else "second",
                 "19: play goes on, a new count of 10 moves starts" if c["ordinal"] == 1
                 else "20: the game stops until the director decides"),
             "",
             "Moves with the dates of receipt and sending (Art. 17 §1):",
             "%-7s %-8s %-10s %-10s %5s %7s %6s  %s" % ("move", "san", "received", "sent",
                                                        "days", "count", "used", "allowed")]
    for m in g.moves:
        if str(m.sent) > c["date"]:   # ISO dates compare as text
            break
        lines.append("%-7s %-8s %-10s %-10s %5d %7s %6d  %d%s" % (
            m.label, m.san, m.received, m.sent, m.charged,
            "c%d/%d" % (m.count_no, m.count_move), m.count_cum, m.budget,
            "  <- excess (Art. 16)" if m.excess and m.side == off else ""))
    lines.append("")
    if c["excess"]:
        m = next(x for x in g.moves if x.label == c["excess"])
        lines.append("The ledger finds the excess at %s: %d days for %d move(s) of count %d, "
                     "more than the %d allowed (Art. 16)." % (m.label, m.count_cum,
                                                             m.count_move, m.count_no,
                                                             m.budget))
        lines.append("Claim due at the latest with the reply to the series' 10th move: "
                     "%s (Art. 17)." % c.get("due_by", "?"))
    else:
        lines.append("The ledger finds no excess of %s up to %s: if the director agrees the "
                     "claim is unfounded%s." % (g.players[off], c["date"],
                                                " and costs the claimant 10 days (Art. 22 §1)"
                                                if c["ordinal"] >= 2 else ""))
    lines += ["Contest due by %s (15 days, Art. 21); a contest is decided within 15 days "
              "(Art. 21 §2)." % c["contest_by"],
              "State: %s." % c["state"],
              "The opponent has been told clearly that this excess was claimed (Art. 17 §2).",
              g.players[by]]
    return "\n".join(lines) + "\n"


def last_acknowledged(g: Any) -> Any:
    """Art. 31 §2: the last move the opponent confirmed receiving by the end date."""
    end = g.ev.end
    best = None
    for i, m in enumerate(g.moves):
        got = g.moves[i + 1].received if i + 1 < len(g.moves) else g.acks.get(m.ply)
        if got is not None and got <= end:
            best = m
    return best


def package(ev: Any, ledgers: Any, today: Any) -> tuple[str, dict[str, Any], str]:
    if ev.end is None:
        raise CorrError("event %s has no official end date (Art. 31): nothing to close" % ev.id)
    cal = ev.calendar
    papers_by = cal.add_days(ev.end, PAPERS)
    lines = ["%s%s: end-of-event package, official end %s (made %s)" % (
        ev.name, ", " + ev.phase if ev.phase else "", ev.end, today), ""]
    games, adjud, pgns = [], [], []
    for g in ledgers:
        last = last_acknowledged(g)
        late = [m.label for m in g.moves if m.sent > ev.end]
        done = g.finished()
        row = {"game": g.id, "white": g.players[0], "black": g.players[1], "state": g.state(),
               "last_acknowledged": last.label if last else None,
               "last_acknowledged_san": last.san if last else None,
               "moves_after_end": late, "totals": {"white": g.totals[0], "black": g.totals[1]}}
        if not done:
            row["adjudication"] = {
                "papers_by": str(papers_by),
                "papers": ["score sheet or PGN", "position at the stop", "claimed result",
                           "analysis", "adjudication fee"],
                "adjudicated_within_days_of_receipt": ADJUDICATE,
                "appeal_within_days": APPEAL}
            adjud.append(row)
        games.append(row)
        pgns.append(pgn(g))
        lines.append("game %s %s - %s: %s; last acknowledged move %s%s" % (
            g.id, g.players[0], g.players[1], g.state(),
            "%s %s" % (last.label, last.san) if last else "none",
            "; moves after the end (not valid): %s" % ", ".join(late) if late else ""))
    lines += ["", "For adjudication (%d): papers by registered post to the director by %s "
              "(30 days, recess excluded, Art. 31):" % (len(adjud), papers_by)]
    for r in adjud:
        lines.append("  game %s: position after %s; score sheet or PGN, position, claimed "
                     "result, analysis, fee (Art. 32)" % (r["game"], r["last_acknowledged"]))
    lines += ["Incomplete or late papers are not judged; if only one player sends them he is "
              "heard and the other scores 0, if neither, both score 0 (Art. 33).",
              "Three arbiters judge within 30 days of the director's receipt, never above what "
              "was asked (Art. 35-37); appeals within 15 days of receiving a decision (Art. 42).",
              "Finished games: both players send the PGN to the director, or the game is lost "
              "for both (Art. 41)."]
    data = {"event": ev.id, "end": str(ev.end), "papers_by": str(papers_by), "games": games,
            "adjudication": [r["game"] for r in adjud]}
    return "\n".join(lines) + "\n", data, "\n".join(pgns)
