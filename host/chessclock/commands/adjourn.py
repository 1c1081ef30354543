"""`chessclock seal` and `chessclock adjourn`: adjournment over the serial link (seed
RGC 10.2-12.5, docs/ADJOURNMENT.md).

    chessclock seal start --port P                  # the player to move seals; 15-min alert
    chessclock seal done --move "Nf3" --port P      # handed in: clocks stop, snapshot hashed
    chessclock seal cancel --port P
    chessclock adjourn export FILE --port P         # the sealed game, for the next session
    chessclock adjourn show FILE [--move M --salt S]   # what it holds; check the envelope
    chessclock adjourn resume FILE --port P [--start | --at HH:MM [--default 60m]]
                        # load it (any clock); start the side to move now, or let the clock
                        # start it at the session's time and count the default time (RGC 12.4)

Exit codes as the other clock commands (chessclock/link/transport.py).
"""

import hashlib
import os
import re
from argparse import ArgumentParser, Namespace
from typing import Any, TextIO

from chessclock import adjourned as A
from chessclock import timetext as T
from chessclock.commands import clockrun as C
from chessclock.link import transport as L
from chessclock.link.ports import ports_of

CHUNK = 90   # snapshot bytes per adjput request (a signed request line stays under 256)
DEFAULT_MS = 3600000   # RGC 12.4: absent an hour after the resumption's time, the game is lost


def add_arguments_seal(p: ArgumentParser) -> None:
    p.add_argument("action", choices=("start", "done", "cancel"),
                   help="start: seal mode (the player to move seals, their clock runs); "
                   "done: the sealed move is handed in (their clock stops); cancel")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--move", metavar="MOVE", help="done: the sealed move as written on the "
                   "scoresheet; the clock keeps only a salted hash, the salt is printed for "
                   "the envelope")
    g.add_argument("--move-hash", metavar="HEX", help="done: a hash of the sealed move made "
                   "elsewhere (16 to 64 hex digits), kept as given")
    p.add_argument("--pieces", metavar="W/B", help="done: the piece count of each side the "
                   "sealer wrote on the envelope (RGC 11.1), e.g. 12/11; kept in the snapshot")
    C.common_arguments(p)


def add_arguments_adjourn(p: ArgumentParser) -> None:
    p.add_argument("action", choices=("export", "show", "resume"),
                   help="export: save the clock's sealed game to FILE; show: what FILE "
                   "holds; resume: load FILE into the clock for the next session")
    p.add_argument("file", metavar="FILE", help="the adjourned-game file")
    p.add_argument("--start", action="store_true",
                   help="resume: start the side to move's clock once loaded (RGC 11.4: "
                   "also when that player is absent)")
    p.add_argument("--at", metavar="HH:MM[:SS]",
                   help="resume: load now; the clock starts the side to move's clock at this "
                   "time of day (this computer's local time, today), present or not: the "
                   "scheduled start of the session")
    p.add_argument("--default", metavar="TIME", help="resume --at: the default time from "
                   "the scheduled resumption; a player absent after it is logged (RGC 12.4: "
                   "60m, the default; 0 allowed)")
    p.add_argument("--move", metavar="MOVE", help="show: the move in the envelope, checked "
                   "against the sealed hash (with --salt)")
    p.add_argument("--salt", metavar="SALT", help="show: the salt written on the envelope")
    C.common_arguments(p)


def _pieces(text: str) -> str:
    """'12/11' -> ';pieces=12/11' (each side 1 to 16 pieces)."""
    m = re.fullmatch(r"\s*(\d{1,2})\s*/\s*(\d{1,2})\s*", text)
    if not m or not all(1 <= int(x) <= 16 for x in m.groups()):
        raise A.AdjournError("--pieces is White's and Black's piece count, 1 to 16 each, "
                             "e.g. 12/11, not %r" % text[:20])
    return ";pieces=%d/%d" % (int(m.group(1)), int(m.group(2)))


def _move_arg(args: Namespace) -> tuple[str, str | None]:
    """What `seal done` sends as the sealed move ("" when none), and the salt."""
    if args.action != "done" and (args.move or args.move_hash or args.pieces):
        raise A.AdjournError("--move, --move-hash and --pieces go with `seal done`")
    pieces = _pieces(args.pieces) if args.pieces is not None else ""
    move, salt = _the_move(args)
    if pieces and not move:
        move = "-"     # the piece counts without a move hash
    return move + pieces, salt


def _the_move(args: Namespace) -> tuple[str, str | None]:
    if args.move is not None:
        move = args.move.strip()
        if not move or len(move) > 20 or not move.isprintable():
            raise A.AdjournError("--move is the move as written, e.g. Nf3 or 41...Rxe5 "
                                 "(1 to 20 characters)")
        salt = os.urandom(8).hex()
        return A.salted_hash(move, salt), salt
    if args.move_hash is not None:
        h = args.move_hash.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{16,64}", h):
            raise A.AdjournError("--move-hash is 16 to 64 hex digits, not %r"
                                 % args.move_hash[:70])
        return "sha256:" + h, None
    return "", None


def run_seal(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    move, salt = _move_arg(args)
    op_args = [args.action] + ([move] if move else [])

    def render(f: dict[str, Any]) -> str:
        if f["seal"] == "sealing":
            return ("seal mode: %s seals; %s's clock runs (alert at 15:00)"
                    % (f["sealer"], f["sealer"]))
        if f["seal"] == "sealed":
            text = ("sealed: %s's move handed in, clocks stopped; %s  %s to move; snapshot "
                    "sha256 %s" % (f["sealer"], C.times(f), f["turn"], f["sha256"]))
            if salt:
                text += "\nwrite on the envelope: salt %s (the clock keeps only the hash " \
                        "of the move with it)" % salt
            return text
        return "seal mode left: " + C.times(f)
    return C.change(args, stdout, stderr, "seal", *op_args, render=render)


def run_adjourn(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if (args.move or args.salt) and args.action != "show":
        raise A.AdjournError("--move and --salt go with `adjourn show`")
    if (args.start or args.at or args.default is not None) and args.action != "resume":
        raise A.AdjournError("--start, --at and --default go with `adjourn resume`")
    if args.start and args.at:
        raise A.AdjournError("--start (now) or --at (a time of day), not both")
    if args.default is not None and not args.at:
        raise A.AdjournError("--default counts from the scheduled resumption: give --at")
    args.default_ms = _default_ms(args.default)
    if args.action == "show":
        return _show(args, stdout)
    at = _at(args.at) if args.at else None
    if args.action == "resume":
        data, _ = A.read(args.file)   # checked before any clock is touched
    elif os.path.exists(args.file):
        raise A.AdjournError("%s exists: not overwritten" % args.file)
    if args.action == "export":
        return _export(args, stdout, stderr)
    return _resume(args, data, at, stdout, stderr)


def _default_ms(text: str | None) -> int:
    """--default: the default time at the resumption (RGC 12.4: an hour), whole seconds."""
    if text is None:
        return DEFAULT_MS
    try:
        ms = T.parse_duration(text)
    except T.DurationError as e:
        raise A.AdjournError("--default: %s" % e) from None
    if ms > 86400000 or ms % 1000:
        raise A.AdjournError("--default %s: whole seconds, at most 24h" % text.strip()[:20])
    return ms


def _at(text: str) -> float:
    """The epoch seconds of HH:MM[:SS] today, local time; refuses a time already past."""
    import time
    m = re.fullmatch(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", text.strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59 or int(m.group(3) or 0) > 59:
        raise A.AdjournError("--at is a time of day HH:MM or HH:MM:SS, not %r" % text[:20])
    now = time.time()
    lt = time.localtime(now)
    when = time.mktime((lt.tm_year, lt.tm_mon, lt.tm_mday, int(m.group(1)), int(m.group(2)),
                        int(m.group(3) or 0), 0, 0, -1))
    if when < now - 1:
        raise A.AdjournError("--at %s is past (it is %s now)"
                             % (text.strip(), time.strftime("%H:%M:%S", lt)))
    return when


def _show(args: Namespace, stdout: TextIO) -> int:
    data, d = A.read(args.file)
    sealed, _, extra = d["sealed_move"].partition(";")
    pieces = extra[len("pieces="):] if extra.startswith("pieces=") else ""
    if (args.move is None) != (args.salt is None):
        raise A.AdjournError("checking the envelope needs both --move and --salt")
    lines = ["adjourned game (session %d closed), sealed by %s on clock %s"
             % (d["session"], d["sealer"], d["clock"] or "?"),
             "  control   %s" % d["spec"],
             "  white     %s  %d moves  stage %d of %d" % (
                 C.fmt_ms(d["white_ms"]), d["white_moves"], d["white_stage"],
                 d["white_stages"]),
             "  black     %s  %d moves  stage %d of %d" % (
                 C.fmt_ms(d["black_ms"]), d["black_moves"], d["black_stage"],
                 d["black_stages"]),
             "  to move   %s (after the sealed move)" % d["to_move"],
             "  sealed    %s" % (sealed if sealed not in ("", "-") else "(no hash given)"),
             "  pieces    %s" % (pieces + " (White/Black, as written on the envelope)"
                                 if pieces else "(not given)"),
             "  sha256    %s (%s)" % (d["sha256"], "in the sealing clock's log, record %d"
                                     % d["seal_seq"] if d["seal_seq"] >= 0
                                     else "sealed in `chessclock simulate`")]
    if args.move is not None:
        if A.salted_hash(args.move, args.salt) != sealed:
            raise A.AdjournError("the envelope's move %r with salt %s is NOT the sealed move"
                                 % (args.move[:20], args.salt[:20]))
        lines.append("  envelope  %s matches the sealed hash" % args.move.strip())
    stdout.write("\n".join(lines) + "\n")
    return 0


def _export(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    import base64

    def fn(link: L.Link) -> dict[str, Any]:
        r = link.request("adjexport")
        data = base64.b64decode(r["data"])
        if hashlib.sha256(data).hexdigest() != r["sha256"]:
            raise L.ClockError(L.EXIT_FAILED, "the snapshot arrived damaged; try again")
        try:
            A.write(args.file, data)
        except A.AdjournError as e:
            raise L.ClockError(L.EXIT_INPUT, str(e)) from None
        return {"file": args.file, "sha256": r["sha256"]}
    try:
        ports_of(args)
        if len(args.port) + (1 if args.all else 0) != 1:
            raise L.ClockError(L.EXIT_INPUT, "export reads one clock: give one --port")
    except L.ClockError as e:
        stderr.write("chessclock: %s\n" % e)
        return e.code
    return C.on_each(args, stdout, stderr, fn,
                     render=lambda f: "adjourned game saved to %s (sha256 %s)"
                     % (f["file"], f["sha256"]))


def _resume(args: Namespace, data: bytes, at: float | None, stdout: TextIO,
            stderr: TextIO) -> int:
    import base64
    import time

    key = L.key_for(args)
    sha = hashlib.sha256(data).hexdigest()

    def fn(link: L.Link) -> dict[str, Any]:
        for i in range(0, len(data), CHUNK):
            link.request("adjput", i // CHUNK, base64.b64encode(data[i:i + CHUNK]).decode(),
                         change=True)
        r = link.request("adjload", sha, change=True)
        if at is not None:
            # the scheduled resumption (RGC 11.4): the clock starts the side to move's clock
            # at that time, present or not, and logs who is absent after the default time
            # (RGC 12.4)
            if not C.send_wall_clock(link):
                raise L.ClockError(L.EXIT_FAILED, "the clock did not take the time of day")
            f = link.request("schedule", int(at), args.default_ms // 1000, change=True)
            r = dict(r, sched=f["sched"], default_s=f["default_s"])
        elif args.start:
            C.send_wall_clock(link)
            r = dict(r, **link.request("resume", change=True))
            r["started"] = r["turn"]
        return r

    def render(f: dict[str, Any]) -> str:
        text = "adjourned game loaded (sha256 %s): %s  %s to move" % (
            f["sha256"], C.times(f), f["turn"])
        if f.get("started"):
            text += "; %s's clock started" % f["started"]
        if f.get("sched"):
            text += ("; %s's clock starts at %s (local), present or not; default time %s "
                     "(RGC 12.4)" % (f["turn"], time.strftime(
                         "%H:%M:%S", time.localtime(int(f["sched"]))),
                         C.fmt_ms(int(f["default_s"]) * 1000)))
        return text
    return C.on_each(args, stdout, stderr, fn, key=key, render=render)
