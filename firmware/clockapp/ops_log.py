# The serial link's operations on the event log (clockapp/link.py loads this module when
# one is first used): pull it (log, in steps), acknowledge what the host has (logack),
# erase it (logclear). Each takes the Link (which keeps the pull's state between requests)
# and the request's arguments and returns the reply's (key, value) pairs; op_log is a
# generator (link.STEPPED).

import binascii
import struct

from clockapp.linkcommon import nargs, whole
from clockapp.menu import CONFIRM_MS
from clockcore import const
from clockcore import protocol as P

_LOG_CHUNK_DEFAULT = const(1024)
_LOG_SCAN_MAX = const(256)     # records skipped per pass when seeking a sequence number
# op_log: records read a step, between two looks at the levers (one read and framed is
# ~1.8 ms of the emulated M0+; skipped ones, seeking FROM, cost the same)
_LOG_STEP_RECORDS = const(3)
# The erasure of a keyless clock's log (op_logclear), as `status logclear=` gives it: none
# asked since boot, asked (the clock waits for MENU held), done, declined (another button,
# the time out, the menu closed), the log changed meanwhile (pull again), the flash failed.
CLEAR_NONE = const(0)
CLEAR_ASKED = const(1)
CLEAR_DONE = const(2)
CLEAR_DECLINED = const(3)
CLEAR_CHANGED = const(4)
CLEAR_FAILED = const(5)


def head_text(clock_id, seq, chain_hex, t, wall):
    """What the clock signs about its log: format 1, clock id, last sequence number (-1:
    empty), its chain (16 hex), the clock's time line (ms) and wall clock (s, -1 unknown)."""
    return "ccl-head 1 %s %d %s %d %d" % (clock_id, seq, chain_hex, t, wall)


def reset(link):
    """Forget a pull under way (its reader closed)."""
    it = link.log_iter
    link.log_iter = None
    link.log_pending = None
    link.log_next = -1
    if it is not None:
        try:
            it.close()
        except AttributeError:
            pass


def op_log(link, args):
    """log FROM [MAXBYTES]: the records with sequence number >= FROM, in log order, as
    base64 of (u16 LE length + payload)*; `more=0` when the end of the log was reached.
    A generator (STEPPED): None every _LOG_STEP_RECORDS records read, its pairs last."""
    nargs(args, 1, 2)
    start = whole(args[0])
    limit = whole(args[1]) if len(args) > 1 else _LOG_CHUNK_DEFAULT
    if start < 0 or limit < 64:
        raise P.ProtocolError(P.E_ARGS, "log FROM (>= 0) [MAXBYTES (>= 64)]")
    if limit > link.log_cap:   # LOG_CHUNK_MAX, less after a MemoryError (Link._steps)
        limit = link.log_cap
    app = link.app
    if link.log_iter is None or link.log_next != start:
        reset(link)
        link.log_iter = app.store.read_log()
    it = link.log_iter
    out = bytearray()
    n = 0
    first = -1
    last = -1
    more = 1
    scanned = 0
    step = 0      # `scanned` at the last look at the levers
    rec = link.log_pending
    link.log_pending = None
    while True:
        if scanned >= step + _LOG_STEP_RECORDS:
            step = scanned
            yield None   # a lever edge that came in goes first (Link._run_job)
        if rec is None:
            if scanned >= _LOG_SCAN_MAX and n == 0:
                break   # seeking: continue on the next request
            try:
                rec = next(it)
            except StopIteration:
                more = 0
                break
            scanned += 1
        if len(rec) < 4:
            rec = None
            continue
        seq = struct.unpack_from("<I", rec, 0)[0]
        if seq < start:
            rec = None
            continue
        if n and len(out) + 2 + len(rec) > limit:
            link.log_pending = rec
            break
        out += struct.pack("<H", len(rec))
        out += rec
        if first < 0:
            first = seq
        last = seq
        n += 1
        rec = None
    nxt = last + 1 if n else start
    if n and (link.sent_max < 0 or ((last - link.sent_max) & 0xFFFFFFFF) < 0x80000000):
        link.sent_max = last
    if more:
        link.log_next = nxt
    else:
        reset(link)
        link.read_end_seq = last if n else start - 1
        link.read_end_size = app.store.log_size()
    # Reading marks nothing pulled: only a keyed host's `logack` does (a host without
    # the key could otherwise make the clock prune games the arbiter never got).
    yield None
    if n:
        # the reply's kilobytes (base64, escaped, framed) into a heap just collected: a
        # collection MicroPython would start inside them is not parked (App.collect)
        app.collect()
        yield None
    # from the bytearray itself, no newline to strip: two 1 KB copies fewer (the stubs
    # say bytes; both ports take any buffer)
    data = binascii.b2a_base64(out, newline=False) if n else b""  # type: ignore[arg-type]
    yield None    # (1 KB into base64: ~4.6 ms of the M0+)
    yield (("n", n), ("first", first), ("last", last), ("next", nxt), ("more", more),
           ("data", data)) + head(link)


def head(link):
    """The log's signed head: the last record on flash (its sequence number and chain),
    the clock's time line and wall clock now, the clock id; `hmac` = hex
    HMAC-SHA256(log key, HEAD_TEXT) where the log key is HMAC(arbiter key,
    HEAD_DOMAIN of clockapp/link.py), or "-" on a clock without a key. docs/EVENT-LOG.md."""
    app = link.app
    w = app.logw.writer if app.logw is not None else None
    seq = (w.seq - 1) if w is not None and w.seq else -1
    chain = binascii.hexlify(w.chain).decode() if w is not None else "0" * 16
    b = app.board
    cid = b.clock_id() if hasattr(b, "clock_id") else "unknown"
    text = head_text(cid, seq, chain, app.now, link.wall_now())
    mac = "-"
    if link.head_key is not None:
        mac = binascii.hexlify(P.hmac_sha256(link.head_key, text.encode())).decode()
    return (("head", text), ("hmac", mac))


def op_logack(link, args):
    """logack SEQ: the host (the arbiter's, on a keyed clock) has every record up to SEQ
    safely: those games may be removed when the log is over its budget."""
    nargs(args, 1, 1)
    seq = whole(args[0])
    if seq < 0 or link.sent_max < 0 or ((link.sent_max - seq) & 0xFFFFFFFF) >= 0x80000000:
        raise P.ProtocolError(P.E_NOT_READ, "records up to %d were not sent to a host"
                              % seq)
    logw = link.app.logw
    if logw is None or not logw.mark_pulled(seq):
        raise P.ProtocolError(P.E_INTERNAL, "could not save the acknowledgement")
    return (("acked", seq),)


def _read_to(link, upto):
    """The log was read to its end, UPTO is the last sequence number that read returned
    and nothing was written since (so nothing unread is lost)."""
    app = link.app
    return (link.read_end_size >= 0 and upto == link.read_end_seq
            and app.store.log_size() == link.read_end_size and not app.log_n)


def op_logclear(link, args):
    """logclear UPTO: remove the log, only when it was read to its end (_read_to). With
    a key the signed request is the arbiter's word; a clock without a key asks the
    person at it (menu.ask: hold MENU 2 s) and removes the log at that answer:
    `confirm` S in the reply, `status logclear=` says how it ended."""
    nargs(args, 1, 1)
    upto = whole(args[0])
    app = link.app
    if not _read_to(link, upto):
        raise P.ProtocolError(P.E_NOT_READ, "pull the log to its end first (up to %d)"
                              % upto)
    if link.key is None:
        if not app.menu.ask("CLr?", link, app.now):
            raise P.ProtocolError(P.E_STATE, "the clock's menu is open: close it first")
        link.clear_upto = upto
        link.clear_state = CLEAR_ASKED
        app.refresh(True)
        return (("confirm", CONFIRM_MS // 1000), ("upto", upto))
    if not _clear(link):
        raise P.ProtocolError(P.E_INTERNAL, "could not remove the log")
    return (("cleared", upto),)


def _clear(link):
    reset(link)
    if not link.app.store.clear_log():
        return False
    link.read_end_size = -1
    return True


def answered(link, yes):
    """The person at the clock answered the erasure (Link.yes, Link.no): held MENU, the
    log goes if it is still what was read; another button, the time out or the menu
    closed, it stays."""
    if not yes:
        link.clear_state = CLEAR_DECLINED
    elif not _read_to(link, link.clear_upto):
        link.clear_state = CLEAR_CHANGED
    else:
        link.clear_state = CLEAR_DONE if _clear(link) else CLEAR_FAILED
    link.app.refresh(True)
