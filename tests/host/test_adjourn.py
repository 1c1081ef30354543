"""Adjournment end to end (seed §8.1-8.5, 5.6, P6; docs/ADJOURNMENT.md): `chessclock seal`
and `chessclock adjourn` against simulated clocks over real ptys (firmware side under
CPython and the MicroPython unix port), the logs of both clocks checked by `log verify`,
the simulator path (`simulate` seal actions, --export-adjourned, --adjourned), and a table
of bad input for each new command: one line, a non-zero exit, never a traceback."""

import json
import time

import pytest
from test_link_e2e import INTERPRETERS, cc, status, wait_ready

from chessclock.link import transport as L
from chessclock.sim.serve import SimServer

SPEC = "90m/40+30m+30s"


@pytest.fixture(params=INTERPRETERS)
def two_clocks(request, tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    mp = request.param == "micropython"
    servers = [SimServer(str(tmp_path / name), "clock-%s-%s" % (name, request.param),
                         micropython=mp) for name in ("a", "b")]
    try:
        for s in servers:
            wait_ready(s.path)
        yield servers[0].path, servers[1].path, tmp_path
    finally:
        for s in servers:
            s.stop()


def pulled(port, tmp, name):
    code, out, err = cc("log", "pull", "--port", port, "--archive", str(tmp / "logs"),
                        "--game", name, "--json")
    assert code == 0, err
    return json.loads(out)[0]["result"]["file"]


def shown(path):
    code, out, err = cc("log", "verify", path)     # intact, replayed and signed
    assert code == 0 and "FAIL" not in out and "NOT AUTH" not in out, out + err
    code, out, err = cc("log", "export", path, "--format", "jsonl")
    assert code == 0, err
    return [json.loads(x) for x in out.splitlines()]


@pytest.mark.seed("RGC 12.4", item="8.3")
def test_seal_export_and_resume_on_another_clock(two_clocks):
    a, b, tmp = two_clocks
    keyfile = str(tmp / "arbiter.key")
    assert cc("key", "new", keyfile)[0] == 0 and cc("key", "use", keyfile)[0] == 0
    for port in (a, b):
        assert cc("key", "set", "--port", port)[0] == 0
    pa, pb = ["--port", a], ["--port", b]
    assert cc("set", SPEC, "--yes", *pa)[0] == 0
    # nothing to seal, nothing to export yet: refused by the clock, one line each
    code, out, err = cc("seal", "done", "--move", "Nf6", *pa)
    assert code == L.EXIT_REFUSED and "not sealing" in err and len(err.splitlines()) == 1
    code, out, err = cc("adjourn", "export", str(tmp / "none.json"), *pa)
    assert code == L.EXIT_REFUSED and "no adjourned game" in err
    assert cc("start", *pa)[0] == 0
    assert cc("press", "left", *pa)[0] == 0          # White's move; Black to move
    time.sleep(0.3)
    # §8.1: seal mode; the player to move (Black) seals and their clock runs on
    code, out, err = cc("seal", "start", *pa)
    assert code == 0, err
    assert "black seals" in out
    s = status(a)
    assert (s["seal"], s["sealer"], s["running"]) == ("sealing", "black", "black")
    b0 = s["black_ms"]
    code, out, err = cc("status", *pa)
    assert code == 0 and in_table(out, "SEALING by black")
    time.sleep(0.4)
    assert status(a)["black_ms"] < b0
    # §8.2: handed in; the clock keeps a salted hash of the move, the salt is printed
    code, out, err = cc("seal", "done", "--move", "Nf6", "--pieces", "16/15", *pa)
    assert code == 0, err
    salt = out.split("salt ")[1].split()[0]
    sha = out.split("snapshot sha256 ")[1].split()[0]
    s = status(a)
    assert (s["seal"], s["state"], s["white_moves"], s["black_moves"]) == (
        "sealed", "paused", 1, 1)
    assert in_table(cc("status", *pa)[1], "ADJOURNED (sealed by black)")
    # §8.3: exported; the envelope checked against it
    f = str(tmp / "adjourned.json")
    code, out, err = cc("adjourn", "export", f, *pa)
    assert code == 0, err
    d = json.load(open(f))
    assert d["sha256"] == sha and d["to_move"] == "white" and d["sealer"] == "black"
    assert (d["white_ms"], d["black_ms"]) == (s["white_ms"], s["black_ms"])
    code, out, err = cc("adjourn", "show", f, "--move", "Nf6", "--salt", salt)
    assert code == 0 and "matches the sealed hash" in out and "16/15" in out, err
    code, out, err = cc("adjourn", "show", f, "--move", "Nf5", "--salt", salt)
    assert code == 2 and "NOT the sealed move" in err
    code, out, err = cc("adjourn", "export", f, *pa)          # never over an envelope
    assert code == 2 and "not overwritten" in err
    # the sealing clock's log: seal start, the press and pause, the sealed hash
    ev = shown(pulled(a, tmp, "session1"))
    kinds = [e["type"] for e in ev]
    assert kinds[-4:] == ["seal-start", "press", "pause", "sealed"] or \
        kinds[-5:-1] == ["seal-start", "press", "pause", "sealed"]
    sealed = [e for e in ev if e["type"] == "sealed"][0]
    assert sealed["snapshot_sha256"] == sha and sealed["side"] == "black"
    assert sealed["seq"] == d["seal_seq"]
    # the next session on clock B: loaded; the clock starts the side to move at the
    # scheduled time (RGC 11.4) and counts the default time from it (RGC 12.4)
    when = time.time() + 3
    at = time.strftime("%H:%M:%S", time.localtime(when))
    code, out, err = cc("adjourn", "resume", f, "--at", at, "--default", "45m", *pb)
    assert code == 0, err
    assert "white's clock starts at %s" % at in out and "default time 45:00" in out
    assert status(b)["state"] == "paused"
    # the clock's time of day is given in whole seconds: it starts up to 1 s after `when`
    deadline = when + 6
    while status(b)["state"] == "paused" and time.time() < deadline:
        time.sleep(0.2)
    s = status(b)
    assert s["state"] == "running" and s["running"] == "white"
    assert (s["white_moves"], s["black_moves"], s["black_ms"]) == (1, 1, d["black_ms"])
    assert s["white_ms"] <= d["white_ms"] and s["session"] == 2
    # §8.4: the session's new control from the command line, on the resumed game
    assert cc("pause", *pb)[0] == 0
    before = status(b)
    code, out, err = cc("addstage", "both", "15m", *pb)
    assert code == 0, err
    s = status(b)
    assert (s["white_ms"], s["black_ms"]) == (before["white_ms"] + 900000,
                                              before["black_ms"] + 900000)
    code, out, err = cc("add-increment", "5s", *pb)
    assert code == 0, err
    assert cc("resume", *pb)[0] == 0
    assert cc("press", "left", *pb)[0] == 0
    time.sleep(0.3)
    assert status(b)["white_moves"] == 2
    # §8.5: clock B's log continues the game: the same hash, and it replays (verify)
    ev = shown(pulled(b, tmp, "session2"))
    loaded = [e for e in ev if e["type"] == "adjourned-loaded"][0]
    assert loaded["snapshot_sha256"] == sha and loaded["session"] == 1
    assert (loaded["white_moves"], loaded["black_moves"], loaded["to_move"]) == (1, 1, "white")
    assert [e["type"] for e in ev].count("add-stage") == 4
    # the same clock may take it back too (the sealing clock, adjourned)
    code, out, err = cc("adjourn", "resume", f, *pa)
    assert code == 0, err
    assert status(a)["state"] == "paused"


def test_simulate_seals_exports_and_plays_the_next_session(tmp_path):
    from cliutil import run_cli
    f = str(tmp_path / "adj.json")
    script = "0 start\n10000 press white\n20000 seal\n950000 sealed\n"
    code, out, err = run_cli(["simulate", "--control", SPEC, "--export-adjourned", f],
                             stdin=script)
    assert code == 0, err
    ev = [json.loads(x) for x in out.splitlines()]
    alert = [e for e in ev if e["type"] == "seal-alert"][0]
    assert alert["t_ms"] == 20000 + 900000 and alert["side"] == "black"
    sealed = [e for e in ev if e["type"] == "sealed"][0]
    assert sealed["sealing_ms"] == 930000 and sealed["to_move"] == "white"
    assert ev[-1]["state"] == "paused" and ev[-1]["black_moves"] == 1
    d = json.load(open(f))
    assert d["sha256"] == sealed["snapshot_sha256"] and d["black_ms"] == ev[-1]["black_ms"]
    code, out, err = run_cli(["simulate", "--adjourned", f],
                             stdin="0 resume\n5000 press white\n6000 add-stage both 15m\n")
    assert code == 0, err
    ev2 = [json.loads(x) for x in out.splitlines()]
    assert ev2[0]["type"] == "adjourned-loaded" and ev2[0]["session"] == 1
    assert ev2[1]["type"] == "resume" and ev2[1]["side"] == "white"
    assert ev2[-1]["black_ms"] == d["black_ms"] - 1000 + 900000   # Black ran 1 s
    assert ev2[-1]["white_ms"] == d["white_ms"] - 5000 + 30000 + 900000
    # sealing before 15 min: no alert
    code, out, err = run_cli(["simulate", "--control", SPEC],
                             stdin="0 start\n1000 seal\n60000 seal-cancel\n70000 seal\n"
                                   "80000 sealed\n")
    assert code == 0, err
    assert "seal-alert" not in out and '"seal-cancel"' in out


def bad_cases(tmp):
    good = tmp / "good.json"
    from cliutil import run_cli
    code, out, err = run_cli(["simulate", "--control", SPEC, "--export-adjourned", str(good)],
                             stdin="0 start\n1000 seal\n2000 sealed\n")
    assert code == 0, err
    d = json.loads(good.read_text())
    changed = tmp / "changed.json"
    changed.write_text(json.dumps(dict(d, white_ms=d["white_ms"] + 60000)))
    badsha = tmp / "badsha.json"
    badsha.write_text(json.dumps(dict(d, sha256="0" * 64)))
    notjson = tmp / "notes.txt"
    notjson.write_text("not an adjourned game\n")
    binary = tmp / "bin.bin"
    binary.write_bytes(bytes(range(256)))
    other = tmp / "other.json"
    other.write_text(json.dumps({"format": "something else"}))
    noport = ["--port", "/dev/no-such-clock"]
    big = "9" * 5000
    return [
        (["seal"], 2), (["seal", "open"], 2), (["seal", "start"], 2),
        (["seal", "start"] + noport, 3),
        (["seal", "start", "--move", "Nf3"] + noport, 2),
        (["seal", "done", "--move", ""] + noport, 2),
        (["seal", "done", "--move", big] + noport, 2),
        (["seal", "done", "--move-hash", "xyz"] + noport, 2),
        (["seal", "done", "--move-hash", big] + noport, 2),
        (["seal", "done", "--move", "e4", "--move-hash", "ab" * 10] + noport, 2),
        (["seal", "done", "--pieces", "17/3"] + noport, 2),
        (["seal", "done", "--pieces", "x"] + noport, 2),
        (["seal", "start", "--pieces", "12/12"] + noport, 2),
        (["adjourn", "resume", str(good), "--at", "25:00"] + noport, 2),
        (["adjourn", "resume", str(good), "--at", "00:00"] + noport, 2),
        (["adjourn", "show", str(good), "--at", "12:00"], 2),
        (["adjourn", "resume", str(good), "--default", "30m"] + noport, 2),
        (["adjourn", "resume", str(good), "--at", "23:59", "--default", "soon"] + noport, 2),
        (["adjourn", "resume", str(good), "--at", "23:59", "--default", "1.5s"] + noport, 2),
        (["adjourn", "resume", str(good), "--at", "23:59", "--default", "25h"] + noport, 2),
        (["adjourn", "resume", str(good), "--at", "23:59", "--start"] + noport, 2),
        (["adjourn", "show", str(good), "--default", "30m"], 2),
        (["adjourn"], 2), (["adjourn", "export"], 2),
        (["adjourn", "show", str(tmp / "missing.json")], 2),
        (["adjourn", "show", str(tmp)], 2),
        (["adjourn", "show", str(notjson)], 2), (["adjourn", "show", str(binary)], 2),
        (["adjourn", "show", str(other)], 2), (["adjourn", "show", str(changed)], 2),
        (["adjourn", "show", str(badsha)], 2),
        (["adjourn", "show", str(good), "--move", "e4"], 2),
        (["adjourn", "show", str(good), "--move", "e4", "--salt", "00"], 2),
        (["adjourn", "export", str(good)] + noport, 2),
        (["adjourn", "export", str(tmp / "new.json")], 2),
        (["adjourn", "export", str(tmp / "new.json")] + noport, 3),
        (["adjourn", "export", str(tmp / "new.json"), "--start"] + noport, 2),
        (["adjourn", "resume", str(changed)] + noport, 2),
        (["adjourn", "resume", str(binary)] + noport, 2),
        (["adjourn", "resume", str(good)], 2),
        (["adjourn", "resume", str(good)] + noport, 3),
        (["simulate", "--adjourned", str(changed)], 2),
        (["simulate", "--adjourned", str(good), "--control", SPEC], 2),
        (["simulate"], 2),
        (["simulate", "--control", SPEC, "--export-adjourned", str(good)], 2),
    ]


SIM_BAD = [("0 start\n1000 sealed\n", "without seal mode"),
           ("0 seal\n", "running clock"),
           ("0 start\n1000 seal\n2000 seal\n", "no seal already"),
           ("0 start\n1000 seal\n2000 sealed a b\n", "at most"),
           ("0 start\n1000 seal\n2000 pause\n3000 sealed\n", "not running"),
           ("0 start\n1000 seal x\n", "no arguments")]


def test_bad_input_to_each_new_command_is_one_line_and_a_non_zero_exit(tmp_path,
                                                                          monkeypatch):
    from cliutil import run_cli
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_PORTS", raising=False)
    failures = []
    cases = [(argv, want, None) for argv, want in bad_cases(tmp_path)]
    cases += [(["simulate", "--control", SPEC], 2, (script, why)) for script, why in SIM_BAD]
    cases.append((["simulate", "--control", SPEC, "--export-adjourned",
                   str(tmp_path / "x.json")], 2, ("0 start\n1000 press white\n", "seals no")))
    for argv, want, stdin in cases:
        try:
            code, _, err = run_cli(argv, stdin=stdin[0] if stdin else "")
        except SystemExit as e:     # argparse usage errors
            code, err = e.code, "usage"
        lines = err.strip().splitlines()
        if code != want or "Traceback" in err or "unexpected error" in err or (
                code and not lines) or (stdin and stdin[1] not in err):
            failures.append("%s: exit %s, %r" % ([a[:20] for a in argv], code, err[-200:]))
        elif err.startswith("chessclock") and len(lines) != 1:
            failures.append("%s: %d lines" % (argv[:3], len(lines)))
    assert not failures, "\n".join(failures)


def test_a_session_sealed_and_resumed_on_the_same_clock_verifies_with_its_alert(tmp_path):
    """The firmware's own log of a whole adjournment on one clock (buttons and levers on
    the simulator board): seal mode, the 15-minute alert at its instant, the hand-in by the
    sealer's lever, a power cut while adjourned, the next session resumed from the arbiter
    menu; `log verify` replays it all and the hash is the snapshot's."""
    import hashlib

    from simutil import boot, until

    from boards.sim import SimBoard, run_until
    from chessclock.log.verify import verify
    from clockapp import seal as S
    from clockapp.app import App
    from clockapp.board import BTN_MENU, BTN_START, LEFT, RIGHT
    from clockcore import engine as E
    board, app = boot()
    app.new_game(SPEC)
    board.press_buttons(BTN_START, 1000000)
    until(app, board, 1200)
    board.press_lever(LEFT, 4000000)
    until(app, board, 4200)
    board.press_buttons(BTN_MENU, 5000000, hold_us=2300000)   # seal mode: Black seals
    until(app, board, 7500)
    since = app.seal.since
    run_until(app, board, (since + S.ALERT_MS + 5000) * 1000, step_us=20000)
    board.press_lever(RIGHT, (since + S.ALERT_MS + 10000) * 1000)   # handed in
    until(app, board, since + S.ALERT_MS + 10500)
    assert app.seal.phase == S.SEALED
    digest = hashlib.sha256(app.store.load(S.SNAPSHOT_FILE)).hexdigest()
    app = App(SimBoard(board.root))                  # power cut while adjourned
    board = app.board
    app.step()
    assert app.seal.phase == S.SEALED
    t = board.t // 1000
    board.press_buttons(BTN_MENU, (t + 100) * 1000, hold_us=2300000)   # arbiter menu
    until(app, board, t + 2600)
    rES = list(app.menu.items()).index("rES")
    app.menu.item = rES
    app.menu.side = E.WHITE
    board.press_buttons(BTN_START, (t + 3000) * 1000)                  # resume: White
    until(app, board, t + 3300)
    assert app.clock.state == E.RUNNING and app.clock.turn == E.WHITE
    board.press_lever(LEFT, (t + 8000) * 1000)
    until(app, board, t + 8300)
    assert app.seal.session == 2 and app.clock.moves == [2, 1]
    with open(board.root + "log.bin", "rb") as f:
        res = verify(f.read())
    assert res.problems == [], res.problems
    ev = res.events
    alert = [e for e in ev if e["type"] == "seal-alert"][0]
    assert alert["t_ms"] == since + S.ALERT_MS and alert["side"] == "black"
    sealed = [e for e in ev if e["type"] == "sealed"][0]
    assert sealed["snapshot_sha256"] == digest and sealed["sealing_ms"] == S.ALERT_MS + 10000
    kinds = [e["type"] for e in ev]
    assert kinds.index("seal-start") < kinds.index("seal-alert") < kinds.index("sealed")
    # the arbiter's resume (and the arbiter menu's marks, docs/SESSION.md), then White's move
    after = kinds[kinds.index("sealed"):]
    assert "resume" in after and after[-1] == "press"


def test_chessclock_sim_holds_menu_for_seal_mode_and_the_lever_hands_in(tmp_path):
    from cliutil import run_cli
    script = ("1000 button start\n3000 lever left\n4000 button menu 2500\n7000 show\n"
              "9000 lever right\n9500 show\n")
    code, out, err = run_cli(["sim", "--storage", str(tmp_path / "flash"), "--script", "-"],
                             stdin=script)
    assert code == 0, err
    before, after = [json.loads(x) for x in out.splitlines()]
    assert before["left"]["text"] == "SEAL" and before["right"]["running"]
    assert after["right"]["paused"] and after["led"] is None


def test_the_resumed_games_pgn_puts_the_clock_on_the_moves_of_the_new_session(tmp_path):
    """A log that starts at an adjourned game (clock B): `log export --format pgn` with the
    whole scoresheet gives [%clk] to the moves made after the resumption only, numbered on
    from the sealed position; `log verify` replays the added stage."""
    from cliutil import run_cli
    from simutil import boot, until

    from clockapp import seal as S
    from clockapp.board import BTN_MENU, BTN_START, LEFT, RIGHT
    b, app = boot()
    app.new_game(SPEC)
    b.press_buttons(BTN_START, 1000000)
    until(app, b, 1200)
    b.press_lever(LEFT, 4000000)
    until(app, b, 4200)
    b.press_buttons(BTN_MENU, 5000000, hold_us=2300000)
    until(app, b, 7500)
    b.press_lever(RIGHT, 9000000)
    until(app, b, 9500)
    b2, app2 = boot()
    app2.load_adjourned(app.store.load(S.SNAPSHOT_FILE))
    app2.step()
    app2.clock.resume(app2.now)
    until(app2, b2, app2.now + 2000)
    b2.press_lever(LEFT, (app2.now + 1000) * 1000)
    until(app2, b2, app2.now + 1500)
    app2.clock.add_stage(-1, app2.clock.stages[0][-1], app2.now)
    b2.press_lever(RIGHT, (app2.now + 1000) * 1000)
    until(app2, b2, app2.now + 1500)
    log = tmp_path / "b.log"
    log.write_bytes(open(b2.root + "log.bin", "rb").read())
    code, out, err = run_cli(["log", "verify", str(log), "--intact-only"])
    assert code == 0 and "INTACT" in out, out + err
    sheet = tmp_path / "sheet.pgn"
    sheet.write_text("1. e4 Nf6 2. e5 Nd5 *\n")
    code, out, err = run_cli(["log", "export", str(log), "--format", "pgn", "--pgn",
                              str(sheet)])
    assert code == 0, err
    assert "1. e4 Nf6 2. e5 { [%clk" in out and "Nd5 { [%clk" in out
    code, out, err = run_cli(["log", "export", str(log), "--format", "pgn"])
    assert code == 0 and "2. White" in out and "1. White" not in out


def in_table(out, note):
    """The note's words in the status table (rich wraps a long cell over lines)."""
    words = out.split()
    return all(w in words for w in note.split())
