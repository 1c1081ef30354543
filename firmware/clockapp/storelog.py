# What storage.Store does with the event log only for a reader or on request: read it
# back, size it, remove it (`path`: the log file's); the checked files' listing, removal and
# clean-up, and the game state's removal. Loaded when first used (the link's
# log operations, a log over its budget), so that a running game's heap carries only the
# writing half of clockapp/storage.py; Store's methods of the same names call these.
# Portable: MicroPython and CPython.

from clockcore import const
from clockcore.eventlog import seq_of
from clockcore.framing import HEADER_SIZE as LOG_HEADER_SIZE
from clockcore.framing import MAX_RECORD as LOG_MAX_RECORD
from clockcore.framing import frame_end, resync

READ_CHUNK = const(512)   # bytes read at a time (more for a longer record)


def _after(a, b):
    """Sequence number a comes after b (storage._newer: serial-number order)."""
    return 0 < ((a - b) & 0xFFFFFFFF) < 0x80000000


def read_log(store, path):
    """Yield the payloads of the valid log records in order (log.bin's, then the
    journal's it lacks). Bytes of torn or corrupt records in log.bin are skipped and
    counted in `store.log_dropped` (final once exhausted)."""
    jr = store.jr if store.fold_phase <= 1 else None
    last = -1
    for payload in read_file_log(store, path):
        if jr is not None:
            last = seq_of(payload)
        yield payload
    if jr is not None:
        from clockapp import journal as J  # loaded already: the board made the journal
        for _pos, kind, body in jr.records():
            if kind == J.KIND_LOG and (last < 0 or _after(seq_of(body), last)):
                last = seq_of(body)
                yield body

def read_file_log(store, path):
    store.log_dropped = 0
    try:
        f = store.fs.open(path, "rb")
    except OSError:
        return
    buf = b""
    pos = 0
    eof = False
    try:
        while True:
            # The bytes of the record at pos (its header says how many), unless at the end.
            # Read a little at a time: after power cuts the Pico's heap had no 4 KB block,
            # and a pull was refused.
            while not eof:
                avail = len(buf) - pos
                need = LOG_HEADER_SIZE
                if avail >= 4 and buf[pos] == 0x4C and buf[pos + 1] == 0x47:   # "LG"
                    n = buf[pos + 2] | buf[pos + 3] << 8
                    if n <= LOG_MAX_RECORD:
                        need += n
                if avail >= need:
                    break
                try:
                    chunk = f.read(need - avail if need - avail > READ_CHUNK else READ_CHUNK)
                except OSError:
                    chunk = b""
                if not chunk:
                    eof = True
                buf = buf[pos:] + chunk
                pos = 0
            avail = len(buf) - pos
            if avail == 0:
                return
            if avail < LOG_HEADER_SIZE:
                store.log_dropped += avail  # a torn header at the end
                return
            end = frame_end(buf, pos)
            if end:
                payload = buf[pos + LOG_HEADER_SIZE:end]
                pos = end
                yield payload
                continue
            # Not a valid record here: skip to the next possible start.
            nxt = resync(buf, pos)
            store.log_dropped += nxt - pos
            pos = nxt
    finally:
        try:
            f.close()
        except OSError:
            pass


def log_size(store, path):
    """Bytes in the log file (0 when there is none), and the journal's log records."""
    n = _file_size(store, path)
    if store.jr is not None and store.fold_phase <= 1:
        n += store.jr.log_bytes
    return n

def _file_size(store, path):
    try:
        f = store.fs.open(path, "rb")
    except OSError:
        return 0
    try:
        try:
            return f.seek(0, 2)
        except (AttributeError, OSError):
            n = 0
            while True:
                chunk = f.read(READ_CHUNK)
                if not chunk:
                    return n
                n += len(chunk)
    finally:
        try:
            f.close()
        except OSError:
            pass


def clear_log(store, path):
    """Remove the log (the journal's records too: it is erased now). True when it is
    gone."""
    if store.jr is not None and not store.jr.empty():
        from clockapp import storefold
        storefold.state_to_slot(store)
        storefold.erase_journal(store)
    try:
        if store.fs.exists(path):
            store.fs.remove(path)
    except OSError as e:
        return store._failed(e)
    store.full = False
    return True


def delete(store, path, new):
    """Store.delete: `path` and any `path` + `new`."""
    ok = True
    for p in (path + new, path):  # .new first: it must not outlive the file it replaces
        try:
            if store.fs.exists(p):
                store.fs.remove(p)
        except OSError:
            ok = False
    return ok


def clear_state(store, log, slots):
    """Store.clear_state (`log`: the log file's path; `slots`: the state slots' names)."""
    if not store._state_known:
        store.load_state()
    if store.jr is not None and not store.jr.empty():
        from clockapp import storefold
        storefold.spill(store, log)   # its records into log.bin
        storefold.erase_journal(store)
    ok = True
    for i in (1 - store._state_slot, store._state_slot):
        try:
            p = store.root + slots[i]
            if store.fs.exists(p):
                store.fs.remove(p)
        except OSError:
            ok = False
    store._state_seq = -1
    store._state_slot = 1
    return ok


def names(store, new, skip):
    """Store.names: the checked files present (`new`: the suffix of one being written;
    `skip`: the files that are not checked files)."""
    try:
        entries = store.fs.listdir(store.root)
    except OSError:
        return []
    out = []
    for n in entries:
        if n.endswith(new):
            n = n[:-len(new)]
        if n not in out and n not in skip:
            out.append(n)
    out.sort()
    return out


def recover(store, new):
    """Store.recover (`new`: the suffix of a file being written)."""
    try:
        entries = store.fs.listdir(store.root)
    except OSError:
        return
    for n in entries:
        if n.endswith(new):
            name = n[:-len(new)]
            if store.load(name) is not None:
                # name is good; a leftover name.new (complete or not) is not needed
                if store.fs.exists(store.root + n):
                    store._discard(store.root + n)
            else:
                store._discard(store.root + n)
