"""Raw flash blocks for the journal (clockapp/journal.py), kept out of littlefs's way by a
file that owns them: the RP2040's and the ESP32's.

Neither port's official image has a flash region outside littlefs that MicroPython can
reach and littlefs does not use: rp2.Flash() is the littlefs region; on the ESP32 the
only data partitions are nvs, phy_init and vfs (littlefs, all of it). So the blocks are
reserved inside it, as a file, /journal.bin, written once through littlefs with 0xFF in
its data and a tag at the end of each block: b"CKJ1", a nonce, the block's index and the
count. littlefs never moves a file's blocks unless the file is written, and this one
never is again through littlefs, so the clock programs and erases them directly through
the block device under littlefs (`flash`: rp2.Flash(), or the esp32.Partition labelled
"vfs"): writeblocks with an offset programs without erasing on both ports (without one the
ESP32's erases first), ioctl 6 erases one 4 KB block. The journal uses bytes [32, 4080) of
each block: littlefs's skip-list pointers (at most 28 bytes for the first 128 blocks of a
file) stay at the front and the tag at the back.

Reading /journal.bin through littlefs returns the journal's frames (littlefs keeps no
checksum of file data). A NOR flash page may be programmed again where it is still 0xFF:
the W25Q16 of a Pico and the ESP32 modules' flash allow it (bits only go from 1 to 0).
"""

import os
import struct

from clockcore import const

_BLOCK = const(4096)
_PAGE = const(256)
_TAG_AT = const(4080)
_MAGIC = b"CKJ1"
FIRST = const(32)
LAST = const(4080)


def _data_start(n):
    """Where file data starts in the n-th block of a littlefs file (its pointers first)."""
    if n == 0:
        return 0
    c = 0
    while not (n >> c) & 1:
        c += 1
    return 4 * (c + 1)


class ReservedFlash:
    """The journal's raw device (clockapp/journal.py's interface) over /journal.bin's
    blocks; make() finds them or reserves them. None where they cannot be had."""

    def __init__(self, flash, blocks):
        self.flash = flash
        self.map = blocks           # journal block i -> flash block
        self.blocks = len(blocks)
        self.first = FIRST
        self.last = LAST
        self._head = bytearray(_PAGE)   # a block's first and last pages, kept over an erase
        self._tail = bytearray(_PAGE)

    def read(self, i, off, buf):
        self.flash.readblocks(self.map[i], buf, off)

    def program(self, i, off, page):
        self.flash.writeblocks(self.map[i], page, off)

    def erase(self, i):
        """Erase block i's journal bytes. The flash erases the whole block: littlefs's
        pointers before them (littlefs follows them whenever it walks the file's blocks,
        as its allocator does) and the tag after them are programmed back at once. A cut
        in between leaves a block the next boot does not find: it reserves the file anew
        (the frames were folded before the erases began)."""
        b = self.map[i]
        flash = self.flash
        head = self._head
        tail = self._tail
        flash.readblocks(b, head, 0)
        flash.readblocks(b, tail, _BLOCK - _PAGE)
        for k in range(FIRST, _PAGE):
            head[k] = 0xFF
        for k in range(LAST - (_BLOCK - _PAGE)):
            tail[k] = 0xFF
        flash.ioctl(6, b)
        flash.writeblocks(b, head, 0)
        flash.writeblocks(b, tail, _BLOCK - _PAGE)

    @classmethod
    def make(cls, flash, path, count, fs=None):
        """Over block device `flash`, the blocks of file `path` (`fs`: the file system on
        it, with open(path, mode) and remove(path); None: the builtin open and os)."""
        if flash.ioctl(5, 0) != _BLOCK:   # the tags' places assume 4 KB blocks
            return None
        fs = fs if fs is not None else _Os()
        blocks = _find(flash, path, fs)
        if blocks is None or len(blocks) != count:
            blocks = _reserve(flash, path, count, fs)
        return cls(flash, blocks) if blocks is not None else None


class _Os:
    def open(self, path, mode):
        return open(path, mode)

    def remove(self, path):
        os.remove(path)


def _tag(nonce, n, count):
    return _MAGIC + struct.pack("<IHH", nonce, n, count) + b"\xff" * 4


def _find(flash, path, fs):
    """The flash blocks of the file's tags, in order, or None."""
    try:
        with fs.open(path, "rb") as f:
            f.seek(_TAG_AT)
            head = f.read(16)
    except OSError:
        return None
    if len(head) != 16 or head[:4] != _MAGIC:
        return None
    nonce, _n, count = struct.unpack("<IHH", head[4:12])
    found = [-1] * count
    tag = bytearray(16)
    for b in range(flash.ioctl(4, 0)):
        flash.readblocks(b, tag, _TAG_AT)
        if tag[:4] == _MAGIC:
            t_nonce, n, t_count = struct.unpack("<IHH", tag[4:12])
            if t_nonce == nonce and t_count == count and n < count:
                if found[n] >= 0:
                    return None     # two blocks with one tag: do not guess
                found[n] = b
    return found if min(found) >= 0 else None


def _old_nonce(path, fs):
    try:
        with fs.open(path, "rb") as f:
            f.seek(_TAG_AT)
            head = f.read(16)
        return struct.unpack("<I", head[4:8])[0] if head[:4] == _MAGIC else -1
    except (OSError, ValueError):
        return -1


def _reserve(flash, path, count, fs):
    """Write the file anew (littlefs erases its blocks on the way); its blocks, or None.
    The nonce differs from the file's it replaces: that file's blocks, free now but not
    erased, must never pass for this one's."""
    old = _old_nonce(path, fs)
    try:
        fs.remove(path)
    except OSError:
        pass
    nonce = struct.unpack("<I", os.urandom(4))[0]
    if nonce == old:
        nonce = (nonce + 1) & 0xFFFFFFFF
    ff = b"\xff" * 256
    try:
        with fs.open(path, "wb") as f:
            for n in range(count):
                left = _BLOCK - _data_start(n) - 16
                while left:
                    k = min(left, 256)
                    f.write(ff[:k])
                    left -= k
                f.write(_tag(nonce, n, count))
    except OSError:   # no room: no journal, the files take every write
        try:
            fs.remove(path)
        except OSError:
            pass
        return None
    return _find(flash, path, fs)
