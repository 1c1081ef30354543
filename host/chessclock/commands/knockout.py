"""`chessclock knockout`: the single-elimination event of the Brazilian rule sheet (seed S3):
each player plays one game a round, the winner goes on, the loser is out (S3 1), and the
winner of the last game wins the event (S3 2). Colours are drawn by lot (S3, "Noções
Gerais": who takes White is decided by lot).

    chessclock knockout draw PLAYERS.txt --out BRACKET.json [--lot N]
    chessclock knockout result BRACKET.json --game N --winner white|black
    chessclock knockout show BRACKET.json

PLAYERS.txt: one name a line, in the order the organisers pair them (1 v 2, 3 v 4, ...);
when the number is not a power of two the first players listed get a bye in round 1. The
lot is Python's `random.Random(N)`: `--lot N` makes the draw repeatable, without it a number
is drawn and recorded in the file. A drawn game goes to the play-off (S3 4.1: `chessclock
ruling playoff`), so a result here is always a winner.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
from typing import IO, Any

from chessclock.competition.knockout import KnockoutError, draw, lines, record


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("draw", "result", "show"))
    p.add_argument("file", metavar="FILE", help="draw: PLAYERS.txt; result, show: "
                   "BRACKET.json")
    p.add_argument("--out", metavar="BRACKET.json", help="draw: where to write the bracket")
    p.add_argument("--lot", type=int, help="draw: the lot's number (repeatable draws)")
    p.add_argument("--game", type=int, help="result: the game's number in the bracket")
    p.add_argument("--winner", choices=("white", "black"), help="result: who won")
    p.add_argument("--json", action="store_true", help="print the bracket as JSON")


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise KnockoutError("%s: %s" % (path, e.strerror or e)) from None


def _load(path: str) -> dict[str, Any]:
    try:
        state = json.loads(_read_text(path))
        if not isinstance(state, dict) or not isinstance(state.get("games"), list):
            raise ValueError
        return state
    except ValueError:
        raise KnockoutError("%s is not a bracket written by `knockout draw`" % path) from None


def _write(path: str, state: dict[str, Any]) -> None:
    try:
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(state, f, indent=1)
        os.replace(tmp, path)
    except OSError as e:
        raise KnockoutError("cannot write %s: %s" % (path, e.strerror or e)) from None


def answer(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    if args.action == "draw":
        if not args.out:
            raise KnockoutError("draw takes --out BRACKET.json")
        if os.path.exists(args.out):
            raise KnockoutError("%s exists: not overwritten" % args.out)
        if args.game is not None or args.winner:
            raise KnockoutError("--game and --winner go with `knockout result`")
        players = [ln.strip() for ln in _read_text(args.file).splitlines() if ln.strip()]
        lot = args.lot if args.lot is not None else secrets.randbelow(10 ** 6)
        state = draw(players, lot)
        _write(args.out, state)
        return state, lines(state)
    if args.out or args.lot is not None:
        raise KnockoutError("--out and --lot go with `knockout draw`")
    state = _load(args.file)
    if args.action == "show":
        return state, lines(state)
    if args.game is None or not args.winner:
        raise KnockoutError("result takes --game N and --winner white|black")
    said = record(state, args.game, args.winner)
    _write(args.file, state)
    return state, [said] + lines(state)[1:]


def run(args: argparse.Namespace, stdout: IO[str], stderr: IO[str]) -> int:
    state, text = answer(args)   # a KnockoutError: chessclock.cli says it, exit 2
    stdout.write(json.dumps(state, indent=1) + "\n" if args.json else "\n".join(text) + "\n")
    return 0
