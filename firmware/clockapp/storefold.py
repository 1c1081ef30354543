# The journal folded into storage.Store's files: its log records copied into log.bin, its
# newest state into a slot, its blocks erased; a full journal's records spilled into
# log.bin at once. Loaded when first needed (a fold begun while no clock runs, a full
# journal, the host clearing the log or the state), so that a board without a journal,
# and a game with a journal that has room, carries none of it. Store's methods of the
# same names call these, with the log file's path (`log`). Portable: MicroPython and
# CPython.

from clockapp import journal as J  # loaded already: the board made the journal
from clockcore import const
from clockcore.eventlog import seq_of
from clockcore.framing import frame as log_record

_FOLD_CHUNK = const(4096)  # log bytes a fold step copies into log.bin (one write)


def _newer(a, b):
    """Sequence number a comes after b (storage._newer: serial-number order)."""
    return 0 < ((a - b) & 0xFFFFFFFF) < 0x80000000


def fold_step(st, log):
    """Store.fold_step, once folding() says there is work."""
    jr = st.jr
    if st.fold_phase == 0:
        st.fold_phase = 1
        st._fold_pos = 0
        st._fold_last = file_last_seq(st)
    if st.fold_phase == 1:
        if copy_logs_small(st, _FOLD_CHUNK, log):
            st.fold_phase = 2
        return True
    if st.fold_phase == 2:
        state_to_slot(st)
        jr.start_erase()
        st.fold_phase = 3
        return True
    if jr.erase_step():
        st.fold_phase = 0
        st._prev = None
        st._spilled = False
    return True


def stop_fold(st):
    """Store.stop_fold from a fold's phase 2 on."""
    jr = st.jr
    if st.fold_phase == 2:
        if not st._spilled:   # copied, the state not yet: the journal as it was
            st.fold_phase = 0
        return   # (a full journal, spilled: the files take the writes)
    if jr.erase_next > 0:
        st._prev = None    # the journal starts anew: its next state is a FULL frame
        st._spilled = False
    jr.stop_erase()
    st.fold_phase = 0


def spill(st, log):
    """Copy every log record of the journal not yet in log.bin, now (the journal is
    full, or a file write must come after them); the journal is closed for appends."""
    if st.jr is None or st.fold_phase >= 2:
        return
    st._spilled = True
    if st.fold_phase == 0:
        st._fold_pos = 0
        st._fold_last = file_last_seq(st)
    st.fold_phase = 1
    # In smaller writes when the heap is short: at boot after a power cut, a full
    # journal's 2.6 KB join found no block that size on the RP2040 and the clock did
    # not come back (the 100-cut runs).
    while not copy_logs_small(st, _FOLD_CHUNK, log):
        pass
    st.fold_phase = 2


def copy_logs_small(st, limit, log):
    """copy_logs, in smaller writes when the heap has no block for `limit` bytes (a
    MemoryError leaves its position as it was)."""
    while True:
        try:
            return copy_logs(st, limit, log)
        except MemoryError:
            if limit <= 128:
                raise
            limit //= 4


def erase_journal(st):
    """Erase the whole journal now (a log or state cleared by the host: no clock runs;
    48 erases, ~2 s, up to 400 ms each by the flash's data sheet: the watchdog is fed
    between them)."""
    jr = st.jr
    jr.start_erase()
    for _ in range(2 * jr.dev.blocks):
        if jr.erase_step():
            break
        if st.feed is not None:
            st.feed()
    st.fold_phase = 0
    st._prev = None
    st._spilled = False


def copy_logs(st, limit, log):
    """Append the journal's log records from _fold_pos on that log.bin lacks, about
    `limit` bytes in one write; True when the journal's end is reached. A write that
    fails leaves _fold_pos where it was (tried again next time)."""
    out = []
    n = 0
    last = st._fold_last
    pos = st._fold_pos
    done = True
    for at, kind, body in st.jr.records(st._fold_pos):
        if n >= limit:
            done = False
            pos = at
            break
        if kind == J.KIND_LOG and (last < 0 or _newer(seq_of(body), last)):
            rec = log_record(body)
            out.append(rec)
            n += len(rec)
            last = seq_of(body)
        pos = st.jr._next
    if out:
        try:
            st._write(log, b"".join(out), "ab")
        except OSError as e:
            st._failed(e)
            return False
    st._fold_last = last
    st._fold_pos = pos
    return done


def state_to_slot(st):
    """The journal's newest state into a slot, when it is newer than the slots'."""
    seq, slot, best = st._slots_best()
    jseq, jbest = st._journal_best()
    if jbest is not None and (best is None or _newer(jseq, seq)):
        st._state_slot = slot
        st._write_slot(jseq, jbest)


def file_last_seq(st):
    payload, _ = st._file_tail()
    return seq_of(payload) if payload is not None else -1
