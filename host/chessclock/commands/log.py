"""`chessclock log verify|show|export|pull`: the clock's event log on the arbiter's laptop.

FILE is a log as stored on the clock (`log.bin`) or as `chessclock log pull` saves it.
verify: exit 0 when the log is intact and (unless --intact-only) signed by the clock, 1
otherwise (each problem printed); see chessclock.log.verify.
"""

import importlib
from argparse import ArgumentParser, Namespace
from typing import Any, TextIO

from chessclock.log.export import table, to_csv, to_jsonl, to_pgn
from chessclock.log.records import Result
from chessclock.log.verify import verification_lines, verify

SUBCOMMANDS = {
    "verify": ("commands.log", "check CRCs and hash chain, replay every press through the engine"),
    "show": ("commands.log", "the log as a readable table"),
    "export": ("commands.log", "the log as JSON Lines, CSV or PGN with [%%clk]/[%%emt]"),
    "pull": ("commands.clock", "pull clocks' logs over USB into a local archive (resumable)"),
}


def add_arguments(p: ArgumentParser) -> None:
    sub = p.add_subparsers(dest="log_command", metavar="SUBCOMMAND")
    sub.required = True
    for name, (module, help_text) in SUBCOMMANDS.items():
        # help strings are %-formatted by argparse: the description is printed as is
        sp = sub.add_parser(name, help=help_text, description=help_text.replace("%%", "%"))
        sp.set_defaults(_log_module=module)
        mod = importlib.import_module("chessclock." + module)
        adder = getattr(mod, "add_arguments_" + name, None) or mod.add_arguments
        adder(sp)


def run(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    mod = importlib.import_module("chessclock." + args._log_module)
    runner = getattr(mod, "run_" + args.log_command, None) or mod.run
    return runner(args, stdout, stderr)



# ---- the command ---------------------------------------------------------------------
def _read(path: str, stderr: TextIO, prog: str = "chessclock log") -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        stderr.write("%s: cannot read %s: %s\n" % (prog, path, e.strerror or e))
        return None


def add_key_arguments(p: ArgumentParser) -> None:
    p.add_argument("--key", metavar="FILE", help="the arbiter's key file, to check the "
                   "clock's signature (default: the one `chessclock key use` chose, or "
                   "$CHESSCLOCK_KEY)")


def key_of(args: Namespace) -> bytes | None:
    """The arbiter's key for checking signatures (None when none is chosen); ClockError
    when the file given is not a key."""
    from chessclock.link import transport as K
    return K.key_for(args)


def add_arguments_verify(p: ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a log from `chessclock log pull` (or the "
                   "clock's log.bin, with --intact-only)")
    p.add_argument("--allow-torn-end", action="store_true",
                   help="accept an incomplete last record (a flash read from a clock whose "
                        "power failed during the last write)")
    p.add_argument("--intact-only", action="store_true",
                   help="check only that the log is intact, not that the clock signed it "
                        "(a log.bin read off the flash, a clock without a key)")
    add_key_arguments(p)


def verify_file(args: Namespace, stderr: TextIO, prog: str = "chessclock log"
                ) -> tuple[bytes | None, Any]:
    """(data, Result) of args.file, or (None, exit code) after one line on stderr."""
    data = _read(args.file, stderr, prog)
    if data is None:
        return None, 2
    from chessclock.link import transport as K
    try:
        key = key_of(args)
    except K.ClockError as e:
        stderr.write("%s: %s\n" % (prog, e))
        return None, 2
    return data, verify(data, getattr(args, "allow_torn_end", False), key)


def run_verify(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    data, res = verify_file(args, stderr)
    if data is None:
        return res
    for n in res.notes:
        stdout.write("note: %s\n" % n)
    for line in verification_lines(res, args.file, args.intact_only):
        stdout.write(line + "\n")
    if res.problems or (res.auth_problems and not args.intact_only):
        return 1
    return 0


def add_arguments_show(p: ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="log.bin from the clock or `log pull`")


def _not_a_log(res: Result, path: str, stderr: TextIO, prog: str) -> bool:
    if not res.records:
        stderr.write("%s: %s is not a clock's log (no log record in it)\n" % (prog, path))
        return True
    return False


def run_show(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    data = _read(args.file, stderr)
    if data is None:
        return 2
    res = verify(data, True)
    if _not_a_log(res, args.file, stderr, "chessclock log show"):
        return 2
    stdout.write(table(res))
    for p in res.problems:
        stdout.write("FAIL: %s\n" % p)
    return 1 if res.problems else 0


def add_arguments_export(p: ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="log.bin from the clock or `log pull`")
    p.add_argument("--format", choices=("jsonl", "csv", "pgn"), default="jsonl")
    p.add_argument("--pgn", metavar="GAME.pgn", help="the game's moves, merged into PGN")
    p.add_argument("--game", type=int, default=0,
                   help="PGN: which game of the log, from 1 (default: the last)")


def run_export(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    data = _read(args.file, stderr)
    if data is None:
        return 2
    res = verify(data, True)
    if _not_a_log(res, args.file, stderr, "chessclock log export"):
        return 2
    if args.format != "pgn" and args.game:
        stderr.write("chessclock log export: --game is for --format pgn\n")
        return 2
    for p in res.problems:
        stderr.write("chessclock log export: warning: %s\n" % p)
    if args.format == "jsonl":
        stdout.write(to_jsonl(res))
    elif args.format == "csv":
        stdout.write(to_csv(res))
    else:
        if not res.games:
            stderr.write("chessclock log export: no game in %s\n" % args.file)
            return 2
        if not 0 <= args.game <= len(res.games):
            stderr.write("chessclock log export: --game %d: the log has %d games (1 to %d)\n"
                         % (args.game, len(res.games), len(res.games)))
            return 2
        game = res.games[args.game - 1] if args.game else res.games[-1]
        text = None
        if args.pgn:
            try:
                with open(args.pgn, encoding="utf-8") as f:
                    text = f.read()
            except OSError as e:
                stderr.write("chessclock log export: cannot read %s: %s\n"
                             % (args.pgn, e.strerror or e))
                return 2
            except UnicodeDecodeError:
                stderr.write("chessclock log export: %s is not a scoresheet (not UTF-8 "
                             "text)\n" % args.pgn)
                return 2
        try:
            stdout.write(to_pgn(game, text))
        except ValueError as e:
            stderr.write("chessclock log export: %s\n" % e)
            return 2
    return 1 if res.problems else 0
