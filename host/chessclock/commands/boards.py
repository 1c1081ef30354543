"""`chessclock boards list|show|check`: the board profiles of boards.toml
(chessclock.board.profiles)."""

from argparse import ArgumentParser, Namespace
from typing import TextIO

from chessclock.board.profiles import BoardsFileError, load


def add_arguments(p: ArgumentParser) -> None:
    p.add_argument("--file", metavar="TOML", default=None,
                   help="the boards file (default: ./boards.toml, else the checkout's)")
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.add_parser("list", help="list the profiles (the default)")
    s = sub.add_parser("show", help="print a profile's board.json")
    s.add_argument("name", metavar="NAME")
    k = sub.add_parser("check", help="validate a boards file; exit 2 naming each problem")
    k.add_argument("path", metavar="FILE", nargs="?", default=None)


def run(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    action = args.action or "list"
    path = args.file
    if action == "check" and args.path:
        path = args.path
    try:
        boards = load(path)
        if action == "show":
            stdout.write(boards.get(args.name).to_json())
            return 0
    except BoardsFileError as e:   # a line a problem (a BoardError: chessclock.cli says it)
        for err in e.errors:
            stderr.write("chessclock boards: %s\n" % err)
        return e.exit_code
    if action == "check":
        stdout.write("%s: ok, %d profiles: %s\n" % (boards.path, len(boards.profiles),
                                                    ", ".join(boards.profiles)))
        return 0
    width = max(len(n) for n in boards.profiles)
    for name, prof in boards.profiles.items():
        stdout.write("%-*s  %-6s  %s\n" % (width, name, prof.mcu.name, prof.description))
    return 0
