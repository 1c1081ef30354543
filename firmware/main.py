# The board's entry point: MicroPython runs /main.py after boot.py. It builds the real
# board from /board.json (made by `chessclock build` from boards.toml) and runs the clock.
# Anything missing is reported on the serial console and the board stays at the REPL, so
# `chessclock deploy` can always reach it.
#
# The REPL can read every file on the flash, so before it is left free (maintenance mode,
# a board that cannot start, a crash) the arbiter's key is removed: a cable at power-on
# never reads it (docs/EVENT-LOG.md, "Threat model"). Ctrl-C is refused from the first line.

import sys

KEY_FILES = ("arbiter.key", "arbiter.key.new")   # clockapp/linkcommon.py KEY_FILE, storage's .new


def _no_ctrl_c():
    """Refuse Ctrl-C from the cable (an interrupt already pending is taken and ignored)."""
    for _ in range(5):
        try:
            import micropython
            micropython.kbd_intr(-1)
            return
        except KeyboardInterrupt:
            continue
        except (ImportError, AttributeError):
            return


def _to_repl(root):
    """Forget the arbiter's key, then give Ctrl-C back for the REPL."""
    import os
    for name in KEY_FILES:
        try:
            os.remove(root + name)
        except OSError:
            pass
    print("chessclock: the arbiter's key was removed (set it again with `chessclock key set`)")
    try:
        import micropython
        micropython.kbd_intr(3)
    except (ImportError, AttributeError):
        pass


def _fail(what, e):
    print("chessclock: cannot start: %s" % what)
    sys.print_exception(e)
    print("chessclock: staying at the REPL; deploy a complete build with `chessclock deploy`")


def main():
    _no_ctrl_c()
    root = "/"
    try:
        from boards.mcu import McuBoard
    except ImportError as e:
        _fail("boards/mcu is not on the board", e)
        return _to_repl(root)
    try:
        board = McuBoard.from_config("board.json")
        root = board.storage_root()
    except Exception as e:  # ConfigError (no or wrong board.json), or a pin the port refuses
        _fail("the board could not be set up from board.json", e)
        return _to_repl(root)
    if board.maintenance_requested():
        print("chessclock: maintenance mode (MENU held at boot): the clock does not start")
        return _to_repl(root)
    try:
        from clockapp.app import run
    except ImportError as e:
        _fail("the clock application (clockapp/app) is missing or incomplete", e)
        return _to_repl(root)
    hall = _in_hall(board)   # a Wi-Fi clock publishing to the hall (docs/HALL.md)
    if hall:
        try:
            from clockapp import hallpub
        except ImportError as e:
            _fail("the hall publisher (clockapp/hallpub) is missing or incomplete", e)
            return _to_repl(root)
    try:
        # An error starts the clock again from flash (paused, logged): a few times a
        # power-on, then it comes here (clockapp/app.py run).
        run(board, _restarting, hallpub.with_station if hall else None)
    except Exception as e:  # a bug: the REPL must not open on a key
        _fail("the clock stopped", e)
        return _to_repl(root)


def _restarting(e):
    print("chessclock: an error; the clock starts again from flash, paused")
    sys.print_exception(e)


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
