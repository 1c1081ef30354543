"""An arbiter's day, end to end, with nothing but the installed `chessclock` command.

The wheel is built from this checkout once and installed (the versions of constraints.txt)
into a fresh virtual environment in a temporary folder. Every step then runs the venv's
`chessclock` as a subprocess, in another temporary folder, with an environment that leads
nowhere back to the checkout: two `chessclock sim-serve` clocks, the key, controls typed as
regulations print them, a game with presses, corrections, an undo, a pause, a scheduled
start in a non-UTC zone, a self-test, a sealed and adjourned game resumed on the other
clock, a flag, the logs pulled, verified, ruled on and exported, a correspondence event,
and (where Debian's chromium is installed) both clocks on the hall's page.

The steps are the test functions in file order; they share the module's fixtures (the
clocks, the key, the archive), so a failure names the step where the day went wrong.
Each call asserts its exit code, the words an arbiter would read, and that no traceback
was printed.

Not collected by the normal `pytest` run (testpaths are tests/core and tests/host); run it
with `.venv/bin/python -m pytest -q tests/e2e`.
"""

from __future__ import annotations

import datetime
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import venv
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import chess.pgn
import pytest

ROOT = Path(__file__).resolve().parents[2]
VERSION = re.search(r'^VERSION = "([^"]+)"',
                    (ROOT / "firmware" / "clockcore" / "version.py").read_text(), re.M).group(1)
PIP_QUIET = ["--quiet", "--disable-pip-version-check"]


# ---- the installed command ----------------------------------------------------------------
class Installed:
    """The wheel in its own venv: `run` calls its `chessclock` in the work folder."""

    def __init__(self, base: Path, wheel: Path) -> None:
        self.base = base
        self.wheel = wheel
        self.bin = base / "venv" / "bin"
        self.exe = self.bin / "chessclock"
        self.work = base / "work"
        self.work.mkdir()
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYTHONPATH", "MICROPYPATH", "VIRTUAL_ENV", "PYTHONHOME",
                                 "CHESSCLOCK_KEY", "CHESSCLOCK_PORTS", "CHESSCLOCK_CORR_DB",
                                 "PYTEST_CURRENT_TEST")}
        self.env["CHESSCLOCK_HOME"] = str(base / "home")   # the key and sim-serve registry
        self.env["PATH"] = "%s:%s" % (self.bin, os.environ.get("PATH", "/usr/bin:/bin"))
        self.env["COLUMNS"] = "160"                        # rich tables: one row a line

    def run(self, *args: str, ok: tuple[int, ...] = (0,), tz: str | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """`chessclock ARGS` from the install; its exit code must be in `ok` and nothing
        it prints may be a traceback."""
        env = dict(self.env)
        if tz is not None:
            env["TZ"] = tz
        r = subprocess.run([str(self.exe), *args], cwd=self.work, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=timeout)
        said = r.stdout + r.stderr
        assert "Traceback" not in said, "chessclock %s:\n%s" % (" ".join(args), said)
        assert r.returncode in ok, "chessclock %s: exit %d\n%s" % (" ".join(args),
                                                                    r.returncode, said)
        return r

    def python(self, code: str) -> str:
        r = subprocess.run([str(self.bin / "python"), "-c", code], cwd=self.work,
                           env=self.env, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout

    def pip_install(self, *what: str) -> None:
        subprocess.run([str(self.bin / "python"), "-m", "pip", "install", *PIP_QUIET,
                        "-c", str(ROOT / "constraints.txt"), *what], cwd=self.base,
                       env=self.env, check=True, capture_output=True, timeout=900)


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("arbiters-day")
    assert not base.resolve().is_relative_to(ROOT), "the day runs outside the checkout"
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", *PIP_QUIET, "--no-deps",
                    "-w", str(dist), str(ROOT)], check=True, capture_output=True, timeout=600)
    (wheel,) = dist.glob("chessclock-*.whl")
    venv.EnvBuilder(with_pip=True).create(base / "venv")
    inst = Installed(base, wheel)
    inst.pip_install("--no-compile", str(wheel))
    return inst


@pytest.fixture(scope="module")
def day(installed: Installed) -> Iterator[SimpleNamespace]:
    """The two clocks (`chessclock sim-serve` processes) and what the day passes on."""
    servers = []
    ports = []
    try:
        for name in ("clock-a", "clock-b"):
            p = subprocess.Popen([str(installed.exe), "sim-serve", "--storage",
                                  "flash-" + name, "--clock-id", name],
                                 cwd=installed.work, env=installed.env, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            servers.append(p)
            assert p.stdout is not None
            ports.append(p.stdout.readline().strip())
        yield SimpleNamespace(cc=installed.run, inst=installed, work=installed.work,
                              a=ports[0], b=ports[1])
    finally:
        for p in servers:
            p.terminate()
        for p in servers:
            try:
                _, err = p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                _, err = p.communicate()
            assert "Traceback" not in err, err
            assert p.returncode == 0, err       # SIGTERM stops it as Ctrl-C does


def status(d: SimpleNamespace, port: str) -> dict:
    r = d.cc("status", "--port", port, "--json")
    (row,) = json.loads(r.stdout)
    assert row["ok"] and row["simulated"], row
    return row["result"]


def wait_for(d: SimpleNamespace, port: str, what: Callable[[dict], bool],
             seconds: float = 20) -> dict:
    """The clock's status once `what(status)` holds (within `seconds`)."""
    deadline = time.monotonic() + seconds
    while True:
        s = status(d, port)
        if what(s):
            return s
        assert time.monotonic() < deadline, s
        time.sleep(0.2)


def press(d: SimpleNamespace, port: str, lever: str) -> None:
    """A lever pressed, and let go: `press` answers while the lever is still down (80 ms),
    and a second lever pressed meanwhile is both levers down (no move)."""
    r = d.cc("press", lever, "--port", port)
    assert "%s lever pressed" % lever in r.stdout
    time.sleep(0.2)


def one_line_refusal(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode != 0 and r.stdout == "" and r.stderr.count("\n") == 1, r
    return r.stderr


# ---- the day -------------------------------------------------------------------------------
def test_the_installed_command_is_the_wheel_alone(installed: Installed) -> None:
    r = installed.run("--version")
    assert VERSION in r.stdout
    where = installed.python("from chessclock import sources as s; print(s.firmware_dir()); "
                             "print(s.checkout_root())").split("\n")
    assert Path(where[0]).resolve().is_relative_to((installed.base / "venv").resolve())
    assert where[1] == "None"
    assert not installed.work.resolve().is_relative_to(ROOT)


def test_two_sim_serve_clocks_answer(day: SimpleNamespace) -> None:
    assert day.a.startswith("/dev/") and day.b.startswith("/dev/") and day.a != day.b
    for port, name in ((day.a, "clock-a"), (day.b, "clock-b")):
        r = day.cc("info", "--port", port)
        assert "clock %s " % name in r.stdout and "firmware %s " % VERSION in r.stdout
        assert status(day, port)["state"] == "idle"


def test_key_new_use_set(day: SimpleNamespace) -> None:
    r = day.cc("key", "new", "arbiter.key")
    assert "new key in" in r.stdout and (day.work / "arbiter.key").is_file()
    refused = day.cc("key", "new", "arbiter.key", ok=(2,))      # never overwrites a key
    one_line_refusal(refused)
    assert "Traceback" not in refused.stderr
    r = day.cc("key", "use", "arbiter.key")
    assert "using the key" in r.stdout
    r = day.cc("key", "set", "--port", day.a, "--port", day.b)
    assert r.stdout.count("key set") == 2
    assert status(day, day.a)["key"] == 1 and status(day, day.b)["key"] == 1


# Controls as regulations and pairings sheets print them: each is refused with its hints.
TYPED = ["90/40+30", "40/90+30", "90+30", "90/40+30:30+30", "40/2, SD/1", "G/2", "3|2",
         "90+30d", "5d3", "120/40:60"]
_WRITE = re.compile(r"\bwrite (.+?)(?= for hours| for minutes| \(the side| \(at character|; |$)")
_OR_MINUTES = re.compile(r" for hours or (.+?) for minutes")


def hints(refusal: str) -> list[list[str]]:
    """The arguments of every command the refusal suggests (its spellings; `--pgn`)."""
    got = [[h] for h in _WRITE.findall(refusal) + _OR_MINUTES.findall(refusal)
           if not h.startswith(("the ", '"?"'))]
    if "add --pgn" in refusal:
        got.append(["--pgn"])
    return got


@pytest.mark.parametrize("typed", TYPED)
def test_controls_as_regulations_print_them(day: SimpleNamespace, typed: str) -> None:
    refusal = one_line_refusal(day.cc("control", typed, ok=(2,)))
    assert typed in refusal
    suggested = hints(refusal)
    assert suggested, refusal
    for hint in suggested:
        argv = [typed, "--pgn"] if hint == ["--pgn"] else hint
        r = day.cc("control", *argv)            # the hint, run as given: it is accepted
        assert "readable:" in r.stdout and "each side:" in r.stdout, (hint, r.stdout)
    # `set` on a clock refuses the same spelling with the same hints, and the clock takes
    # each of them
    refused = one_line_refusal(day.cc("set", typed, "--yes", "--port", day.b, ok=(2,)))
    assert hints(refused) == suggested, (refusal, refused)
    for hint in suggested:
        argv = [typed, "--pgn"] if hint == ["--pgn"] else hint
        r = day.cc("set", *argv, "--yes", "--port", day.b)
        assert "each side:" in r.stdout
        spec = status(day, day.b)["spec"]
        assert spec == ("pgn:" + typed.replace(" ", "") if hint == ["--pgn"] else hint[0]), \
            (hint, spec)


def test_set_the_control_the_hint_gave(day: SimpleNamespace) -> None:
    refusal = day.cc("control", "90/40+30", ok=(2,)).stderr
    spelling = hints(refusal)[0][0]
    assert spelling == "90m/40+30s", refusal
    r = day.cc("set", spelling, "--yes", "--port", day.a)
    assert "each side: 90 min for 40 moves" in r.stdout
    s = status(day, day.a)
    assert s["spec"] == spelling and s["state"] == "idle" and s["white_ms"] == 5400000


def test_start(day: SimpleNamespace) -> None:
    r = day.cc("start", "--port", day.a)
    assert "state=running" in r.stdout
    s = status(day, day.a)
    assert s["state"] == "running" and s["running"] == "white"


def test_presses_over_the_link(day: SimpleNamespace) -> None:
    for lever, runs, moves in (("left", "black", (1, 0)), ("right", "white", (1, 1)),
                               ("left", "black", (2, 1))):
        press(day, day.a, lever)
        s = wait_for(day, day.a, lambda s, runs=runs: s["running"] == runs)
        assert (s["white_moves"], s["black_moves"]) == moves
        assert s["white_ms"] > 5400000          # +30 s a move
    day.cc("press", "middle", "--port", day.a, ok=(2,))


def test_adjust_plus_2m_and_minus_30s_with_reason(day: SimpleNamespace) -> None:
    before = status(day, day.a)                 # black's clock runs
    t0 = time.monotonic()
    r = day.cc("adjust", "white", "+2m", "--reason", "phone rang", "--article", "FIDE 11.3",
               "--port", day.a)
    assert "running" in r.stdout
    r = day.cc("adjust", "black", "-30s", "--reason", "disturbing", "--article", "FIDE 12.9",
               "--port", day.a)
    after = status(day, day.a)
    ran = (time.monotonic() - t0) * 1000
    assert after["white_ms"] - before["white_ms"] == 120000
    assert -30000 - ran - 500 <= after["black_ms"] - before["black_ms"] <= -30000
    refusal = day.cc("adjust", "white", "+2", "--port", day.a, ok=(2,)).stderr
    assert "unit" in refusal and refusal.count("\n") == 1
    assert status(day, day.a)["white_ms"] == after["white_ms"]


def test_settime(day: SimpleNamespace) -> None:
    r = day.cc("settime", "white", "4:30", "--port", day.a)
    assert "white 4:30" in r.stdout
    assert status(day, day.a)["white_ms"] == 270000


def test_undo_gives_the_turn_back_to_the_presser(day: SimpleNamespace) -> None:
    press(day, day.a, "right")                          # black moves: white's turn
    s = wait_for(day, day.a, lambda s: s["running"] == "white")
    assert s["black_moves"] == 2
    r = day.cc("undo", "--port", day.a)
    assert "black to move" in r.stdout
    s = status(day, day.a)
    assert s["running"] == "black" and s["black_moves"] == 1 and s["white_moves"] == 2


def test_pause_and_resume(day: SimpleNamespace) -> None:
    r = day.cc("pause", "--port", day.a)
    assert "state=paused" in r.stdout
    s1 = status(day, day.a)
    time.sleep(0.6)
    s2 = status(day, day.a)
    assert s1["state"] == s2["state"] == "paused"
    assert (s1["white_ms"], s1["black_ms"]) == (s2["white_ms"], s2["black_ms"])
    r = day.cc("resume", "--port", day.a)
    assert "state=running" in r.stdout
    s3 = wait_for(day, day.a, lambda s: s["black_ms"] < s2["black_ms"])
    assert s3["running"] == "black" and s3["white_ms"] == s2["white_ms"]


def test_schedule_in_sao_paulo(day: SimpleNamespace) -> None:
    zone = ZoneInfo("America/Sao_Paulo")
    day.cc("set", "5m+3s", "--yes", "--port", day.b)
    at = (datetime.datetime.now(zone) + datetime.timedelta(seconds=6)).replace(microsecond=0)
    r = day.cc("schedule", at.strftime("%H:%M:%S"), "--port", day.b, tz="America/Sao_Paulo")
    utc = at.astimezone(datetime.UTC)
    assert ("White's clock starts at %s %s (%s UTC)" % (
        at.strftime("%Y-%m-%d %H:%M:%S"), at.tzname(), utc.strftime("%H:%M:%S"))) in r.stdout
    assert at.tzname() == "-03"                 # the zone's own name, not UTC's
    s = status(day, day.b)
    assert s["sched"] == int(utc.timestamp()) and s["state"] == "idle"
    s = wait_for(day, day.b, lambda s: s["state"] == "running")
    assert s["running"] == "white" and time.time() >= utc.timestamp()
    refusal = day.cc("schedule", "25:00", "--port", day.b, ok=(2,)).stderr
    assert "not a time of day" in refusal and refusal.count("\n") == 1
    r = day.cc("end", "--port", day.b)
    assert status(day, day.b)["state"] == "ended"


def test_selftest_then_start(day: SimpleNamespace) -> None:
    day.cc("set", "5m+3s", "--yes", "--port", day.b)
    r = day.cc("selftest", "--port", day.b)
    assert "press both levers" in r.stdout
    assert status(day, day.b)["testing"] == 1
    refusal = one_line_refusal(day.cc("start", "--port", day.b, ok=tuple(range(1, 256))))
    assert "self-test is running" in refusal
    assert status(day, day.b)["state"] == "idle"
    press(day, day.b, "left")                  # during the lamp: not taken, but logged
    assert status(day, day.b)["white_moves"] == 0
    wait_for(day, day.b, lambda s: s["testing"] == 2)       # the levers, each asked for
    press(day, day.b, "left")
    press(day, day.b, "right")
    s = wait_for(day, day.b, lambda s: s["selftest"] >= 0)
    assert s["selftest"] == 0                   # both levers seen: passed, none lost
    r = day.cc("start", "--port", day.b)
    assert "state=running" in r.stdout
    day.cc("press", "left", "--port", day.b)
    s = wait_for(day, day.b, lambda s: s["running"] == "black")
    assert s["white_moves"] == 1 and s["selftest"] == 0
    day.cc("end", "--port", day.b)


def test_seal_adjourn_and_resume_on_the_other_clock(day: SimpleNamespace) -> None:
    r = day.cc("seal", "start", "--port", day.a)
    assert "black seals" in r.stdout
    r = day.cc("seal", "done", "--move", "Nf6", "--port", day.a)
    assert "sealed: black's move handed in, clocks stopped" in r.stdout
    salt = re.search(r"salt ([0-9a-f]+)", r.stdout).group(1)
    sha = re.search(r"snapshot sha256 ([0-9a-f]{64})", r.stdout).group(1)
    s = status(day, day.a)
    assert s["state"] != "running" and s["black_moves"] == 2
    r = day.cc("adjourn", "export", "game7.json", "--port", day.a)
    assert sha in r.stdout
    day.cc("adjourn", "export", "game7.json", "--port", day.a, ok=(2,))  # never overwrites
    r = day.cc("adjourn", "show", "game7.json", "--move", "Nf6", "--salt", salt)
    assert "envelope  Nf6 matches the sealed hash" in r.stdout and "to move   white" in r.stdout
    refusal = day.cc("adjourn", "show", "game7.json", "--move", "Ne4", "--salt", salt,
                     ok=(2,)).stderr
    assert "NOT the sealed move" in refusal and refusal.count("\n") == 1
    r = day.cc("adjourn", "resume", "game7.json", "--port", day.b, "--start")
    assert "adjourned game loaded (sha256 %s)" % sha in r.stdout
    b = status(day, day.b)
    assert b["running"] == "white" and b["session"] == 2 and b["spec"] == s["spec"]
    assert (b["black_ms"], b["white_moves"], b["black_moves"]) == (
        s["black_ms"], s["white_moves"], s["black_moves"])
    day.sealed_sha = sha
    day.cc("press", "left", "--port", day.b)            # the next session plays on
    b = wait_for(day, day.b, lambda s: s["running"] == "black")
    assert b["white_moves"] == 3
    day.cc("result", "1/2", "--port", day.b)


SHEET = """[Event "Arbiter's day"]
[White "Ana"]
[Black "Bruno"]
[Result "*"]

1. e4 e5 2. Nf3 *
"""


def test_a_flag_on_a_short_control(day: SimpleNamespace) -> None:
    day.cc("set", "4s", "--yes", "--port", day.a)
    day.cc("start", "--port", day.a)
    for lever in ("left", "right", "left"):             # 1. e4 e5 2. Nf3
        press(day, day.a, lever)
    s = wait_for(day, day.a, lambda s: s["state"] == "frozen", seconds=15)
    assert s["black_ms"] == 0 and s["black_flag_ms"] >= 0 and s["white_flag_ms"] == -1
    assert (s["white_moves"], s["black_moves"]) == (2, 1)
    assert "FLAG" in day.cc("status", "--port", day.a).stdout
    (day.work / "sheet.pgn").write_text(SHEET)


def test_log_pull(day: SimpleNamespace) -> None:
    r = day.cc("log", "pull", "--port", day.a, "--port", day.b, "--archive", "logs",
               "--game", "day", "--json")
    rows = {row["port"]: row["result"] for row in json.loads(r.stdout)}
    for port, name in ((day.a, "clock-a"), (day.b, "clock-b")):
        assert rows[port]["clock"] == name and rows[port]["signed"] is True
        assert (day.work / rows[port]["file"]).is_file()
    day.log_a = "logs/clock-a/day.log"
    day.log_b = "logs/clock-b/day.log"
    r = day.cc("log", "pull", "--port", day.a, "--archive", "logs", "--game", "day")
    assert "logs/clock-a/day.log" in r.stdout            # resumable: nothing lost


def test_log_verify_authentic_with_the_key(day: SimpleNamespace) -> None:
    for log in (day.log_a, day.log_b):
        r = day.cc("log", "verify", log, "--key", "arbiter.key")
        assert "verification: AUTHENTIC" in r.stdout
    day.cc("key", "new", "other.key")
    r = day.cc("log", "verify", day.log_a, "--key", "other.key", ok=(1,))
    assert "verification: INTACT, NOT AUTHENTICATED" in r.stdout
    changed = bytearray((day.work / day.log_a).read_bytes())
    changed[len(changed) // 2] ^= 1                     # one bit of a record
    (day.work / "changed.log").write_bytes(bytes(changed))
    r = day.cc("log", "verify", "changed.log", "--key", "arbiter.key", ok=(1,))
    assert "verification: FAILED" in r.stdout and "FAIL: seq" in r.stdout
    refusal = day.cc("ruling", "changed.log", "--key", "arbiter.key", ok=(2,)).stderr
    assert "did not verify (FAILED): no ruling" in refusal and refusal.count("\n") == 1
    refusal = day.cc("log", "verify", "no-such.log", ok=(2,)).stderr
    assert "cannot read no-such.log" in refusal and refusal.count("\n") == 1
    shown = day.cc("log", "show", day.log_a).stdout
    assert "phone rang" in shown and "FIDE 11.3" in shown and "disturbing" in shown
    shown_b = day.cc("log", "show", day.log_b).stdout
    assert day.sealed_sha in shown_b and "self-test" in shown_b
    events = [json.loads(line) for line in
              day.cc("log", "export", day.log_b, "--format", "jsonl").stdout.splitlines()]
    kinds = [e["type"] for e in events]
    test_at = kinds.index("self-test")
    assert events[test_at]["passed"] is True
    assert "ignored" in kinds[:test_at]     # the press during the lamp: not lost, logged
    assert [e for e in events if e["type"] == "adjourned-loaded"][0]["snapshot_sha256"] \
        == day.sealed_sha


def test_ruling_with_pgn_html_plot_and_incident(day: SimpleNamespace) -> None:
    inst = day.inst
    has_plot = subprocess.run([str(inst.bin / "python"), "-c", "import matplotlib"],
                              env=inst.env, capture_output=True).returncode == 0
    if not has_plot:
        refusal = day.cc("ruling", day.log_a, "--plot", "t.png", ok=(2,)).stderr
        assert "chessclock[plot]" in refusal and refusal.count("\n") == 1
        inst.pip_install("%s[plot]" % inst.wheel)
    r = day.cc("ruling", day.log_a, "--key", "arbiter.key", "--pgn", "sheet.pgn",
               "--html", "report.html", "--plot", "report.png", "--incident", "incident.txt",
               timeout=300)
    assert "verification: AUTHENTIC" in r.stdout
    assert "Black's flag fell first" in r.stdout and "RESULT: 1-0" in r.stdout
    assert "Position at the flag: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b" \
        in r.stdout
    png = (day.work / "report.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    html = (day.work / "report.html").read_text()
    assert "<html" in html.lower() and "1-0" in html and "AUTHENTIC" in html
    incident = (day.work / "incident.txt").read_text()
    assert incident.startswith("INCIDENT REPORT") and "Players: White Ana, Black Bruno" \
        in incident and "AUTHENTIC" in incident
    refusal = day.cc("ruling", "no-such.log", "--key", "arbiter.key", ok=(2,)).stderr
    assert "no-such.log" in refusal and refusal.count("\n") == 1


def test_log_export(day: SimpleNamespace) -> None:
    r = day.cc("log", "export", day.log_a, "--format", "pgn", "--pgn", "sheet.pgn")
    game = chess.pgn.read_game(io.StringIO(r.stdout))
    assert game is not None and game.headers["Result"] == "1-0"
    assert game.headers["Termination"] == "time forfeit"
    assert [n.san() for n in game.mainline()] == ["e4", "e5", "Nf3"]
    assert all(n.clock() is not None for n in game.mainline())        # [%clk] on each
    r = day.cc("log", "export", day.log_a, "--format", "jsonl")
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert any(e["type"] == "flag" and e["side"] == "black" for e in events)
    r = day.cc("log", "export", day.log_a, "--format", "csv")
    assert r.stdout.splitlines()[0].count(",") >= 2
    day.cc("log", "export", day.log_a, "--format", "xml", ok=(2,))


CORR = ["--db", "corr.sqlite3"]


def test_a_correspondence_event(day: SimpleNamespace) -> None:
    def corr(*args: str, today: str, ok: tuple[int, ...] = (0,)):
        return day.cc("corr", *args, *CORR, "--today", today, ok=ok)

    r = corr("event", "T26", "--start", "2026-03-02", "--end", "2026-12-31", "--tz",
             "America/Sao_Paulo", "--name", "CXEB Email 2026", today="2026-03-02")
    assert "event T26" in r.stdout
    r = corr("game", "T26", "g1", "--white", "Ana", "--black", "Bruno", today="2026-03-02")
    assert "Ana - Bruno" in r.stdout
    moves = [("1", "e4", None, "2026-03-04"),                 # the same in both languages
             ("1...", "c5", "2026-03-05", "2026-03-09"),
             ("2", "Cf3", "2026-03-10", "2026-03-12"),        # Portuguese: Cavalo
             ("2...", "Nc6", "2026-03-13", "2026-03-14"),     # English: Knight
             ("3", "Bb5", "2026-03-15", "2026-03-16"),
             ("3...", "Dc7", "2026-03-17", "2026-03-18")]     # Portuguese: Dama
    for number, move, received, sent in moves:
        argv = ["move", "T26", "g1"] + (
            [number + move] if number.endswith("...") else [number, move])
        if received:
            argv += ["--received", received]
        r = corr(*argv, "--sent", sent, today=sent)
        assert "game g1:" in r.stdout and "sent %s" % sent in r.stdout
    refusal = corr("move", "T26", "g1", "4", "Rxe8", "--received", "2026-03-19", "--sent",
                   "2026-03-19", today="2026-03-19", ok=(2,)).stderr
    assert refusal.count("\n") == 1                      # not legal: one line, nothing written
    r = corr("status", "T26", today="2026-03-19")
    assert "CXEB Email 2026" in r.stdout and "Ana" in r.stdout and "in play" in r.stdout
    r = corr("verify", "T26", today="2026-03-19")
    assert "8 records, chain intact" in r.stdout
    r = corr("pgn", "T26", "g1", today="2026-03-19")
    game = chess.pgn.read_game(io.StringIO(r.stdout))
    assert game is not None
    assert [n.san() for n in game.mainline()] == ["e4", "c5", "Nf3", "Nc6", "Bb5", "Qc7"]


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no chromium (Debian's package)")
def test_the_hall_page_in_chromium(day: SimpleNamespace) -> None:
    """Both clocks on the hall's page: clock-a's flag, clock-b's new game running."""
    import signal
    import socket

    from playwright.sync_api import sync_playwright

    day.cc("set", "5m+3s", "--yes", "--port", day.b)
    day.cc("start", "--port", day.b)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        listen = "127.0.0.1:%d" % s.getsockname()[1]
    hall = subprocess.Popen([str(day.inst.exe), "hall", "--port", day.a, "--port", day.b,
                             "--assign", "1=clock-a", "--assign", "2=clock-b", "--event",
                             "Arbiter's day", "--title", "Hall A", "--listen", listen,
                             "--archive", "hall-logs"],
                            cwd=day.work, env=day.inst.env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert hall.stderr is not None
        line = hall.stderr.readline()
        assert "2 clock(s); the page: http://%s/" % listen in line, line
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                deadline = time.monotonic() + 20
                while True:                   # uvicorn is up a moment after its line
                    try:
                        page.goto("http://%s/" % listen)
                        break
                    except Exception:
                        assert time.monotonic() < deadline
                        time.sleep(0.2)
                one = page.locator('section.card[data-board="1"]')
                two = page.locator('section.card[data-board="2"]')
                one.wait_for()
                two.wait_for()
                page.wait_for_function("document.querySelector('section.card[data-board=\"1\"]"
                                       " .side[data-side=\"b\"]').classList.contains"
                                       "('flagged')", timeout=15000)
                assert "flag fell" in one.inner_text()
                page.wait_for_function("document.querySelector('section.card[data-board=\"2\"]"
                                       " .side[data-side=\"w\"]').classList.contains"
                                       "('running')", timeout=15000)
                assert "Hall A" in page.title() or "Hall A" in page.content()
            finally:
                browser.close()
    finally:
        hall.send_signal(signal.SIGINT)           # Ctrl-C, as the arbiter stops it
        try:
            _, err = hall.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            hall.kill()
            _, err = hall.communicate()
    assert "Traceback" not in err, err
    assert hall.returncode == 0, err


def test_the_day_left_nothing_in_the_checkout(installed: Installed) -> None:
    for name in ("corr.sqlite3", "logs", "game7.json", "arbiter.key", "report.html"):
        assert not (ROOT / name).exists(), name
        assert (installed.work / name).exists(), name
