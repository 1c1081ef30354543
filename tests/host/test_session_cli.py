"""The session at the board from the arbiter's laptop (docs/SESSION.md):
`selftest`, `result`, `incident`, `schedule`, `arrive` against the simulator board over a
real pty (firmware under CPython and the MicroPython unix port), then the pulled log:
`log verify` replays it, `log show` and `log export` name the new records, PGN carries the
result entered. And a bad-input table for each new command: a clear line, a non-zero exit,
never a traceback."""

import io
import json
import time

import pytest
from test_link_e2e import INTERPRETERS, cc, clock, status  # noqa: F401 (fixture)

from chessclock.commands import session as session_cmd
from chessclock.link.view import selftest_text
from chessclock.log.records import rap_10g, selftest_failures

NOPORT = ["--port", "/dev/no-such-clock"]


def keyed(tmp, port):
    keyfile = str(tmp / "arbiter.key")
    assert cc("key", "new", keyfile)[0] == 0
    assert cc("key", "use", keyfile)[0] == 0
    assert cc("key", "set", "--port", port)[0] == 0


def test_selftest_result_incident_and_the_log(clock):  # noqa: F811
    server, storage, tmp = clock
    port = server.path
    keyed(tmp, port)
    code, out, err = cc("selftest", "--port", port)
    assert code == 0, err
    assert "press both levers" in out
    assert status(port)["testing"] == 1                  # every segment lit
    code, out, err = cc("start", "--port", port)        # not while someone checks it
    assert code != 0 and "self-test is running" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert status(port)["state"] == "idle"
    deadline = time.monotonic() + 10
    while status(port)["testing"] == 1 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert status(port)["testing"] == 2                  # now the levers
    with __import__("chessclock.link.transport", fromlist=["Link"]).Link(port) as lk:
        lk.request("sim", "press", "left")
        lk.request("sim", "press", "right")
    deadline = time.monotonic() + 10
    while status(port)["testing"] == 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert status(port)["selftest"] == 0
    code, out, err = cc("status", "--port", port)
    assert code == 0 and "self-test" not in out        # a pass is not an alert
    assert cc("set", "300+2", "--yes", "--port", port)[0] == 0
    assert cc("start", "--port", port)[0] == 0
    code, out, err = cc("incident", "--port", port)
    assert code == 0, err
    assert "incident 1 marked" in out
    assert status(port)["state"] == "running"            # nothing paused
    code, out, err = cc("result", "1/2", "--port", port)
    assert code == 0, err
    assert "result 1/2-1/2 logged; the game is ended" in out
    s = status(port)
    assert s["state"] == "ended" and s["result"] == 3 and s["incidents"] == 1
    time.sleep(0.2)
    archive = str(tmp / "archive")
    code, out, err = cc("log-pull", "--port", port, "--archive", archive, "--game", "g",
                        "--json")
    assert code == 0, err
    path = json.loads(out)[0]["result"]["file"]
    code, out, err = cc("log", "verify", path)
    assert code == 0, out + err
    code, out, err = cc("log", "show", path)
    assert code == 0, err
    assert "self-test" in out and "passed=True" in out
    assert "incident" in out and "result=1/2-1/2" in out
    code, out, err = cc("log", "export", path, "--format", "jsonl")
    events = [json.loads(line) for line in out.splitlines()]
    inc = [e for e in events if e["type"] == "incident"][0]
    assert inc["incident"] == 1 and "utc" in inc          # the time of day (RGC 6.1)
    res = [e for e in events if e["type"] == "result"][0]
    assert res["result"] == "1/2-1/2" and res["by"] == "host"
    code, out, err = cc("log", "export", path, "--format", "pgn")
    import chess.pgn
    g = chess.pgn.read_game(io.StringIO(out))
    assert g.headers["Result"] == "1/2-1/2"


def test_schedule_and_arrive_over_the_link(clock):  # noqa: F811
    server, storage, tmp = clock
    port = server.path
    keyed(tmp, port)
    at = time.strftime("%H:%M", time.localtime(time.time() + 3600))
    code, out, err = cc("schedule", at, "--default", "0", "--port", port)
    assert code == 0, err
    assert "White's clock starts at" in out and "default time 0:00" in out
    s = status(port)
    assert s["sched"] > time.time() and s["state"] == "idle"
    assert cc("arrive", "black", "--port", port)[0] == 0
    code, out, err = cc("arrive", "black", "--port", port)
    assert code == 4 and "already" in err
    assert status(port)["arrived"] == 2
    code, out, err = cc("schedule", "off", "--port", port)
    assert code == 0 and "cleared" in out
    assert status(port)["sched"] == -1


def test_parse_at_is_the_next_such_time_of_day(local_zone):
    local_zone("UTC")
    now = 1796000000          # 2026-11-30 00:53:20 UTC
    assert session_cmd.parse_at("01:00", now) == now + 400
    assert session_cmd.parse_at("00:53", now) == now - 20 + 86400   # past: tomorrow
    assert session_cmd.parse_at("off", now) == 0


def test_rap_threshold_and_selftest_names():
    assert rap_10g(30000, 90000)          # at least 30 s
    assert rap_10g(20000, 10000)          # under 30 s but more than the opponent
    assert not rap_10g(20000, 25000)
    assert not rap_10g(29999, 29999)
    assert selftest_failures(0) == []
    assert selftest_failures(2 | 4) == ["right lever", "battery low"]
    assert selftest_failures(32) == ["cut short by the game's start"]
    assert selftest_text(32) == "self-test FAILED: cut short by the game's start"


BIG = "9" * 5000
BAD = [
    (["selftest", "--wait", "nan"] + NOPORT, "--wait"),
    (["selftest", "--wait", "-1"] + NOPORT, "--wait"),
    (["selftest", "--wait", BIG] + NOPORT, "--wait"),
    (["selftest"], "no clock given"),
    (["selftest"] + NOPORT, "cannot open"),
    (["result", "2-0"] + NOPORT, "invalid choice"),
    (["result"] + NOPORT, "required"),
    (["result", "1-0"] + NOPORT, "cannot open"),
    (["incident", "extra"] + NOPORT, "unrecognized"),
    (["incident"] + NOPORT, "cannot open"),
    (["schedule", "25:00"] + NOPORT, "not a time of day"),
    (["schedule", "12:5x"] + NOPORT, "not a time of day"),
    (["schedule", BIG] + NOPORT, "not a time of day"),
    (["schedule", ""] + NOPORT, "not a time of day"),
    (["schedule", "12:00", "--default=-5m"] + NOPORT, "not a time"),
    (["schedule", "12:00", "--default", BIG] + NOPORT, "not a time"),
    (["schedule", "12:00", "--default", "25h"] + NOPORT, "at most 24h"),
    (["schedule", "12:00", "--default", "1500ms"] + NOPORT, "whole seconds"),
    (["schedule", "12:00"] + NOPORT, "cannot open"),
    (["arrive", "green"] + NOPORT, "invalid choice"),
    (["arrive", "white"] + NOPORT, "cannot open"),
]


@pytest.mark.parametrize("argv,says", BAD, ids=[" ".join(a)[:40] for a, _ in BAD])
def test_bad_input_gets_one_clear_line_and_a_non_zero_exit(argv, says, capsys):
    from chessclock import cli
    try:
        code = cli.main(argv)
    except SystemExit as e:      # argparse's own refusals
        code = e.code
    out = capsys.readouterr()
    assert code != 0
    assert "Traceback" not in out.err + out.out
    assert says in out.err, out.err[-300:]


def test_selftest_in_the_simulator_at_power_on(tmp_path):
    from cliutil import run_cli
    script = tmp_path / "s.txt"
    script.write_text("500 show\n2500 lever left\n2600 lever right\n2800 show\n"
                      "6000 show\n")
    code, out, err = run_cli(["sim", "--selftest", "--storage", str(tmp_path / "flash"),
                              "--script", str(script)])
    assert code == 0, err
    lamp, result, after = [json.loads(x) for x in out.splitlines()]
    assert lamp["left"]["test"] and lamp["right"]["test"]
    assert result["left"]["text"] == "tESt" and result["right"]["text"] == "PASS"
    assert after["left"]["text"] is None and after["left"]["time"] == "3:00"
    code, out, err = run_cli(["log", "show", str(tmp_path / "flash" / "log.bin")])
    assert code == 0, err
    assert "self-test" in out and "passed=True" in out


def _log_bytes(board):
    with open(board.root + "log.bin", "rb") as f:
        return f.read()


def test_a_scheduled_game_with_its_marks_verifies_and_exports():
    # The scheduled start, an arrival, the default time, the low-time mark, an incident,
    # the arbiter menu, who resumed and the result: `log verify` replays the game through
    # the engine with all of them in it, and export names each one.
    from inproc import scheduled_game

    from chessclock.log.export import to_pgn
    from chessclock.log.verify import verify
    board, app, lk = scheduled_game()
    res = verify(_log_bytes(board), allow_torn_end=True)
    assert res.problems == [], res.problems
    types = [e["type"] for e in res.events]
    for want in ("schedule", "arrival", "default-time", "low-time", "incident", "arbiter",
                 "result"):
        assert want in types, (want, types)
    ev = {e["type"]: e for e in res.events}
    assert ev["schedule"]["scheduled_utc"] == "2026-11-30T00:53:22Z"
    assert ev["default-time"]["side"] == "black" and ev["default-time"]["default_s"] == 10
    assert ev["default-time"]["utc"] == "2026-11-30T00:53:32Z"
    assert ev["low-time"]["side"] == "white" and ev["low-time"]["mark_ms"] == 300000
    assert ev["result"]["result"] == "0-1" and ev["result"]["by"] == "clock"
    arrivals = [(e["side"], e["after_start_ms"] // 1000) for e in res.events
                if e["type"] == "arrival"]
    assert arrivals[0] == ("white", 3) and arrivals[1][0] == "black"
    assert "Result \"0-1\"" in to_pgn(res.games[-1])


def test_rap_draw_claim_threshold_at_each_stop_of_a_5_minute_game():
    from simutil import boot, until

    from chessclock.log.verify import verify
    from clockapp.board import BTN_START, LEFT
    board, app = boot()
    app.new_game("fide-5min-1990")
    app.clock.set_time(0, 25000, app.now)     # White 25 s, Black 5 min
    board.press_buttons(BTN_START, 500000)
    until(app, board, 1000)
    board.press_buttons(BTN_START, 2000000)   # stop: White to move, 23.5 s left
    until(app, board, 2500)
    board.press_buttons(BTN_START, 3000000)   # resume
    board.press_lever(LEFT, 4000000)
    until(app, board, 4500)
    board.press_buttons(BTN_START, 5000000)   # stop
    until(app, board, 5500)
    app.flush()
    res = verify(_log_bytes(board), allow_torn_end=True)
    assert res.problems == []
    pauses = [e for e in res.events if e["type"] == "pause"]
    assert [p["draw_claim_30s"] for p in pauses] == ["black", "black"]
    resumes = [e for e in res.events if e["type"] == "resume"]
    assert [r["paused_ms"] for r in resumes] == [1000]       # the stop's length (seed 5.1)
    who = [e["by"] for e in res.events if e["type"] == "resumed-by"]
    assert who == ["player"]
    # under 30 s but more than the opponent: may claim
    from chessclock.log.records import rap_10g
    assert rap_10g(pauses[0]["white_ms"], 20000)


def test_status_line_alerts_the_arbiter_to_a_failed_selftest_and_the_default_time():
    from chessclock.link.view import notes as _status_line  # the status table's Notes
    s = {"state": "running", "w": "3000000", "b": "3600000", "wmoves": "0", "bmoves": "0",
         "run": "white", "wflag": "-1", "bflag": "-1", "batlow": "0"}
    assert "SELF-TEST" not in _status_line(dict(s, selftest="0", default="0"))
    line = _status_line(dict(s, selftest="5", default="2"))
    assert "self-test FAILED: left lever, battery low" in line
    assert "DEFAULT TIME PASSED: black" in line
    assert _status_line(s) == _status_line(dict(s, selftest="-1"))   # an older firmware


def test_status_line_names_who_may_claim_under_rap_10g_at_a_stop():
    from chessclock.link.view import notes as _status_line  # the status table's Notes
    s = {"state": "paused", "w": "25000", "b": "20000", "wmoves": "9", "bmoves": "9",
         "run": "-", "wflag": "-1", "bflag": "-1", "batlow": "0", "spec": "fide-5min-1990"}
    assert "draw claim (RAP 10g) open to: white" in _status_line(s)
    assert "open to: black" in _status_line(dict(s, b="45000"))   # under 30 s and less
    assert "open to: white and black" in _status_line(dict(s, w="35000", b="45000"))
    assert "RAP" not in _status_line(dict(s, state="running"))
    assert "RAP" not in _status_line(dict(s, spec="fide-blitz"))
