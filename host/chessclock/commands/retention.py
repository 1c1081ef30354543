"""`chessclock retention`: which records of an event may be discarded and which must be
kept: everything is kept until 60 days after the result is published (S0 Art. 10, for the
players' correspondence; applied here to the clocks' logs and the scoresheets), and a
record a pending appeal rests on is kept whatever its age.

    chessclock retention ARCHIVE --published YYYY-MM-DD [--today YYYY-MM-DD] [--days N]
                         [--hold FILE ...]

ARCHIVE is a folder (`chessclock log-pull`'s ARCHIVE/CLOCK/GAME.log, PGN scoresheets,
reports); every file under it is listed. The command only reports: it deletes nothing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
from typing import IO, Any

from chessclock.competition.retention import RETENTION_DAYS, RetentionError, parse_date, report


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("archive", metavar="ARCHIVE", help="the folder of the event's records")
    p.add_argument("--published", metavar="YYYY-MM-DD",
                   help="when the results were published")
    p.add_argument("--today", metavar="YYYY-MM-DD", help="the date to judge (default today)")
    p.add_argument("--days", type=int, default=RETENTION_DAYS,
                   help="days kept after publication (S0 Art. 10: 60)")
    p.add_argument("--hold", action="append", default=[], metavar="FILE",
                   help="a file an appeal rests on: kept; repeat for more")
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def answer(args: argparse.Namespace) -> dict[str, Any]:
    if not os.path.isdir(args.archive):
        raise RetentionError("%s is not a folder" % args.archive)
    if not args.published:
        raise RetentionError("give --published YYYY-MM-DD (when the results were published)")
    published = parse_date(args.published, "--published")
    today = parse_date(args.today, "--today") if args.today else dt.date.today()
    if today < published:
        raise RetentionError("--today %s is before --published %s" % (today, published))
    if not 0 <= args.days <= 3650:
        raise RetentionError("--days %d: from 0 to 3650" % args.days)
    for h in args.hold:
        if not os.path.isfile(h):
            raise RetentionError("--hold %s: no such file" % h)
    return report(args.archive, published, today, args.days, tuple(args.hold))


def run(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    a = answer(args)   # a RetentionError: chessclock.cli says it, exit 2
    if args.json:
        stdout.write(json.dumps(a, indent=1) + "\n")
        return 0
    lines = ["results published %s: records kept until %s (%s: %d days); today %s"
             % (a["published"], a["keep_until"], a["article"], a["days"], a["today"])]
    lines += ["%-12s %s (%s)" % (f["action"], f["file"], f["why"]) for f in a["files"]]
    if not a["files"]:
        lines.append("(no files)")
    stdout.write("\n".join(lines) + "\n")
    return 0
