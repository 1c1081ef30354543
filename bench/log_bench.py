# Event log benchmarks (CPython): bytes per press, games per MB, verify speed.
#   PYTHONPATH=firmware:host python bench/log_bench.py

import time

from chessclock.log.verify import verify
from clockcore import engine as E
from clockcore import eventlog as L
from clockcore import events as EV
from clockcore import framing as F
from clockcore import presets


def classical_game(seed=12345):
    """A FIDE classical game as the clock logs it: header, boot, start, 120 presses (5 s to
    10 min a move), end. Returns (file bytes, bytes of the press records)."""
    out = []
    w = L.Writer(lambda p: out.append(p) or True)
    control, p = presets.resolve("fide-classical")
    c = E.Clock(control, lambda ev, side, t, arg: w.log(ev, side, t, arg, c))
    w.log_big(EV.EV_HEADER, -1, 0, 0, c, L.header_body("pico-e6614103e7", "0.3.0",
                                                      "fide-classical", True,
                                                      L.clock_options(c), 0, c.sides))
    w.log_big(EV.EV_BOOT, -1, 0, 0, c, b"")
    c.start(1000)
    t = 1000
    x = seed
    for i in range(120):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        t += 5000 + x % 120000 if i % 7 else 5000 + x % 600000
        c.press(c.turn, t)
        w.flush()
    c.end(t + 60000)
    w.flush()
    press_bytes = sum(len(q) + 8 for q in out if q[4] & 0x3F == E.EV_PRESS)
    return b"".join(F.frame(q) for q in out), press_bytes


def main():
    data, press_bytes = classical_game()
    presses = 120
    print("METRIC log_bytes_per_press %.1f bytes" % (press_bytes / presses))
    print("METRIC classical_game_log_bytes %d bytes" % len(data))
    print("METRIC classical_games_per_mb %d games" % (1000000 // len(data)))
    best = None
    for _ in range(5):
        t0 = time.perf_counter()
        res = verify(data)
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    assert res.problems == [], res.problems
    print("METRIC log_verify_events_per_s_cpython %d events/s"
          % (len(res.records) / best))


if __name__ == "__main__":
    main()
