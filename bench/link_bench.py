"""Serial link benchmarks: status round trip over a pty with the firmware side on the
MicroPython unix port, a 10,000-event log pull, and `chessclock --help` cold start.
Prints METRIC lines (bench/run.py runs it)."""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host")]

from chessclock.link import transport as L  # noqa: E402
from chessclock.log.pull import pull  # noqa: E402
from chessclock.sim.serve import SimServer  # noqa: E402
from clockapp.storage import Store  # noqa: E402


def ready(path):
    for _ in range(100):
        try:
            with L.Link(path, timeout=0.5) as lk:
                lk.request("hello")
                return
        except L.ClockError:
            time.sleep(0.1)
    raise SystemExit("simulator did not answer")


def status_rtt(tmp):
    with SimServer(os.path.join(tmp, "rtt"), micropython=True) as s:
        ready(s.path)
        with L.Link(s.path) as lk:
            for _ in range(50):
                lk.request("status")
            times = []
            for _ in range(1000):
                t = time.perf_counter()
                lk.request("status")
                times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print("METRIC status_rtt_median_ms_mpy %.3f ms" % times[len(times) // 2])
    print("METRIC status_rtt_p99_ms_mpy %.3f ms" % times[int(len(times) * 0.99)])


def log_pull(tmp):
    storage = os.path.join(tmp, "pull")
    os.makedirs(storage)
    store = Store(storage + "/")
    for seq in range(10000):  # records as the clock writes them: u32 seq first
        store.append_log(struct.pack("<IBbiiII", seq, 1, 0, seq * 1000, 0, 180000, 180000))
    with SimServer(storage, micropython=True) as s:
        ready(s.path)
        with L.Link(s.path, timeout=5) as lk:
            t = time.perf_counter()
            r = pull(lk, os.path.join(tmp, "archive"), "bench")
            dt = time.perf_counter() - t
    assert r["records"] >= 10000, r
    print("METRIC log_pull_10000_events_s %.3f s" % dt)


def help_cold_start():
    exe = os.path.join(os.path.dirname(sys.executable), "chessclock")
    times = []
    for _ in range(15):
        t = time.perf_counter()
        subprocess.run([exe, "--help"], check=True, capture_output=True)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print("METRIC cli_help_cold_start_ms %.1f ms" % times[len(times) // 2])


def main():
    tmp = tempfile.mkdtemp(prefix="chessclock-linkbench-")
    try:
        status_rtt(tmp)
        log_pull(tmp)
        help_cold_start()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
