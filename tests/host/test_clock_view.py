"""What an arbiter sees: `status` and `watch` as a table (a header, the clock's
name and board, the running side and flags marked, "Ctrl-C stops"), `log pull` of many
clocks with a progress bar a clock, and one JSON shape for one or many clocks. Against
simulated clocks on real ptys (`chessclock sim-serve`'s SimServer); rich's output read as
text at a fixed width."""

import io
import json
import re
import time

import pytest
from cliutil import run_cli, wait_ready

from chessclock.commands import clockrun
from chessclock.link import transport as L
from chessclock.link import view as V
from chessclock.sim.serve import SimServer

RUNNING = {"state": "running", "run": "black", "w": "181976", "wmoves": "1", "b": "65000",
           "bmoves": "0", "wflag": "-1", "bflag": "-1", "batlow": "0", "bat": "4000",
           "soc": "-1", "refused": "0", "clock": "clock-a", "board": "3",
           "players": "Ana - Bruno"}


def render(table, width=120):
    out = io.StringIO()
    V.Console(file=out, width=width, color_system=None).print(table)
    return out.getvalue()


def test_table_has_a_header_names_boards_and_marks_the_running_side_and_flags():
    both = dict(RUNNING, clock="clock-b", board="4", state="ended", run="-", w="0",
                b="0", wflag="190000", bflag="185000", batlow="1", soc="12",
                players="Carla - Dan")
    rows = [{"port": "/dev/ttyACM0", "ok": True, "result": RUNNING},
            {"port": "/dev/ttyACM1", "ok": True, "result": both},
            {"port": "/dev/ttyACM2", "ok": False, "code": 3, "error": "no reply"}]
    text = render(V.status_table(rows, "3 clocks, 2 answering, 14:02:31", "Ctrl-C stops"))
    lines = text.splitlines()
    assert "3 clocks, 2 answering, 14:02:31" in lines[0]
    header = next(x for x in lines if "Board" in x)
    for col in ("Board", "Clock", "Port", "Players", "State", "White (moves)",
                "Black (moves)", "Notes"):
        assert col in header, col
    a = next(x for x in lines if "clock-a" in x)
    assert re.search(r"3 .*clock-a .*/dev/ttyACM0 .*Ana - Bruno .*running .*3:01 \(1\) .*"
                     r"▶ 1:05 \(0\)", a), a
    b = next(x for x in lines if "clock-b" in x)
    assert "0:00 (1) FLAG 2nd" in b and "0:00 (0) FLAG 1st" in b   # Black's fell first
    assert b.index("FLAG 2nd") < b.index("FLAG 1st") and "LOW BATTERY 12 %" in b
    assert "▶" not in b
    c = next(x for x in lines if "ttyACM2" in x)
    assert "NO ANSWER" in c and "no reply" in c
    assert lines[-1].strip() == "Ctrl-C stops"
    # the marks have colours too: the running side green, a flag red
    run = V.side_cell(RUNNING, "black")
    assert any(str(sp.style) == V.RUN_STYLE for sp in run.spans)
    assert any(str(sp.style) == V.FLAG_STYLE for sp in V.side_cell(both, "white").spans)
    assert not V.side_cell(RUNNING, "white").spans[1:]   # White waits: only its dim moves


def test_on_80_columns_the_table_fits_without_ports_and_players():
    rows = [{"port": "/dev/ttyACM0", "ok": True, "result": RUNNING},
            {"port": "/dev/ttyACM2", "ok": False, "code": 3, "error": "no reply"}]
    text = render(V.status_table(rows, "t", "Ctrl-C stops", width=80), 80)
    assert all(len(x) <= 80 for x in text.splitlines())
    assert "Port" not in text and "Ana" not in text
    assert re.search(r"3 +clock-a +running +3:01 \(1\) +▶ 1:05 \(0\)", text), text
    assert re.search(r"/dev/ttyACM2 +NO ANSWER +no reply", text), text   # unnamed: its port


def test_a_clock_without_board_shows_no_board_column():
    r = dict(RUNNING)
    del r["board"], r["players"]
    text = render(V.status_table([{"port": "/dev/pts/3", "ok": True, "result": r}]))
    assert "Board" not in text and "Players" not in text and "clock-a" in text


def test_json_one_shape_with_simulates_names():
    t = clockrun.typed(dict(RUNNING, clock="0123", spec="5400", wflag="190000", bflag="185000"))
    assert t["clock"] == "0123" and t["spec"] == "5400"      # ids and specs stay text
    assert t["white_ms"] == 181976 and t["black_moves"] == 0 and t["running"] == "black"
    # flags as `simulate`'s final line has them: in the order they fell
    assert t["flags"] == [{"side": "black", "t_ms": 185000}, {"side": "white", "t_ms": 190000}]
    assert clockrun.typed(dict(RUNNING, run="-"))["running"] is None
    assert clockrun.typed(RUNNING)["flags"] == []


cc = run_cli


@pytest.fixture
def clocks(tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    monkeypatch.setenv("COLUMNS", "120")
    servers = [SimServer(str(tmp_path / n), n) for n in ("clock-a", "clock-b")]
    try:
        for s in servers:
            wait_ready(s.path)
        yield [s.path for s in servers], tmp_path
    finally:
        for s in servers:
            s.stop()


def test_status_and_watch_of_two_clocks(clocks):
    (a, b), tmp = clocks
    with L.Link(a) as lk:
        lk.request("start", change=True)
        lk.request("sim", "press", "left")
    time.sleep(0.3)
    pairings = tmp / "round.csv"
    pairings.write_text("board,white,black,clock\n7,Ana,Bruno,clock-a\n8,Carla,Dan,\n")
    code, out, err = cc(["status", "--port", a, "--port", b, "--pairings", str(pairings),
                         "--assign", "8=" + b])
    assert code == 0, err
    assert "2 clocks, 2 answering" in out.splitlines()[0]
    row_a = next(x for x in out.splitlines() if "clock-a" in x)
    row_b = next(x for x in out.splitlines() if "clock-b" in x)
    assert re.search(r"7 .*clock-a .*Ana - Bruno .*running .*▶ 2:5\d \(0\)", row_a), out
    assert re.search(r"8 .*clock-b .*Carla - Dan .*idle .*3:00 \(0\)", row_b), out
    assert "▶" not in row_b
    # watch: the same table each reading, and how to stop it
    code, out, err = cc(["watch", "--port", a, "--port", b, "--count", "2",
                         "--interval", "0.1"])
    assert code == 0, err
    assert out.count("Ctrl-C stops") == 2 and out.count("clock-b") == 2
    assert "\x1b[" not in out      # into a pipe: plain text, no escape codes
    # JSON: one shape for one clock or many, status and watch alike
    one = json.loads(cc(["status", "--port", a, "--json"])[1])
    many = json.loads(cc(["status", "--port", a, "--port", b, "--json"])[1])
    watched = json.loads(cc(["watch", "--port", a, "--port", b, "--json", "--count",
                             "1"])[1].splitlines()[0])
    assert isinstance(one, list) and len(one) == 1 and len(many) == 2
    for rows in (one, many, watched):
        for r in rows:
            assert set(r) == {"port", "ok", "result", "simulated"}
            assert r["simulated"] is True       # sim-serve clocks, said so
            assert {"white_ms", "black_ms", "white_moves", "running", "flags", "state",
                    "clock"} <= set(r["result"])
    assert many[0]["result"]["running"] == "black" and many[1]["result"]["clock"] == "clock-b"
    paired = json.loads(cc(["status", "--port", a, "--json", "--pairings", str(pairings)])[1])
    assert paired[0]["result"]["board"] == 7
    assert paired[0]["result"]["players"] == "Ana - Bruno"
    # a bad --assign is one line, exit 2
    code, out, err = cc(["status", "--port", a, "--assign", "x=clock-a"])
    assert code == 2 and "not a number" in err


def test_log_pull_of_many_clocks_shows_progress(clocks):
    (a, b), tmp = clocks
    archive = str(tmp / "archive")
    code, out, err = cc(["log", "pull", "--port", a, "--port", b, "--archive", archive,
                         "--game", "g"], tty_err=True)
    assert code == 0, err
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", err)
    for name, port in (("clock-a", a), ("clock-b", b)):
        line = [x for x in plain.splitlines() if "%s (%s)" % (name, port) in x]
        assert line and re.search(r"\d+ records, done", line[-1]), plain
    assert out.count("records -> ") == 2
    # into a pipe (stderr not a terminal): no progress, the same result lines
    code, out, err = cc(["log", "pull", "--port", a, "--port", b, "--archive", archive,
                         "--game", "g"])
    assert code == 0 and err == "" and out.count("records -> ") == 2


def test_watch_on_a_terminal_redraws_in_place_and_ctrl_c_stops_it(clocks):
    """On a terminal: one table redrawn in place (rich Live), until Ctrl-C: exit 0, no
    traceback."""
    import os
    import pty
    import select
    import signal
    import subprocess
    import sys

    (a, b), tmp = clocks
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="120", LINES="30", TERM="xterm")
    # Ctrl-C as a terminal sends it: with SIGINT at its default in the child. A shell runs
    # a background job (`make test &`, nohup) with SIGINT ignored, the child would inherit
    # that, and Python keeps an ignored SIGINT ignored (no KeyboardInterrupt at all).
    p = subprocess.Popen([sys.executable, "-m", "chessclock.cli", "watch", "--port", a,
                          "--port", b, "--interval", "0.2"], stdin=slave, stdout=slave,
                         stderr=slave, env=env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 20
    try:
        while time.monotonic() < deadline and out.count(b"clock-b") < 3:
            if select.select([master], [], [], 0.2)[0]:
                out += os.read(master, 65536)
        p.send_signal(signal.SIGINT)
        code = p.wait(10)
        while select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    text = out.decode("utf-8", "replace")
    assert code == 0, text[-2000:]
    assert "Traceback" not in text
    assert text.count("clock-b") >= 3 and "Ctrl-C stops" in text
    assert "\x1b[" in text            # redrawn in place, in colour
    assert text.count("2 clocks, 2 answering") >= 3
