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
# SPI flash (SimPartition, SimLfs) with the journal reserved in it as on the board
# (boards/rawflash.py); an edge during a flash operation is stamped when it ends, as there
# (the cache is off during it, and the pin's handler is a scheduled one).

from clockapp.board import LEFT, RIGHT, Board

LEVER = 0
BUTTONS = 1


class PowerCut(Exception):
    """Raised inside a flash write to cut the power at that byte (tests)."""


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


class SimFile:
    def __init__(self, fs, f, path):
        self.fs = fs
        self.f = f
        self.path = path

    def write(self, data):
        fs = self.fs
        n = len(data)
        if fs.cut_after >= 0 and fs.written + n > fs.cut_after:
            k = fs.cut_after - fs.written
            if k > 0:
                self.f.write(data[:k])
            self.f.close()
            fs.written = fs.cut_after
            fs.cut_after = -1
            raise PowerCut(self.path)
        fs.written += n
        fs.board.spend(fs.write_us_per_byte * n)
        return self.f.write(data)

    def read(self, *args):
        return self.f.read(*args)

    def close(self):
        self.fs.board.spend(self.fs.close_us)
        self.f.close()

    def flush(self):
        self.f.flush()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()


class SimFS:
    """A real folder, with flash timing and a power switch."""

    def __init__(self, board, write_us_per_byte=2, close_us=1500):
        import os
        self.os = os
        self.board = board
        self.write_us_per_byte = write_us_per_byte
        self.close_us = close_us   # a page program / littlefs commit
        self.written = 0           # bytes written since the board started
        self.cut_after = -1        # cut the power when this many bytes have been written

    def open(self, path, mode="rb"):
        f = open(path, mode)
        if "w" in mode or "a" in mode:
            return SimFile(self, f, path)
        return f

    def rename(self, a, b):
        self.os.rename(a, b)

    def remove(self, path):
        self.os.remove(path)

    def exists(self, path):
        try:
            self.os.stat(path)
            return True
        except OSError:
            return False

    def listdir(self, root):
        return self.os.listdir(root.rstrip("/") or "/")


class SimFlash:
    """Raw NOR flash blocks for the journal (clockapp/journal.py) in a file of the storage
    folder: an erase sets a block to 0xFF, a program ANDs a page in. Timed like the
    RP2040's flash (an erase 45 ms, a page 0.7 ms) and cut by SimFS's power switch, which
    counts a page as 256 bytes written and an erase as 4096: a cut inside one leaves a
    prefix of it done."""

    ERASE_US = 45000
    PROGRAM_US = 700

    def __init__(self, fs, path, blocks, block_bytes=4096, first=32, last=4080):
        self.fs = fs
        self.path = path
        self.blocks = blocks
        self.block_bytes = block_bytes
        self.first = first
        self.last = last
        size = blocks * block_bytes
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            data = b""
        if len(data) != size:
            data = b"\xff" * size
            with open(path, "wb") as f:
                f.write(data)
        self.data = bytearray(data)
        self.erases = 0
        self.programs = 0

    def _done(self, at, n, us):
        fs = self.fs
        fs.board.spend(us)
        k = n
        cut = fs.cut_after >= 0 and fs.written + n > fs.cut_after
        if cut:
            k = max(0, fs.cut_after - fs.written)
        return k, cut

    def _flush(self, at, n, cut):
        with open(self.path, "r+b") as f:
            f.seek(at)
            f.write(self.data[at:at + n])
        fs = self.fs
        if cut:
            fs.written = fs.cut_after
            fs.cut_after = -1
            raise PowerCut(self.path)
        fs.written += n

    def read(self, i, off, buf):
        at = i * self.block_bytes + off
        buf[:] = self.data[at:at + len(buf)]

    def program(self, i, off, page):
        self.programs += 1
        at = i * self.block_bytes + off
        k, cut = self._done(at, len(page), self.PROGRAM_US)
        d = self.data
        for j in range(k):
            d[at + j] &= page[j]
        self._flush(at, len(page), cut)

    def erase(self, i):
        self.erases += 1
        at = i * self.block_bytes
        k, cut = self._done(at, self.block_bytes, self.ERASE_US)
        self.data[at:at + k] = b"\xff" * k
        self._flush(at, self.block_bytes, cut)


class SimPartition(SimFlash):
    """The ESP32's "vfs" data partition (esp32.Partition): the block device protocol over
    SimFlash's blocks, as the esp32 port implements it. readblocks(n, buf, off);
    writeblocks(n, buf) erases the blocks it covers first, writeblocks(n, buf, off) only
    programs (ESP-IDF's esp_partition_write: one page program a 256-byte flash page it
    touches); ioctl 4 the block count, 5 the block size, 6 erases one block.

    With `ops` a list (tests), every operation is noted in it as [start us, end us,
    "erase" or "program", bytes], the file system's too (SimLfs): what a press waits for."""

    def __init__(self, fs, path, blocks):
        SimFlash.__init__(self, fs, path, blocks, first=0, last=4096)
        self.ops = None     # type: list | None

    def _noted(self, kind, n, op, *args):
        ops = self.ops
        if ops is None:
            op(*args)
            return
        t0 = self.fs.board.t
        note = [t0, t0, kind, n]
        ops.append(note)
        try:
            op(*args)
        finally:
            note[1] = self.fs.board.t

    def erase(self, i):
        self._noted("erase", self.block_bytes, SimFlash.erase, self, i)

    def program(self, i, off, page):
        self._noted("program", len(page), SimFlash.program, self, i, off, page)

    def readblocks(self, n, buf, off=0):
        self.read(n, off, buf)

    def writeblocks(self, n, buf, off=-1):
        if off < 0:
            for k in range((len(buf) + self.block_bytes - 1) // self.block_bytes):
                self.erase(n + k)
            off = 0
        k = 0
        while k < len(buf):   # a page program for each 256-byte page it touches
            at = (off + k) % 256
            m = min(len(buf) - k, 256 - at)
            self.program(n, off + k, buf[k:k + m])
            k += m

    def ioctl(self, op, arg=0):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.block_bytes
        if op == 6:
            self.erase(arg)
            return 0
        return None

    def lfs_write(self, n):
        """littlefs's flash work for a file written (n bytes) and closed, by its cost: an
        append copies the file's last block into a new one (an erase), and the commit's
        metadata compaction erases as well, about one erase a write. The data stays in the
        host's files; the operation is timed and noted, not done on the blocks."""
        board = self.fs.board
        self.erases += 1
        t0 = board.t
        board.spend(self.ERASE_US)
        if self.ops is not None:
            self.ops.append([t0, board.t, "erase", self.block_bytes])


class _LfsFile(SimFile):
    def __init__(self, fs, f, path):
        SimFile.__init__(self, fs, f, path)
        self.n = 0

    def write(self, data):
        r = SimFile.write(self, data)
        self.n += len(data)
        return r

    def close(self):
        SimFile.close(self)
        if self.n:
            self.n, n = 0, self.n
            self.fs.part.lfs_write(n)


class _CtzFile:
    """A file written through the littlefs model whose bytes are placed on the partition's
    blocks as littlefs places a file's (its CTZ skip-list: in the n-th block, 4 * (1 +
    trailing zeros of n) bytes of pointers before the data, none in block 0); the host's
    copy appears at close, as littlefs commits a file's size then."""

    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.n = 0            # the file's blocks so far
        self.at = 0           # bytes of the current block used
        self.block = -1
        with open(path, "wb"):
            pass
        self.tmp = fs.part.path + ".open"         # the host's copy, moved there at close
        self.copy = open(self.tmp, "wb")

    def write(self, data):
        part = self.fs.part
        k = 0
        while k < len(data):
            if self.block < 0 or self.at == part.block_bytes:
                self.block = self.fs.alloc()
                part.erase(self.block)
                head = 0
                if self.n:
                    c = 0
                    while not (self.n >> c) & 1:
                        c += 1
                    head = 4 * (c + 1)
                    ptrs = bytearray()
                    for j in range(c + 1):   # (the blocks of n - 2**j: made up, unique)
                        ptrs += bytes(((self.block + j) & 0xFF, 0x5A, j, 0))
                    part.writeblocks(self.block, ptrs, 0)
                self.at = head
                self.n += 1
            m = min(len(data) - k, part.block_bytes - self.at)
            part.writeblocks(self.block, data[k:k + m], self.at)
            self.copy.write(data[k:k + m])
            self.at += m
            k += m
        return len(data)

    def close(self):
        if self.copy is not None:
            self.copy.close()
            self.copy = None
            self.fs.os.rename(self.tmp, self.path)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()


class SimLfs(SimFS):
    """littlefs on the partition, modelled: files are the host's (as SimFS's), their flash
    work is noted on `part` (SimPartition.lfs_write), and journal.bin, the one file the
    board writes under littlefs, is placed on the partition's blocks (_CtzFile), to be
    found there by its tags. Freed blocks keep their bytes, as littlefs leaves them."""

    def __init__(self, board, part_path, blocks):
        SimFS.__init__(self, board)
        self.part = SimPartition(self, part_path, blocks)
        self.cursor_path = part_path + ".next"
        try:
            with open(self.cursor_path) as f:
                self.cursor = int(f.read())
        except (OSError, ValueError):
            self.cursor = 0

    def alloc(self):
        """The next block littlefs hands out (a scattered walk over the partition)."""
        n = self.part.blocks
        step = 7 if n % 7 else 5
        b = (self.cursor * step + 3) % n
        self.cursor += 1
        with open(self.cursor_path, "w") as f:
            f.write(str(self.cursor))
        return b

    def open(self, path, mode="rb"):
        if "w" in mode and path.endswith("journal.bin"):
            return _CtzFile(self, path)
        f = open(path, mode)
        if "w" in mode or "a" in mode:
            return _LfsFile(self, f, path)
        return f


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
        self.lfs = None             # type: SimLfs | None
        if esp32_flash:
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
