"""From the clock to the arbiter's ruling, end to end: a game on the simulator board (the
real firmware), its log file as stored on the clock's flash, `chessclock log verify`,
`log export --format jsonl`, then `chessclock ruling` on that export with no other input."""

import json
import sys

import pytest

from chessclock import cli

sys.path.insert(0, "tests/core")
from simutil import boot, until  # noqa: E402

from clockapp.board import BTN_START, LEFT, RIGHT  # noqa: E402


def run_cli(argv, capsys):
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_flag_on_the_clock_is_ruled_from_its_own_log(tmp_path, capsys):
    board, app = boot()
    board.press_buttons(BTN_START, 500000)          # fide-blitz 3+2
    t = 2000
    for i in range(6):
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000)
        t += 1500
    until(app, board, t + 200000)                    # White runs out
    assert app.clock.flag_at[0] >= 0
    log = board.root + "log.bin"

    code, out, err = run_cli(["log", "verify", log, "--intact-only"], capsys)
    assert code == 0, out + err
    code, out, err = run_cli(["log", "export", log, "--format", "jsonl"], capsys)
    assert code == 0, err
    events = tmp_path / "game.jsonl"
    events.write_text(out)
    flags = [json.loads(x) for x in out.splitlines() if json.loads(x).get("type") == "flag"]
    assert [f["side"] for f in flags] == ["white"]

    code, out, err = run_cli(["ruling", str(events), "--json"], capsys)
    assert code == 0, err
    r = json.loads(out)
    # The control came from the log's own game header; the numbers by hand: White started
    # at 0.530 s (button + 30 ms debounce), pressed at 2, 5 and 8 s (+2 s each), Black at
    # 3.5, 6.5 and 9.5 s: White had 181.530 s from 9.5 s, so the flag fell at 3:11.030 on
    # the clock's time since power-on, 3:10.500 of the game (from its start at 0.530 s).
    assert "Control: fide-blitz" in r["facts"]
    assert r["ruling"][0]["text"].startswith("White's flag fell first, at game time 3:10.500")
    assert r["result"] == "0-1"
    assert r["ruling"][-1]["article"] == "FIDE 6.9"

    # The replacement clock's times at an instant: the engine replaying the export (with
    # the header's control and options) agrees with every record, and charges White from
    # 9.5 s: 181.530 s - 50.5 s at 1:00.
    code, out, err = run_cli(["ruling", "replace", str(events), "--at", "1:00", "--json"],
                             capsys)
    assert code == 0, err
    st = json.loads(out)["state"]
    assert st["notes"] == [] and st["running"] == "white"
    assert st["times"]["white"] == 181530 - 50500


@pytest.mark.seed("S1 6.12", item="4.5")
def test_both_flags_on_a_no_freeze_clock_under_each_rule_set(tmp_path, capsys):
    # FIDE Active 1987 keeps the clock running after a flag (a claim needs one's own flag
    # up), so both can fall. White's flag falls first; nobody claims; Black's falls later.
    from boards.sim import run_until

    board, app = boot()
    app.new_game("fide-active-1987")
    board.press_buttons(BTN_START, 500000)
    board.press_lever(LEFT, 2000000)
    board.press_lever(RIGHT, 4000000)
    # White now has 30 min - 1.47 s; its flag falls, it presses on at 1900 s, then Black's
    run_until(app, board, 1850000000, step_us=50000)
    board.press_lever(LEFT, 1900000000)
    run_until(app, board, 3800000000, step_us=50000)
    c = app.clock
    assert c.flag_order == [0, 1]
    log = board.root + "log.bin"
    code, out, err = run_cli(["log", "export", log, "--format", "jsonl"], capsys)
    assert code == 0, err
    events = tmp_path / "game.jsonl"
    events.write_text(out)
    results = {}
    for rules in ("fide2023", "act1987", "rap1990"):
        code, out, err = run_cli(["ruling", str(events), "--rules", rules, "--json"], capsys)
        assert code == 0, err
        r = json.loads(out)
        results[rules] = (r["result"], [x["article"] for x in r["ruling"]])
    assert results["fide2023"][0] == "0-1"        # the clock shows which fell first (6.8)
    assert results["act1987"][0] == "1/2-1/2"     # ACT 11c: the later flag, unclaimed
    assert results["rap1990"][0] == "1/2-1/2"     # RAP 9: both flags down, a draw
    assert any("ACT 11" in a for a in results["act1987"][1])
    assert any("RAP 9" in a for a in results["rap1990"][1])
