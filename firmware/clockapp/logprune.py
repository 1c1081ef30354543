# The event log over its flash budget (EventLog.prune, clockapp/logstore.py): the oldest
# games the host has pulled are removed. Loaded when the log is first over its budget, with
# no clock running (EventLog.flush), so that a game's heap does not carry it.
# Portable: MicroPython and CPython.

from clockapp import storage
from clockcore import engine as E
from clockcore import eventlog as L
from clockcore import events as EV


def games(log):
    """[(first seq, last seq, bytes)] of the games in the file, oldest first (records
    before the first header count as one game)."""
    out = []
    for payload in log.store.read_log():
        seq = L.seq_of(payload)
        n = len(payload) + storage.LOG_HEADER_SIZE
        if (payload[4] & 0x3F) == EV.EV_HEADER or not out:
            out.append([seq, seq, n])
        else:
            g = out[-1]
            g[1] = seq
            g[2] += n
    return out


def prune(log, clock):
    """Remove the oldest pulled games until the log is under 3/4 of the budget.
    Returns the number of games removed."""
    gs = games(log)
    target = log.budget * 3 // 4
    size = sum([g[2] for g in gs])
    cut = -1
    k = 0
    # Never the last game (the one being played or set up).
    while k < len(gs) - 1 and size > target and _pulled(log, gs[k][1]):
        size -= gs[k][2]
        cut = gs[k + 1][0]
        k += 1
    if k:
        if _rewrite(log, cut):
            log.pruned += k
            log.writer.log(EV.EV_LOG_PRUNED, E.NOBODY, log.writer.prev_t, cut, clock)
        else:
            k = 0
    if log.size > log.budget and not log.warn:
        log.warn = True
        log.writer.log(EV.EV_LOG_FULL, E.NOBODY, log.writer.prev_t, log.size, clock)
    elif log.size <= log.budget:
        log.warn = False
    log.writer.flush()
    return k


def _pulled(log, last_seq):
    p = log.pulled
    return p >= 0 and ((p - last_seq) & 0xFFFFFFFF) < 0x80000000


def _rewrite(log, cut):
    """Copy the records from sequence number `cut` on into log.bin.new, then rename it
    over log.bin (the old file stays whole until the rename)."""
    st = log.store
    path = st.root + storage.LOG_NAME
    tmp = path + storage.NEW
    keep = False
    size = 0
    try:
        f = st.fs.open(tmp, "wb")
        try:
            chunk = []
            n = 0
            for payload in st.read_log():
                if not keep:
                    keep = ((L.seq_of(payload) - cut) & 0xFFFFFFFF) < 0x80000000
                if keep:
                    rec = storage.log_record(payload)
                    chunk.append(rec)
                    n += len(rec)
                    if n >= 4096:
                        f.write(b"".join(chunk))
                        size += n
                        chunk = []
                        n = 0
            if chunk:
                f.write(b"".join(chunk))
                size += n
        finally:
            f.close()
        st._replace(tmp, path)
    except OSError:
        st._discard(tmp)
        return False
    log.size = size
    return True
