"""Calendar dates, the yearly recess and deadlines (CXEB comment on Art. 12).

All dates are `datetime.date` in the event's time zone; a day is the unit of everything.
"""

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from typing import Any

from chessclock.errors import InputError

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class CorrError(InputError):
    """Bad input or a record the rules do not allow: one line for the user, exit 2."""


def parse_date(text: Any, what: str = "date") -> dt.date:
    """YYYY-MM-DD only (no week dates, no compact forms): a typo must not pass as a date."""
    if isinstance(text, dt.date):
        return text
    text = (text or "").strip()
    if not _ISO.match(text):
        raise CorrError("%s: %r is not a date (write YYYY-MM-DD, e.g. 2026-03-01)" % (what, text))
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CorrError("%s: %s is not a day of the calendar" % (what, text)) from None


def day_range(after: dt.date, upto: dt.date) -> Iterator[dt.date]:
    """The days d with after < d <= upto: a span counted the CXEB way (the day a message
    arrives is not counted, the day the reply goes is)."""
    d = after + dt.timedelta(days=1)
    while d <= upto:
        yield d
        d += dt.timedelta(days=1)


class Calendar:
    """Working days and the recess. A working day is one on which post offices open (the
    comment on Art. 12): Monday to Friday, not 1 January, not a holiday the director gave."""

    def __init__(self, holidays: Iterable[Any] = ()) -> None:
        self.holidays = set(holidays)
        self._first = {}

    def is_working(self, d: dt.date) -> bool:
        return d.weekday() < 5 and not (d.month == 1 and d.day == 1) and d not in self.holidays

    def first_working_day(self, year: int) -> dt.date:
        if year not in self._first:
            d = dt.date(year, 1, 1)
            while not self.is_working(d):
                d += dt.timedelta(days=1)
            self._first[year] = d
        return self._first[year]

    def in_recess(self, d: dt.date) -> bool:
        """15 December up to, not including, the first working day of the next year: that day
        counts again ("até o primeiro dia útil" read as the day work resumes)."""
        if d.month == 12 and d.day >= 15:
            return True
        return d < self.first_working_day(d.year)

    def add_days(self, start: dt.date, n: int) -> dt.date:
        """The n-th day after `start` that is not in the recess: a deadline of n days
        ("ficam suspensas ... outros prazos regulamentares")."""
        d = start
        while n > 0:
            d += dt.timedelta(days=1)
            if not self.in_recess(d):
                n -= 1
        return d

    def days_between(self, after: dt.date, upto: dt.date, skip: Any = None) -> int:
        """Days in (after, upto] outside the recess (and outside `skip`, a set of dates)."""
        return sum(1 for d in day_range(after, upto)
                   if not self.in_recess(d) and not (skip and d in skip))
