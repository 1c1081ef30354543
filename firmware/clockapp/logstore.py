"""The event log on the clock's flash: clockcore.eventlog records in storage.py's log file.

EventLog continues the log found in flash (the sequence number and chain of its last valid
record, read from the file's tail at boot, so a torn last record is skipped), keeps the
events in the Writer's RAM ring and appends them at flush() (docs/EVENT-LOG.md).

Budget: when the log file grows past `budget` bytes, whole games that were pulled (their
records all at or below the sequence number the serial link marked with mark_pulled())
are removed, oldest first, until it is under 3/4 of the budget. This runs only while no
game runs (the copy takes a while); games not pulled are never removed: the log grows on,
`warn` is set and EV_LOG_FULL logged once for the arbiter. Storage full (a write refused)
never stops the clock: the records wait in RAM, and what the full ring could not keep is
counted and logged (EV_LOG_LOST) once writing works again.
"""

import struct

from clockapp import storage
from clockcore import engine as E
from clockcore import eventlog as L
from clockcore import events as EV

PULLED = "logpull"   # checked file: u32 LE, the highest sequence number pulled


class EventLog:
    def __init__(self, store, budget=1000000):
        self.store = store
        self.budget = budget
        self.warn = False        # over budget with games not pulled: tell the arbiter
        self.pruned = 0          # games removed since boot
        seq, chain, size = self._tail()
        self.size = size
        self.writer = L.Writer(self._append, seq, chain)
        self._pulled = None      # read when first asked for: a game's log never asks
        self.headers = 0         # headers written since boot: a new game may free space
        self._tried = None       # (headers, pulled) at the last budget check

    # ---- the file's tail -------------------------------------------------------------
    def _tail(self):
        payload, size = self.store.log_tail()
        if payload is None:
            return 0, L.ZERO_CHAIN, size
        return (L.seq_of(payload) + 1) & 0xFFFFFFFF, payload[-L.CHAIN:], size

    def _append(self, payload):
        if self.store.append_log(payload):
            self.size += len(payload) + storage.LOG_HEADER_SIZE
            return True
        return False

    # ---- records ---------------------------------------------------------------------
    def log(self, ev, side, t, arg, clock, reason=0, reason2=0):
        return self.writer.log(ev, side, t, arg, clock, reason, reason2)

    def log_ground(self, ev, side, t, arg, clock, body):
        """A correction with the arbiter's ground (logbody.ground_body bytes)."""
        self.writer.log_ground(ev, side, t, arg, clock, body)

    def header(self, t, clock, clock_id, firmware, spec, white_left, wall_s=0):
        body = L.header_body(clock_id, firmware, spec, white_left, L.clock_options(clock),
                             wall_s, clock.sides)
        self.writer.log_big(EV.EV_HEADER, E.NOBODY, t, 0, clock, body)
        self.headers += 1

    def boot(self, t, clock, arg):
        """The boot record; arg: events.BOOT_* (a restored game's snapshot follows)."""
        body = b""
        if arg == EV.BOOT_RESTORED:
            from clockcore.logbody import snapshot_body  # a restoring boot's only
            body = snapshot_body(clock)
        self.writer.log_big(EV.EV_BOOT, E.NOBODY, t, arg, clock, body)

    @property
    def pulled(self):
        """The highest sequence number the host has pulled (mark_pulled), -1: none."""
        p = self._pulled
        if p is None:
            b = self.store.load(PULLED)
            p = self._pulled = struct.unpack("<I", b)[0] if b is not None and len(b) == 4 else -1
        return p

    def mark_pulled(self, seq):
        """The host has every record up to `seq` (the serial link calls this)."""
        if self.store.save(PULLED, struct.pack("<I", seq & 0xFFFFFFFF)):
            self._pulled = seq
            return True
        return False

    def flush(self, clock):
        w = self.writer
        w.flush()
        if w.n == 0 and w.lost:
            lost = w.lost
            w.lost = 0
            w.log(EV.EV_LOG_LOST, E.NOBODY, w.prev_t, lost, clock)
            w.flush()
        if (self.size > self.budget and clock is not None
                and clock.state in (E.IDLE, E.ENDED)
                and self._tried != (self.headers, self.pulled)):
            self._tried = (self.headers, self.pulled)
            self.prune(clock)
        return w.n

    # ---- budget: clockapp/logprune.py, loaded when the log is first over it -----------
    def prune(self, clock):
        """Remove the oldest pulled games until the log is under 3/4 of the budget.
        Returns the number of games removed."""
        from clockapp import logprune
        return logprune.prune(self, clock)
