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
            from drivers.tm1637 import TM1637Display
            self._displays = (TM1637Display(NullPin(), NullPin()),
                              TM1637Display(NullPin(), NullPin()))
            self._gauge = None
        else:
            from drivers.max17048 import MAX17048
            from drivers.ssd1306 import SSD1306Display
            i2c = NullI2C()
            self._displays = (SSD1306Display(i2c, 0x3C), SSD1306Display(i2c, 0x3D))
            self._gauge = MAX17048(i2c)
            self.battery_low_pct = 45

    def displays(self):
        return self._displays

    def battery_pct(self):
        return self._gauge.soc_pct() if self._gauge else -1


class HostPort:
    """The host at the other end of the cable (a serial port as clockapp/serialport.py's):
    sends request frames, takes every reply at once, keeps the last one."""

    def __init__(self):
        self.inbox = b""
        self.pos = 0
        self.queued = 0
        self.replies = 0
        self.last = None
        self.rid = 0

    def send(self, op, *args):
        from clockcore import protocol as P
        self.rid += 1
        self.inbox = self.inbox[self.pos:] + P.encode_request(self.rid, op, list(args))
        self.pos = 0
        return self.rid

    def reply(self, rid):
        """The fields of the reply to request rid, once it came (else None)."""
        from clockcore import protocol as P
        if self.last is None:
            return None
        got, ok, fields = P.decode_reply(self.last[:-1])
        if got != rid:
            return None
        assert ok, fields
        return fields

    def any(self):
        return self.pos < len(self.inbox)

    def readinto(self, buf):
        n = min(len(buf), len(self.inbox) - self.pos)
        buf[:n] = self.inbox[self.pos:self.pos + n]
        self.pos += n
        return n

    def write(self, data):
        self.replies += 1
        self.last = data
        return True

    def drain(self):
        return 0


def make_board(root, display=None, host=False):
    board = DriverBoard(root, display) if display else SimBoard(root)
    if host:
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
    displays, or "tm1637" / "ssd1306" for a build's real drivers (DriverBoard).

    With a host attached (make_board(..., host=True): a HostPort on the board's serial)
    the game is the one of issue 9's heap figure: the control typed by the host (`set
    3+2`, parsed by the notation module), `status` every second of the game, and the
    whole log pulled at the end (`log FROM 4096` until more=0)."""

    def __init__(self, root, display=None, board=None, app=None, host=False):
        # board and app: already made and stepped once (bench/wasm32/heap.mjs makes them
        # in steps of their own); otherwise made here on an emptied root.
        if board is None:
            board, app = fresh(root, display, host)
        self.board, self.app = board, app
        self.host = board.port if isinstance(board.port, HostPort) else None
        self.until = 1000000
        self.t = 1000000            # the last press
        self.i = 0
        self.x = 12345
        self.wait = -1              # the host's request waiting for its reply
        self.pulled = -1            # log: the next sequence number to ask for (-1: not yet)
        self.polled = 1000000       # the last status request (board time)
        if self.host is not None:
            self.wait = self.host.send("set", "3+2")
            while self.host.reply(self.wait) is None:
                run_until(app, board, board.t + 1000)
            self.wait = -1
            assert app.settings.spec == "3+2"
        self.board.press_buttons(BTN_START, board.t + 500000)
        self.until = board.t + 1000000
        self.t = self.until

    def step(self, passes=100):
        board, app = self.board, self.app
        host = self.host
        if host is not None and self.wait >= 0:
            f = host.reply(self.wait)
            if f is not None:
                self.wait = -1
                if self.pulled >= 0:            # pulling the log
                    if f["more"] == "0":
                        return False
                    self.pulled = int(f["next"])
                    self.wait = host.send("log", str(self.pulled), "4096")
        if host is not None and self.i < 120 and self.wait < 0 \
                and board.t - self.polled >= 1000000:
            self.polled = board.t
            self.wait = host.send("status")
        if board.t < self.until or (self.pulled >= 0 and self.wait >= 0):
            end = min(self.until, board.t + passes * 1000)
            if host is not None:    # no further than the next status request
                end = min(end, self.polled + 1000000)
            run_until(app, board, max(end, board.t + 1000))
            return True
        if self.i == 120:
            c = app.clock
            assert c.moves == [60, 60], c.moves
            assert c.flag_at == [-1, -1]
            if host is not None:
                if self.wait >= 0:              # the last status: its reply first
                    run_until(app, board, board.t + 1000)
                    return True
                self.pulled = 0
                self.wait = host.send("log", "0", "4096")
                return True
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


def blitz_host(root):
    g = Blitz(root, host=True)
    g.play()
    print("host replies", g.host.replies)


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


class TimedI2C:
    """An I2C bus at `hz` with SSD1306s on it, in simulated time: each write costs the
    board its bus time (9 clocks a byte, the address byte included, plus start and stop),
    as a blocking machine.I2C write does, and is applied to a model of each panel's RAM
    (column/page window, horizontal addressing), so that the bench sees what the glass
    shows and when."""

    def __init__(self, board, hz=400000):
        self.board = board
        self.hz = hz
        self.ram = {}           # addr -> [bytearray(1024), c0, c1, p0, p1, col, page]
        self.bytes = 0
        self.writes = 0
        self.done_at = 0        # board time at the end of the last write
        self.bar_at = {}        # addr -> board time the running bar last changed on the glass

    def writeto(self, addr, buf):
        us = ((len(buf) + 1) * 9 * 1000000 + self.hz - 1) // self.hz + 5
        self.board.spend(us)
        self.bytes += len(buf)
        self.writes += 1
        st = self.ram.get(addr)
        if st is None:
            st = [bytearray(1024), 0, 127, 0, 7, 0, 0]
            self.ram[addr] = st
        if buf[0] == 0x40:
            ram = st[0]
            bar = ram[64] & 1
            for i in range(1, len(buf)):
                ram[st[6] * 128 + st[5]] = buf[i]
                st[5] += 1
                if st[5] > st[2]:
                    st[5] = st[1]
                    st[6] = st[3] if st[6] >= st[4] else st[6] + 1
            if ram[64] & 1 != bar:
                self.bar_at[addr] = self.board.t
        else:
            i = 1
            while i < len(buf):
                c = buf[i]
                if c == 0x21:
                    st[1], st[2], st[5] = buf[i + 1], buf[i + 2], buf[i + 1]
                    i += 2
                elif c == 0x22:
                    st[3], st[4], st[6] = buf[i + 1], buf[i + 2], buf[i + 1]
                    i += 2
                elif c in (0x20, 0x81, 0x8D, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB):
                    i += 1
                i += 1
        self.done_at = self.board.t

    def readfrom_mem_into(self, addr, reg, buf):
        buf[0] = 80
        buf[1] = 0

    def bar(self, addr):
        """The running bar as the glass shows it: 1 lit, 0 dark."""
        return self.ram[addr][0][64] & 1


def oled(root):
    """The pico-ssd1306 build's displays (real driver, I2C at 400 kHz in simulated time) in a
    3+2 blitz, 120 presses: what a press sends, and the simulated time from the lever edge to
    both bars switched (which side runs) and to everything sent. The loop's own CPU time is
    not in it (bench on a board: the rp2040 bench)."""
    import os
    try:
        os.mkdir(root)
    except OSError:
        pass
    for name in os.listdir(root):
        os.remove(root + "/" + name)
    board = DriverBoard(root, "ssd1306")
    bus = TimedI2C(board)
    from drivers.ssd1306 import SSD1306Display
    board._displays = (SSD1306Display(bus, 0x3C), SSD1306Display(bus, 0x3D))
    app = App(board)
    app.step()
    board.press_buttons(BTN_START, 500000)
    run_until(app, board, 1000000)
    addr = (0x3C, 0x3D)
    worst_bytes = worst_writes = worst_bars = worst_all = total = 0
    t = 1000000
    x = 12345
    for i in range(120):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        t += 1300000 + x % 2400000
        run_until(app, board, t - 2000)
        b0, w0 = bus.bytes, bus.writes
        lever = LEFT if i % 2 == 0 else RIGHT
        board.press_lever(lever, t)
        other = RIGHT if lever == LEFT else LEFT
        moves = app.clock.moves[0] + app.clock.moves[1]
        while app.clock.moves[0] + app.clock.moves[1] == moves:   # the pass that takes it
            app.step()
            board.idle(1000)
        assert bus.bar(addr[other]) == 1 and bus.bar(addr[lever]) == 0
        bars = max(bus.bar_at[addr[0]], bus.bar_at[addr[1]]) - t
        sent = bus.bytes - b0
        total += sent
        worst_bytes = max(worst_bytes, sent)
        worst_writes = max(worst_writes, bus.writes - w0)
        worst_bars = max(worst_bars, bars)
        # everything: the glass equals both framebuffers since the last write
        for k in (0, 1):
            assert bus.ram[addr[k]][0] == board._displays[k].oled.buffer
        worst_all = max(worst_all, bus.done_at - t)
        run_until(app, board, t + 30000)
    print("METRIC ssd1306_press_i2c_bytes_max %d bytes" % worst_bytes)
    print("METRIC ssd1306_press_i2c_bytes_mean %d bytes" % (total // 120))
    print("METRIC ssd1306_press_i2c_writes_max %d writes" % worst_writes)
    print("METRIC lever_to_bars_sim_worst_us_ssd1306 %d us" % worst_bars)
    print("METRIC lever_to_display_sim_worst_us_ssd1306 %d us" % worst_all)


def main(mode, root):
    {"boot": boot, "blitz": blitz, "blitz_host": blitz_host, "loop": loop,
     "oled": oled}[mode](root)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
