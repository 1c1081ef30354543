"""The rules behind `chessclock retention`: which records of an event may be discarded and
which must be kept: everything is kept until 60 days after the result is published (S0 Art.
10, for the players' correspondence; applied here to the clocks' logs and the scoresheets),
and a record a pending appeal rests on is kept whatever its age.

    chessclock retention ARCHIVE --published YYYY-MM-DD [--today YYYY-MM-DD] [--days N]
                         [--hold FILE ...]

ARCHIVE is a folder (`chessclock log-pull`'s ARCHIVE/CLOCK/GAME.log, PGN scoresheets,
reports); every file under it is listed. The command only reports: it deletes nothing.
"""

from __future__ import annotations

import datetime as dt
import os
from typing import Any

from chessclock.errors import InputError

RETENTION_DAYS = 60     # S0 Art. 10: «até 60 dias após a publicação do resultado»


class RetentionError(InputError):
    pass


def parse_date(text: str, name: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise RetentionError("%s %r: a date is YYYY-MM-DD" % (name, text[:30])) from None


def report(root: str, published: dt.date, today: dt.date, days: int = RETENTION_DAYS,
           hold: tuple[str, ...] = ()) -> dict[str, Any]:
    keep_until = published + dt.timedelta(days=days)
    held = {os.path.realpath(h) for h in hold}
    files = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            path = os.path.join(folder, n)
            rel = os.path.relpath(path, root)
            if os.path.realpath(path) in held:
                files.append({"file": rel, "action": "keep", "why": "held: an appeal rests "
                              "on it"})
            elif today > keep_until:
                files.append({"file": rel, "action": "may discard",
                              "why": "past %s" % keep_until.isoformat()})
            else:
                files.append({"file": rel, "action": "keep",
                              "why": "until %s" % keep_until.isoformat()})
    return {"article": "S0 Art. 10", "published": published.isoformat(),
            "keep_until": keep_until.isoformat(), "today": today.isoformat(),
            "days": days, "files": files}

