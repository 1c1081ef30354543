"""`chessclock control SPEC` and `chessclock presets`: what a time control means."""

import json
import sys
from argparse import ArgumentParser, Namespace
from typing import TextIO

from chessclock.errors import InputError
from chessclock.timecontrol import configured, describe, for_clock, terminal_ask
from clockcore import notation, presets


def add_arguments_control(p: ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC",
                   help="PGN TimeControl tag, readable notation or preset name")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--pgn", action="store_true", help="SPEC is a PGN tag in seconds, meant as "
                   "written even where no real event plays it")


def add_arguments_presets(p: ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run_control(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    try:
        spec, control, preset = configured(args.spec, args.pgn,
                                           terminal_ask(sys.stdin, stderr))
        if preset is None or not preset.ledger:  # a ledger counts days, not milliseconds
            control.validate()
    except ValueError as e:
        raise InputError("%r: %s" % (args.spec, e)) from None
    d = describe(control, preset)
    if args.json:
        stdout.write(json.dumps(d, indent=2) + "\n")
        return 0
    if preset is not None:
        stdout.write("%s: %s (%s)\n" % (preset.key, preset.title, preset.source))
    elif spec != args.spec:
        stdout.write("taken as: %s\n" % spec)
    stdout.write("readable: %s\n" % d["readable"])
    stdout.write("PGN:      %s\n" % (d["pgn"] or "(not expressible as a PGN tag)"))
    if control.symmetric():
        stdout.write("each side: %s\n" % notation.describe_side(control.white))
    else:
        stdout.write("White: %s\n" % notation.describe_side(control.white))
        stdout.write("Black: %s\n" % notation.describe_side(control.black))
    if preset is not None and preset.move_limit:
        stdout.write("the game ends when both sides have made %d moves\n" % preset.move_limit)
    return 0


def run_presets(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    rows = [describe(p.control, p) for p in presets.PRESETS]
    for p, d in zip(presets.PRESETS, rows, strict=True):
        d["clock"] = for_clock(p)
    if args.json:
        stdout.write(json.dumps(rows, indent=2) + "\n")
        return 0
    width = max(len(p.key) for p in presets.PRESETS)
    others = [p for p in presets.PRESETS if not for_clock(p)]
    for p, d in zip(presets.PRESETS, rows, strict=True):
        if for_clock(p):
            stdout.write("%-*s  %-40s %s\n" % (width, p.key, d["readable"], p.title))
    if others:
        stdout.write("\nnot for a clock (`chessclock corr`: a ledger of days):\n")
        for p, d in zip(presets.PRESETS, rows, strict=True):
            if not for_clock(p):
                stdout.write("%-*s  %-40s %s\n" % (width, p.key, d["readable"], p.title))
    return 0
