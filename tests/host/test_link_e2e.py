"""End to end: the `chessclock` commands against the simulator board over a real pty, with
the firmware side under CPython and under the MicroPython unix port."""

import io
import json
import os
import time

import pytest
from cliutil import run_cli, wait_ready

from chessclock.link import transport as L
from chessclock.sim.serve import SimServer, micropython_exe
from clockapp.storage import Store

INTERPRETERS = ["cpython", pytest.param("micropython", marks=pytest.mark.skipif(
    micropython_exe() is None, reason="no micropython"))]


def cc(*argv):
    return run_cli(list(argv))


@pytest.fixture(params=INTERPRETERS)
def clock(request, tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    storage = str(tmp_path / "flash")
    server = SimServer(storage, "clock-%s" % request.param,
                       micropython=request.param == "micropython")
    try:
        wait_ready(server.path)
        yield server, storage, tmp_path
    finally:
        server.stop()


def status(path):
    code, out, err = cc("status", "--port", path, "--json")
    assert code == 0, err
    return json.loads(out)[0]["result"]


def test_configure_start_press_correct_pull(clock):
    server, storage, tmp = clock
    port = server.path
    keyfile = str(tmp / "arbiter.key")
    assert cc("key", "new", keyfile)[0] == 0
    assert cc("key", "use", keyfile)[0] == 0
    assert cc("key", "set", "--port", port)[0] == 0
    code, out, err = cc("key", "set", "--port", port)     # a keyed clock: the old key needed
    assert code == L.EXIT_AUTH and "--old-key" in err
    assert abs(int(status(port)["wall_s"]) - time.time()) < 5  # key set gave the time of day
    code, out, err = cc("set", "300+2", "--port", port)
    assert code == 2 and "--yes" in err                      # not sent without --yes
    code, out, err = cc("set", "300+2", "--yes", "--port", port)
    assert code == 0, err
    assert "each side: 5 min; +2 s per move from move 1" in out  # shown before it is sent
    assert status(port)["white_ms"] == 300000
    assert cc("start", "--port", port)[0] == 0
    assert status(port)["running"] == "white"
    with L.Link(port) as lk:
        lk.request("sim", "press", "left")                  # White's lever
    time.sleep(0.3)
    s = status(port)
    assert s["running"] == "black" and s["white_moves"] == 1
    code, out, err = cc("adjust", "black", "+2m", "--port", port)
    assert code == 0, err
    assert int(status(port)["black_ms"]) > 300000 + 110000
    assert cc("moves", "black", "40", "--port", port)[0] == 0
    assert status(port)["black_moves"] == 40
    # a player without the key changes nothing
    code, out, err = cc("pause", "--port", port, "--key", str(tmp / "nokey"))
    assert code == 2
    other = tmp / "other.key"
    cc("key", "new", str(other))
    code, out, err = cc("pause", "--port", port, "--key", str(other))
    assert code == L.EXIT_AUTH and "auth" in err
    assert status(port)["state"] == "running"
    assert cc("pause", "--port", port)[0] == 0
    assert status(port)["state"] == "paused"
    time.sleep(0.1)
    # pull the log; resumable: a second pull adds only what is new
    archive = str(tmp / "archive")
    code, out, err = cc("log-pull", "--port", port, "--archive", archive, "--game", "g1",
                        "--json")
    assert code == 0, err
    r = json.loads(out)[0]["result"]
    assert r["records"] > 5
    clock_log = list(Store(storage + "/").read_log())
    with open(r["file"], "rb") as f:
        data = f.read()
    from clockcore.framing import frame as log_record
    records = b"".join(log_record(p) for p in clock_log)
    assert data[:len(records)] == records       # the clock's records, then its signed head
    assert data[len(records):len(records) + 2] == b"HD"
    assert r["signed"] and r["acked"] is not None   # the arbiter's key acknowledged them
    # the pulled log verifies (chain, CRCs, replay, the clock's signature on its head) and
    # tells what happened, in order
    code, out, err = cc("log", "verify", r["file"])
    assert code == 0, out + err
    assert "verification: AUTHENTIC" in out
    # real dates: the host gave the clock its time at set and start
    code, out, err = cc("log", "export", r["file"], "--format", "pgn")
    import chess.pgn
    g = chess.pgn.read_game(io.StringIO(out))
    today = time.strftime("%Y.%m.%d", time.gmtime())
    assert g.headers["Date"] == today and g.headers["UTCDate"] == today
    code, out, err = cc("log", "export", r["file"], "--format", "jsonl")
    assert code == 0, err
    happened = [(e["type"], e.get("side")) for e in map(json.loads, out.splitlines())
                if e["type"] in ("start", "press", "adjust", "set-moves", "pause")]
    assert happened == [("start", "white"), ("press", "white"), ("adjust", "black"),
                        ("set-moves", "black"), ("pause", "black")], happened
    code, out, err = cc("log-pull", "--port", port, "--archive", archive, "--game", "g1",
                        "--json", "--clear")
    assert code == 0, err
    assert len(list(Store(storage + "/").read_log())) <= 2  # only what came after the clear


def test_set_pgn_no_event_plays_needs_pgn_and_the_clock_checks_too(clock):
    # `set 90+30` is refused before anything is sent; --pgn sends "pgn:90+30"
    server, storage, tmp = clock
    port = server.path
    code, out, err = cc("set", "90+30", "--yes", "--port", port)
    assert code == 2 and "write 90m+30s" in err and "--pgn" in err, err
    assert status(port)["white_ms"] == 180000                       # the default: nothing sent
    code, out, err = cc("set", "90+30", "--pgn", "--yes", "--port", port)
    assert code == 0, err
    assert "pgn:90+30 (1m30s+30s) gives" in out and "1 min 30 s; +30 s per move" in out
    assert status(port)["white_ms"] == 90000
    # the clock refuses on its own what a host sends without the prefix
    with L.Link(port) as lk:
        with pytest.raises(L.ClockError) as e:
            lk.request("set", "15+10", change=True)
    assert "write 15m+10s" in str(e.value), e.value
    assert status(port)["white_ms"] == 90000


def test_status_notes_name_a_low_battery():
    from chessclock.link.view import notes
    s = {"state": "running", "w": "60000", "wmoves": "3", "b": "50000", "bmoves": "3",
         "run": "white", "wflag": "-1", "bflag": "-1", "bat": "3900", "batlow": "0", "soc": "-1"}
    assert "BATTERY" not in notes(s)
    assert notes(dict(s, batlow="1", soc="44")) == "LOW BATTERY 44 %"
    assert notes(dict(s, batlow="1", bat="3400")) == "LOW BATTERY 3400 mV"
    assert notes(dict(s, batlow="1", refused="2")) == "LOW BATTERY 3900 mV, 2 key refusals"


def test_many_ports_one_failing(clock, tmp_path):
    server, storage, tmp = clock
    code, out, err = cc("status", "--port", server.path, "--port", "/dev/nonexistent-clock",
                        "--json")
    assert code == L.EXIT_UNREACHABLE
    rows = json.loads(out)
    assert rows[0]["ok"] and not rows[1]["ok"] and "cannot open" in rows[1]["error"]


def test_increment_alone_over_the_link_is_one_logged_action(clock):
    # FIDE Guidelines III: "+5 s a move from now on" for both, one arbiter action
    server, storage, tmp = clock
    port = server.path
    keyfile = str(tmp / "arbiter.key")
    assert cc("key", "new", keyfile)[0] == 0
    assert cc("key", "use", keyfile)[0] == 0
    assert cc("key", "set", "--port", port)[0] == 0
    assert cc("set", "5m", "--yes", "--port", port)[0] == 0
    assert cc("start", "--port", port)[0] == 0
    assert cc("pause", "--port", port)[0] == 0
    code, out, err = cc("add-increment", "0s", "--port", port)
    assert code == 2 and "above 0" in err
    before = status(port)
    code, out, err = cc("add-increment", "5s", "--port", port, "--json")
    assert code == 0, err
    after = status(port)
    # no time of its own
    assert (after["white_ms"], after["black_ms"]) == (before["white_ms"], before["black_ms"])
    assert (after["white_stage"], after["black_stage"]) == (2, 2)
    assert cc("resume", "--port", port)[0] == 0
    with L.Link(port) as lk:
        lk.request("sim", "press", "left")                    # White's move: + 5 s
    time.sleep(0.3)
    s = status(port)
    assert s["running"] == "black" and int(s["white_ms"]) > int(before["white_ms"]) + 4000
    archive = str(tmp / "archive")
    code, out, err = cc("log-pull", "--port", port, "--archive", archive, "--json")
    assert code == 0, err
    path = json.loads(out)[0]["result"]["file"]
    code, out, err = cc("log", "verify", path)                # the replay handles it
    assert code == 0, out + err
    code, out, err = cc("log", "export", path, "--format", "jsonl")
    added = [e for e in map(json.loads, out.splitlines()) if e["type"] == "add-stage"]
    assert [(e["side"], e["added_ms"], e["inc_ms"], e["reason"]) for e in added] == \
        [("white", 0, 5000, "host"), ("black", 0, 5000, "host")]


def test_every_arbiter_operation_has_a_command(clock):
    """Set a side's time, undo, add a stage, split a late arrival, end, start a
    chosen side, the time of day, and `press` on a sim-serve clock; `--all` and `ports`
    find sim-serve clocks."""
    from chessclock.sim import serve as simserve
    server, storage, tmp = clock
    port = server.path
    entry = simserve.register(port, "clock-e2e")   # as `chessclock sim-serve` does
    try:
        code, out, err = cc("ports")
        assert code == 0 and port in out and "sim-serve" in out
        code, out, err = cc("status", "--all", "--json")
        assert code == 0 and json.loads(out)[0]["port"] == port
    finally:
        os.remove(entry)
    p = ["--port", port]
    keyfile = str(tmp / "arbiter.key")
    assert cc("key", "new", keyfile)[0] == 0 and cc("key", "use", keyfile)[0] == 0
    assert cc("key", "set", *p)[0] == 0
    assert cc("set", "90m+30s", "--yes", *p)[0] == 0
    code, out, err = cc("split", "75m", "--visitor", "black", *p)
    assert code == 0, err
    s = status(port)
    assert (s["white_ms"], s["black_ms"]) == (90 * 60000 - 30 * 60000, 90 * 60000 - 45 * 60000)
    assert cc("start", "black", *p)[0] == 0
    assert status(port)["running"] == "black"
    assert cc("press", "right", *p)[0] == 0          # Black's lever (White on the left)
    time.sleep(0.3)
    assert status(port)["running"] == "white" and status(port)["black_moves"] == 1
    code, out, err = cc("undo", *p)
    assert code == 0, err
    assert "black to move" in out
    s = status(port)
    assert s["black_moves"] == 0 and s["running"] == "black"   # Black's turn again
    code, out, err = cc("undo", *p)                  # once: nothing left to undo
    assert code != 0 and "no press to undo" in err and len(err.strip().splitlines()) == 1
    assert cc("pause", *p)[0] == 0                   # times checked exactly: stopped
    code, out, err = cc("settime", "white", "4:30", *p)
    assert code == 0, err
    assert status(port)["white_ms"] == 270000
    code, out, err = cc("addstage", "both", "15m", *p)
    assert code == 0, err
    assert status(port)["white_ms"] == 270000 + 15 * 60000
    assert cc("wallclock", *p)[0] == 0
    assert abs(status(port)["wall_s"] - time.time()) < 5
    assert cc("end", *p)[0] == 0
    assert status(port)["state"] == "ended"
