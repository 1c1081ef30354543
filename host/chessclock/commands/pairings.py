"""`chessclock pairings`: a round's pairings onto the clocks (docs/HALL.md).

    chessclock pairings show round3.trf                 # the boards as read from the file
    chessclock pairings push round3.trf --all           # each clock told its board and players
    chessclock pairings push round3.csv --port /dev/ttyACM0 --assign 1=/dev/ttyACM0
    chessclock pairings clear --all

The file is read as `chessclock hall --pairings` reads it (CSV or FIDE TRF, hall/pairings.py);
a clock's board comes from the file's `clock` column or --assign BOARD=CLOCK (its id or its
port). Each clock gets the link operation `pairing BOARD ROUND WHITE BLACK [EVENT]`, signed
with the arbiter's key as every change is: it keeps them across a power cut, logs them with
each game (so `log pull`, `log export --pgn` and `ruling` carry the names) and shows the board
number at set-up. A clock whose game has ended is set up for the next game with the same
control. Names are cut to what the clock keeps (40 bytes of UTF-8 each, one request line).
"""

from argparse import ArgumentParser, Namespace
from typing import Any, TextIO

from chessclock.commands import clockrun as C
from chessclock.errors import InputError
from chessclock.link import transport as L
from chessclock.link.pairing import request_args

BOARD_MAX = 9999
ROUND_MAX = 999


def add_arguments(p: ArgumentParser) -> None:
    p.add_argument("action", choices=("push", "show", "clear"),
                   help="push FILE: tell each clock its board and players; show FILE: the "
                   "boards as read; clear: remove the pairing from the clocks")
    p.add_argument("file", nargs="?", metavar="FILE", help="the round's pairings: CSV or "
                   "FIDE TRF (as `chessclock hall --pairings`)")
    p.add_argument("--round", default=None, help="round number (TRF: which round's pairings; "
                   "default the last one paired)")
    p.add_argument("--event", default="", help="event name (default: from the file)")
    p.add_argument("--assign", action="append", default=[], metavar="BOARD=CLOCK",
                   help="the clock (id or port) on a board, e.g. --assign 3=sim-a (repeat)")
    C.common_arguments(p)


def _round_no(text: object) -> int:
    t = str(text or "").strip()
    if not t:
        return 0
    if not t.isdigit() or not 0 <= int(t) <= ROUND_MAX:
        raise ValueError("the round %r is not a number from 1 to %d (the clock keeps a "
                         "number)" % (t[:20], ROUND_MAX))
    return int(t)


def run(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from chessclock.hall import pairings as PR

    if args.action == "clear":
        if args.file:
            raise InputError("clear takes no FILE")
        return C.change(args, stdout, stderr, "pairing", "clear",
                         render=lambda f: "pairing removed")
    if not args.file:
        raise InputError("%s needs the pairings FILE (CSV or FIDE TRF)" % args.action)
    try:
        rnd = PR.load(args.file, event=args.event, round_no=args.round)
        for a in args.assign:
            n, eq, clock = a.partition("=")
            if not eq or not clock.strip():
                raise PR.PairingError("--assign %s: write BOARD=CLOCK, e.g. 3=sim-a" % a[:40])
            rnd.assign_clock(clock.strip(), PR._board_no(n, "--assign"))
        round_no = _round_no(rnd.round)
    except (PR.PairingError, ValueError) as e:
        raise InputError(str(e)) from None
    too_big = [b for b in rnd.boards if b > BOARD_MAX]
    if too_big:
        raise InputError("board %d: a clock keeps boards 1 to %d" % (too_big[0], BOARD_MAX))
    if args.action == "show" and args.json:
        import json
        on = {b: c for c, b in rnd.assign.items()}
        stdout.write(json.dumps({"event": rnd.event, "round": rnd.round, "boards": [
            {"board": b, "white": p["white"], "black": p["black"], "clock": on.get(b)}
            for b, p in sorted(rnd.boards.items())]}) + "\n")
        return 0
    if args.action == "show":
        stdout.write("%s, round %s: %d board(s)\n" % (rnd.event or "?", rnd.round or "?",
                                                      len(rnd.boards)))
        on = {b: c for c, b in rnd.assign.items()}
        for b in sorted(rnd.boards):
            p = rnd.boards[b]
            stdout.write("  board %3d  %s - %s%s\n" % (b, p["white"] or "?", p["black"] or "?",
                                                      "  (clock %s)" % on[b] if b in on else ""))
        return 0
    key = L.key_for(args)

    def fn(link: L.Link) -> dict[str, Any]:
        hello = link.request("hello")
        board = rnd.board_for(hello["clock"], link.port)
        if board is None:
            raise L.ClockError(L.EXIT_INPUT, "%s: clock %s is on no board of %s"
                               % (link.port, hello["clock"], args.file),
                               "give the file a `clock` column or --assign BOARD=%s"
                               % hello["clock"])
        p = rnd.pairing(board)
        if p is None:
            raise L.ClockError(L.EXIT_INPUT, "%s: board %d is not paired in %s"
                               % (link.port, board, args.file))
        req, short = request_args(board, round_no, p["white"], p["black"], rnd.event)
        C.send_wall_clock(link)   # its log and PGN then have the date
        f = link.request("pairing", *req, change=True)
        return dict(f, clock=hello["clock"], white=req[2], black=req[3], short=short)

    def render(f: dict[str, Any]) -> str:
        text = "board %s, round %s: %s - %s%s (clock %s)" % (
            f["board"], f["round"], f["white"], f["black"],
            "  (names shortened to fit the clock)" if f["short"] else "", f["clock"])
        if f.get("state") != "idle":   # not the next game: this one's names corrected
            text += "; its game is %s: `chessclock end` it, then push again to set up " \
                    "the next round" % f.get("state")
        return text
    return C.on_each(args, stdout, stderr, fn, key=key, render=render)
