"""`chessclock team`: the FCE team-match rules a clock's arbiter checks (seed S2, RGC).

    chessclock team substitute --at TIME --size N [--made K]   # RGC 13.2
    chessclock team short --size N --present P [--elapsed TIME] [--default-time TIME]
                                                               # RGC 12.3
    chessclock team no-shows --count N [--round R --of T]      # RGC 14.1, 14.3
    chessclock team colours --boards N                         # RGC 5.3.1.2

TIME is counted from the official start of the match (RGC 12.1, 13.2), written with a unit
(75m, 1:15:00). Every answer names its article; `--json` prints it as an object.
"""

from __future__ import annotations

import argparse
import json
from typing import IO, Any

from chessclock import timetext as T
from chessclock.competition.teams import (
    TeamError,
    board_colours,
    rule_no_shows,
    rule_short,
    rule_substitute,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", choices=("substitute", "short", "no-shows", "colours"),
                   help="substitute (RGC 13.2), short (RGC 12.3), no-shows (RGC 14.1), "
                        "colours (RGC 5.3.1.2)")
    p.add_argument("--at", metavar="TIME", help="substitute: time since the official start")
    p.add_argument("--size", type=int, help="the team's number of boards")
    p.add_argument("--made", type=int, default=0, help="substitute: substitutions made before")
    p.add_argument("--present", type=int, help="short: players present")
    p.add_argument("--elapsed", metavar="TIME", help="short: time since the official start")
    p.add_argument("--default-time", metavar="TIME", default="60m",
                   help="short: the regulation waiting time (RGC 12.1: 60m)")
    p.add_argument("--count", type=int, help="no-shows: the team's or player's no-shows")
    p.add_argument("--round", type=int, dest="round_no", help="no-shows: the round of the "
                   "elimination")
    p.add_argument("--of", type=int, dest="rounds", help="no-shows: the rounds of the event")
    p.add_argument("--boards", type=int, help="colours: the boards of the match")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")


def _time(text: str | None, name: str) -> int:
    if text is None:
        raise TeamError("give %s TIME (e.g. 35m)" % name)
    try:
        return T.parse_duration(text)
    except T.DurationError as e:
        raise TeamError("%s: %s" % (name, e)) from None


def _count(value: int | None, name: str, least: int, most: int = 1000) -> int:
    if value is None:
        raise TeamError("give %s N" % name)
    if not least <= value <= most:
        raise TeamError("%s %d: from %d to %d" % (name, value, least, most))
    return value


def answer(args: argparse.Namespace) -> dict[str, Any]:
    if args.what == "substitute":
        size = _count(args.size, "--size", 1)
        return rule_substitute(_time(args.at, "--at"), size, _count(args.made, "--made", 0))
    if args.what == "short":
        size = _count(args.size, "--size", 1)
        present = _count(args.present, "--present", 0, size)
        elapsed = _time(args.elapsed, "--elapsed") if args.elapsed is not None else None
        return rule_short(size, present, elapsed, _time(args.default_time, "--default-time"))
    if args.what == "no-shows":
        count = _count(args.count, "--count", 0)
        if (args.round_no is None) != (args.rounds is None):
            raise TeamError("give --round R and --of T together")
        if args.rounds is not None:
            rounds = _count(args.rounds, "--of", 1)
            return rule_no_shows(count, _count(args.round_no, "--round", 1, rounds), rounds)
        return rule_no_shows(count)
    return board_colours(_count(args.boards, "--boards", 1, 200))


def run(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    a = answer(args)   # a TeamError: chessclock.cli says it, exit 2
    if args.json:
        stdout.write(json.dumps(a, indent=1) + "\n")
    else:
        stdout.write("\n".join(a["lines"] + ["(%s)" % a["article"]]) + "\n")
    return 0
