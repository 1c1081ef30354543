"""An arbiter's first day with the host commands against `chessclock sim-serve` clocks: the
help's own examples work as written, refusals suggest spellings that mean what was meant,
every listed preset can be set, times of day are local."""

import io
import json
import os
import re
import sys
import time

import pytest
from cliutil import wait_ready

from chessclock import cli
from chessclock.link import transport as L
from chessclock.sim.serve import SimServer, micropython_exe
from clockcore import notation


def cc(*argv, stdin=None):
    """(exit code, stdout, stderr) of cli.main(argv), argparse's own refusals (SystemExit)
    included; `stdin` text replaces standard input (not a terminal)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    sys.stdout, sys.stderr = out, err
    try:
        code = cli.main(list(argv))
    except SystemExit as e:
        code = e.code
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def clock(tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    server = SimServer(str(tmp_path / "flash"), "clock-arbiter")
    try:
        wait_ready(server.path, 10)
        yield server.path
    finally:
        server.stop()


def status(port):
    code, out, err = cc("status", "--port", port, "--json")
    assert code == 0, err
    return json.loads(out)[0]["result"]


def test_adjust_takes_a_negative_amount_as_written(clock):
    """The help's own example, `adjust black -30s --port P`: -30s is the AMOUNT, not an
    option."""
    assert cc("set", "5m+2s", "--yes", "--port", clock)[0] == 0
    before = int(status(clock)["black_ms"])
    for amount, change in (("-30s", -30000), ("-1:30", -90000), ("+2m", 120000)):
        code, out, err = cc("adjust", "black", amount, "--port", clock)
        assert code == 0, err
        after = int(status(clock)["black_ms"])
        assert after - before == change, amount
        before = after
    code, out, err = cc("adjust", "black", "--port", clock, "-30s")  # after the options too
    assert code == 0, err
    assert int(status(clock)["black_ms"]) - before == -30000


@pytest.mark.parametrize("argv, code, says", [
    (["adjust", "black", "-30"], 2, "unit"),            # a bare number has no unit
    (["adjust", "black", "-x"], 2, "required: AMOUNT"),
    (["adjust", "black", "--30s"], 2, "required: AMOUNT"),
    (["adjust", "black"], 2, "AMOUNT"),
    (["adjust", "grey", "-30s"], 2, "invalid choice"),
    (["adjust", "black", "-30q"], 2, "-30q"),
])
def test_adjust_bad_amounts_one_line(argv, code, says, tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path))
    got, out, err = cc(*argv, "--port", str(tmp_path / "no-port"))
    assert got == code
    assert says in err and "Traceback" not in err


# A wrong or ambiguous control as an arbiter types it, and what they meant (readable
# notation, read on its own); a row with two meanings is a spelling the refusal asks about.
MEANT = [
    ("90/40+30", ["90m/40+30s"]),                  # FIDE's 90 min for 40 moves, +30 s
    ("40/90+30", ["90m/40+30s"]),                  # US usage: 40 moves in 90 min
    ("60/30+30", ["60m/30+30s"]),
    ("40/2", ["40/2h"]),                           # 2 is no move count: 40 moves in 2 h
    ("90+30", ["90m+30s"]),
    ("90 + 30", ["90m+30s"]),
    ("90/40+30:30+30", ["90m/40+30s, 30m+30s"]),
    ("120/40:60", ["120m/40, 60m"]),
    ("90+30d", ["90m d30s"]),
    ("5+3", ["5m+3s"]),
    ("15+10", ["15m+10s"]),
    ("30", ["30m"]),
    ("3|2", ["3m+2s"]),                            # lichess's spelling
    ("3 | 2", ["3m+2s"]),
    ("1|0", ["1m"]),
    ("5d3", ["5m d3s"]),
    ("40/2, SD/1", ["40/2h, SD/1h", "40/2m, SD/1m"]),
    ("G/2", ["2h", "2m"]),
    ("40/2h, 1", ["40/2h, 1h", "40/2h, 1m"]),
    ("40/90+30s, 30m", ["40/90m+30s, 30m"]),
    ("90/40+30s", ["90m/40+30s"]),                 # as US: 90 moves in 40 min, never meant
    ("90/40, SD/30", ["90m/40, SD/30"]),
]

# "write SPELLING", up to what follows a spelling in the messages
_WRITE = re.compile(r"\bwrite (.+?)(?= for hours| for minutes| \(the side| \(at character|; |$)")


_OR_MINUTES = re.compile(r" for hours or (.+?) for minutes")


def _canon(spec):
    return notation.format_readable(notation.parse(spec))


@pytest.mark.parametrize("typed, meant", MEANT)
def test_every_suggestion_of_a_refusal_means_what_was_meant(typed, meant):
    code, out, err = cc("control", typed, stdin="")
    assert code == 2 and err.count("\n") == 1, (out, err)
    hints = [h for h in _WRITE.findall(err) + _OR_MINUTES.findall(err)
             if not h.startswith(("the ", '"?"'))]
    assert hints, err
    wanted = {_canon(m) for m in meant}
    said = set()
    for hint in hints:
        if hint.startswith("pgn:"):  # the way to mean the PGN on purpose: it means the PGN
            assert _canon(hint) == _canon("pgn:" + typed.replace(" ", "")), hint
            continue
        got = notation.parse(hint)
        assert notation.format_readable(got) in wanted, (typed, hint, err)
        said.add(notation.format_readable(got))
        # the words around the spelling say what it gives, and they say it right
        at = err.index(" " + hint) + 1
        after = err[at + len(hint):]
        if after.startswith((" for hours", " for minutes")):  # MEANT lists hours first
            assert notation.format_readable(got) == _canon(
                meant[0 if after.startswith(" for hours") else 1]), (hint, err)
            continue
        before = err[:at].lower().removesuffix("write ").rstrip(", ")
        if before.endswith(")"):          # "... (lichess's 3|2)"
            before = before[:before.rindex(" (")]
        assert before.endswith(notation.describe(got).lower()), (hint, err)
    assert said == wanted, (typed, said, err)
    # and the suggestion itself is taken (by the clock's own check too)
    from chessclock.timecontrol import configured
    for spelling in said:
        configured(spelling)


class _TtyIn(io.StringIO):
    def isatty(self):
        return True


def _on_terminal(argv, answer):
    """cc(argv) with a terminal on standard input that answers `answer`."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = _TtyIn(answer + "\n"), out, err
    try:
        code = cli.main(list(argv))
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("typed, question, meant", [
    ("90+30", "90 min; +30 s per move from move 1? [y/N] ", "90m+30s"),
    ("90/40+30", "90 min for 40 moves, repeating; +30 s per move from move 1? [y/N] ",
     "90m/40+30s"),
    ("5+3", "5 min; +3 s per move from move 1? [y/N] ", "5m+3s"),
])
def test_two_readings_on_a_terminal_ask_which_one(typed, question, meant):
    code, out, err = _on_terminal(["control", typed], "y")
    assert code == 0 and err == question
    assert "readable: %s\n" % _canon(meant) in out and "taken as: " in out
    code, out, err = _on_terminal(["control", typed], "n")   # no: the refusal, its hint
    assert code == 2 and err.startswith(question) and "no real event plays" in err
    code, out, err = cc("control", typed, stdin="y\n")        # a script is never asked
    assert code == 2 and "?" not in err.split(":")[0] and "[y/N]" not in err


def test_set_on_a_terminal_sends_the_reading_agreed(clock):
    code, out, err = _on_terminal(["set", "90+30", "--yes", "--port", clock], "y")
    assert code == 0, err
    assert "[y/N]" in err
    s = status(clock)
    assert int(s["white_ms"]) == 90 * 60000 and int(s["black_ms"]) == 90 * 60000


def test_schedule_reads_the_local_time_of_day(local_zone):
    """At UTC-3 (America/Sao_Paulo), 15:30 typed is 18:30 UTC, today when still ahead."""
    from chessclock.commands import session as session_cmd
    local_zone("America/Sao_Paulo")
    morning = 1796040000          # 2026-11-30 09:00:00 -03 (12:00 UTC)
    at = session_cmd.parse_at("15:30", morning)
    assert at == morning + 6 * 3600 + 1800
    assert time.strftime("%H:%M", time.gmtime(at)) == "18:30"
    assert session_cmd.parse_at("08:59", morning) == morning - 60 + 86400  # past: tomorrow
    assert session_cmd.local_text(at) == "2026-11-30 15:30:00 -03 (18:30:00 UTC)"
    local_zone("Asia/Kolkata")    # UTC+5:30
    assert time.strftime("%H:%M", time.gmtime(session_cmd.parse_at("15:30", morning))) \
        == "10:00"


def test_schedule_over_the_link_says_the_zone(clock, local_zone):
    local_zone("America/Sao_Paulo")
    at = time.time() + 3 * 3600
    typed = time.strftime("%H:%M", time.localtime(at))
    code, out, err = cc("schedule", typed, "--default", "0", "--port", clock)
    assert code == 0, err
    sched = int(status(clock)["sched"])
    assert time.strftime("%H:%M", time.localtime(sched)) == typed
    assert 0 < sched - time.time() <= 3 * 3600 + 60      # today, three hours on
    assert ("starts at %s" % session_cmd_text(sched)) in out and " -03 (" in out


def session_cmd_text(unix_s):
    from chessclock.commands import session as session_cmd
    return session_cmd.local_text(unix_s)


def test_every_preset_listed_for_the_clock_can_be_set(clock):
    code, out, err = cc("presets", "--json")
    assert code == 0, err
    rows = json.loads(out)
    for_clock = [r["preset"] for r in rows if r["clock"]]
    assert "fide-classical" in for_clock and "cxeb-correspondence" not in for_clock
    for name in for_clock:
        code, out, err = cc("set", name, "--yes", "--port", clock)
        assert code == 0, (name, err)
        assert "gives" in out, name
    code, out, err = cc("presets")
    text_clock = out.split("\n\n")[0]
    for r in rows:   # the text list says the same
        assert (("\n%s " % r["preset"]) in "\n" + text_clock) == r["clock"], r["preset"]
    # a preset not for the clock is refused in one line, before anything is sent
    for name in [r["preset"] for r in rows if not r["clock"]]:
        code, out, err = cc("set", name, "--yes", "--port", clock)
        assert code == 2 and err.count("\n") == 1 and "chessclock corr" in err, (name, err)
        code, out, err = cc("control", name)   # what it means can still be shown
        assert code == 0, err


def _session_log(path):
    """A clock's log (the firmware app in this process): a scheduled start, White's arrival,
    Black's default time passing, an incident mark (protest), a +2 min adjustment, the
    arbiter's stop and menu, the result entered on the clock, Black's late arrival."""
    from inproc import scheduled_game
    board, _, _ = scheduled_game(adjust_ms=120000)
    with open(board.root + "log.bin", "rb") as f:
        path.write_bytes(f.read())
    return path


def test_every_event_type_is_judged_for_the_incident_report():
    """A new event code cannot be left out of the report by oversight: each type `log
    export` (or `simulate`) writes is either carried or named as not bearing on a dispute."""
    from chessclock.ruling import report as RR
    from clockcore import logread
    types = set(logread.NAMES.values()) | {"claim", "final", "split"}
    judged = set(RR.ON_DISPUTE) | set(RR.NOT_ON_DISPUTE)
    assert types <= judged, sorted(types - judged)
    assert not set(RR.ON_DISPUTE) & set(RR.NOT_ON_DISPUTE)


def test_the_incident_report_carries_every_mark_log_export_shows(tmp_path):
    from chessclock.ruling import report as RR
    log = _session_log(tmp_path / "game.log")
    code, out, err = cc("log", "export", str(log), "--format", "jsonl")
    assert code == 0, err
    exported = [json.loads(x) for x in out.splitlines()]
    last = max(i for i, e in enumerate(exported) if e["type"] == "header")
    exported = exported[last:]   # the game the ruling is on: the log's last
    types = {e["type"] for e in exported}
    for want in ("schedule", "arrival", "default-time", "incident", "result", "adjust",
                 "pause", "arbiter", "end"):
        assert want in types, want
    report = tmp_path / "incident.txt"
    code, out, err = cc("ruling", str(log), "--incident", str(report), "--unverified")
    assert code == 0, err
    text = report.read_text()
    section = text.split("WHAT HAPPENED, IN ORDER")[1].split("\nRULE\n")[0]
    lines = [x for x in section.splitlines() if x.startswith("- ")]
    bearing = [e for e in exported if e["type"] in RR.ON_DISPUTE]
    assert len(bearing) >= 9
    for e in bearing:
        kind, describe = RR.ON_DISPUTE[e["type"]]
        want = "  %s: %s" % (kind, describe(e))
        assert any(want in line for line in lines), (e, section)
    assert "incident 1 marked" in section and "result 0-1 entered (on the clock)" in section
    assert "black at the board" in section and "white at the board" in section
    assert "the default time (0:10" in section and "with black not at the board" in section
    # times are the game's (from its start), with the time of day the clock was given,
    # never the clock's time since power-on
    start = next(e for e in exported if e["type"] == "start")
    stop = next(e for e in exported if e["type"] == "pause")
    game_t = RR.fmt(stop["t_ms"] - start["t_ms"])
    tod = RR.time_of_day(exported, stop["t_ms"])
    assert start["t_ms"] > 0 and tod
    assert "Clocks stopped at game time %s (%s UTC)" % (game_t, tod) in text
    assert "- game time %s (%s UTC)  stop:" % (game_t, tod) in section


def test_undo_help_says_whose_turn_it_is_and_the_clock_does_that(clock, tmp_path):
    code, out, err = cc("undo", "--help")
    assert code == 0
    assert "whose clock runs: the presser's" in " ".join(out.split()), out
    keyfile = str(tmp_path / "arbiter.key")
    assert cc("key", "new", keyfile)[0] == 0
    assert cc("key", "use", keyfile)[0] == 0
    assert cc("key", "set", "--port", clock)[0] == 0
    assert cc("set", "5m+2s", "--yes", "--port", clock)[0] == 0
    assert cc("start", "--port", clock)[0] == 0
    with L.Link(clock) as lk:
        lk.request("sim", "press", "left")                  # White's lever: Black's turn
    time.sleep(0.3)
    assert status(clock)["running"] == "black"
    code, out, err = cc("undo", "--port", clock)
    assert code == 0, err
    s = status(clock)
    assert s["running"] == "white" and s["white_moves"] == 0   # as the help says


def test_ports_and_all_say_which_clocks_are_simulated(clock, tmp_path):
    """A sim-serve clock (this session's or another's on the same computer) is listed by
    `ports` and reached by --all: every listing says it is simulated, not a board."""
    from chessclock.sim import serve as simserve
    entry = simserve.register(clock, "clock-arbiter")   # as `chessclock sim-serve` does
    try:
        code, out, err = cc("ports")
        assert code == 0, err
        line = next(x for x in out.splitlines() if x.startswith(clock + " "))
        assert "SIMULATED clock, not a board" in line and "process %d" % os.getpid() in line
        code, out, err = cc("ports", "--json")
        row = next(r for r in json.loads(out) if r["port"] == clock)
        assert row["simulated"] is True
        code, out, err = cc("status", "--all", "--json")
        assert code == 0, err
        assert [r["simulated"] for r in json.loads(out) if r["port"] == clock] == [True]
        code, out, err = cc("status", "--all")    # a narrow table: named under it
        assert "clock-arbiter: simulated, not boards" in " ".join(out.split()), out
        from chessclock.link import view as V
        rows = [{"port": clock, "ok": True, "simulated": True,
                 "result": {"clock": "clock-arbiter", "state": "idle"}}]
        con = V.console(io.StringIO())
        con.width = 160                           # a wide one: in its Port column
        with con.capture() as cap:
            con.print(V.status_table(rows, "t", width=160))
        assert "%s (simulated)" % clock in cap.get(), cap.get()
        code, out, err = cc("info", "--port", clock, "--port", clock + "x", "--all")
        assert "%s (simulated)" % clock in out, out
    finally:
        os.remove(entry)
    assert simserve.simulated(clock)              # a pty: never a USB clock
    assert not simserve.simulated("/dev/ttyACM0")


# ---- attacks: each a clear one-line error and its own exit code ------------------
def _run_to(argv, stdout, cwd):
    import subprocess
    return subprocess.run([sys.executable, "-m", "chessclock.cli"] + argv, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=120)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("argv", [
    ["simulate", "--control", "300+2", "GAME"],
    ["control", "5m+3s"],
    ["control", "fide-classical", "--json"],
    ["presets"],
    ["presets", "--json"],
    ["log", "show", "LOG"],
    ["log", "export", "LOG"],
    ["log", "export", "LOG", "--format", "csv"],
    ["boards", "list"],
    ["boards", "show", "pico-tm1637"],
    ["ruling", "LOG", "--unverified"],
    ["ruling", "LOG", "--unverified", "--json"],
], ids=lambda a: " ".join(a))
def test_a_full_disk_gets_one_line_and_its_own_exit_code(argv, tmp_path):
    from chessclock.cli import EXIT_OUTPUT
    game = tmp_path / "game.txt"
    game.write_text("0 start\n10000 press white\n25000 press black\n")
    log = _session_log(tmp_path / "game.log")
    argv = [str(game) if a == "GAME" else str(log) if a == "LOG" else a for a in argv]
    with open("/dev/full", "w") as full:
        r = _run_to(argv, full, tmp_path)
    assert r.returncode == EXIT_OUTPUT, r.stderr
    assert r.stderr.count("\n") == 1 and "cannot write the output: No space left" in r.stderr
    assert "Traceback" not in r.stderr and "a bug" not in r.stderr


def _attack_files(tmp):
    (tmp / "nested.toml").write_text("a = " + "[" * 100000 + "]" * 100000 + "\n")
    (tmp / "nested-tables.toml").write_text("x = " + "{a=" * 3000 + "1" + "}" * 3000 + "\n")
    (tmp / "digits.txt").write_text("0 start\n" + "1" * 1000000 + " press white\n")
    (tmp / "digits-arg.txt").write_text("0 start\n10 adjust white +" + "9" * 1000000 + "\n")
    ev = '{"t_ms": %s, "type": "start", "side": "white", "white_ms": 1000, "black_ms": 1000}'
    (tmp / "inf.jsonl").write_text(ev % "1e309" + "\n")
    (tmp / "nan.jsonl").write_text(ev % "NaN" + "\n")
    (tmp / "huge.jsonl").write_text(ev % ("1" + "0" * 400) + "\n")
    (tmp / "float.jsonl").write_text(ev % "1000.5" + "\n")
    (tmp / "text.jsonl").write_text(ev % '"x"' + "\n")


@pytest.mark.parametrize("argv, says", [
    (["boards", "--file", "nested.toml", "list"], "nested too deeply"),
    (["boards", "--file", "nested-tables.toml", "list"], "nested too deeply"),
    (["boards", "--file", "nested.toml", "check"], "nested too deeply"),
    (["simulate", "--control", "300+2", "digits.txt"], "1000000 digits"),
    (["simulate", "--control", "300+2", "digits-arg.txt"], "1000000 digits"),
    (["ruling", "inf.jsonl", "--control", "5m"], "1e309 is out of range"),
    (["ruling", "nan.jsonl", "--control", "5m"], "NaN is not a number"),
    (["ruling", "huge.jsonl", "--control", "5m"], "t_ms must be a whole number"),
    (["ruling", "float.jsonl", "--control", "5m"], "t_ms must be a whole number"),
    (["ruling", "text.jsonl", "--control", "5m"], "t_ms must be a whole number"),
], ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_hostile_inputs_get_one_line_and_exit_2(argv, says, tmp_path, monkeypatch):
    _attack_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = cc(*argv)
    assert code == 2, err
    assert err.count("\n") == 1 and says in err, err
    assert "Traceback" not in err and "a bug" not in err and len(err) < 400


def test_adjust_with_its_ground_is_logged_and_shown_not_called_a_penalty(clock, tmp_path):
    """ACT 22, S1 6.8d: the ground of a correction is written with it. A +2 min adjustment
    is an adjustment with the arbiter's ground, never a "penalty" guessed from its amount."""
    keyfile = str(tmp_path / "arbiter.key")
    for argv in (("key", "new", keyfile), ("key", "use", keyfile),
                 ("key", "set", "--port", clock)):
        assert cc(*argv)[0] == 0
    assert cc("set", "5m+2s", "--yes", "--port", clock)[0] == 0
    assert cc("start", "--port", clock)[0] == 0
    code, out, err = cc("adjust", "black", "+2m", "--reason", "illegal move", "--article",
                        "ACT 7", "--port", clock)
    assert code == 0, err
    code, out, err = cc("adjust", "white", "-30s", "--reason", "clock set wrong",
                        "--port", clock)
    assert code == 0, err
    assert cc("adjust", "white", "+2m", "--port", clock)[0] == 0       # no ground given
    assert cc("pause", "--port", clock)[0] == 0
    code, out, err = cc("log-pull", "--port", clock, "--archive", str(tmp_path / "a"),
                        "--game", "g", "--json")
    assert code == 0, err
    log = json.loads(out)[0]["result"]["file"]
    code, out, err = cc("log", "export", log, "--format", "jsonl")
    assert code == 0, err
    adj = [json.loads(x) for x in out.splitlines() if '"adjust"' in x]
    assert [(a["side"], a["delta_ms"], a["reason"], a.get("article")) for a in adj] == [
        ("black", 120000, "illegal move", "ACT 7"), ("white", -30000, "clock set wrong", None),
        ("white", 120000, "host", None)]
    code, out, err = cc("log", "verify", log)
    assert code == 0 and "AUTHENTIC" in out, out + err
    report = tmp_path / "incident.txt"
    code, out, err = cc("ruling", log, "--incident", str(report))
    assert code == 0, err
    assert "+2:00.000 to black (ground: illegal move, ACT 7)" in out
    assert "-0:30.000 to white (ground: clock set wrong)" in out
    text = report.read_text()
    assert "adjustment: +2:00.000 to black (ground: illegal move, ACT 7)" in text
    assert "adjustment: +2:00.000 to white (host)" in text
    assert "penalty" not in text.lower()


@pytest.mark.parametrize("argv, says", [
    (["--article", "ACT 7"], "--article goes with --reason"),
    (["--reason", ""], "--reason is empty"),
    (["--reason", "   "], "--reason is empty"),
    (["--reason", "x" * 41], "at most 40 bytes"),
    (["--reason", "é" * 21], "at most 40 bytes"),
    (["--reason", "a\x07b"], "printable"),
    (["--reason", "ok", "--article", "-"], "--article is empty"),
])
def test_adjust_bad_grounds_one_line(argv, says, tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path))
    code, out, err = cc("adjust", "black", "+2m", *argv, "--port", str(tmp_path / "none"))
    assert code == 2 and err.count("\n") == 1 and says in err, err


@pytest.mark.skipif(micropython_exe() is None, reason="no micropython")
def test_a_ground_reaches_the_log_of_the_firmware_under_micropython(tmp_path, monkeypatch):
    from clockapp.storage import Store
    from clockcore import logread as LR
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    server = SimServer(str(tmp_path / "flash"), "mp", micropython=True)
    try:
        wait_ready(server.path, 20)
        port = server.path
        assert cc("set", "5m+2s", "--yes", "--port", port)[0] == 0
        code, out, err = cc("adjust", "black", "+2m", "--reason", "illegal move",
                            "--article", "ACT 7", "--port", port)
        assert code == 0, err
        with L.Link(port) as lk:   # the clock itself refuses half a ground
            with pytest.raises(L.ClockError):
                lk.request("adjust", "black", "1000", "x", change=True)
        time.sleep(1.5)            # the clock flushes its log
    finally:
        server.stop()
    r = LR.Reader()
    recs = [r.decode(p) for p in Store(str(tmp_path / "flash") + "/").read_log()]
    grounds = [x.ground for x in recs if x.code == 7]
    assert grounds == [("illegal move", "ACT 7")]


def test_every_adjust_a_ruling_suggests_is_taken_with_its_ground():
    """The `chessclock adjust` commands rulings print carry the ground, and each one parses
    and passes the same checks as typed (at most 40 bytes a field)."""
    import shlex

    from chessclock.commands import clock as clock_cmd
    from chessclock.ruling import rules as R
    from chessclock.ruling import verdict
    for rs in R.RULESETS.values():
        for reason, topic in (("illegal move", "illegal_move"),
                              ("incorrect claim", "false_claim")):
            line = verdict.adjust_command("white", 120000, reason, rs.art(topic))
            argv = shlex.split(line)[1:]
            assert argv[:3] == ["adjust", "white", "+2m"] and "--reason" in argv, line
            args = cli.build_parser(argv).parse_args(argv + ["--port", "P"])
            assert args.reason == reason
            ground = clock_cmd._ground(args.reason, args.article)
            assert ground[0] == reason and (args.article is None or ground[1] in rs.art(topic))


@pytest.mark.parametrize("argv, code, says", [
    (["set", "cxeb-correspondence", "--yes", "--port", "P"], 2, "chessclock corr"),
    (["set", "correspondence", "--yes", "--port", "P"], 2, "chessclock corr"),
    (["set", "90+30", "--yes", "--port", "P"], 2, "write 90m+30s"),
    (["set", "3|2", "--yes", "--port", "P"], 2, "write 3m+2s"),
    (["set", "", "--yes", "--port", "P"], 2, "empty"),
    (["set", "9" * 5000, "--yes", "--port", "P"], 2, "chessclock"),
    (["control", ""], 2, "empty"),
    (["control", "3|2|1"], 2, "unexpected character '|'"),
    (["control", "|"], 2, "unexpected character '|'"),
    (["control", "99999|2"], 2, "unexpected character '|'"),
    (["control", "9" * 5000 + "|2"], 2, "unexpected character '|'"),
    (["presets", "extra"], 2, "unrecognized arguments"),
    (["ports", "extra"], 2, "unrecognized arguments"),
    (["undo", "white", "--port", "P"], 2, "unrecognized arguments"),
    (["undo"], 2, "no clock given"),
    (["schedule", "24:00", "--port", "P"], 2, "not a time of day"),
    (["schedule", "7", "--port", "P"], 2, "not a time of day"),
    (["schedule", "07:60", "--port", "P"], 2, "HH:MM (local time)"),
    (["adjust", "black", "-30s"], 2, "no clock given"),
])
def test_bad_inputs_of_the_commands_touched_one_line(argv, code, says, tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path))
    monkeypatch.delenv("CHESSCLOCK_PORTS", raising=False)
    argv = [str(tmp_path / "no-port") if a == "P" else a for a in argv]
    got, out, err = cc(*argv, stdin="")
    assert got == code, (got, err)
    assert says in err and "Traceback" not in err and "a bug" not in err, err
    assert err.count("\n") == 1 or err.startswith("usage:"), err
