"""The REPL never opens on the arbiter's key. firmware/main.py is run under
CPython with a stand-in board: maintenance mode (MENU held at power-on) and a board that
cannot start both remove the key file before leaving the REPL, and Ctrl-C is refused first."""

import sys
import types
from pathlib import Path

import pytest

MAIN = Path(__file__).resolve().parents[2] / "firmware" / "main.py"


def run_main(monkeypatch, tmp_path, maintenance=False, broken=False, app=None):
    calls = []
    if app is not None:    # a stand-in clockapp.app
        monkeypatch.setitem(sys.modules, "clockapp.app", app)
    mp = types.ModuleType("micropython")
    mp.kbd_intr = lambda c: calls.append(c)
    mcu = types.ModuleType("boards.mcu")

    class Board:
        @staticmethod
        def from_config(path):
            if broken:
                raise ValueError("no board.json")
            return Board()

        def storage_root(self):
            return str(tmp_path) + "/"

        def maintenance_requested(self):
            return maintenance

    mcu.McuBoard = Board
    monkeypatch.setitem(sys.modules, "micropython", mp)
    monkeypatch.setitem(sys.modules, "boards.mcu", mcu)
    monkeypatch.setattr(sys, "print_exception", lambda e: None, raising=False)
    (tmp_path / "arbiter.key").write_bytes(b"CK secret")
    exec(compile(MAIN.read_text(), str(MAIN), "exec"), {"__name__": "__main__"})
    return calls


@pytest.mark.parametrize("case", ["maintenance", "broken"])
def test_the_repl_never_opens_on_the_key(monkeypatch, tmp_path, case):
    root = tmp_path if case == "maintenance" else Path("/")
    if case == "broken":   # the root is "/" then: point the removal at tmp_path instead
        monkeypatch.chdir(tmp_path)
    calls = run_main(monkeypatch, tmp_path, maintenance=case == "maintenance",
                     broken=case == "broken")
    assert calls[0] == -1 and calls[-1] == 3      # Ctrl-C refused first, given back last
    if case == "maintenance":
        assert not (root / "arbiter.key").exists()


def test_an_app_that_keeps_failing_restarts_then_leaves_the_repl_without_the_key(
        monkeypatch, tmp_path, capsys):
    """main.py gives clockapp.app.run a report for each restart (the console says the clock
    starts again); when run gives up, the key is removed before the REPL."""
    app = types.ModuleType("clockapp.app")
    seen = []

    def run(board, report, start):
        seen.append(start)
        report(MemoryError("at boot"))          # restarted once
        raise RuntimeError("and again")         # then it gives up
    app.run = run
    calls = run_main(monkeypatch, tmp_path, app=app)
    out = capsys.readouterr().out
    assert seen == [None]                        # no hall.json: App.run
    assert "starts again from flash" in out and "cannot start: the clock stopped" in out
    assert not (tmp_path / "arbiter.key").exists() and calls[-1] == 3

