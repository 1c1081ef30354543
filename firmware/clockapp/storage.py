"""Flash storage that never boots into a corrupt state.

Portable: runs on MicroPython and CPython. Everything goes through an injected file-system
object (`fs`) with open(path, mode), rename(a, b), remove(path), exists(path) and
listdir(root); the default wraps the builtin `open` and `os`. Tests inject a fake that can
cut the power after any byte or operation (tests/core/fakefs.py).

Three kinds of files, all under `root` (a folder path ending in '/'):

Checked files (save/load, save_json/load_json): settings, favourites.
    name        header + payload
    header      b"CK", version u8 (1), payload length u32 LE, CRC-32 u32 LE of the 7 header
                bytes before it and the payload (11 bytes). A file is valid only when the
                magic and version match, its size is exactly 11 + length and the CRC
                matches: a torn write, a flipped byte or a stray file is never taken for
                data. (The CRC covers the header because erased flash passes a CRC of the
                payload alone: the CRC-32 of b"\xff" * 4 is 0xFFFFFFFF.)
    save(name) writes `name.new` completely, closes it (close flushes and, on littlefs,
    commits), then renames it over `name`. How the rename behaves depends on the VFS:
      - littlefs (VfsLfs1/VfsLfs2, the default on rp2 and esp32) and POSIX (the unix port,
        the host): rename replaces an existing target atomically (littlefs commits the
        directory change in one metadata block write; POSIX guarantees it).
      - FAT (VfsFat, e.g. an SD card): FatFs refuses to rename onto an existing file
        (OSError EEXIST). Only then is the old `name` removed first and the rename retried.
    Why it is safe either way: at every instant one complete valid copy exists. Until the
    rename (or the removal on FAT) the old `name` is untouched, whatever state `name.new`
    is in (missing, partial, complete). After the rename `name` is the new complete file.
    On FAT, between the removal and the rename, `name` is missing but `name.new` is complete
    and valid: load() then uses `name.new` and finishes the rename. So load(name) returns
    the old payload or the new one, never anything else.

Game state, double slot (save_state/load_state): `state.a` and `state.b`, each a checked
    file (same header) whose payload is a sequence number u32 LE followed by the state.
    Each save writes in place the slot that does NOT hold the newest valid state, with the
    next sequence number; a cut during that write only spoils that slot, and the other one
    still holds the previous state. load_state() returns the valid slot with the newer
    sequence number (serial-number order, so even the 2**32 wrap is handled).

Event log (append_log/read_log): `log.bin`, a sequence of records, appended with open 'ab':
    record      b"LG", length u16 LE, CRC-32 u32 LE of (b"LG" + the length + payload),
                payload (8 bytes of framing; payload at most LOG_MAX_RECORD bytes): the
                frame of clockcore/framing.py, whose reader the host uses too
    A cut during an append leaves a torn last record. read_log() yields the payloads of the
    valid records in order; bytes that belong to no valid record (a torn or corrupt record)
    are skipped, counted in `log_dropped`, and reading resynchronises on the next valid
    record, so records appended after a torn one are still read.

Journal (optional, `journal`: a clockapp/journal.Journal over the board's raw flash): while
    it is clean, append_log and save_state program its pages instead of writing files, so
    that no erase falls in a press's path; a state is a DYN frame (its changing fields) on
    the journal's last FULL one when only those changed. read_log, log_size, the log's
    tail and load_state read log.bin and the slots first, then the journal (a record is
    the journal's when its sequence number is past log.bin's last). fold_step(), called
    while no clock runs, copies the journal into log.bin and a state slot, then erases it
    a block a call; every step can be cut and done again (records already in log.bin are
    recognised by their sequence numbers). A full journal spills its log records into
    log.bin at once and is not used again until folded; so is a journal found torn or not
    erased at boot. A clock that runs again in the middle of a fold (stop_fold) stops it:
    the journal takes the writes again, and the fold starts over when no clock runs.

Storage full: a write that fails with OSError (ENOSPC: flash full) never raises into the
clock. save/save_state/append_log return False, `full` is set (True until a later write
succeeds) and `error` holds the errno; the previous valid copy stays in place. load* never
raise on bad data: a missing, torn or corrupt file reads as None (or the default).
An exception that is not an OSError (a bug, or a test's simulated power cut) is not caught.
"""

import json
import os
import struct

from clockcore import const
from clockcore.eventlog import seq_of
from clockcore.framing import HEADER_SIZE as LOG_HEADER_SIZE  # (and logstore)
from clockcore.framing import LOG_MAGIC, crc32, frame_end
from clockcore.framing import MAX_RECORD as LOG_MAX_RECORD
from clockcore.framing import frame as log_record  # noqa: F401  (logstore, tests)

ENOENT = const(2)
EEXIST = const(17)
ENOSPC = const(28)  # MicroPython's errno module may lack the name; the number is the same

MAGIC = b"CK"
VERSION = const(1)
HEADER_SIZE = const(11)  # magic 2, version 1, length 4, crc 4
LOG_NAME = "log.bin"
JOURNAL_NAME = "journal.bin"   # the board's raw journal blocks, reserved as a file
STATE_SLOTS = ("state.a", "state.b")
NEW = ".new"

TAIL_BYTES = const(8192)   # bytes of log.bin searched back for its last record
# read at a time, from the end back: after power cuts the RP2040's heap at boot had no
# block for the whole tail (a MemoryError three times, and the clock stayed at the REPL)
TAIL_STEP = const(512)


def _newer(a, b):
    """Sequence number a comes after b (serial-number order, across the 2**32 wrap)."""
    return 0 < ((a - b) & 0xFFFFFFFF) < 0x80000000


def frame(payload, prefix=b""):
    """A checked file's bytes: header + prefix + payload (the prefix a few bytes, so that
    a game state and its sequence number are not joined first: a copy less of a save).
    The CRC covers the 7 header bytes before it as well as the payload: a CRC of the
    payload alone is satisfied by erased flash (the CRC-32 of b"\xff" * 4 is 0xFFFFFFFF),
    so a write torn after the length field of a 4-byte payload would read as valid."""
    head = MAGIC + struct.pack("<BI", VERSION, len(prefix) + len(payload))
    crc = crc32(payload, crc32(prefix, crc32(head)))
    return head + struct.pack("<I", crc) + prefix + payload


def unframe(data):
    """The payload of a checked file's bytes, or None when anything is wrong."""
    if data is None or len(data) < HEADER_SIZE or data[:2] != MAGIC:
        return None
    version, length, crc = struct.unpack("<BII", data[2:HEADER_SIZE])
    if version != VERSION or length != len(data) - HEADER_SIZE:
        return None
    payload = bytes(data[HEADER_SIZE:])
    if crc32(payload, crc32(data[:7])) != crc:
        return None
    return payload


def errno_of(e):
    n = getattr(e, "errno", None)
    if n is None and e.args and isinstance(e.args[0], int):  # CPython: OSError(28).errno is None
        n = e.args[0]
    return n


class OsFs:
    """The real file system: builtin open and os."""

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, a, b):
        os.rename(a, b)

    def remove(self, path):
        os.remove(path)

    def exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def listdir(self, root):
        if len(root) > 1 and root.endswith("/"):
            root = root[:-1]
        return os.listdir(root or ".")

    def mkdir(self, path):
        os.mkdir(path)


class Store:
    """Checked files, the double-slot game state and the event log in folder `root`."""

    def __init__(self, root, fs=None, journal=None):
        if root and not root.endswith("/"):
            root += "/"
        self.root = root
        self.fs = fs if fs is not None else OsFs()
        self.full = False     # the last failed write ran out of space
        self.error = 0        # errno of the last failed write, 0 if none yet
        self.log_dropped = 0  # bytes read_log() skipped (torn or corrupt), so far
        self._state_seq = -1  # newest valid state's sequence number; -1: none
        self._state_slot = 1  # slot holding it (so the next save goes to slot 0)
        self._state_known = False
        self.jr = journal       # clockapp/journal.Journal, or None
        self._prev_seq = -1     # the journal's last state (its seq and bytes): the next
        self._prev = None       # DYN frame says what changed from it
        self.fold_phase = 0     # fold_step(): 0 idle, 1 log records, 2 state, 3 erasing
        self.fold_bytes = None  # fold when the journal holds more (None: half its size)
        self.feed = None        # called between the erases of a whole journal (watchdog)
        self._fold_pos = 0      # journal position the log copy goes on from
        self._spilled = False   # the journal was full: closed until folded and erased
        # Writes under way (the guarded methods below): left above 0 by an exception in
        # the middle of one, when the RAM state may not match the flash (App.last_writes
        # then writes nothing more; the next boot reads the flash as after a power cut).
        self.busy = 0
        mkdir = getattr(self.fs, "mkdir", None)
        if mkdir is not None and root not in ("", "/") and not self.fs.exists(root[:-1]):
            try:
                mkdir(root[:-1])
            except OSError:
                pass

    # ---- low level ---------------------------------------------------------------
    def _guarded(self, write, *args):
        """A write counted in busy while it runs (an exception leaves it counted)."""
        self.busy += 1
        r = write(*args)
        self.busy -= 1
        return r

    def _failed(self, e):
        n = errno_of(e)
        self.error = n or -1
        if n == ENOSPC:
            self.full = True
        return False

    def _ok(self):
        self.full = False
        return True

    def _write(self, path, data, mode="wb"):
        f = self.fs.open(path, mode)
        try:
            n = f.write(data)
            if n is not None and n != len(data):  # a short write: out of space
                raise OSError(ENOSPC, "short write")
        finally:
            f.close()

    def _read(self, path):
        """A whole file's bytes, or None when it cannot be read."""
        try:
            f = self.fs.open(path, "rb")
        except OSError:
            return None
        try:
            return f.read()
        except (OSError, MemoryError):
            return None
        finally:
            try:
                f.close()
            except OSError:
                pass

    def _discard(self, path):
        try:
            if self.fs.exists(path):
                self.fs.remove(path)
        except OSError:
            pass

    def _replace(self, src, dst):
        """Rename src over dst. Where rename cannot replace (FAT: EEXIST) remove dst first:
        in between, src is the only copy, complete, and load() finishes the job."""
        try:
            self.fs.rename(src, dst)
            return
        except OSError as e:
            if errno_of(e) == ENOSPC or not self.fs.exists(dst):
                raise
        self.fs.remove(dst)
        self.fs.rename(src, dst)

    # ---- checked files -----------------------------------------------------------
    def save(self, name, payload):
        return self._guarded(self._save, name, payload)

    def _save(self, name, payload):
        """Write `payload` (bytes) to `name` atomically; False (and `full`) on failure, the
        previous copy then still loads."""
        path = self.root + name
        tmp = path + NEW
        try:
            self._write(tmp, frame(payload))
        except OSError as e:
            self._discard(tmp)  # partial: worthless, and it takes space
            return self._failed(e)
        try:
            self._replace(tmp, path)
        except OSError as e:
            # name.new is complete and valid; if the old file is still there load() returns
            # it, if it was removed load() returns name.new. Either way a whole copy.
            return self._failed(e)
        return self._ok()

    def load(self, name):
        """The payload saved under `name`, or None when missing or corrupt. A complete
        `name.new` stands in for a bad or missing `name` (a cut between write and rename);
        the rename is then finished. Never raises on bad data."""
        path = self.root + name
        payload = unframe(self._read(path))
        if payload is not None:
            return payload
        tmp = path + NEW
        payload = unframe(self._read(tmp))
        if payload is None:
            return None
        try:
            self._replace(tmp, path)
        except OSError:
            pass  # still readable from name.new next time
        return payload

    def delete(self, name):
        """Remove `name` (and any `name.new`). True when nothing of it is left."""
        from clockapp import storelog
        return storelog.delete(self, self.root + name, NEW)

    def names(self):
        """Names of the checked files present (those with only a `.new` included)."""
        from clockapp import storelog
        return storelog.names(self, NEW, (LOG_NAME, JOURNAL_NAME) + STATE_SLOTS)

    def recover(self):
        """At boot: finish every rename a power cut interrupted and drop torn `.new` files.
        Not needed for correctness (load() does the same per file); frees space."""
        from clockapp import storelog
        storelog.recover(self, NEW)

    # ---- settings and favourites -------------------------------------------------
    def save_json(self, name, obj):
        return self.save(name, json.dumps(obj).encode())

    def load_json(self, name, default=None):
        data = self.load(name)
        if data is None:
            return default
        try:
            return json.loads(data.decode())
        except ValueError:  # includes UnicodeError and JSON errors on both interpreters
            return default

    # ---- game state, double slot -------------------------------------------------
    def _read_slot(self, i):
        p = unframe(self._read(self.root + STATE_SLOTS[i]))
        if p is None or len(p) < 4:
            return -1, None
        return struct.unpack("<I", p[:4])[0], p[4:]

    def _slots_best(self):
        """(seq, slot, payload) of the newest valid slot, or (-1, 1, None)."""
        best_seq = -1
        best_slot = 1
        best = None
        for i in (0, 1):
            seq, payload = self._read_slot(i)
            # Serial-number order: the two slots' numbers are one apart, so the newer is
            # the one less than 2**31 ahead, across the 2**32 wrap too.
            if payload is not None and (best is None or _newer(seq, best_seq)):
                best_seq, best_slot, best = seq, i, payload
        return best_seq, best_slot, best

    def _journal_best(self):
        """(seq, payload) of the journal's newest state, or (-1, None): its last FULL
        frame with the DYN frames after it applied in turn. Remembered: the next DYN frame
        says what changed from it."""
        seq = -1
        best = None
        if self.jr is not None and self.fold_phase <= 2:   # 3: being erased
            from clockapp import journal as J  # loaded already: the board made the journal
            for _pos, kind, body in self.jr.records():
                if kind == J.KIND_FULL and len(body) > 4:
                    seq = struct.unpack("<I", body[:4])[0]
                    best = body[4:]
                elif kind == J.KIND_DYN and best is not None and len(body) > 8:
                    s, base = struct.unpack("<II", body[:8])
                    if base == seq:     # else a chain broken: keep the last whole state
                        try:
                            best = J.apply_dyn(best, body[8:])
                            seq = s
                        except ValueError:
                            pass
        self._prev_seq = seq
        self._prev = best
        return seq, best

    def load_state(self):
        """The newest valid game state (the slots', or the journal's when newer), or None."""
        seq, slot, best = self._slots_best()
        jseq, jbest = self._journal_best()
        if jbest is not None and (best is None or _newer(jseq, seq)):
            seq, best = jseq, jbest
        self._state_seq = seq
        self._state_slot = slot
        self._state_known = True
        return best

    def _journal_open(self):
        jr = self.jr
        return jr is not None and jr.clean and self.fold_phase <= 1

    def save_state(self, payload):
        return self._guarded(self._save_state, payload)

    def _save_state(self, payload):
        """Save the game state: into the journal while it is open (a DYN frame when only
        the changing fields differ from its last FULL one), else into the slot not holding
        the newest one. False on failure (the previous state still loads)."""
        if not self._state_known:
            self.load_state()
        seq = (self._state_seq + 1) & 0xFFFFFFFF
        if self._journal_open():
            from clockapp import journal as J  # loaded already: the board made the journal
            dyn = J.dyn_of(payload, self._prev) if self._prev is not None else None
            if dyn is not None:
                ok = self.jr.append(J.KIND_DYN, struct.pack("<II", seq, self._prev_seq) + dyn)
            else:
                ok = self.jr.append(J.KIND_FULL, struct.pack("<I", seq) + payload)
            if ok:
                self._prev_seq = seq
                self._prev = bytes(payload)
                self._state_seq = seq
                return self._ok()
            self._spill()   # full: its log records into log.bin; the slots from now on
        return self._write_slot(seq, payload)

    def _write_slot(self, seq, payload):
        slot = 1 - self._state_slot
        try:
            self._write(self.root + STATE_SLOTS[slot], frame(payload, struct.pack("<I", seq)))
        except OSError as e:
            return self._failed(e)  # that slot is spoilt; the newest is still in the other
        self._state_seq = seq
        self._state_slot = slot
        return self._ok()

    def clear_state(self):
        """Forget the game state (the older slot goes first, so a cut in between leaves the
        newest state, never an older one)."""
        from clockapp import storelog
        return self._guarded(storelog.clear_state, self, self.root + LOG_NAME, STATE_SLOTS)

    # ---- the journal folded into the files -----------------------------------------
    def folding(self):
        """True while fold_step has work: a fold begun, a journal that cannot take frames
        (torn, or found not erased), or one past `fold_bytes`. Not sooner: an erase holds
        the CPU 45 ms, and a START pressed during one would start the clock late by it."""
        jr = self.jr
        if jr is None:
            return False
        if self.fold_phase != 0 or not jr.clean or jr.limit < jr.size:
            return True
        limit = self.fold_bytes if self.fold_bytes is not None else jr.size // 2
        return jr.end > limit

    def fold_step(self):
        """One step of folding the journal, for a pass with no clock running: copy a chunk
        of its log records into log.bin, or its newest state into a slot, or erase one
        block (clockapp/storefold.py, loaded with the first). True when it wrote or erased
        (the pass's one flash operation)."""
        if not self.folding():
            return False
        from clockapp import storefold
        return self._guarded(storefold.fold_step, self, self.root + LOG_NAME)

    def stop_fold(self):
        """A clock runs again before the fold is done (a short pause): the journal takes
        the writes again, so that no erase and no file write falls in a press's path (its
        frames are in the files, or will be copied again: known by their sequence numbers).
        The fold starts over the next time no clock runs."""
        if self.jr is not None and self.fold_phase >= 2:
            # (1: the copy goes on from where it is, the journal open meanwhile)
            from clockapp import storefold
            storefold.stop_fold(self)

    def _spill(self):
        """The journal's log records into log.bin now (storefold.spill)."""
        from clockapp import storefold
        storefold.spill(self, self.root + LOG_NAME)

    def _file_tail(self):
        """(the payload of log.bin's last valid record or None, log.bin's size): the valid
        frame starting last in its final TAIL_BYTES (a torn append may end the file)."""
        try:
            f = self.fs.open(self.root + LOG_NAME, "rb")
        except OSError:
            return None, 0
        try:
            size = f.seek(0, 2)
            low = size - TAIL_BYTES if size > TAIL_BYTES else 0
            end = size
            while end > low:
                start = end - TAIL_STEP if end - TAIL_STEP > low else low
                f.seek(start)
                buf = f.read(end - start)
                p = len(buf)
                while True:
                    p = buf.rfind(LOG_MAGIC, 0, p + 1)   # the last "LG" before p + 1
                    if p < 0:
                        break
                    f.seek(start + p)     # its frame read on its own: it may run on
                    rec = f.read(4)
                    if len(rec) == 4 and rec[2] | rec[3] << 8 <= LOG_MAX_RECORD:
                        rec += f.read(4 + (rec[2] | rec[3] << 8))
                        if frame_end(rec, 0):
                            return rec[LOG_HEADER_SIZE:], size
                end = start + 1 if start > low else low   # "LG" may straddle the two
            return None, size
        finally:
            f.close()

    def log_tail(self):
        """(the payload of the log's last record or None, log.bin's size): the journal's
        last record when it is newer than log.bin's."""
        payload, size = self._file_tail()
        if self.jr is not None and self.fold_phase <= 1:
            from clockapp import journal as J  # loaded already: the board made the journal
            for _pos, kind, body in self.jr.records():
                if kind == J.KIND_LOG and (payload is None
                                           or _newer(seq_of(body), seq_of(payload))):
                    payload = body
        return payload, size

    # ---- event log -----------------------------------------------------------------
    def append_log(self, record):
        return self._guarded(self._append_log, record)

    def _append_log(self, record):
        """Append one record (bytes, at most LOG_MAX_RECORD). False (and `full`) when it
        could not be written; a torn record is skipped by read_log()."""
        if self._journal_open():
            from clockapp import journal as J  # loaded already: the board made the journal
            if self.jr.append(J.KIND_LOG, record):
                return self._ok()
        if self.jr is not None:
            self._spill()   # the journal's records go first: log.bin stays in order
        data = log_record(record)
        try:
            self._write(self.root + LOG_NAME, data, "ab")
        except OSError as e:
            return self._failed(e)
        return self._ok()

    # ---- the log read back, sized, removed: clockapp/storelog.py, loaded when first used
    # (the link's log operations; a log over its budget), off a running game's heap
    def read_log(self):
        """Yield the payloads of the valid log records in order (log.bin's, then the
        journal's it lacks). Bytes of torn or corrupt records in log.bin are skipped and
        counted in `self.log_dropped` (final once exhausted)."""
        from clockapp import storelog
        return storelog.read_log(self, self.root + LOG_NAME)

    def _read_file_log(self):
        from clockapp import storelog
        return storelog.read_file_log(self, self.root + LOG_NAME)

    def log_size(self):
        """Bytes in the log file (0 when there is none), and the journal's log records."""
        from clockapp import storelog
        return storelog.log_size(self, self.root + LOG_NAME)

    def clear_log(self):
        """Remove the log (the journal's records too: it is erased now). True when it is
        gone."""
        from clockapp import storelog
        return self._guarded(storelog.clear_log, self, self.root + LOG_NAME)
