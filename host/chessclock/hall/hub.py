"""The hall's boards, as the page, the broadcast and the results read them: the last
message of every clock (from the stations of this process or from the broker), the board
and the players each clock stands for, the flags of the hall in the order they fell, and
which clock went silent. Thread-safe: stations and the MQTT client put from their threads,
the web server reads from its event loop and is woken when something changed.
"""

import threading
import time
from typing import Any

STALE_S = 5.0   # no message for this long (stations send one every 2 s): "not answering"
# A message observed this long before the newest one of its station is a replay: a station
# sends every clock's state every 2 s, so nothing genuine arrives that late.
REPLAY_WINDOW_S = 60.0


def _now_ms() -> int:
    return int(time.time() * 1000)


class Hub:
    def __init__(self, pairings: Any = None, stale_s: float = STALE_S) -> None:
        self.pairings = pairings      # pairings.Round or None
        self.stale_s = stale_s
        self.lock = threading.Lock()
        self.version = 0
        self.boards = {}              # "station/clock" -> entry dict
        self.flags = []               # [{"key", "board", "side", "wall_ms"}], in order fell
        self.stations = {}            # station -> its last presence message
        self.waiters = []             # [(loop, asyncio.Event)]
        self.refused = 0              # messages refused (bad mac, replay, ...)
        self.last = {}                # key -> (sid, seq, at) of its last message taken, also
                                      # after the clock is gone (a replay stays refused)
        self.station_at = {}          # station -> the newest `at` seen from it (its clock)
        self.is_local = lambda key: False  # does a station of this process hold it

    # ---- in ---------------------------------------------------------------------------------
    def put(self, body: dict[str, Any]) -> bool:
        """A clock's message (a dict, docs/HALL.md). Returns False when it is refused as
        older than what the hub has (a replay, or a late duplicate). A signed message with
        "gone": 1 removes the clock (docs/HALL.md)."""
        key = "%s/%s" % (body.get("st", "?"), body.get("clk", "?"))
        if not body.get("at"):   # a clock that does not know the wall time: on arrival
            body = dict(body, at=_now_ms(), at_rx=1)
        with self.lock:
            if not self._fresh(key, body):
                self.refused += 1
                return False
            self.last[key] = (body.get("sid"), body.get("seq", 0), body.get("at", 0))
            old = self.boards.get(key)
            self.version += 1
            if body.get("gone"):
                self.boards.pop(key, None)
                self.flags = [f for f in self.flags if f["key"] != key]
            else:
                self._flags(key, body)
                self.boards[key] = {"body": body, "rx": time.monotonic(), "v": self.version,
                                    "stale": False, "plies": _plies(body, old)}
        self._wake()
        return True

    def _fresh(self, key: Any, body: dict[str, Any]) -> bool:
        """Is body newer than the last message taken from its clock, and not from long
        before the newest of its station? Under the lock."""
        st, at = body.get("st"), body.get("at", 0)
        if not body.get("at_rx"):
            newest = self.station_at.get(st, at)
            if at < newest - REPLAY_WINDOW_S * 1000:
                return False
            self.station_at[st] = max(newest, at)
        last = self.last.get(key)
        if last is None:
            return True
        return _newer(body, {"sid": last[0], "seq": last[1], "at": last[2]})

    def put_station(self, station: str, body: dict[str, Any]) -> bool:
        """A station's presence message; False when it is older than the last one. The
        broker's will ("up": 0) of the station's current session is taken whatever its seq
        and time: it was signed when the station connected."""
        with self.lock:
            old = self.stations.get(station) or {}
            same = bool(old) and body.get("sid") == old.get("sid")
            will = same and body.get("up") == 0
            if not will and (same and body.get("seq", 0) <= old.get("seq", 0) or
                             body.get("at") and body["at"] < self.station_at.get(
                                 station, body["at"]) - REPLAY_WINDOW_S * 1000):
                self.refused += 1
                return False
            self.stations[station] = body
            self.version += 1
            for e in self.boards.values():
                if e["body"].get("st") == station:
                    e["v"] = self.version
        self._wake()
        return True

    def drop(self, key: Any) -> None:
        """This process's own station let a clock go (no broker in between)."""
        with self.lock:
            if self.boards.pop(key, None) is not None:
                self.version += 1
            self.flags = [f for f in self.flags if f["key"] != key]
        self._wake()

    def _flags(self, key: Any, body: dict[str, Any]) -> None:
        """The hall's flags: those of each clock's last message (a flag its next message
        no longer shows, a new game or a replay overtaken, goes)."""
        order = body.get("fo", "")
        self.flags = [f for f in self.flags if f["key"] != key or f["side"] in order]
        before = {f["side"] for f in self.flags if f["key"] == key}
        for side in order:
            if side in before:
                continue
            # when it fell, on the wall: seen at `at`, `t - flag_at` ms before on its clock
            fell = body.get("at", _now_ms()) - max(0, body.get("t", 0) -
                                                   body.get(side + "f", body.get("t", 0)))
            self.flags.append({"key": key, "side": side, "wall_ms": fell})
        self.flags.sort(key=lambda f: f["wall_ms"])

    def check_stale(self) -> bool:
        """Mark the clocks no message came from for stale_s; True when one changed."""
        limit = time.monotonic() - self.stale_s
        changed = False
        with self.lock:
            for e in self.boards.values():
                stale = e["rx"] < limit
                if stale != e["stale"]:
                    e["stale"] = stale
                    self.version += 1
                    e["v"] = self.version
                    changed = True
        if changed:
            self._wake()
        return changed

    # ---- waking the page ------------------------------------------------------------------
    def subscribe(self, loop: Any, event: Any) -> None:
        with self.lock:
            self.waiters.append((loop, event))

    def unsubscribe(self, loop: Any, event: Any) -> None:
        with self.lock:
            if (loop, event) in self.waiters:
                self.waiters.remove((loop, event))

    def _wake(self) -> None:
        with self.lock:
            waiters = list(self.waiters)
        for loop, ev in waiters:
            try:
                loop.call_soon_threadsafe(ev.set)
            except RuntimeError:  # that loop is closed
                pass

    # ---- out --------------------------------------------------------------------------------
    def board_of(self, body: dict[str, Any]) -> tuple[Any, Any]:
        """(board number or None, pairing or None) of a clock."""
        if self.pairings is not None:
            n = self.pairings.board_for(body.get("clk"), body.get("port"), body.get("st"))
            if n is not None:
                return n, self.pairings.pairing(n)
        n = body.get("bd") or None
        p = self.pairings.pairing(n) if self.pairings is not None and n else None
        if p is None and (body.get("wn") or body.get("bn")):   # the clock's own pairing
            p = {"white": body.get("wn") or "", "black": body.get("bn") or ""}
        return n, p

    def view(self, since: int = 0) -> tuple[int, list[Any], list[Any], Any]:
        """(version, [board views changed after `since`], flags, stations)."""
        now = _now_ms()
        with self.lock:
            rows = [(k, dict(e)) for k, e in self.boards.items() if e["v"] > since]
            version = self.version
            flags = list(self.flags)
            stations = dict(self.stations)
            bodies = {k: e["body"] for k, e in self.boards.items()}
        out = [self._row(key, e, now, stations) for key, e in rows]
        names = {k: self.board_of(b)[0] for k, b in bodies.items()}
        flag_rows = [dict(f, board=names.get(f["key"])) for f in flags]
        return version, out, flag_rows, stations

    def _row(self, key: Any, e: dict[str, Any], now: Any, stations: Any) -> dict[str, Any]:
        b = e["body"]
        board, pairing = self.board_of(b)
        st = stations.get(b.get("st"), {})
        row = {k: b.get(k) for k in ("st", "clk", "port", "s", "run", "w", "b", "wm", "bm",
                                     "wf", "bf", "fo", "low", "soc", "bat", "up", "err",
                                     "log", "ref", "lw", "tc", "dft", "stf", "res")}
        row.update({"key": key, "bd": board, "age": max(0, now - b.get("at", now)),
                    "stale": e["stale"] or st.get("up") == 0,
                    "local": self.is_local(key), "url": st.get("url", ""),
                    "white": pairing["white"] if pairing else "",
                    "black": pairing["black"] if pairing else ""})
        return row

    def bodies(self) -> dict[str, dict[str, Any]]:
        """Every clock's last message, with "plies": [[ply, clk_ms]] of the whole game."""
        with self.lock:
            return {k: dict(e["body"], plies=sorted(e["plies"].items()))
                    for k, e in self.boards.items()}

    def by_board(self) -> dict[int, dict[str, Any]]:
        """{board number: body with plies} of the clocks standing for a board."""
        out = {}
        for b in self.bodies().values():
            n = self.board_of(b)[0]
            if n is not None:
                out[n] = b
        return out


def _plies(body: dict[str, Any], old: dict[str, Any] | None) -> Any:
    """The game's plies so far: each message carries the last few (docs/HALL.md)."""
    plies = {} if old is None or body.get("s") == "idle" else dict(old["plies"])
    total = body.get("wm", 0) + body.get("bm", 0)
    for n, clk in body.get("pl") or ():
        plies[n] = clk
    for n in [n for n in plies if n > total]:
        del plies[n]   # undone
    return plies


def _newer(body: dict[str, Any], old: dict[str, Any]) -> bool:
    """Is body a later message of its clock than old? Same session: a higher seq. Another
    session (a restarted station): not observed earlier than the last one."""
    if body.get("sid") == old.get("sid"):
        return body.get("seq", 0) > old.get("seq", 0)
    return body.get("at", 0) >= old.get("at", 0)


class LocalSink:
    """A station's messages straight into the hub of this process (no broker)."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub

    def publish(self, tracker: Any) -> None:
        self.hub.put(tracker.message())

    def forget(self, tracker: Any) -> None:
        self.hub.drop("%s/%s" % (tracker.station, tracker.clock))
