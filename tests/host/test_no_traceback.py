"""No tracebacks, ever. Every `chessclock` command (and every `log` subcommand)
is run with a table of bad inputs: binary and non-UTF-8 files, missing files and folders,
5000-digit numbers, 10^30 ms, empty strings, files that are not what the command reads.
Each must end with a clear message and a non-zero exit, never a traceback; `--help` of
every command must work."""

import io
import sys

import pytest

from chessclock import cli
from chessclock.commands import log as log_cmd

NOPORT = ["--port", "/dev/no-such-clock"]
BIG = "9" * 5000


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    f = {}
    f["bin"] = d / "binary.bin"
    f["bin"].write_bytes(bytes(range(256)) * 4)
    f["latin"] = d / "latin1.txt"
    f["latin"].write_bytes("caf\xe9 1. e4 e5\n".encode("latin-1"))
    f["text"] = d / "notes.txt"
    f["text"].write_text("this is not a log\n")
    f["empty"] = d / "empty.log"
    f["empty"].write_bytes(b"")
    f["missing"] = d / "missing.file"
    f["nodir"] = d / "no" / "such" / "folder" / "out.png"
    f["key"] = d / "no" / "such" / "folder" / "k.key"
    f["dir"] = d
    events = d / "events.jsonl"
    out = io.StringIO()
    old = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO("0 start\n1000 press white\n"), out
    try:
        cli.main(["simulate", "--control", "180+2"])
    finally:
        sys.stdin, sys.stdout = old
    events.write_text(out.getvalue())
    f["events"] = events
    return {k: str(v) for k, v in f.items()}


def cases(f):
    """(argv, expected exit code or None for any non-zero)."""
    out = []
    for name in cli.COMMANDS:
        out.append(([name, "--help"], 0))
        out.append(([name, "--no-such-option"], 2))
    for name in log_cmd.SUBCOMMANDS:
        out.append((["log", name, "--help"], 0))
    out.append((["--version"], 0))
    bad_files = [f["bin"], f["latin"], f["missing"], f["dir"], f["empty"]]
    for path in bad_files:
        out += [(["simulate", "--control", "180+2", path], None),
                (["ruling", path], None),
                (["ruling", "replace", path, "--at-seq", "3"], None),
                (["log", "verify", path], None),
                (["log", "show", path], None),
                (["log", "export", path], None),
                (["log", "export", path, "--format", "pgn"], None),
                (["boards", "--file", path, "list"], None),
                (["boards", "--file", path, "check"], None),
                (["key", "use", path], None),
                (["ruling", f["events"], "--pgn", path], None),
                (["ruling", "complaint", path, "--at", "5s"], None),
                (["ruling", "draw-claim", "--pgn", path], None),
                (["ruling", "illegal-move", "--pgn", path, "--move", "e2e4"], None),
                (["ruling", "playoff", "--pgn", path], None),
                (["pairings", "push", path] + NOPORT, None),
                (["pairings", "show", path], None),
                (["ruling", f["events"], "--pairings", path, "--board", "1"], None)]
    out += [
        (["log", "show", f["text"]], None), (["log", "export", f["text"]], None),
        (["log", "export", f["events"], "--format", "pgn", "--game", "999"], None),
        (["key", "new", f["key"]], None),
        (["ruling", f["events"], "--plot", f["nodir"]], None),
        (["ruling", f["events"], "--html", f["nodir"]], None),
        (["ruling", f["events"], "--incident", f["nodir"]], None),
        (["ruling", f["events"], "--plot", f["dir"] + "/x.unknownformat"], None),
        (["ruling", f["events"], "--control", BIG], None),
        (["ruling", f["events"], "--fen", "not a fen"], None),
        (["ruling", f["events"], "--nodes", BIG], None),
        (["ruling", "late", "--elapsed", BIG, "--visitor", "white"], None),
        (["ruling", "late", "--elapsed", "1" + "0" * 30 + "ms", "--visitor", "white"], None),
        (["ruling", "replace", f["events"], "--at", BIG], None),
        (["ruling", "replace", f["events"], "--at-seq", BIG], None),
        (["control", BIG], None), (["control", ""], None), (["control", "\udcff"], None),
        (["simulate", "--control", BIG], None),
        (["simulate", "--control", "1" + "0" * 30 + "ms"], None),
        (["adjust", "white", ""] + NOPORT, 2), (["adjust", "white", BIG] + NOPORT, 2),
        (["adjust", "white", "+" + "1" + "0" * 30 + "ms"] + NOPORT, 2),
        (["adjust", "white", "nan"] + NOPORT, 2), (["adjust", "white", "inf"] + NOPORT, 2),
        (["settime", "white", BIG] + NOPORT, 2), (["settime", "white", "-5m"] + NOPORT, 2),
        (["settime", "white", "1" + "0" * 30 + "ms"] + NOPORT, 2),
        (["moves", "black", BIG] + NOPORT, 2), (["moves", "black", "-1"] + NOPORT, 2),
        (["stage", "black", BIG] + NOPORT, 2), (["split", BIG, "--visitor", "white"] + NOPORT, 2),
        (["addstage", "both", BIG] + NOPORT, 2), (["addstage", "both", ""] + NOPORT, 2),
        (["set", BIG, "--yes"] + NOPORT, 2), (["set", "", "--yes"] + NOPORT, 2),
        (["press", "left", "--hold", BIG] + NOPORT, 2),
        (["watch", "--interval", BIG, "--count", "1"] + NOPORT, None),
        (["status", "--timeout", BIG] + NOPORT, None),
        (["status", "--timeout", "nan"] + NOPORT, None),
        (["status", "--pairings", f["bin"]] + NOPORT, 2),
        (["status", "--pairings", f["missing"]] + NOPORT, 2),
        (["watch", "--assign", "x", "--count", "1"] + NOPORT, 2),
        (["watch", "--assign", BIG + "=sim", "--count", "1"] + NOPORT, 2),
        (["status", "--assign", "0=sim"] + NOPORT, 2),
        (["pairings", "push", f["events"], "--assign", BIG + "=sim"] + NOPORT, 2),
        (["pairings", "clear"], 2), (["ruling", f["events"], "--board", BIG], 2),
        (["log", "pull", "--archive", f["bin"]] + NOPORT, None),
    ]
    for name in ("info", "status", "start", "pause", "resume", "undo", "end", "wallclock",
                 "log-pull"):
        out.append(([name] + NOPORT, 3))
        out.append(([name], 2))   # no clock given
    out.append((["ports", "--json"], 0))
    return out


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    try:
        try:
            code = cli.main(list(argv))
        except SystemExit as e:   # argparse: --help, a usage error
            code = e.code
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def test_every_command_with_bad_input_says_so_in_a_line(files, monkeypatch, tmp_path):
    monkeypatch.setenv("CHESSCLOCK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CHESSCLOCK_KEY", raising=False)
    monkeypatch.delenv("CHESSCLOCK_PORTS", raising=False)
    failures = []
    for argv, want in cases(files):
        try:
            code, out, err = run(argv)
        except BaseException as e:  # noqa: BLE001 - exactly what must never happen
            failures.append("%s: %s: %s" % (argv[:4], type(e).__name__, str(e)[:100]))
            continue
        shown = [str(a)[:30] for a in argv]
        if "Traceback" in err or "Traceback" in out:
            failures.append("%s: a traceback" % shown)
        elif want is None and code == 0:
            failures.append("%s: exit 0 on bad input" % shown)
        elif want is not None and code != want:
            failures.append("%s: exit %s, not %s: %s" % (shown, code, want, err[-200:]))
        elif "unexpected error" in err:
            failures.append("%s: a bug caught: %s" % (shown, err.strip()[-200:]))
        elif code not in (0, None) and not (err.strip() or out.strip()):
            failures.append("%s: exit %s with no message" % (shown, code))
    assert not failures, "\n".join(failures)


def test_rulings_recommend_only_commands_that_exist(files):
    import re
    texts = []
    for argv in (["ruling", "late", "--elapsed", "75m", "--visitor", "black",
                  "--control", "90m+30s", "--rules", "fce-rgc1990"],
                 ["ruling", "replace", files["events"], "--at-seq", "2"],
                 ["ruling", files["events"]]):
        code, out, err = run(argv)
        assert code == 0, err
        texts.append(out)
    named = set(re.findall(r"chessclock ([a-z][a-z-]*)", "\n".join(texts)))
    assert {"split", "settime"} <= named
    assert named <= set(cli.COMMANDS), named - set(cli.COMMANDS)
