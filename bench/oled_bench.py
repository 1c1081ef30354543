# The SSD1306 build's press on an I2C bus in simulated time (`make bench`; also
#   app_bench.py oled ROOT). A module of its own so that app_bench's heap figures do not
# carry its code.

import sys

from app_bench import BTN_START, LEFT, RIGHT, App, DriverBoard, run_until


class TimedI2C:
    """An I2C bus at `hz` with SSD1306s on it, in simulated time: each write costs the
    board its bus time (9 clocks a byte, the address byte included, plus start and stop),
    as a blocking machine.I2C write does, and is applied to a model of each panel's RAM
    (column/page window, horizontal or vertical addressing: the driver sends a digit's
    columns in vertical), so that the bench sees what the glass shows and when."""

    def __init__(self, board, hz=400000):
        self.board = board
        self.hz = hz
        self.ram = {}           # addr -> [bytearray(1024), c0, c1, p0, p1, col, page, mode]
        self.bytes = 0
        self.writes = 0
        self.done_at = 0        # board time at the end of the last write
        self.bar_at = {}        # addr -> board time the running bar last changed on the glass
        self.bar_log = None     # a list: (board time, addr, bar) of every change

    def writeto(self, addr, buf):
        us = ((len(buf) + 1) * 9 * 1000000 + self.hz - 1) // self.hz + 5
        self.board.spend(us)
        self.bytes += len(buf)
        self.writes += 1
        st = self.ram.get(addr)
        if st is None:
            st = [bytearray(1024), 0, 127, 0, 7, 0, 0, 0]
            self.ram[addr] = st
        if buf[0] == 0x40:
            ram = st[0]
            bar = ram[64] & 1
            for i in range(1, len(buf)):
                ram[st[6] * 128 + st[5]] = buf[i]
                if st[7] == 1:   # vertical: down the pages, then the next column
                    st[6] += 1
                    if st[6] > st[4]:
                        st[6] = st[3]
                        st[5] = st[1] if st[5] >= st[2] else st[5] + 1
                    continue
                st[5] += 1
                if st[5] > st[2]:
                    st[5] = st[1]
                    st[6] = st[3] if st[6] >= st[4] else st[6] + 1
            if ram[64] & 1 != bar:
                self.bar_at[addr] = self.board.t
                if self.bar_log is not None:
                    self.bar_log.append((self.board.t, addr, ram[64] & 1))
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
                elif c == 0x20:   # addressing mode: 0 horizontal, 1 vertical
                    st[7] = buf[i + 1]
                    i += 1
                elif c in (0x81, 0x8D, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB):
                    i += 1
                i += 1
        self.done_at = self.board.t

    def readfrom_mem_into(self, addr, reg, buf):
        buf[0] = 80
        buf[1] = 0

    def bar(self, addr):
        """The running bar as the glass shows it: 1 lit, 0 dark."""
        return self.ram[addr][0][64] & 1


def main(root):
    oled(root)
    aimed(root)
    draw_cpu()


def draw_cpu(n=300):
    """This machine's CPU time for what both SSD1306 displays draw on a press (the mover's
    bar off and its new time, the other's bar on), on a bus that costs nothing: the
    drawing alone, which a Cortex-M0+ runs some 30-50 times slower."""
    from clockapp.displays.ssd1306 import SSD1306Display
    from clockapp.view import SideView

    class Bus:
        def writeto(self, addr, buf):
            return len(buf)

    bus = Bus()
    d = (SSD1306Display(bus, 0x3C), SSD1306Display(bus, 0x3D))
    v = (SideView(), SideView())
    times = (b"    2:47", b"    2:39", b"    2:31", b"    2:18", b"    1:59", b"    1:42",
             b"    0:21", b"    19.8")
    v[0].time[:] = b"    3:00"
    v[1].time[:] = b"    3:00"
    v[0].running = True
    for k in (0, 1):
        v[k].touch()
        d[k].render(v[k])
    t0 = now_us()
    for i in range(n):
        mover = i % 2
        v[mover].time[:] = times[i % len(times)]
        v[mover].running = False
        v[1 - mover].running = True
        for k in (0, 1):
            v[k].touch()
            d[k].draw(v[k])
        for k in (0, 1):
            d[k].finish()
    impl = "mpy" if sys.implementation.name == "micropython" else "cpython"
    print("METRIC ssd1306_press_draw_cpu_us_%s %d us" % (impl, (now_us() - t0) // n))


def now_us():
    import time
    try:
        return time.ticks_us()
    except AttributeError:   # CPython
        return time.perf_counter_ns() // 1000


def aimed(root, presses=200):
    """The RP2040's flash on the simulator: interrupts held during a flash write, every write
    45 ms (as if each one erased a sector: the worst littlefs can do), the SSD1306s on the
    timed bus. Presses are quick taps (30 ms, the levers in turn, scheduled ahead) aimed in
    turn 40-100 ms after the previous one (inside its writes), 120-300 ms after it, and
    1-1.5 s after it; from the lever's edge to both bars switched, in simulated time (the
    CPU's time is not in it: the emulated Pico bench measures that). A press whose switch
    never shows (the next one came first) or that the clock did not take is counted."""
    import os
    for name in os.listdir(root):
        os.remove(root + "/" + name)
    board = DriverBoard(root, "ssd1306")
    board.rp2040_flash = True
    board.fs.close_us = 45000
    bus = TimedI2C(board)
    bus.bar_log = []
    from clockapp.displays.ssd1306 import SSD1306Display
    board._displays = (SSD1306Display(bus, 0x3C), SSD1306Display(bus, 0x3D))
    app = App(board)
    app.step()
    board.press_buttons(BTN_START, 500000)
    run_until(app, board, 2000000)
    t = board.t + 500000
    x = 4242
    plan = []
    for i in range(presses):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        t += (40000 + x % 60000, 120000 + x % 180000, 1000000 + x % 500000)[i % 3]
        lever = LEFT if i % 2 == 0 else RIGHT      # White (left) runs first
        board.press_lever(lever, t, hold_us=30000)
        plan.append((t, lever, ("save", "request", "quiet")[i % 3]))
    run_until(app, board, t + 2000000)
    taken = app.clock.moves[0] + app.clock.moves[1]
    # when each press showed: the first instant after it with its lever's bar dark and
    # the other's lit, before the next press
    bars = {0x3C: 0, 0x3D: 0}
    log = bus.bar_log
    j = 0
    worst = {}
    lat = []
    unseen = 0
    for i, (t, lever, kind) in enumerate(plan):
        nxt = plan[i + 1][0] if i + 1 < len(plan) else t + 2000000
        while j < len(log) and log[j][0] < t:
            bars[log[j][1]] = log[j][2]
            j += 1
        k = j
        shown = -1
        b = dict(bars)
        while k < len(log) and log[k][0] < nxt + 2000000:
            b[log[k][1]] = log[k][2]
            if b[0x3C] == (0 if lever == LEFT else 1) and b[0x3D] == (1 if lever == LEFT else 0):
                shown = log[k][0] - t
                break
            k += 1
        if shown < 0:
            unseen += 1
            continue
        lat.append(shown)
        worst[kind] = max(worst.get(kind, 0), shown)
    lat.sort()
    print("# aimed presses on the RP2040 flash model: %d, taken %d, switch never shown %d; "
          "worst by aim: %s" % (presses, taken, unseen,
                                ", ".join("%s %d us" % (k, worst[k]) for k in sorted(worst))))
    print("METRIC lever_to_bars_flash_model_median_us_ssd1306 %d us" % lat[len(lat) // 2])
    print("METRIC lever_to_bars_flash_model_worst_us_ssd1306 %d us" % lat[-1])
    print("METRIC presses_lost_flash_model_ssd1306 %d" % (presses - taken))


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
    from clockapp.displays.ssd1306 import SSD1306Display
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
