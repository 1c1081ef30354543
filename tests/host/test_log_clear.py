"""`chessclock log-pull --clear` on a clock without an arbiter key: the clock asks the
person at it (hold MENU 2 s) and the host waits for that answer; with a key the signed
request clears at once. The simulator board in-process (tests/host/inproc.py)."""

import pytest
from inproc import KEY, InProcess, flagged_game
from simutil import until

from chessclock.link import transport as HL
from chessclock.log import pull as log_pull
from clockapp.board import BTN_MENU, BTN_START


class Clocked(InProcess):
    """Each `status` lets the clock run half a second (the host polls it while it waits)."""

    def __init__(self, app, board, key=None):
        super().__init__(app, key)
        self.board = board

    def exchange(self, frame_bytes, rid, op):
        if op == "status":
            until(self.app, self.board, self.app.now + 500)
        return super().exchange(frame_bytes, rid, op)


def ended_game(key=None):
    """A game played to White's flag and ended: between games, when a keyless clock takes
    a change."""
    board, app = flagged_game(key=key)
    app.clock.end(app.now)
    until(app, board, app.now + 200)
    return board, app


@pytest.fixture(autouse=True)
def no_sleep(monkeypatch):
    monkeypatch.setattr(log_pull.time, "sleep", lambda s: None)


def test_a_keyless_clock_clears_its_log_when_menu_is_held_on_it(tmp_path):
    board, app = ended_game()
    asked = []

    def hold_menu(seconds):
        asked.append(seconds)
        board.press_buttons(BTN_MENU, (app.now + 200) * 1000, hold_us=2500000)

    r = log_pull.pull(Clocked(app, board), str(tmp_path), "g", clear=True, on_ask=hold_menu)
    assert asked == [30] and r["cleared"] == r["records"] - 1
    assert list(app.store.read_log()) == []
    with open(r["file"], "rb") as f:
        assert len(f.read()) > 100                   # the pulled log is kept on the host


@pytest.mark.parametrize("answer,says", [
    (None, "not confirmed on the clock"),            # nobody at the clock: the time runs out
    (BTN_START, "not confirmed on the clock"),       # another button says no
])
def test_a_keyless_clock_keeps_its_log_without_the_hold(tmp_path, answer, says):
    board, app = ended_game()

    def press(seconds):
        if answer is not None:
            board.press_buttons(answer, (app.now + 200) * 1000)

    with pytest.raises(HL.ClockError) as e:
        log_pull.pull(Clocked(app, board), str(tmp_path), "g", clear=True, on_ask=press)
    assert says in str(e.value) and "log pulled to" in str(e.value)
    assert e.value.code == HL.EXIT_FAILED
    assert len(list(app.store.read_log())) > 5        # kept on the clock


def test_a_keyed_clock_clears_at_the_signed_request_without_asking(tmp_path):
    board, app = ended_game(KEY)
    asked = []
    r = log_pull.pull(Clocked(app, board, KEY), str(tmp_path), "g", clear=True,
                       on_ask=asked.append)
    assert asked == [] and "cleared" in r
    assert list(app.store.read_log()) == []
