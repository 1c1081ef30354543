"""`make bench`: every benchmark, under CPython and the MicroPython unix port.

Prints `METRIC <name> <value> <unit>` lines (and the interpreters' versions first).
Figures belong in docs/BENCHMARKS.md with the command that produced them.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHES = ["engine_bench.py"]


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else "micropython"


def run(cmd, env=None):
    out = subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    sys.stdout.write(out.stdout)


def main():
    print("# cpython %s" % sys.version.split()[0])
    mp = micropython()
    env = dict(os.environ, MICROPYPATH=".frozen:" + os.path.join(ROOT, "firmware"))
    ver = subprocess.run([mp, "-c", "import sys; print(sys.version)"], env=env,
                         capture_output=True, text=True, check=True).stdout.strip()
    print("# micropython %s" % ver)
    for bench in BENCHES:
        path = os.path.join(ROOT, "bench", bench)
        run([sys.executable, path], env=dict(os.environ,
                                              PYTHONPATH=os.path.join(ROOT, "firmware")))
        run([mp, path], env=env)


if __name__ == "__main__":
    main()
