"""From the clock to the arbiter's ruling, end to end: a game on the simulator board (the
real firmware), its log file as stored on the clock's flash, `chessclock log verify`,
`log export --format jsonl`, then `chessclock ruling` on that export with no other input."""

import json
import sys

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

    code, out, err = run_cli(["log", "verify", log], capsys)
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
    # 3.5, 6.5 and 9.5 s: White had 181.530 s from 9.5 s, so the flag fell at 3:11.030.
    assert "Control: fide-blitz" in r["facts"]
    assert r["ruling"][0]["text"].startswith("White's flag fell first, at 3:11.030")
    assert r["result"] == "0-1"
    assert r["ruling"][-1]["article"] == "FIDE 6.9"
