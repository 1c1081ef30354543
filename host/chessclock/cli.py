"""The `chessclock` command: a table of subcommands, each in its own module.

Subcommand modules are imported only when their command runs, so that `chessclock --help`
starts fast. Exit codes: 0 success, 2 bad input (a wrong control, script or argument;
the message says which), 74 the output could not be written (a full disk, `> /dev/full`, a
quota), 1 an unexpected failure; the clock commands add theirs (chessclock/link/transport.py).
An error the user can act on is a chessclock.errors.ChessclockError: main() prints it as
one line, `chessclock COMMAND: MESSAGE`, and exits with its exit_code.
"""

import argparse
import errno
import importlib
import os
import sys
from argparse import Namespace

from chessclock.errors import ChessclockError

EXIT_OUTPUT = 74   # sysexits.h EX_IOERR: the output could not be written
# What a full or failing output looks like (a broken pipe is no error: see main)
_OUTPUT_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)

# name: (module under chessclock, one-line help); the modules are chessclock/commands/
COMMANDS = {
    "simulate": ("commands.simulate", "replay a clock from a script of presses; JSON Lines out"),
    "control": ("commands.control", "show what a time control gives each side, as PGN and text"),
    "presets": ("commands.control", "list the presets the clock ships with"),
    "boards": ("commands.boards", "list, show (as board.json) and check the board profiles"),
    "build": ("commands.deploy", "compile the firmware for a board into build/BOARD/"),
    "deploy": ("commands.deploy", "copy build/BOARD/ to a board over USB serial and verify it"),
    "ruling": ("commands.ruling", "rule on a flag, a late arrival or a clock replacement "
               "from a log"),
    "sim": ("commands.sim", "try the clock: the real firmware on a simulated board, in the "
            "terminal"),
    "log": ("commands.log", "the clock's event log: pull, verify, show, export"),
    "sim-serve": ("commands.sim_serve", "the simulator board as a serial device on a pty; prints "
                  "its port"),
    "ports": ("commands.clock", "find attached clocks by their USB ids"),
    "info": ("commands.clock", "firmware, board, clock id and protocol of clocks"),
    "status": ("commands.clock", "times, running side, moves and flags of clocks"),
    "watch": ("commands.clock", "live view of one or many clocks, refreshing in place"),
    "set": ("commands.clock", "set the time control of clocks (shows what each side gets)"),
    "start": ("commands.clock", "start the game on clocks"),
    "pause": ("commands.clock", "pause clocks (arbiter's key)"),
    "resume": ("commands.clock", "resume paused clocks (arbiter's key)"),
    "adjust": ("commands.clock", "add or take time from a side, e.g. adjust white +2m"),
    "moves": ("commands.clock", "set a side's move counter, e.g. moves black 40"),
    "add-increment": ("commands.clock", "+INC a move from now on for both sides (FIDE Guidelines "
                      "III), e.g. add-increment 5s"),
    "settime": ("commands.clock", "set a side's time, e.g. settime white 4:30 (arbiter's key)"),
    "undo": ("commands.clock", "the last press was not a move: take it back (arbiter's key)"),
    "stage": ("commands.clock", "put a side in stage N, e.g. stage black 2 (arbiter's key)"),
    "addstage": ("commands.clock", "add a stage to a side or both, e.g. addstage both 15m"),
    "split": ("commands.clock", "charge a late arrival: split 75m --visitor black (60/40)"),
    "end": ("commands.clock", "end the game on clocks (arbiter's key)"),
    "wallclock": ("commands.clock", "set clocks' time of day to this computer's (UTC)"),
    "press": ("commands.clock", "press a lever of a `sim-serve` clock: press left|right"),
    "key": ("commands.key", "the arbiter's key: new, use, set on clocks, check"),
    "log-pull": ("commands.clock", "pull clocks' event logs into a local archive (resumable)"),
    "seal": ("commands.adjourn", "adjournment: seal start|done|cancel on a clock (the player to "
             "move seals; 15-minute alert; hashed snapshot)"),
    "adjourn": ("commands.adjourn", "an adjourned game: export FILE from the sealing clock, show "
                "FILE, resume FILE on a clock at the next session"),
    "selftest": ("commands.session", "run the clock's self-test: segments, levers, buzzer, "
                 "battery"),
    "result": ("commands.session", "enter the game's result on clocks, e.g. result 1/2 (logged)"),
    "incident": ("commands.session", "mark an incident: both clocks and counters, no pause"),
    "schedule": ("commands.session", "start White's clock at a time of day: schedule 14:30"),
    "arrive": ("commands.session", "mark a player at the board: arrive black"),
    "corr": ("commands.corr", "correspondence chess ledger (CXEB e-mail rules): days, series, "
             "claims"),
    "pairings": ("commands.pairings", "a round's pairings (CSV or FIDE TRF) onto the clocks: "
                 "push FILE, show FILE, clear"),
    "team": ("commands.team", "FCE team matches: substitute, short team, no-shows, board colours "
             "(RGC 12.3, 13.2, 14.1, 5.3.1.2)"),
    "deadline": ("commands.deadline", "disciplinary and competition deadlines from a date, and "
                 "where a ruling is appealed (DISC, RGC 5.5.1, S0 Art. 42-43)"),
    "knockout": ("commands.knockout", "a single-elimination event (seed S3): draw the bracket "
                 "and colours by lot, record winners"),
    "rounds": ("commands.rounds", "rapid events' schedule rules (rules posted 30 min before, 6 "
               "Active rounds a day) and a round's length"),
    "retention": ("commands.retention", "which logs and scoresheets may be discarded, which must "
                  "be kept (60 days after the results: S0 Art. 10)"),
    "hall": ("commands.hall", "the arbiter's live page of every clock (web, MQTT stations, "
             "broadcast PGN, pairings in, results out)"),
}


def _chosen(argv: list[str]) -> str | None:
    """The command named on the command line (the first word that is one), or None."""
    for word in argv:
        if word in COMMANDS:
            return word
        if not word.startswith("-"):
            return None
    return None


def _version() -> str:
    from chessclock import __version__
    return "chessclock %s (firmware %s, serial protocol 1, log format 2)" % (
        __version__, __version__)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen command's module is imported to add its arguments, so
    `chessclock --help` imports no command module (nor pyserial, chess, ...)."""
    if argv is None:
        argv = sys.argv[1:]
    chosen = _chosen(argv)
    p = argparse.ArgumentParser(
        prog="chessclock",
        description="Host tools for the chess clock: configure, replay and check clocks.")
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.set_defaults(_module=module)
        if name == chosen:
            mod = importlib.import_module("chessclock." + module)
            fname = name.replace("-", "_")
            adder = getattr(mod, "add_arguments_" + fname, None) or mod.add_arguments
            adder(sp)
    return p


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    args = build_parser(argv).parse_args(argv)
    mod = importlib.import_module("chessclock." + args._module)
    runner = getattr(mod, "run_" + args.command.replace("-", "_"), None) or mod.run
    try:
        code = runner(args, sys.stdout, sys.stderr)
        sys.stdout.flush()   # a full disk shows here for a short output, not at exit
        return code
    except BrokenPipeError:  # output piped into `head` and closed: not an error
        return 0
    except KeyboardInterrupt:
        return 130
    except ChessclockError as e:  # the one place a user's error becomes an exit status
        sys.stderr.write("chessclock %s: %s\n" % (args.command, e))
        return e.exit_code
    except OSError as e:
        if e.errno not in _OUTPUT_ERRNOS or e.filename is not None:
            return _bug(args, e)
        _drop_stdout()
        sys.stderr.write("chessclock %s: cannot write the output: %s\n"
                         % (args.command, e.strerror or e))
        return EXIT_OUTPUT
    except UnicodeDecodeError as e:  # a binary or non-UTF-8 file where text was expected
        sys.stderr.write("chessclock %s: a file given is not UTF-8 text (%s)\n"
                         % (args.command, e.reason))
        return 2
    except Exception as e:  # a bug: one line, never a traceback (CHESSCLOCK_DEBUG shows it)
        return _bug(args, e)


def _bug(args: Namespace, e: BaseException) -> int:
    if os.environ.get("CHESSCLOCK_DEBUG"):
        raise e
    sys.stderr.write("chessclock %s: unexpected error (a bug, please report it): %s: %s\n"
                     % (args.command, type(e).__name__, str(e)[:200]))
    return 1


def _drop_stdout() -> None:
    """What could not be written is dropped, so that the interpreter's own flush at exit
    fails no second time (it would print a second error)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's StringIO)
        pass


if __name__ == "__main__":
    sys.exit(main())
