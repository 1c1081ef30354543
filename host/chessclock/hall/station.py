"""A station: the clocks on this laptop's serial ports, each polled by a worker thread
through the same link as the clock commands (chessclock.link.transport.Link: framing, retries,
the arbiter's key). What changed goes to a sink: the hub in this process, or the broker
(hall/mqtt.py). Arbiter actions from the page run in the clock's worker, between two
polls, with the key given for that one request.
"""

import queue
import threading
import time
from concurrent.futures import Future
from typing import Any

from chessclock.hall.tracker import Tracker
from chessclock.link import transport as L
from clockcore.hallmsg import safe_name

HEARTBEAT_S = 2.0      # a message at least this often, so that the hub sees a silent clock
RETRY_S = 1.0          # reopen a port that failed after this long
VERIFY_EVERY_S = 60.0  # pull and verify a clock's log this often (and at a flag, at the end)

# What the page may ask (docs/HALL.md): name -> the link operation.
ACTIONS = {"pause": "pause", "resume": "resume", "adjust": "adjust", "settime": "settime",
           "undo": "undo", "start": "start", "end": "end"}


def now_ms() -> Any:
    return int(time.time() * 1000)


class ClockWorker(threading.Thread):
    """One clock: poll its status, publish what changed, run the arbiter's actions."""

    def __init__(self, port: Any, station: str, sink: Any, interval: float = 0.2,
                 timeout: float = 1.0, archive: Any = None,
                 open_link: Any = None, arbiter_key: Any = None) -> None:
        super().__init__(name="clock " + port, daemon=True)
        self.arbiter_key = arbiter_key   # for the station's own log pulls' acknowledgement
        self.port = port
        self.station = station
        self.sink = sink
        self.interval = interval
        self.timeout = timeout
        self.archive = archive
        self.open_link = open_link or (lambda p: L.Link(p, timeout=timeout))
        self.link: Any = None
        self.tracker = Tracker(safe_name(port), station, port)
        self.actions = queue.Queue()
        self.stopping = threading.Event()
        self.sent_at = 0.0
        self.verified_at: float | None = None
        self.verify_why: Any = None

    @property
    def key(self) -> str:
        return self.station + "/" + self.tracker.clock

    def stop(self) -> None:
        self.stopping.set()

    # ---- the arbiter's actions (called from the web server's threads) -------------------
    def act(self, op: str, args: list[str], key: Any, wait: float = 5.0) -> dict[str, str]:
        """Run a change on this clock with the arbiter's key: the reply's fields, or
        ClockError. The key lives in this call only."""
        return self._queue(ACTIONS[op], args, key, True, wait)

    def call(self, op: str, *args: Any, wait: float = 5.0) -> dict[str, str]:
        """A reading request (or the simulator's `sim`) through this worker's link, between
        two polls (one program a port: the worker owns it)."""
        return self._queue(op, args, None, False, wait)

    def _queue(self, op: str, args: Any, key: Any, change: Any, wait: float) -> Any:
        fut = Future()
        self.actions.put((op, args, key, change, fut))
        return fut.result(timeout=wait + self.timeout * 3)

    def _run_actions(self) -> Any:
        while True:
            try:
                op, args, key, change, fut = self.actions.get_nowait()
            except queue.Empty:
                return
            try:
                if self.link is None:
                    raise L.ClockError(L.EXIT_UNREACHABLE, "%s does not answer" % self.port)
                self.link.key = key
                self.link.nonce = None      # a session of its own, signed with this key
                try:
                    fut.set_result(self.link.request(op, *args, change=change))
                finally:
                    self.link.key = None    # the key is not kept after the request
                    self.link.nonce = None
            except L.ClockError as e:
                fut.set_exception(e)
            except Exception as e:  # a bug: this action fails, the worker goes on
                fut.set_exception(L.ClockError(L.EXIT_FAILED, "unexpected %s: %s"
                                               % (type(e).__name__, e)))

    # ---- the loop ---------------------------------------------------------------------------
    def run(self) -> None:
        while not self.stopping.is_set():
            self._run_actions()             # before the poll: the page sees their effect
            changed = self._poll()
            if changed or time.monotonic() - self.sent_at >= HEARTBEAT_S:
                self.sent_at = time.monotonic()
                self.sink.publish(self.tracker)
            if self.link is not None and self.archive:
                self._maybe_verify()
            self.stopping.wait(self.interval if self.link is not None else RETRY_S)
        self._close()

    def _close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None

    def _poll(self) -> Any:
        try:
            if self.link is None:
                self.link = self.open_link(self.port)
                hello = self.link.request("hello")
                clock = safe_name(hello.get("clock", "") or self.port)
                if clock != self.tracker.clock:
                    old = self.tracker
                    self.tracker = Tracker(clock, self.station, self.port)
                    self.sink.forget(old)
                self.verified_at = None
            return self.tracker.update(self.link.request("status"), now_ms())
        except L.ClockError as e:
            self._close()
            return self.tracker.fail(e, now_ms())
        except Exception as e:  # pyserial errors outside ClockError: the port went away
            self._close()
            return self.tracker.fail("%s: %s" % (type(e).__name__, e), now_ms())

    def _maybe_verify(self) -> None:
        body = self.tracker.body
        why = (body.get("fo"), body.get("s") == "ended")
        due = (self.verified_at is None or why != self.verify_why
               or time.monotonic() - self.verified_at >= VERIFY_EVERY_S)
        if not due:
            return
        self.verify_why = why
        self.verified_at = time.monotonic()
        if self.tracker.log_checked(verify_clock_log(self.link, self.archive,
                                                     self.arbiter_key)):
            self.sink.publish(self.tracker)


def verify_clock_log(link: Any, archive: Any, key: Any = None) -> Any:
    """Pull the clock's log into the archive (resumable, as `chessclock log-pull`) and
    verify it (as `chessclock log verify`): "ok", or "bad: the first problem". The pull
    is acknowledged (`logack`, signed) with the arbiter's key only: without it nothing
    is sent that the clock would refuse (and count as a key refusal)."""
    from chessclock.log.pull import pull
    from chessclock.log.verify import verify
    try:
        link.key, link.nonce = key, None   # a session of its own, signed with this key
        try:
            r = pull(link, archive, time.strftime("%Y-%m-%d"), ack=key is not None)
        finally:
            link.key, link.nonce = None, None
        with open(r["file"], "rb") as f:
            res = verify(f.read(), allow_torn_end=True)
    except L.ClockError as e:
        return "bad: not pulled: %s" % e
    except (OSError, ValueError) as e:
        return "bad: %s" % e
    return "ok" if not res.problems else "bad: " + res.problems[0]


class Station:
    """The clocks of this laptop: a worker per port."""

    def __init__(self, name: str, ports: Any, sink: Any, interval: float = 0.2,
                 timeout: float = 1.0, archive: Any = None,
                 open_link: Any = None, arbiter_key: Any = None) -> None:
        self.name = name
        self.workers = [ClockWorker(p, name, sink, interval, timeout, archive, open_link,
                                    arbiter_key) for p in ports]

    def start(self) -> None:
        for w in self.workers:
            w.start()

    def stop(self) -> None:
        for w in self.workers:
            w.stop()
        for w in self.workers:
            w.join(5)

    def worker_for(self, key: Any) -> Any:
        for w in self.workers:
            if w.key == key:
                return w
        return None
