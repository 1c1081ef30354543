"""`chessclock deadline`: the deadlines of the FCE disciplinary rules (seed S2, DISC), the
results call (RGC 5.5.1) and where a ruling is appealed, computed from a date.

    chessclock deadline KIND --from YYYY-MM-DD [--holiday YYYY-MM-DD ...] [--holidays FILE]
                        [--saturdays] [--days N | --months N | --years N] [--severity S]
    chessclock deadline appeal --rules RULES --from YYYY-MM-DD [--filed YYYY-MM-DD]
                        [--decided-by director|general-director|general-director-playing]

Working days («dies hàbils», «dia feiner») are Monday to Friday, less the holidays given;
`--saturdays` counts Saturdays as working days too (the seed does not define them). A count
of days "from the day after" starts on the day after --from; the answer is the last day.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from typing import IO, Any

from chessclock.competition.deadlines import (
    APPEALS,
    CXEB_BODIES,
    KINDS,
    Calendar,
    DeadlineError,
    appeal,
    compute,
    parse_date,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", choices=sorted(KINDS) + ["appeal"], metavar="KIND",
                   help="one of: %s, appeal" % ", ".join(sorted(KINDS)))
    p.add_argument("--from", dest="start", metavar="YYYY-MM-DD",
                   help="the date counted from (notification, match, filing ...)")
    p.add_argument("--holiday", action="append", default=[], metavar="YYYY-MM-DD",
                   help="a holiday (not a working day); repeat for more")
    p.add_argument("--holidays", metavar="FILE", help="holidays, one YYYY-MM-DD a line")
    p.add_argument("--saturdays", action="store_true",
                   help="count Saturdays as working days")
    p.add_argument("--days", type=int, help="suspension: whole days")
    p.add_argument("--months", type=int, help="suspension: months")
    p.add_argument("--years", type=int, help="suspension: years")
    p.add_argument("--severity", help="prescription: minor, serious or very-serious")
    p.add_argument("--rules", choices=sorted(APPEALS) + ["cxeb"],
                   help="appeal: the rule set of the ruling (cxeb: S0 correspondence)")
    p.add_argument("--filed", metavar="YYYY-MM-DD", help="appeal: when it was filed")
    p.add_argument("--decided-by", choices=sorted(CXEB_BODIES),
                   help="appeal --rules cxeb: who decided (S0 Art. 43)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")


def _holidays(args: argparse.Namespace) -> set[dt.date]:
    out = {parse_date(h, "--holiday") for h in args.holiday}
    if args.holidays:
        try:
            with open(args.holidays, encoding="utf-8") as f:
                lines = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
        except OSError as e:
            raise DeadlineError("--holidays %s: %s" % (args.holidays, e.strerror)) from None
        out |= {parse_date(ln, "--holidays line") for ln in lines}
    return out


def answer(args: argparse.Namespace) -> dict[str, Any]:
    if not args.start:
        raise DeadlineError("give --from YYYY-MM-DD")
    start = parse_date(args.start, "--from")
    for name in ("days", "months", "years"):
        v = getattr(args, name)
        if v is not None and not 1 <= v <= 10000:
            raise DeadlineError("--%s %d: from 1 to 10000" % (name, v))
    if args.kind == "appeal":
        if not args.rules:
            raise DeadlineError("appeal takes --rules (the ruling's rule set, or cxeb)")
        filed = parse_date(args.filed, "--filed") if args.filed else None
        return appeal(args.rules, start, filed, args.decided_by)
    if args.rules or args.filed or args.decided_by:
        raise DeadlineError("--rules, --filed and --decided-by go with `deadline appeal`")
    return compute(args.kind, start, Calendar(_holidays(args), args.saturdays), args.days,
                   args.months, args.years, args.severity)


def run(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    a = answer(args)   # a DeadlineError: chessclock.cli says it, exit 2
    if args.json:
        stdout.write(json.dumps(a, indent=1) + "\n")
        return 0
    if a["kind"] == "appeal":
        lines = ["appeal of a %s ruling (%s): to %s" % (a["rules"], a["article"], a["body"]),
                 "deadline: %s" % (a["count"] if a["last_day"] is None else "%s, last day %s"
                                   % (a["count"], a["last_day"]))]
        if "appealed" in a:
            lines.append("filed %s: %s" % (a["filed"], a["appealed"]))
    else:
        span = ("%s to %s" % (a["first_day"], a["last_day"]) if "first_day" in a
                else a["last_day"])
        lines = ["%s (%s): %s from %s (%s): %s" % (a["kind"], a["article"], a["count"],
                                                 a["from"], a["counted_from"], span),
                 a["what"]]
    stdout.write("\n".join(lines) + "\n")
    return 0
