"""One error hierarchy (chessclock.errors): every error a user can cause is a
ChessclockError, bad input an InputError (a ValueError, exit status 2), and `cli.main`
turns any of them into one line `chessclock COMMAND: MESSAGE` and its exit_code."""

import pytest

from chessclock import adjourned, cli, timetext
from chessclock.board import deploy, displays, mcus, profiles
from chessclock.commands import deadline
from chessclock.competition import deadlines, knockout, retention, rounds, teams
from chessclock.corr import dates, notation, store
from chessclock.errors import ChessclockError, InputError
from chessclock.hall import pairings
from chessclock.hardware import trace
from chessclock.link import transport
from chessclock.sim import script

# (an instance, its exit status, is it bad input)
ERRORS = [
    (transport.ClockError(transport.EXIT_UNREACHABLE, "no reply", "is it on?"), 3, False),
    (transport.ClockError(transport.EXIT_AUTH, "keyset refused"), 5, False),
    (transport.ClockError(transport.EXIT_INPUT, "no clock given"), 2, False),
    (deploy.DeployError(deploy.EXIT_MISMATCH, "main.py differs"), 4, False),
    (store.LedgerDamaged("record 5 changed"), 3, True),
    (dates.CorrError("not a date"), 2, True),
    (notation.BadMove("illegal", "Kf9"), 2, True),
    (deadlines.DeadlineError("give --from"), 2, True),
    (displays.UnknownDisplay("no such display"), 2, True),
    (mcus.UnknownMcu("no such MCU"), 2, True),
    (profiles.BoardError("pico", "mcu", "no such MCU"), 2, True),
    (profiles.BoardsFileError("boards.toml", ["pico: mcu: no such MCU"]), 2, True),
    (pairings.PairingError("board 0"), 2, True),
    (timetext.DurationError("a bare number"), 2, True),
    (script.ScriptError("line 1: no such action"), 2, True),
    (adjourned.AdjournError("not an adjourned game"), 2, True),
    (trace.WiringError("no connector"), 2, True),
    (knockout.KnockoutError("one player"), 2, True),
    (rounds.RoundsError("no rounds"), 2, True),
    (teams.TeamError("no board"), 2, True),
    (retention.RetentionError("no date"), 2, True),
]


@pytest.mark.parametrize("error, code, bad_input", ERRORS,
                         ids=[type(e).__name__ + str(c) for e, c, _ in ERRORS])
def test_every_user_error_is_a_chessclock_error_with_its_exit_status(error, code, bad_input):
    assert isinstance(error, ChessclockError)
    assert error.exit_code == code
    assert isinstance(error, InputError) == bad_input
    if bad_input:
        assert isinstance(error, ValueError)


@pytest.mark.parametrize("error, code, bad_input", ERRORS,
                         ids=[type(e).__name__ + str(c) for e, c, _ in ERRORS])
def test_cli_turns_a_chessclock_error_into_one_line_and_its_exit_status(
        monkeypatch, capsys, error, code, bad_input):
    def run(args, stdout, stderr):
        stdout.write("partial output\n")
        raise error
    monkeypatch.setattr(deadline, "run", run)
    assert cli.main(["deadline", "appeal"]) == code
    out, err = capsys.readouterr()
    assert err == "chessclock deadline: %s\n" % error
    assert "Traceback" not in err and "unexpected" not in err


def test_any_other_exception_is_still_a_bug_in_one_line(monkeypatch, capsys):
    def run(args, stdout, stderr):
        raise KeyError("x")
    monkeypatch.setattr(deadline, "run", run)
    assert cli.main(["deadline", "appeal"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("chessclock deadline: unexpected error (a bug") and err.count("\n") == 1
