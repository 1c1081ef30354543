# Firmware app benchmarks on the simulator board (MicroPython; also runs on CPython).
#   app_bench.py boot   ROOT   heap in use after boot (gc.mem_alloc after a collect)
# bench/run.py compiles this file with mpy-cross too and imports it, so that compiling a
# script from source (which a board never does) is not counted in the heap figures.
#   app_bench.py blitz  ROOT   play a whole 3+2 blitz game; exit 0 when it completes
#   (bench/wasm32/heap.mjs plays the same game step by step through Blitz.step)
#   app_bench.py loop   ROOT   allocation per 1,000 loop passes, lever-to-display delay
# bench/run.py runs these (blitz under a range of -X heapsize to find the smallest heap).

import gc
import sys
import time

from boards.sim import SimBoard, run_until
from clockapp.app import App
from clockapp.board import BTN_START, LEFT, RIGHT

MPY = sys.implementation.name == "micropython"


class NullPin:
    """A machine.Pin that goes nowhere: a real display driver runs, its wires lead nowhere."""
    IN = 0
    OUT = 1

    def init(self, mode):
        pass

    def value(self, v=None):
        return 0   # DIO low when read: the TM1637's ACK


class NullI2C:
    """A machine.I2C that goes nowhere; a register read gives 80 (a fuel gauge's 80 %)."""

    def writeto(self, addr, buf):
        return len(buf)

    def readfrom_mem_into(self, addr, reg, buf):
        buf[0] = 80
        buf[1] = 0


class DriverBoard(SimBoard):
    """The simulator board with a build's real display drivers (and fuel gauge) in place of
    the simulated displays, so that the heap figures count what a board holds."""

    def __init__(self, root, display):
        SimBoard.__init__(self, root)
        if display == "tm1637":
            from clockapp.displays.tm1637 import TM1637Display
            self._displays = (TM1637Display(NullPin(), NullPin()),
                              TM1637Display(NullPin(), NullPin()))
            self._gauge = None
        else:
            from clockapp.displays.ssd1306 import SSD1306Display
            from drivers.max17048 import MAX17048
            from drivers.sharedi2c import SharedI2C
            i2c = SharedI2C(NullI2C())   # as boards/mcu.py wraps its buses
            self._displays = (SSD1306Display(i2c, 0x3C), SSD1306Display(i2c, 0x3D))
            self._gauge = MAX17048(i2c)
            self.battery_low_pct = 45

    def displays(self):
        return self._displays

    def battery_pct(self):
        return self._gauge.soc_pct() if self._gauge else -1


def make_board(root, display=None, host=False):
    board = DriverBoard(root, display) if display else SimBoard(root)
    if host:    # bench/hostport.py: a module of its own, off the heap of the other figures
        from hostport import HostPort
        board.port = HostPort()
    return board


def fresh(root, display=None, host=False):
    import os
    try:
        os.mkdir(root)
    except OSError:
        pass
    for name in os.listdir(root):
        os.remove(root + "/" + name)
    gc.collect()  # as clockapp.app.run() does on a board
    board = make_board(root, display, host)
    app = App(board)
    app.step()
    return board, app


def boot(root):
    board, app = fresh(root)
    gc.collect()
    print("METRIC heap_after_boot_%s %d bytes" % ("mpy" if MPY else "cpython", gc.mem_alloc()))


class Blitz:
    """A whole 3+2 blitz game, 60 moves each, 1.3 to 3.7 s a move: about 5 minutes of clock
    time, 120 presses, 120 state saves and log flushes. step() plays at most `passes` loop
    passes (1 ms each) or one press, so that bench/wasm32/heap.mjs can measure the heap
    between steps; play() runs the game in one go. display: None for the simulated
    displays, or "tm1637" / "ssd1306" for a build's real drivers (DriverBoard)."""

    def __init__(self, root, display=None, board=None, app=None):
        # board and app: already made and stepped once (bench/wasm32/heap.mjs makes them
        # in steps of their own); otherwise made here on an emptied root.
        if board is None:
            board, app = fresh(root, display)
        self.board, self.app = board, app
        self.board.press_buttons(BTN_START, 500000)
        self.until = 1000000
        self.t = 1000000            # the last press
        self.i = 0
        self.x = 12345

    def step(self, passes=100):
        board, app = self.board, self.app
        if board.t < self.until:
            run_until(app, board, min(self.until, board.t + passes * 1000))
            return True
        if self.i == 120:
            c = app.clock
            assert c.moves == [60, 60], c.moves
            assert c.flag_at == [-1, -1]
            return False
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        self.t += 1300000 + self.x % 2400000
        board.press_lever(LEFT if self.i % 2 == 0 else RIGHT, self.t)
        self.until = self.t + 50000
        self.i += 1
        return True

    def play(self):
        while self.step(1000000):
            pass
        print("blitz ok", self.app.clock.main)


def blitz(root):
    Blitz(root).play()


def loop(root):
    board, app = fresh(root)
    board.press_buttons(BTN_START, 500000)
    run_until(app, board, 1000000)

    def passes(n):
        i = 0
        while i < n:
            app.step()
            board.idle(1000)
            i += 1

    passes(100)
    windows = []
    for _ in range(20):  # 20,000 passes: 20 s of clock time, two periodic saves
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        passes(1000)
        windows.append(gc.mem_alloc() - a)
        gc.enable()
    windows.sort()
    print("METRIC alloc_per_1000_loop_passes_median_mpy %d bytes" % windows[len(windows) // 2])
    print("METRIC alloc_per_1000_loop_passes_mean_mpy %d bytes" % (sum(windows) // len(windows)))

    # Lever to display: simulated delay (the loop's period and flash writes in flight)
    # plus the real CPU time from the start of the loop pass that handles the press to
    # the render of the display that starts running, measured here.
    def now_us():
        return time.ticks_us() if MPY else time.perf_counter_ns() // 1000

    for d in (board.left, board.right):
        def render(view, d=d, real=d.render):
            d.real_at = now_us()
            real(view)
        d.render = render
        d.real_at = 0
    worst_sim = 0
    worst_cpu = 0
    t = board.t
    for i in range(40):
        t += 2000000 + 137 * i
        mover = app.clock.turn
        board.press_lever(app.lever_of_side(mover), t)
        target = app.lever_of_side(1 - mover)
        disp = board.right if target == RIGHT else board.left
        while disp.drawn_at < t:
            t0 = now_us()
            app.step()
            if disp.drawn_at >= t:
                cpu = time.ticks_diff(disp.real_at, t0) if MPY else disp.real_at - t0
                worst_cpu = max(worst_cpu, cpu)
            board.idle(1000)
        worst_sim = max(worst_sim, disp.drawn_at - t)
    impl = "mpy" if MPY else "cpython"
    print("METRIC lever_to_display_sim_worst_us %d us" % worst_sim)
    print("METRIC press_pass_cpu_to_render_worst_us_%s %d us" % (impl, worst_cpu))
    print("METRIC lever_to_display_worst_ms_%s %.2f ms" % (impl, (worst_sim + worst_cpu) / 1000))


def main(mode, root):
    if mode in ("oled", "blitz_host"):   # bench/oled_bench.py, bench/hostport.py
        mod = __import__("oled_bench" if mode == "oled" else "hostport")
        return mod.main(root)
    {"boot": boot, "blitz": blitz, "loop": loop}[mode](root)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
