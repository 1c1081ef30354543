"""The deadlines of the FCE disciplinary rules (seed S2, DISC), the results call (RGC 5.5.1)
and where a ruling is appealed, computed from a date (`chessclock deadline`).

Working days («dies hàbils», «dia feiner») are Monday to Friday, less the holidays given;
Saturdays may count as working days too (the seed does not define them). A count of days
"from the day after" starts on the day after the date given; the answer is the last day.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Any

from chessclock.errors import InputError

# kind: (article, number, unit, from what, what happens by then)
#   unit: "calendar" or "working" days; "range" (working days, low-high); "same-day"
KINDS: dict[str, tuple[str, Any, str, str, str]] = {
    "urgent-appeal": ("DISC 22.4-22.5", 0, "same-day", "the sanction's notification",
                      "appeal to the Appeals Committee, with at least 2 hours to file; the "
                      "committee decides the same day, finally"),
    "ordinary-appeal": ("DISC 23.4", 2, "calendar", "the sanction's notification",
                        "appeal to the Competition Committee, with at least two days to file"),
    "committee-meets": ("DISC 23.5", 8, "calendar", "the appeal's filing",
                        "the Competition Committee meets (within 8 calendar days)"),
    "annexes": ("DISC 23.7", 2, "calendar", "the match",
                "the delegates' annexes to the match record reach the Competition Committee"),
    "committee": ("DISC 23.8", 5, "calendar", "the match",
                  "the Competition Committee meets to decide"),
    "executive-appeal": ("DISC 23.10", 10, "calendar", "receipt of the committee's notice",
                         "appeal to the FCE Executive Council"),
    "initiation": ("DISC 25.2", 3, "working", "the Executive Council's first session",
                   "the order opening the extraordinary procedure"),
    "recusal": ("DISC 25.8", 3, "working", "knowledge of the appointment (the day after)",
                "challenge of the instructor or secretary"),
    "evidence": ("DISC 25.9b", (5, 20), "range", "the opening of the evidence phase",
                 "the evidence phase (at least 5, at most 20 working days)"),
    "evidence-claim": ("DISC 25.9b", 3, "working", "the refusal of the evidence proposed",
                       "claim to the Executive Council"),
    "discharge": ("DISC 25.12", 10, "working", "notice of the charges",
                  "the reply to the charges"),
    "resolution": ("DISC 25.14", 10, "working", "the file's referral (the day after)",
                   "the Executive Council resolves"),
    "review": ("DISC 25.15", 15, "working", "the resolution",
               "appeal to the Catalan Sports Discipline Committee (or first to the FCE "
               "Board)"),
    "general": ("DISC 26.2", 5, "working", "the notification (the day after)",
                "a claim or appeal where no deadline is set"),
    "silence": ("DISC 26.3", 15, "working", "the filing",
                "no answer by then: the claim is taken as rejected"),
    "notification": ("DISC 26.4", 10, "working", "the order or resolution",
                     "its notification, at the latest"),
    "appeal-silence": ("DISC 26.7c", 30, "working", "the appeal's filing",
                       "no resolution notified by then: the appeal is taken as rejected"),
    "results": ("RGC 5.5.1", 1, "working", "the match (the day after)",
                "each club reports its teams' results, by 13:00"),
    "suspension": ("DISC 12.5", None, "whole", "the notification (the day after)",
                   "the last day of the suspension (whole calendar days, holidays "
                   "included)"),
    "prescription": ("DISC 16c", None, "severity", "the infraction",
                     "the infraction prescribes (1 month minor, 1 year serious, 3 years "
                     "very serious)"),
}

# Where a ruling is appealed, per rule set (each says what its rules say), and S0 Art. 42-43.
APPEALS: dict[str, tuple[str, str, int | None]] = {
    # rules: (article, body, days to appeal or None)
    "fide2023": ("FIDE Laws, Preface; the event's regulations",
                 "the appeals committee of the event, as its regulations provide", None),
    "act1987": ("ACT 15", "the Appeals Committee (the arbiter's interpretation can be "
                "appealed; DISC 22.4: at least 2 hours to file)", 0),
    "rap1990": ("RAP 14", "none: the arbiter's decision is final", None),
    "br-knockout": ("S3 (Casos omissos)", "the Organising Committee decides what the rules "
                    "do not cover", None),
    "fce-rgc1990": ("DISC 23.4, 23.10", "the Competition Committee, then the FCE Executive "
                    "Council (10 calendar days from the committee's notice)", 10),
}
CXEB_BODIES = {  # S0 Art. 43: who hears an appeal against whose decision
    "director": "the General Director of Tournaments (S0 Art. 43 I)",
    "general-director": "the CXEB Appeals Commission (S0 Art. 43 II)",
    "general-director-playing": "the CXEB President (S0 Art. 43 III)",
}
CXEB_DAYS = 15  # S0 Art. 42: within 15 days of receiving the decision


class DeadlineError(InputError):
    pass


def parse_date(text: str, name: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise DeadlineError("%s %r: a date is YYYY-MM-DD" % (name, text[:30])) from None


class Calendar:
    def __init__(self, holidays: set[dt.date] | None = None, saturdays: bool = False) -> None:
        self.holidays = set(holidays or ())
        self.saturdays = saturdays

    def working(self, d: dt.date) -> bool:
        return d not in self.holidays and d.weekday() < (6 if self.saturdays else 5)

    def add_working(self, start: dt.date, n: int) -> dt.date:
        """The n-th working day after `start` (counting from the day after)."""
        d = start
        while n > 0:
            d += dt.timedelta(days=1)
            if self.working(d):
                n -= 1
        return d


def add_months(d: dt.date, months: int) -> dt.date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    return dt.date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def compute(kind: str, start: dt.date, cal: Calendar, days: int | None = None,
            months: int | None = None, years: int | None = None,
            severity: str | None = None) -> dict[str, Any]:
    article, n, unit, origin, what = KINDS[kind]
    out: dict[str, Any] = {"kind": kind, "article": article, "from": start.isoformat(),
                           "counted_from": origin, "what": what}
    if unit == "same-day":
        out["last_day"] = start.isoformat()
        out["count"] = "the same day"
    elif unit == "calendar":
        out["last_day"] = (start + dt.timedelta(days=n)).isoformat()
        out["count"] = "%d calendar days" % n
    elif unit == "working":
        last = cal.add_working(start, n)
        out["last_day"] = last.isoformat()
        out["count"] = "%d working day%s" % (n, "" if n == 1 else "s")
        if kind == "results":
            out["last_day"] += " 13:00"
    elif unit == "range":
        lo, hi = n
        out["first_day"] = cal.add_working(start, lo).isoformat()
        out["last_day"] = cal.add_working(start, hi).isoformat()
        out["count"] = "%d to %d working days" % (lo, hi)
    elif unit == "whole":
        given = [x for x in (days, months, years) if x is not None]
        if len(given) != 1:
            raise DeadlineError("suspension takes one of --days, --months or --years")
        first = start + dt.timedelta(days=1)
        if days is not None:
            end = first + dt.timedelta(days=days - 1)
            out["count"] = "%d whole days" % days
        else:
            m = months if months is not None else 12 * (years or 0)
            end = add_months(start, m)   # from date to date: the day after to the same date
            out["count"] = "%d month%s" % (m, "" if m == 1 else "s")
        out["first_day"], out["last_day"] = first.isoformat(), end.isoformat()
    else:
        months_for = {"minor": 1, "serious": 12, "very-serious": 36}
        if severity not in months_for:
            raise DeadlineError("prescription takes --severity minor|serious|very-serious")
        out["last_day"] = add_months(start, months_for[severity]).isoformat()
        out["count"] = {"minor": "1 month", "serious": "1 year",
                        "very-serious": "3 years"}[severity]
    return out


def appeal(rules: str, notified: dt.date, filed: dt.date | None = None,
           decided_by: str | None = None) -> dict[str, Any]:
    days: int | None
    if rules == "cxeb":
        if decided_by not in CXEB_BODIES:
            raise DeadlineError("appeal --rules cxeb takes --decided-by %s"
                                % "|".join(CXEB_BODIES))
        article, body, days = "S0 Art. 42-43", CXEB_BODIES[decided_by], CXEB_DAYS
    else:
        if decided_by is not None:
            raise DeadlineError("--decided-by goes with --rules cxeb")
        article, body, days = APPEALS[rules]
    out: dict[str, Any] = {"kind": "appeal", "rules": rules, "article": article,
                           "body": body, "from": notified.isoformat()}
    if days is None:
        out["last_day"] = None
        out["count"] = "no deadline in these rules"
    else:
        out["last_day"] = (notified + dt.timedelta(days=days)).isoformat()
        out["count"] = "the same day" if days == 0 else "%d calendar days" % days
    if filed is not None:
        out["filed"] = filed.isoformat()
        if rules == "rap1990":
            out["in_time"] = False
            out["appealed"] = "not admissible: RAP 14 makes the arbiter's decision final"
        else:
            out["in_time"] = out["last_day"] is None or filed.isoformat() <= out["last_day"]
            out["appealed"] = "appealed to %s%s" % (body, "" if out["in_time"]
                                                    else ", out of time")
    return out
