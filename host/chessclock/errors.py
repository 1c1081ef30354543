"""The one error hierarchy of the host tools: every error a user can cause is a
ChessclockError, and `chessclock.cli` turns its exit_code into the process's exit status
in one place."""


class ChessclockError(Exception):
    """An error the user can act on; its message is one line, shown as is."""

    exit_code = 1


class InputError(ChessclockError, ValueError):
    """Bad input: a wrong argument, control, script or file (exit status 2)."""

    exit_code = 2
