"""`chessclock rounds`: the schedule rules of the seeds' rapid events and a round's length.

    chessclock rounds check --rules act1987|rap1990 --posted "YYYY-MM-DD HH:MM"
                            --start "YYYY-MM-DD HH:MM" [--start ...]
    chessclock rounds estimate --control SPEC [--moves N]

check: the rules are handed out or posted at least 30 minutes before the event starts
(ACT 23, RAP 19), and an Active event plays at most 6 rounds a day (ACT 24; the 5-minute
rules set no limit). Each --start is a round's start, local time as the organisers write it.
estimate: how long a round lasts at most when every game uses all its time: each side's
time for N moves (the stages reached, and N increments), both sides together; S3 lets the
organisers set the game's duration from the entrants and the boards (S3, last items).
"""

from __future__ import annotations

import argparse
import json
from typing import IO, Any

from chessclock.competition.rounds import RULES, RoundsError, check, estimate, parse_when


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("check", "estimate"))
    p.add_argument("--rules", choices=sorted(RULES), help="check: the event's rules")
    p.add_argument("--posted", metavar="'YYYY-MM-DD HH:MM'",
                   help="check: when the rules were handed out or posted")
    p.add_argument("--start", action="append", default=[], metavar="'YYYY-MM-DD HH:MM'",
                   help="check: a round's start; repeat for each round")
    p.add_argument("--control", metavar="SPEC", help="estimate: the time control")
    p.add_argument("--moves", type=int, default=60, help="estimate: moves of each player "
                   "(default 60)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")


def answer(args: argparse.Namespace) -> dict[str, Any]:
    if args.action == "check":
        if not args.rules or not args.posted or not args.start:
            raise RoundsError("check takes --rules, --posted and at least one --start")
        if args.control:
            raise RoundsError("--control goes with `rounds estimate`")
        return check(args.rules, parse_when(args.posted, "--posted"),
                     [parse_when(s, "--start") for s in args.start])
    if not args.control:
        raise RoundsError("estimate takes --control SPEC")
    if args.rules or args.posted or args.start:
        raise RoundsError("--rules, --posted and --start go with `rounds check`")
    if not 1 <= args.moves <= 1000:
        raise RoundsError("--moves %d: from 1 to 1000" % args.moves)
    return estimate(args.control, args.moves)


def run(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    a = answer(args)   # a RoundsError: chessclock.cli says it, exit 2
    if args.json:
        stdout.write(json.dumps(a, indent=1) + "\n")
    else:
        stdout.write("\n".join(a["lines"] + ["(%s)" % ", ".join(a["articles"])]) + "\n")
    return 0
