"""A clock's log pulled over the link into a local archive (`chessclock log pull`):
resumable, with the clock's signed head, then acknowledged or cleared on the clock."""

import os
import struct
import time
from collections.abc import Callable
from typing import Any

from chessclock.link import transport as L
from clockcore.framing import frame as log_record  # a pulled record, framed as on the clock


def unpack_records(blob: bytes) -> list[bytes]:
    out = []
    i = 0
    while i + 2 <= len(blob):
        n = struct.unpack_from("<H", blob, i)[0]
        out.append(bytes(blob[i + 2:i + 2 + n]))
        i += 2 + n
    return out


# `status logclear=` after a keyless clock asked the person at it (firmware link.CLEAR_*).
_CLEAR_ASKED = "1"


_CLEAR_DONE = "2"


_CLEAR_WHY = {"3": "not confirmed on the clock (another button, or the time ran out)",
              "4": "the clock wrote to its log meanwhile: pull again",
              "5": "the clock could not remove it"}


def _await_clear(link: L.Link, seconds: int, path: str) -> None:
    """A clock without a key asked the person at it to hold MENU: wait for the answer.
    Raises ClockError when the log was not cleared."""
    deadline = time.monotonic() + seconds + 5
    state = _CLEAR_ASKED
    while state == _CLEAR_ASKED and time.monotonic() < deadline:
        time.sleep(0.25)
        state = link.request("status").get("logclear", "")
    if state != _CLEAR_DONE:
        why = _CLEAR_WHY.get(state, "no answer from the clock")
        raise L.ClockError(L.EXIT_FAILED, "log pulled to %s but not cleared: %s" % (path, why))


# A log request the clock's heap could not answer (a Pico's heap in pieces after power
# cuts) is asked again: the clock halves its replies after each such refusal (1 KB down
# to 128 bytes) and goes on from where the host asks.
_MEMORY_RETRIES = 3


def _log_request(link: L.Link, start: int, chunk: int) -> dict[str, Any]:
    for attempt in range(_MEMORY_RETRIES + 1):
        try:
            return link.request("log", start, chunk)
        except L.ClockError as e:
            if attempt == _MEMORY_RETRIES or not e.message.endswith(": MemoryError"):
                raise
    raise AssertionError("unreachable")


def pull(link: L.Link, archive: str, game: str, clear: bool = False, chunk: int = 4096,
         progress: Callable[[int], None] | None = None, ack: bool = True,
         on_clock: Callable[[str], None] | None = None,
         on_ask: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Pull a clock's log into ARCHIVE/CLOCK/GAME.log from where the last pull stopped
    (GAME.next holds the next sequence number), then the clock's signed head (an `HD`
    frame, for `log verify`); then acknowledge it (`logack`: the clock may remove those
    games when its log is full; on a keyed clock only with the arbiter's key). Returns a
    summary dict. progress(records so far) as it goes; on_clock(clock id) once known;
    on_ask(seconds) when a clock without a key asks for MENU held to clear its log."""
    import base64

    from chessclock.log.records import head_frame
    hello = link.request("hello")
    if on_clock is not None:
        on_clock(hello["clock"])
    clock = "".join(c if c.isalnum() or c in "-_" else "_" for c in hello["clock"])
    folder = os.path.join(archive, clock)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, game + ".log")
    state = os.path.join(folder, game + ".next")
    start = 0
    if os.path.exists(state):
        with open(state) as f:
            try:
                start = int(f.read().strip() or 0)
            except ValueError:
                raise L.ClockError(L.EXIT_INPUT, "%s is damaged" % state,
                                   "remove it and GAME.log to pull again") from None
    got = 0
    last = start - 1
    head = None
    with open(path, "ab") as out:
        for _ in range(5):   # the clock may write on while we read: pull up to its head
            while True:
                r = _log_request(link, start, chunk)
                n = int(r["n"])
                if n:
                    recs = unpack_records(base64.b64decode(r["data"]))
                    if len(recs) != n:
                        raise L.ClockError(L.EXIT_FAILED, "log chunk damaged")
                    out.write(b"".join(log_record(p) for p in recs))
                    out.flush()
                    got += n
                    last = int(r["last"])
                start = int(r["next"])
                with open(state + ".tmp", "w") as f:
                    f.write("%d\n" % start)
                os.replace(state + ".tmp", state)
                if progress:
                    progress(got)
                if r["more"] == "0":
                    break
            head = r.get("head")
            if head is None or int(head.split(" ")[3]) <= last:
                break
        if head is not None:
            out.write(head_frame(head, r.get("hmac", "-")))
        os.fsync(out.fileno())
    result = {"clock": hello["clock"], "file": path, "records": got, "next": start,
              "signed": head is not None and r.get("hmac", "-") != "-", "acked": None}
    if ack and last >= 0:
        try:
            link.request("logack", last, change=True)
            result["acked"] = last
        except L.ClockError as e:
            result["ack_error"] = str(e)
    if clear:
        r = link.request("logclear", last, change=True)
        if "confirm" in r:   # no key: the arbiter confirms on the clock itself
            if on_ask is not None:
                on_ask(int(r["confirm"]))
            _await_clear(link, int(r["confirm"]), path)
        result["cleared"] = last
    return result
