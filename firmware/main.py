# The board's entry point: MicroPython runs /main.py after boot.py. It builds the real
# board from /board.json (made by `chessclock build` from boards.toml) and runs the clock.
# Anything missing is reported on the serial console and the board stays at the REPL, so
# `chessclock deploy` can always reach it.

import sys


def _fail(what, e):
    print("chessclock: cannot start: %s" % what)
    sys.print_exception(e)
    print("chessclock: staying at the REPL; deploy a complete build with `chessclock deploy`")


def main():
    try:
        from boards.mcu import McuBoard
    except ImportError as e:
        _fail("boards/mcu is not on the board", e)
        return
    try:
        board = McuBoard.from_config("board.json")
    except Exception as e:  # ConfigError (no or wrong board.json), or a pin the port refuses
        _fail("the board could not be set up from board.json", e)
        return
    if board.maintenance_requested():
        print("chessclock: maintenance mode (MENU held at boot): the clock does not start")
        return
    try:
        from clockapp.app import run
    except ImportError as e:
        _fail("the clock application (clockapp/app) is missing or incomplete", e)
        return
    if _in_hall(board):
        from clockapp.hallpub import run  # a Wi-Fi clock publishing to the hall (docs/HALL.md)
    run(board)


def _in_hall(board):
    """A hall.json on the flash (and the optional module on the board)."""
    import os
    try:
        os.stat(board.storage_root() + "hall.json")
        __import__("clockapp.hallpub")
        return True
    except (OSError, ImportError):
        return False


main()
