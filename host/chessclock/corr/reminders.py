"""What is due, and by whom, on a given day: the reminder schedule of Art. 15, the Art. 13
announcement, excess claims and their deadlines (Art. 17-21), end-of-event papers (Art. 31).

Each item is a dict: game, who, what, due (date), art, overdue (due before today). Deadlines
skip the recess ("ficam suspensas ... outros prazos regulamentares", comment on Art. 12).
"""

import datetime as dt
from typing import Any

from .dates import parse_date
from .model import ANNOUNCE_AFTER, ANSWER_DAYS, SIDES, label

RESEND, REITERATE, REPLY_REITERATION, BOTH_ABANDON = 5, 15, 7, 40   # Art. 15, §2, §4
PAPERS = 30                                                           # Art. 31


def _nth_day(cal: Any, start: dt.date, n: int, skip: Any) -> dt.date:
    """The n-th day after start that is neither in the recess nor in `skip`."""
    d = start
    while n > 0:
        d += dt.timedelta(days=1)
        if not cal.in_recess(d) and d not in skip:
            n -= 1
    return d


def game_items(g: Any) -> list[dict[str, Any]]:
    ev, today, cal = g.ev, g.today, g.ev.calendar
    items = []

    def add(who: str, what: str, due: dt.date, art: str) -> None:
        items.append({"game": g.id, "who": who, "what": what, "due": str(due), "art": art,
                      "overdue": due < today})

    if g.finished():
        if g.result is not None and not g.withdrawn:
            add("both", "send the game in PGN to the director (or it is lost for both)",
                parse_date(g.result["date"]), "Art. 41")
        return items
    if ev.end and today > ev.end:
        add("both", "adjudication papers to the director by registered post (game stopped %s)"
            % ev.end, cal.add_days(ev.end, PAPERS), "Art. 31-33")
        return items
    _claim_items(g, add)
    if g.halting_claim() is not None:
        return items
    _excess_items(g, add)
    if g.pending is not None:
        _pending_items(g, add)
    return items


def _claim_items(g: Any, add: Any) -> None:
    """Open claims to contest (Art. 21), contested ones to decide (Art. 21 §2)."""
    names = g.players
    for c in g.claims:
        if c["state"] == "open":
            add(names[SIDES.index(c["against"])], "contest claim %d (excess at %s) or lose it"
                % (c["claim"], c["excess"]) if c["ordinal"] >= 2 else
                "contest claim %d (excess at %s) or it stands" % (c["claim"], c["excess"]),
                parse_date(c["contest_by"]), "Art. 21")
        elif c["state"] == "contested":
            add("director", "decide claim %d (contested %s)" % (c["claim"], c["contested"]),
                parse_date(c["decide_by"]), "Art. 21 §2")


def _excess_items(g: Any, add: Any) -> None:
    """An opponent's excess not claimed yet, while the claim is still open (Art. 16-18)."""
    names = g.players
    claimed = set(c["excess"] for c in g.claims)
    for s in (0, 1):
        for m in g.excesses[s]:
            if m.label in claimed:
                continue
            reply_ply = m.ply + 2 * (-(-m.count_move // 10) * 10 - m.count_move) + 1
            if any(x.ply == reply_ply for x in g.moves):
                continue   # the series is over: the claim has lapsed (Art. 18)
            seen = next((x.received for x in g.moves if x.ply == m.ply + 1), None)
            add(names[1 - s], "may claim %s's excess at move %s (%d days > %d) with the "
                "director, at the latest with the reply to move %s" % (
                    names[s], m.label, m.count_cum, m.budget, label(reply_ply - 1)),
                seen or g.today, "Art. 16-17")


def _pending_items(g: Any, add: Any) -> None:
    """The move being thought about: over time, a slow transit, no reply (Art. 15), the
    12-day notice (Art. 13)."""
    today, cal, p = g.today, g.ev.calendar, g.pending
    side = SIDES.index(p["side"])
    mover = g.players[side]
    if p["over_time"]:
        add(mover, "over time: %d days for %d move(s) of count %d, %d allowed" % (
            p["count_cum"], p["count_move"], p["count"], p["budget"]), today, "Art. 16")
    last = g.moves[-1] if g.moves else None
    if last is not None and p["acknowledged"] and not p["received_estimated"]:
        transit = (parse_date(p["received"]) - last.sent).days
        if transit > 1:
            add(mover, "report to the director, with the reply, that %s took %d days to arrive "
                "(over 1 day)" % (last.label, transit), parse_date(p["received"]), "Art. 12")
    if last is not None and not p["acknowledged"]:
        _silence_items(g, add, side, last)
    elif p["counted"] >= ANNOUNCE_AFTER - 2 and not g.notices.get(p["ply"]):
        day12 = p["day12"] or str(_nth_day(cal, today, ANNOUNCE_AFTER - p["counted"],
                                          g.leave[side]))
        add(mover, "announce (copy to the director) if %s needs more than 12 days, or days "
            "from the 13th count double" % p["move"], parse_date(day12), "Art. 13")


def _silence_items(g: Any, add: Any, side: int, last: Any) -> None:
    """No confirmation of the last move sent: resend, reiterate, abandonment (Art. 15)."""
    today, cal = g.today, g.ev.calendar
    mover, other = g.players[side], g.players[1 - side]
    silent = g.leave[side]
    rs = [r for r in g.reminds if r["ply"] == last.ply]
    resent = [parse_date(r["date"]) for r in rs if r["kind"] == "resend"]
    reiterated = [parse_date(r["date"]) for r in rs if r["kind"] == "reiterate"]
    due5 = _nth_day(cal, last.sent, RESEND, silent)
    due15 = _nth_day(cal, last.sent, REITERATE, silent)
    if reiterated:
        reply_by = cal.add_days(reiterated[0], REPLY_REITERATION)
        if today > reply_by:
            add(other, "%s did not answer the reiteration of %s: report abandonment to "
                "the director" % (mover, last.label), reply_by + dt.timedelta(days=1),
                "Art. 15 §3")
        else:
            add(mover, "answer the reiteration of %s, with a copy to the director"
                % last.label, reply_by, "Art. 15 §2")
        return
    both = cal.add_days(due15, BOTH_ABANDON)
    if today > both:
        add("both", "no confirmation of %s within 40 days: game abandoned by both"
            % last.label, both, "Art. 15 §4")
    elif today >= due15:
        add(other, "reiterate %s (REITERAÇÃO) with a copy to the director; no reply "
            "since %s" % (last.label, last.sent), due15, "Art. 15")
    elif today >= due5 and not resent:
        add(other, "resend %s: 5 days without a reply" % last.label, due5, "Art. 15")


def director_items(ev: Any, today: Any) -> list[dict[str, Any]]:
    """Art. 23: a player answers the director's request within 7 days (recess excluded),
    or may be counted as withdrawn from the games or eliminated."""
    items = []
    for q in ev.requests:
        if q["answered"] is not None or q["player"] in ev.withdrawals:
            continue
        due = ev.calendar.add_days(parse_date(q["date"]), ANSWER_DAYS)
        items.append({"game": "-", "who": q["player"], "art": "Art. 23", "due": str(due),
                      "overdue": due < today,
                      "what": "answer the director's request of %s%s, or be counted as "
                              "withdrawn or eliminated" % (
                                  q["date"], " (%s)" % q["about"] if q["about"] else "")})
    return items


def event_items(ev: Any, ledgers: Any, today: Any = None) -> list[dict[str, Any]]:
    items = []
    for g in ledgers:
        items += game_items(g)
    if today is not None:
        items += director_items(ev, today)
    items.sort(key=lambda i: (i["due"], i["game"]))
    return items

