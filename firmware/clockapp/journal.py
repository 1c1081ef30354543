"""A pre-erased flash journal: what a press writes, with no erase in the press's path.

Why: littlefs erases a 4 KB block on almost every durable append (it copies a file's last
block on write) and now and then to compact a directory, about 45 ms each with the
RP2040's interrupts off; a lever pressed then waits (docs/FIRMWARE.md). Here the blocks are
erased beforehand, while no clock runs, and a press only programs 256-byte pages (about
0.7 ms each): its log record, and the game state as it changed.

Portable: runs on MicroPython and CPython over a raw device `dev` (the board's), with
    dev.blocks        number of blocks
    dev.first, dev.last   the bytes of each block that are the journal's: [first, last),
                      256-aligned pages partly outside it are read back and kept as they are
    dev.read(i, off, buf)      fill buf from block i at byte off
    dev.program(i, off, page)  program 256 bytes at a 256-aligned off (NOR: bits 1 -> 0
                      only; bytes still 0xFF may be programmed later)
    dev.erase(i)      block i to 0xFF

The journal is a sequence of frames (clockcore/framing.py, magic b"JR") from the start
of its first block, written in order and never overwritten; a power cut tears at most the
last one, which fails its CRC. A frame that fits in one flash page but not in the rest of
the current one starts at the next page, the rest left erased: a press's frame is one
page program (the reader steps over such an erased page end, one at most). Each frame's
payload is a kind byte and a body:
    LOG   an event-log record's payload (clockcore/eventlog.py), as log.bin holds it
    FULL  seq u32 LE + a game state (clockapp/gamestate.py)
    DYN   seq u32 LE + base u32 LE + the state's changing part against state `base` (the
          one saved before it, FULL or DYN): its 7 head bytes, a u32 mask of which of the
          27 times and counters after them changed, and those as int32. A press changes
          about ten, a running clock's 10-second save three or four; the unchanging rest
          (the control, its stages, meta) is the FULL frame's
Appends need a clean journal: nothing from `end` on but erased bytes, as checked at boot.
Storage (clockapp/storage.py) folds it into log.bin and the state slots when no clock
runs, then erases it block by block, the first first. A clock that runs again before the
erases are done (a short pause) does not wait for them: the frames are in the files
already, and appends go on into the blocks erased so far, short of their last page,
whose erased start ends the reader before the old frames behind (stop_erase). A cut
during the erases leaves old frames behind an erased front: the boot's check finds the
journal not clean, and it is folded (nothing new) and erased again.
"""

import struct

from clockcore import const
from clockcore.framing import HEADER_SIZE, MAX_RECORD, frame, frame_end

MAGIC = b"JR"
KIND_LOG = const(1)
KIND_FULL = const(2)
KIND_DYN = const(3)
PAGE = const(256)

# The game state's changing part (gamestate.py format 2): after the magic and version, a
# 7-byte head and 9 + 2 x 9 int64; DYN keeps them as int32 (times in ms: 24 days).
DYN_START = const(3)
DYN_HEAD = const(7)
DYN_INTS = const(27)
DYN_END = const(3 + 7 + 27 * 8)
_I32 = const(0x7FFFFFFF)
_ERASED = b"\xff" * PAGE


def _ints(payload):
    return struct.unpack("<27q", payload[DYN_START + DYN_HEAD:DYN_END])


def dyn_of(payload, prev):
    """What changed from game state `prev` to `payload` as DYN bytes (head, mask, values),
    or None when the unchanging part differs or a value does not fit an int32 (the FULL
    frame is written then)."""
    if len(payload) < DYN_END or len(prev) < DYN_END or payload[DYN_END:] != prev[DYN_END:]:
        return None
    new = _ints(payload)
    old = _ints(prev)
    mask = 0
    out = []
    for i in range(DYN_INTS):
        v = new[i]
        if v != old[i]:
            if v > _I32 or v < -_I32:
                return None
            mask |= 1 << i
            out.append(v)
    return (payload[DYN_START:DYN_START + DYN_HEAD] + struct.pack("<I", mask)
            + struct.pack("<%di" % len(out), *out))


def apply_dyn(prev, dyn):
    """The game state that DYN bytes describe on state `prev`; ValueError when they do
    not fit it."""
    mask = struct.unpack("<I", dyn[DYN_HEAD:DYN_HEAD + 4])[0]
    vals = list(_ints(prev))
    n = 0
    for i in range(DYN_INTS):
        if mask & (1 << i):
            n += 1
    if mask >> DYN_INTS or len(dyn) != DYN_HEAD + 4 + 4 * n:
        raise ValueError("journal: a bad state frame")
    got = struct.unpack("<%di" % n, dyn[DYN_HEAD + 4:])
    k = 0
    for i in range(DYN_INTS):
        if mask & (1 << i):
            vals[i] = got[k]
            k += 1
    return (prev[:DYN_START] + dyn[:DYN_HEAD] + struct.pack("<27q", *vals)
            + prev[DYN_END:])


class Journal:
    def __init__(self, dev):
        self.dev = dev
        self.span = dev.last - dev.first    # journal bytes a block
        self.size = dev.blocks * self.span
        self.page = bytearray(PAGE)
        self.end = 0          # where the next frame goes
        self.clean = False    # appendable: all from `end` on is erased
        self.frames = 0       # valid frames from the start
        self.log_bytes = 0    # bytes of LOG frames' payloads and framing
        self.erase_next = -1  # the next block to erase (counting up); -1: none
        self.limit = self.size  # appends end here (short of old frames: stop_erase)
        self._was_clean = False
        self.scan()

    # ---- bytes at linear positions ---------------------------------------------------
    def read(self, pos, n):
        out = bytearray(n)
        mv = memoryview(out)
        k = 0
        dev = self.dev
        while k < n:
            i, o = divmod(pos + k, self.span)
            m = min(n - k, self.span - o)
            dev.read(i, dev.first + o, mv[k:k + m])
            k += m
        return out

    def _write(self, pos, data):
        dev = self.dev
        page = self.page
        k = 0
        n = len(data)
        while k < n:
            i, o = divmod(pos + k, self.span)
            off = dev.first + o
            base = off - off % PAGE
            m = min(n - k, base + PAGE - off, self.span - o)
            dev.read(i, base, page)
            page[off - base:off - base + m] = data[k:k + m]
            dev.program(i, base, page)
            k += m

    def _page_end(self, pos):
        """The linear position where the flash page holding `pos` ends (within its block)."""
        o = pos % self.span
        off = self.dev.first + o
        return pos + min(PAGE - off % PAGE, self.span - o)

    def _page_start(self, pos):
        o = pos % self.span
        return o == 0 or (self.dev.first + o) % PAGE == 0

    def _erased(self, pos):
        """True when every byte from pos to the end is 0xFF."""
        while pos < self.size:
            n = min(PAGE, self.size - pos)
            if self.read(pos, n) != _ERASED[:n]:
                return False
            pos += n
        return True

    # ---- frames ----------------------------------------------------------------------
    def scan(self):
        """Find the end of the valid frames and whether the rest is erased."""
        self.frames = 0
        self.log_bytes = 0
        for _pos, kind, body in self.records():
            self.frames += 1
            if kind == KIND_LOG:
                self.log_bytes += len(body) + HEADER_SIZE
        self.end = self._next
        self.clean = self._erased(self.end)
        return self.clean

    def records(self, pos=0):
        """Yield (pos, kind, body) of the valid frames from pos (a frame's start), in
        order; the end of the last one yielded is left in self._next."""
        self._next = pos
        head = HEADER_SIZE
        while pos + head <= self.size:
            h = self.read(pos, head)
            if h[:2] != MAGIC:
                # the erased end of a page a frame did not fit in: the frame after it
                # starts at the next page (one page at most; nothing there: the end)
                nxt = self._page_end(pos)
                if (self._page_start(pos) or nxt >= self.size
                        or self.read(pos, nxt - pos) != _ERASED[:nxt - pos]):
                    return
                pos = nxt
                h = self.read(pos, head)
                if h[:2] != MAGIC:
                    return
            n = h[2] | (h[3] << 8)
            if n == 0 or n > MAX_RECORD or pos + head + n > self.size:
                return
            buf = h + self.read(pos + head, n)
            if not frame_end(buf, 0, MAGIC):
                return
            self._next = pos + head + n
            yield pos, buf[head], bytes(buf[head + 1:])
            pos += head + n

    def empty(self):
        return self.clean and self.end == 0

    def append(self, kind, body):
        """Program one frame after the last; False when the journal is not clean or full."""
        if not self.clean:
            return False
        data = frame(bytes((kind,)) + body, MAGIC)
        n = len(data)
        pos = self.end
        nxt = self._page_end(pos)
        if n > nxt - pos and nxt < self.limit and n <= self._page_end(nxt) - nxt:
            pos = nxt   # one page program at the next page, not two across pages
        if pos + n > self.limit:
            return False
        self._write(pos, data)
        self.end = pos + n
        self.frames += 1
        if kind == KIND_LOG:
            self.log_bytes += len(body) + HEADER_SIZE
        return True

    # ---- erasing, while no clock runs ------------------------------------------------
    def start_erase(self):
        """Forget every frame: the blocks are erased by erase_step(), the first first."""
        self._was_clean = self.clean   # (and `limit`, kept until the erases are done)
        self.clean = False
        self.erase_next = 0

    def erase_step(self):
        """Erase one block; True when the journal is clean again (checked)."""
        n = self.dev.blocks
        if 0 <= self.erase_next < n:
            self.dev.erase(self.erase_next)
            self.erase_next += 1
            if self.erase_next < n:
                return False
        self.end = 0
        self.frames = 0
        self.log_bytes = 0
        self.limit = self.size
        self.erase_next = -1
        self.clean = self._erased(0)
        if not self.clean:   # a block that did not erase: try again from the first
            self.erase_next = 0
        return self.clean

    def stop_erase(self):
        """The erases are left for later (a clock runs again; its frames are folded).
        None erased yet: the journal is as it was. Else it starts anew in the blocks
        erased, up to the start of their last page: that page stays erased, so the reader
        stops there and never runs on into the old frames of the block after it. True
        when it takes appends."""
        k = self.erase_next
        if k < 0:
            return self.clean
        self.erase_next = -1
        if k == 0:
            self.clean = self._was_clean
            return self.clean
        self.end = 0
        self.frames = 0
        self.log_bytes = 0
        if k < self.dev.blocks:
            last_page = (self.dev.last - 1) // PAGE * PAGE
            self.limit = (k - 1) * self.span + last_page - self.dev.first
        self.clean = True
        return True
