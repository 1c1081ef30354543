# Engine hot-path benchmark. Runs under MicroPython and CPython alike; bench/run.py starts
# it under both. Prints `METRIC <name> <value> <unit>` lines, names suffixed by interpreter.
#
# Times come from the interpreter's own clock; allocation from gc.mem_alloc() with the
# collector off (MicroPython only: CPython has no such counter).

import gc
import sys
import time

from clockcore import engine as E
from clockcore.control import Control, SideControl, Stage

MPY = sys.implementation.name == "micropython"
IMPL = "mpy" if MPY else "cpython"
N = 1000


def now_us():
    if MPY:
        return time.ticks_us()
    return time.perf_counter_ns() // 1000


def elapsed_us(t0):
    if MPY:
        return time.ticks_diff(time.ticks_us(), t0)
    return time.perf_counter_ns() // 1000 - t0


def fresh_clock():
    # FIDE classical with long stages: presses credit an increment and pass stages.
    stages = [Stage(100000000, moves=40, inc_ms=30000), Stage(100000000, inc_ms=30000)]
    c = E.Clock(Control(SideControl(stages)))
    c.start(0)
    return c


def presses(c, t, n):
    # A while loop with a small-int counter: the loop itself allocates nothing.
    i = 0
    while i < n:
        t += 1500
        c.press(c.turn, t)
        i += 1
    return t


def ticks(c, t, n):
    i = 0
    while i < n:
        t += 7
        c.tick(t)
        i += 1
    return t


def empty(c, t, n):
    i = 0
    while i < n:
        t += 7
        i += 1
    return t


def per_op_us(fn, rounds):
    """Best of `rounds` runs of N operations, minus the empty loop: microseconds per op."""
    best = None
    base = None
    for _ in range(rounds):
        c = fresh_clock()
        t0 = now_us()
        empty(c, 0, N)
        e = elapsed_us(t0)
        base = e if base is None or e < base else base
        c = fresh_clock()
        t0 = now_us()
        fn(c, 0, N)
        d = elapsed_us(t0)
        best = d if best is None or d < best else best
    return (best - base) / N


def alloc_bytes(fn):
    """Bytes allocated by N operations on a running clock (after a warm-up)."""
    c = fresh_clock()
    t = fn(c, 0, 100)  # warm-up: the first calls may grow attribute tables
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    fn(c, t, N)
    a1 = gc.mem_alloc()
    gc.enable()
    return a1 - a0


def main():
    rounds = 5 if MPY else 20
    print("METRIC press_us_%s %.3f us" % (IMPL, per_op_us(presses, rounds)))
    print("METRIC tick_us_%s %.3f us" % (IMPL, per_op_us(ticks, rounds)))
    if MPY:
        print("METRIC alloc_per_1000_presses_mpy %d bytes" % alloc_bytes(presses))
        print("METRIC alloc_per_1000_ticks_mpy %d bytes" % alloc_bytes(ticks))


main()
