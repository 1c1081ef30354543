# CRC-32 and the framed record: the one copy of each for the board and the host.
#
# A frame is MAGIC (2 bytes), the payload's length u16 LE, the CRC-32 of those 4 bytes and
# the payload (u32 LE), then the payload: 8 bytes of framing. The clock's log file
# (clockapp/storage.py, b"LG") is a sequence of them, and the host appends the clock's signed
# heads to a pulled log the same way (b"HD", chessclock.log.records). The CRC covers the
# magic and the length too, so erased flash or a torn length is never taken for a record.
# Readers resynchronise after bytes that are no frame (a torn append, a flipped bit): the
# next MAGIC with a valid frame behind it starts the next record.
#
# Portable: MicroPython and CPython; integers only.

import struct

from clockcore import const

try:
    import binascii

    _crc32_native = binascii.crc32
except (ImportError, AttributeError):  # some ports build binascii without crc32
    _crc32_native = None

LOG_MAGIC = b"LG"
HEADER_SIZE = const(8)     # magic 2, length 2, crc 4
MAX_RECORD = const(4096)   # payload bytes: a longer frame is never written, never read
_crc_table = None


def crc32_py(data, crc=0):
    """CRC-32 (IEEE 802.3, as zlib/binascii), table-driven; `crc` continues a running CRC.
    For ports whose binascii has no crc32."""
    global _crc_table
    if _crc_table is None:
        t = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            t.append(c)
        _crc_table = t
    t = _crc_table
    c = crc ^ 0xFFFFFFFF
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data, crc=0):
    """CRC-32 of data (zlib's), continuing `crc`."""
    if _crc32_native is not None:
        return _crc32_native(data, crc) & 0xFFFFFFFF
    return crc32_py(data, crc)


def frame(payload, magic=LOG_MAGIC):
    """A payload's frame; ValueError over MAX_RECORD bytes (no reader would take it)."""
    n = len(payload)
    if n > MAX_RECORD:
        raise ValueError("log record of %d bytes (at most %d)" % (n, MAX_RECORD))
    head = magic + struct.pack("<H", n)
    return head + struct.pack("<I", crc32(payload, crc32(head))) + payload


def frame_end(buf, pos, magic=LOG_MAGIC):
    """The end of the valid frame starting at buf[pos], or 0 when there is none (other
    bytes, a bad CRC, a length over MAX_RECORD, or a frame not whole in buf)."""
    if buf[pos:pos + 2] != magic or pos + HEADER_SIZE > len(buf):
        return 0
    n = buf[pos + 2] | (buf[pos + 3] << 8)
    end = pos + HEADER_SIZE + n
    if n > MAX_RECORD or end > len(buf):
        return 0
    crc = buf[pos + 4] | (buf[pos + 5] << 8) | (buf[pos + 6] << 16) | (buf[pos + 7] << 24)
    mv = memoryview(buf)
    if crc32(mv[pos + HEADER_SIZE:end], crc32(mv[pos:pos + 4])) != crc:
        return 0
    return end


def resync(buf, pos, magic=LOG_MAGIC):
    """Where the next frame can start after a bad byte at pos: the next magic, or the end
    of buf (less a last byte that may be the magic's first, when buf is read in chunks)."""
    nxt = buf.find(magic, pos + 1)
    if nxt < 0:
        nxt = len(buf) - 1 if buf[-1:] == magic[:1] else len(buf)
        if nxt <= pos:
            nxt = pos + 1
    return nxt


def unframe(data, magic=LOG_MAGIC):
    """[(offset, payload)] of the valid frames in a whole file's bytes, and the
    [(offset, length)] regions that belong to no valid frame (torn or changed bytes)."""
    out = []
    bad = []
    n = len(data)
    pos = 0
    bad_at = -1
    while pos < n:
        end = frame_end(data, pos, magic)
        if end:
            if bad_at >= 0:
                bad.append((bad_at, pos - bad_at))
                bad_at = -1
            out.append((pos, bytes(data[pos + HEADER_SIZE:end])))
            pos = end
            continue
        if bad_at < 0:
            bad_at = pos
        pos = resync(data, pos, magic)
    if bad_at >= 0:
        bad.append((bad_at, n - bad_at))
    return out, bad
