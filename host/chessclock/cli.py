"""The `chessclock` command: a table of subcommands, each in its own module.

Subcommand modules are imported only when their command runs, so that `chessclock --help`
starts fast. Exit codes: 0 success, 2 bad input (a wrong control, script or argument;
the message says which), 1 an unexpected failure.
"""

import argparse
import importlib
import sys

# name: (module under chessclock, one-line help)
COMMANDS = {
    "simulate": ("simulate", "replay a clock from a script of presses; JSON Lines out"),
    "control": ("control_cmd", "show what a time control gives each side, as PGN and text"),
    "presets": ("control_cmd", "list the presets the clock ships with"),
    "boards": ("boards", "list, show (as board.json) and check the board profiles"),
    "build": ("deploy", "compile the firmware for a board into build/BOARD/"),
    "deploy": ("deploy", "copy build/BOARD/ to a board over USB serial and verify it"),
    "sim": ("sim", "try the clock: the real firmware on a simulated board, in the terminal"),
}


def build_parser():
    p = argparse.ArgumentParser(
        prog="chessclock",
        description="Host tools for the chess clock: configure, replay and check clocks.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.set_defaults(_module=module)
        # Each module names its arguments; importing it is cheap (the core is small).
        mod = importlib.import_module("chessclock." + module)
        adder = getattr(mod, "add_arguments_" + name, None) or mod.add_arguments
        adder(sp)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    mod = importlib.import_module("chessclock." + args._module)
    runner = getattr(mod, "run_" + args.command, None) or mod.run
    try:
        return runner(args, sys.stdout, sys.stderr)
    except BrokenPipeError:  # output piped into `head` and closed: not an error
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
