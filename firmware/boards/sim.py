# The simulator board: the Board interface with simulated time, for tests, benchmarks and
# `make sim` (host/chessclock/sim/terminal.py draws it in a terminal and runs it in real time).
# Runs under CPython and the MicroPython unix port.
#
# Time moves only when the app idles (or a flash write costs time). Inputs are scheduled
# at exact microseconds and delivered "as the interrupt would": a lever edge calls the
# app's on_lever(lever, tick, closed) at the edge's instant, even in the middle of an idle
# or a flash write. `rp2040_flash=True` models the RP2040 instead: interrupts are held
# during a flash write and an edge inside one is stamped when the write ends.
# `esp32_flash=True` models the ESP32's storage: littlefs on the "vfs" partition of its
# SPI flash with the journal reserved in it as on the board (boards/rawflash.py); an edge
# during a flash operation is stamped when it ends, as there (the cache is off during it,
# and the pin's handler is a scheduled one). The flash models are boards/simflash.py,
# loaded only by a board with a journal or the ESP32's storage.

from boards.simfs import PowerCut, SimFS
from clockapp.board import LEFT, RIGHT, Board

LEVER = 0
BUTTONS = 1


class SimDisplay:
    """Keeps the last view drawn and when; the terminal UI reads it."""

    def __init__(self, board):
        self.board = board
        self.view = None
        self.renders = 0
        self.drawn_at = -1      # board time (us) of the last render
        self.order = -1         # the board's render count at the last render (which first)

    def render(self, view):
        self.view = view
        self.renders += 1
        self.drawn_at = self.board.t
        self.board.renders += 1
        self.order = self.board.renders

    def text(self):
        v = self.view
        if v is None:
            return ""
        return (bytes(v.text) if v.text_on else bytes(v.time)).decode().strip()


class SimBoard(Board):
    name = "sim"

    def __init__(self, root, tick0=0, period=0x40000000, battery_mv=4000,
                 rp2040_flash=False, link_at_boot=False, journal_blocks=0,
                 esp32_flash=False):
        self.root = root if root.endswith("/") else root + "/"
        self.tick_period = period
        self.mask = period - 1
        self.tick0 = tick0
        self.t = 0                  # simulated microseconds since the board started
        self.renders = 0            # displays drawn so far (SimDisplay.order)
        self.on_lever = None
        self.levers = 0             # bits: levers closed now
        self.buttons = 0
        self.freq = 0               # buzzer
        self.tones = 0              # how many times the buzzer started a tone
        self.running_led = -1       # the lit running-side LED: LEFT, RIGHT or -1 (none)
        self.led_calls = 0          # set_running() calls (the app calls it on a change only)
        self.mv = battery_mv
        self.battery_low_mv = 3600
        self.battery_critical_mv = 3300
        self.pct = -1               # fuel gauge: state of charge, -1 = no gauge
        self.rp2040_flash = rp2040_flash or esp32_flash   # edges wait for flash operations
        self.esp32_flash = esp32_flash
        self.in_flash = False
        self.held = []              # edges held while interrupts are off (rp2040_flash)
        self.queue = []             # [t_us, kind, a, b] in time order
        self.fs = SimFS(self)
        self.lfs = None
        if esp32_flash:
            from boards.simflash import SimLfs
            # the partition's image beside the files' folder (inside the board's folder)
            self.fs = self.lfs = SimLfs(self, self.root + "vfs.img", journal_blocks + 8)
            try:
                self.fs.os.mkdir(self.root + "lfs")
            except OSError:
                pass
        self.left = SimDisplay(self)
        self.right = SimDisplay(self)
        self.watchdog_fed = 0
        self.collected = 0
        self.port = None            # the host link's serial port (boards/sim_serve.py)
        self.link_early = link_at_boot  # load the serial link at boot, as the RP2040 does
        self.journal_blocks = journal_blocks  # raw flash blocks for the journal (0: none)
        self.flash = None           # their SimFlash, made by journal()
        self.maintenance = False    # the link asked for maintenance mode
        self.ident = "sim"

    # ---- Board interface ---------------------------------------------------------------
    def ticks_us(self):
        return (self.tick0 + self.t) & self.mask

    def ticks_diff(self, a, b):
        d = (a - b) & self.mask
        if d >= (self.tick_period >> 1):
            d -= self.tick_period
        return d

    def idle(self, us):
        self.advance_to(self.t + us)

    def attach_levers(self, on_lever):
        self.on_lever = on_lever

    def read_levers(self):
        return self.levers

    def read_buttons(self):
        return self.buttons

    def displays(self):
        return (self.left, self.right)

    def buzz(self, freq_hz):
        if freq_hz and not self.freq:
            self.tones += 1
        self.freq = freq_hz

    def set_running(self, lever):
        self.running_led = lever
        self.led_calls += 1

    def battery_mv(self):
        return self.mv

    def battery_pct(self):
        return self.pct

    def storage_root(self):
        return self.root + "lfs/" if self.esp32_flash else self.root

    def storage_fs(self):
        return self.fs

    def journal(self):
        if not self.journal_blocks:
            return None
        from clockapp.journal import Journal
        lfs = self.lfs
        if lfs is not None:   # the board's own way: blocks reserved in littlefs
            from boards.rawflash import ReservedFlash
            self.flash = lfs.part
            dev = ReservedFlash.make(lfs.part, self.storage_root() + "journal.bin",
                                     self.journal_blocks, lfs)
            return Journal(dev) if dev is not None else None
        from boards.simflash import SimFlash
        self.flash = SimFlash(self.fs, self.root + "journal.bin", self.journal_blocks)
        return Journal(self.flash)

    def feed_watchdog(self):
        self.watchdog_fed += 1

    def collect(self):
        # Counted, not done: the host's collector is not the board's, and thousands of
        # presses in the tests would pay for it.
        self.collected += 1

    def serial(self):
        return self.port

    def link_at_boot(self):
        return self.link_early

    def clock_id(self):
        return self.ident

    def enter_maintenance(self):
        self.maintenance = True

    def sim_op(self, args):
        """The link's `sim` operation, on this board only (tests): `press left|right
        [hold_ms]`, `button start|menu|plus|minus [hold_ms]`, both now."""
        from clockapp.board import BUTTON_NAMES
        from clockcore.protocol import E_ARGS, ProtocolError
        if len(args) in (2, 3) and args[0] == "press" and args[1] in ("left", "right"):
            hold = int(args[2]) * 1000 if len(args) == 3 else 80000
            self.press_lever(LEFT if args[1] == "left" else RIGHT, self.t, hold_us=hold)
            return (("t_us", self.t),)
        if len(args) in (2, 3) and args[0] == "button" and args[1] in BUTTON_NAMES:
            hold = int(args[2]) * 1000 if len(args) == 3 else 100000
            self.press_buttons(1 << BUTTON_NAMES.index(args[1]), self.t, hold_us=hold)
            return (("t_us", self.t),)
        raise ProtocolError(E_ARGS, "sim press left|right [ms] | button NAME [ms]")

    # ---- simulated time ----------------------------------------------------------------
    def spend(self, us):
        """Time taken by the running code (a flash write): scheduled inputs still happen."""
        self.in_flash = True
        self.advance_to(self.t + us)
        self.in_flash = False
        if self.held:  # RP2040: the interrupts held during the write run now, stamped now,
            held = self.held  # pin by pin in pin number order (left's, then right's), as
            self.held = []    # its GPIO interrupt serves them: not in time order
            for pin in (LEFT, RIGHT):
                for lever, closed in held:
                    if lever == pin:
                        self._irq(lever, closed)

    def advance_to(self, t):
        q = self.queue
        while q and q[0][0] <= t:
            at, kind, a, b = q.pop(0)
            if at > self.t:
                self.t = at
            if kind == LEVER:
                self._edge(a, b)
            else:
                self.buttons = a
        if t > self.t:
            self.t = t

    def _edge(self, lever, closed):
        if closed:
            self.levers |= 1 << lever
        else:
            self.levers &= ~(1 << lever)
        if self.rp2040_flash and self.in_flash:
            self.held.append((lever, closed))
            return
        self._irq(lever, closed)

    def _irq(self, lever, closed):
        if self.on_lever is not None:
            self.on_lever(lever, self.ticks_us(), closed)

    # ---- scheduling inputs (tests, scripts, the terminal UI) --------------------------
    def at(self, t_us, kind, a, b=0):
        q = self.queue
        i = len(q)
        while i and q[i - 1][0] > t_us:
            i -= 1
        q.insert(i, [t_us, kind, a, b])

    def press_lever(self, lever, t_us, hold_us=80000, bounce=()):
        """A lever press at t_us: closes, chatters at the given offsets (us after t_us,
        alternating open/closed), opens after hold_us."""
        self.at(t_us, LEVER, lever, True)
        closed = True
        for off in bounce:
            closed = not closed
            self.at(t_us + off, LEVER, lever, closed)
        if not closed:
            self.at(t_us + (bounce[-1] if bounce else 0) + 1, LEVER, lever, True)
        if hold_us >= 0:
            self.at(t_us + hold_us, LEVER, lever, False)

    def press_buttons(self, bits, t_us, hold_us=100000):
        self.at(t_us, BUTTONS, bits)
        self.at(t_us + hold_us, BUTTONS, 0)

    def cut_power_after(self, n_bytes):
        """The next flash write that takes the total past n_bytes more is cut there."""
        self.fs.cut_after = self.fs.written + n_bytes


def run_until(app, board, t_us, step_us=1000):
    """Drive the app's loop until board time t_us (what App.run does, bounded)."""
    while board.t < t_us:
        app.step()
        board.idle(step_us)


__all__ = ["SimBoard", "SimDisplay", "PowerCut", "run_until", "LEFT", "RIGHT"]
