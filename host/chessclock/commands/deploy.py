"""`chessclock build` and `chessclock deploy`: the firmware compiled for one board, and
copied onto the board and verified (chessclock.board.deploy says how)."""

import json
from argparse import ArgumentParser, Namespace
from pathlib import Path
from typing import TextIO

from chessclock import sources
from chessclock.board.deploy import (
    EXIT_DEVICE,
    EXIT_INPUT,
    EXIT_OK,
    MANIFEST,
    build,
    build_base,
    connect,
    deploy,
    format_package_json,
    package_json,
    read_manifest,
)


def add_arguments_build(p: ArgumentParser) -> None:
    p.add_argument("--board", required=True, metavar="NAME", help="a profile of boards.toml")
    p.add_argument("--out", metavar="DIR", help="output folder (default: build/NAME)")
    p.add_argument("--boards-file", metavar="TOML", help="default: boards.toml")
    p.add_argument("--package-json", action="store_true",
                   help="also rewrite the repo's package.json (mip) from the module list")


def run_build(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if args.package_json and sources.checkout_root() is None:
        stderr.write("chessclock build: --package-json rewrites a checkout's package.json; "
                     "this chessclock is installed, not run from a checkout\n")
        return EXIT_INPUT
    out = Path(args.out) if args.out else build_base() / "build" / args.board
    entries = build(args.board, out, args.boards_file, log=lambda s: stdout.write(s + "\n"))
    stdout.write("%s: %d files, %s\n" % (out, len(entries), MANIFEST))
    root = sources.checkout_root()
    if args.package_json and root is not None:   # refused above when None
        path = root / "package.json"
        path.write_text(format_package_json(package_json()))
        stdout.write("wrote %s\n" % path)
    return 0


def add_arguments(p: ArgumentParser) -> None:
    p.add_argument("--board", required=True, metavar="NAME", help="a profile of boards.toml")
    p.add_argument("--port", required=True, metavar="PORT",
                   help="the board's serial device, e.g. /dev/ttyACM0 or COM3")
    p.add_argument("--build", metavar="DIR", help="the build folder (default: build/NAME)")
    p.add_argument("--no-reset", action="store_true",
                   help="do not soft-reset the board before copying (mpremote `resume`)")
    p.add_argument("--verify-only", action="store_true",
                   help="copy nothing; compare the device with the build's manifest")


def run(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    build_dir = Path(args.build) if args.build else build_base() / "build" / args.board
    if not (build_dir / MANIFEST).is_file():
        stderr.write("chessclock deploy: no build at %s: run `make firmware BOARD=%s`\n"
                     % (build_dir, args.board))
        return EXIT_INPUT
    try:
        board = json.loads((build_dir / "board.json").read_text()).get("board")
    except (OSError, ValueError, AttributeError):
        board = None
    if board != args.board:
        stderr.write("chessclock deploy: %s is a build for %r, not %r\n"
                     % (build_dir, board, args.board))
        return EXIT_INPUT

    def log(s: str) -> None:
        stdout.write(s + "\n")
        stdout.flush()

    from mpremote.transport import TransportError

    transport = None
    try:
        read_manifest(build_dir / MANIFEST)
        transport = connect(args.port, reset=not args.no_reset)
        deploy(transport, build_dir, verify_only=args.verify_only, log=log)
    except TransportError as e:  # the device stopped answering, or a command failed on it
        stderr.write("chessclock deploy: %s: %s\n" % (args.port, e))
        return EXIT_DEVICE
    finally:
        if transport is not None:
            try:
                transport.exit_raw_repl()
                transport.close()
            except OSError:
                pass
    return EXIT_OK
