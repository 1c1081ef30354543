"""The host package on its own (`make test-wheel`): install WHEEL with its dependencies
(the versions of constraints.txt, without the plot extra) into a fresh virtual environment
in a temporary folder, and from another temporary folder, with nothing of this checkout on
any path, check that the installed `chessclock`:

- reports the firmware's version (firmware/clockcore/version.py);
- finds the firmware's sources and boards.toml inside the installed package;
- `simulate`s a game exactly as the checkout does;
- `build`s a board's firmware byte for byte as the checkout does;
- `sim`s the firmware app in its own process (headless) as the checkout does;
- serves a simulator clock with `sim-serve` that `info` and `status` talk to;
- refuses `ruling --plot` in one line, naming the extra, when matplotlib is missing;
- prints the `--help` of every subcommand and sub-subcommand (found by walking the
  installed parser, not from a list) with no traceback;
- runs the commands that need no clock (control, presets, boards list/show/check,
  simulate) with no traceback.

Usage: python tests/wheel/check_installed.py dist/chessclock-X-py3-none-any.whl
Exit 0 when every check passes; else the failed check and its output, exit 1.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKOUT = Path(sys.executable).parent / "chessclock"  # the checkout's (editable) command
GAME = """0      start
10000  press white
25000  press black
400000 end
"""
SIM_SCRIPT = """0 button start
100 lever left
5000 lever right
9000 show
"""
BOARD = "pico-tm1637"


class Failed(Exception):
    pass


def run(cmd, cwd, env, ok=(0,), timeout=300):
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=timeout)
    if r.returncode not in ok:
        raise Failed("%s: exit %d\n%s%s" % (" ".join(map(str, cmd)), r.returncode,
                                           r.stdout[-2000:], r.stderr[-2000:]))
    return r


def expect(cond, what):
    if not cond:
        raise Failed(what)
    print("ok  %s" % what)


def clean_env(home):
    """This environment without anything that could lead back to the checkout."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "MICROPYPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["CHESSCLOCK_HOME"] = str(home)   # sim-serve's registry, the key: not the user's
    return env


# Prints every command path of the installed parser, one a line ("log show", "seal", ...):
# cli.build_parser([name]) adds a command's arguments (and its own subcommands) only when
# that command is named, so each top-level command is built on its own and walked.
WALK = """
import argparse
from chessclock import cli

def subs(p):
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            return a.choices
    return {}

def walk(p, path):
    for name, sp in subs(p).items():
        print(" ".join(path + [name]))
        walk(sp, path + [name])

for name in subs(cli.build_parser([])):
    sp = subs(cli.build_parser([name]))[name]
    print(name)
    walk(sp, [name])
"""

# Commands that need no clock, run as an arbiter would: (arguments, exit codes allowed).
NO_CLOCK = [
    (["control", "90/40+30"], (2,)),
    (["control", "90m/40+30m+30s"], (0,)),
    (["presets"], (0,)),
    (["boards", "list"], (0,)),
    (["boards", "show", BOARD], (0,)),
    (["boards", "check"], (0,)),
    (["simulate", "--control", "3+2", "game.txt"], (0,)),
]


def checks(wheel, tmp):
    version = re.search(r'^VERSION = "([^"]+)"', (ROOT / "firmware" / "clockcore" /
                                                  "version.py").read_text(), re.M).group(1)
    expect(("-%s-" % version) in wheel.name, "the wheel's name carries version %s" % version)
    env = clean_env(tmp / "home")
    t0 = time.monotonic()
    venv.EnvBuilder(with_pip=True).create(tmp / "venv")
    bin_ = tmp / "venv" / "bin"
    run([bin_ / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-compile",  # quicker; the commands compile what they import
         "-c", ROOT / "constraints.txt", wheel], tmp, env)
    print("ok  installed %s into a fresh venv (%.0f s)" % (wheel.name, time.monotonic() - t0))
    work = tmp / "work"
    work.mkdir()
    cc = bin_ / "chessclock"

    out = run([cc, "--version"], work, env).stdout
    expect(version in out, "`chessclock --version` says %s: %s" % (version, out.strip()))

    where = run([bin_ / "python", "-c", "from chessclock import sources as s; "
                 "print(s.firmware_dir()); print(s.boards_toml()); print(s.checkout_root())"],
                work, env).stdout.split("\n")
    site = (tmp / "venv").resolve()
    expect(Path(where[0]).resolve().is_relative_to(site) and
           (Path(where[0]) / "main.py").is_file(),
           "the firmware's sources come from the install: %s" % where[0])
    expect(Path(where[1]).resolve().is_relative_to(site) and Path(where[1]).is_file(),
           "boards.toml comes from the install")
    expect(where[2] == "None", "no checkout is in sight")

    (work / "game.txt").write_text(GAME)
    got = run([cc, "simulate", "--control", "300+2", "game.txt"], work, env).stdout
    want = run([CHECKOUT, "simulate", "--control", "300+2", "game.txt"], work, env).stdout
    expect(got == want and '"flag"' in got, "`simulate` replays the game as the checkout does")

    run([cc, "build", "--board", BOARD], work, env)
    run([CHECKOUT, "build", "--board", BOARD, "--out", tmp / "checkout-build"], work, env)
    manifest = (work / "build" / BOARD / "MANIFEST.sha256").read_text()
    expect(manifest == (tmp / "checkout-build" / "MANIFEST.sha256").read_text()
           and "clockapp/app.mpy" in manifest and "main.py" in manifest,
           "`build --board %s` makes build/%s/ byte for byte as the checkout does (%d files)"
           % (BOARD, BOARD, manifest.count("\n")))

    (work / "sim.txt").write_text(SIM_SCRIPT)
    got = run([cc, "sim", "--storage", "st-a", "--script", "sim.txt"], work, env).stdout
    want = run([CHECKOUT, "sim", "--storage", "st-b", "--script", "sim.txt"], work, env).stdout
    expect(got == want and got.count("\n") == 1,
           "`sim --script` runs the firmware app as the checkout does: %s" % got.strip())

    server = subprocess.Popen([str(cc), "sim-serve", "--storage", "serve",
                               "--clock-id", "wheel"], cwd=work, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        expect(port.startswith("/dev/"), "`sim-serve` serves a clock on %s" % port)
        info = run([cc, "info", "--port", port], work, env, timeout=60).stdout
        expect("clock wheel " in info and "firmware %s " % version in info,
               "`info` reaches it: %s" % info.strip())
        run([cc, "status", "--port", port], work, env, timeout=60)
        print("ok  `status` reaches it")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

    paths = run([bin_ / "python", "-c", WALK], work, env).stdout.split("\n")
    paths = [p.split() for p in paths if p.strip()]
    expect(len(paths) > 40 and ["seal"] in paths and ["log", "show"] in paths,
           "the installed parser has %d commands and subcommands" % len(paths))
    for path in paths:
        r = run([cc] + path + ["--help"], work, env, timeout=60)
        if "Traceback" in r.stderr or not r.stdout.startswith("usage: chessclock"):
            raise Failed("`chessclock %s --help`:\n%s%s" % (" ".join(path), r.stdout[-1000:],
                                                            r.stderr[-2000:]))
    print("ok  `--help` of every one of them, no traceback")
    for args, codes in NO_CLOCK:
        r = run([cc] + args, work, env, ok=codes, timeout=120)
        expect("Traceback" not in r.stderr and "a bug" not in r.stderr,
               "`chessclock %s` exits %d, no traceback" % (" ".join(args), r.returncode))

    r = run([cc, "ruling", "no-such.log", "--plot", "t.png"], work, env, ok=(2,))
    expect(r.stderr.count("\n") == 1 and "chessclock[plot]" in r.stderr
           and "Traceback" not in r.stderr,
           "without matplotlib, `ruling --plot` says so in one line: %s" % r.stderr.strip())


def main(argv):
    if len(argv) != 2 or not argv[1].endswith(".whl"):
        sys.stderr.write("usage: check_installed.py WHEEL\n")
        return 2
    wheel = Path(argv[1]).resolve()
    tmp = Path(tempfile.mkdtemp(prefix="chessclock-wheel-"))
    try:
        checks(wheel, tmp)
    except Failed as e:
        sys.stderr.write("test-wheel: FAILED: %s\n" % e)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("test-wheel: the installed package works on its own")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
