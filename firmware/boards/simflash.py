# The simulator board's flash models (boards/sim.py): the RP2040's raw flash blocks for the
# journal (SimFlash) and the ESP32's storage, littlefs on the "vfs" partition of its SPI
# flash (SimPartition, SimLfs). A module of its own, loaded by a SimBoard with a journal or
# the ESP32's storage: a board never runs sim.py, and the simulator's other uses (the heap
# benchmarks among them) need not carry these.

from boards.simfs import PowerCut, SimFile, SimFS


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
