"""One clock's hall state, built from its `status` replies (docs/PROTOCOL.md) as a station
polls it: the fields of the hall message (docs/HALL.md), plus the clock time of every ply
for the broadcast's [%clk].

A status reply gives the times now, not at each press: a ply's clock is exact when the
side that moved is still waiting at the next poll (the usual case: polls are 0.2 s apart),
and the side's last time seen otherwise (two presses between polls; off by at most the
poll interval). The exact times are in the clock's log (`chessclock log export`).
"""

import os
from typing import Any

PLIES_SENT = 8   # the last plies each message carries: a reader that missed one catches up
NAME_SENT = 20      # characters of a name in a message (at most 1,024 bytes in all)


def _int(fields: dict[str, str], name: str, default: int = -1) -> int:
    try:
        return int(fields.get(name, default))
    except (TypeError, ValueError):
        return default


RESULTS = ("*", "1-0", "0-1", "1/2-1/2")   # the status `result` index (eventlog.RESULTS)


def _result(index: int) -> str:
    """The result entered on the clock, "" when none."""
    try:
        i = int(index)
    except (TypeError, ValueError):
        return ""
    return RESULTS[i] if 1 <= i < len(RESULTS) else ""


class Tracker:
    def __init__(self, clock: str, station: str, port: Any = "") -> None:
        self.clock = clock          # the clock's id (hello's `clock`), or the port's name
        self.station = station
        self.port = port
        self.sid = os.urandom(4).hex()  # this session of messages (docs/HALL.md)
        self.seq = 0
        self.plies = []             # [(ply number from 1, side "w"/"b", clk ms)]
        self.moves = (0, 0)
        self.last: dict[str, Any] = {"w": None, "b": None}
        self.body = {"clk": clock, "st": station, "port": port, "up": 0, "s": "?",
                     "log": ""}
        self.body_key: Any = None   # what changed last time (not the times of the runner)

    # ---- from the clock ----------------------------------------------------------------
    def update(self, f: Any, at_ms: int) -> bool:
        """A status reply (dict of str) seen at wall time at_ms: True when the board
        changed for the page (anything but the running side's time going down)."""
        w, b = _int(f, "w", 0), _int(f, "b", 0)
        wm, bm = _int(f, "wmoves", 0), _int(f, "bmoves", 0)
        run = {"white": "w", "black": "b"}.get(f.get("run"), "-")
        state = f.get("state", "?")
        self._plies(wm, bm, w, b, run, state)
        wf, bf = _int(f, "wflag"), _int(f, "bflag")
        order = "".join(s for _, s in sorted((t, s) for t, s in ((wf, "w"), (bf, "b"))
                                             if t >= 0))
        body = dict(self.body)
        body.update({
            "s": state, "run": run, "w": w, "b": b, "wm": wm, "bm": bm, "t": _int(f, "t", 0),
            "wf": wf, "bf": bf, "fo": order, "low": 1 if f.get("batlow") == "1" else 0,
            "bat": _int(f, "bat"), "soc": _int(f, "soc"), "ref": _int(f, "refused", 0),
            "lw": 1 if f.get("logwarn") == "1" else 0, "tc": f.get("spec", ""), "up": 1,
            "at": at_ms, "pl": [[n, c] for n, _, c in self.plies[-PLIES_SENT:]],
            # the session at the board (docs/SESSION.md): for the arbiter's eyes only
            "dft": _int(f, "default", 0), "stf": _int(f, "selftest"),
            "res": _result(f.get("result"))})
        body.pop("err", None)
        if f.get("board"):   # the pairing the clock was given (`chessclock pairings push`)
            body.update({"bd": _int(f, "board"), "wn": f.get("white", "")[:NAME_SENT],
                         "bn": f.get("black", "")[:NAME_SENT]})
        else:
            for k in ("bd", "wn", "bn"):
                body.pop(k, None)
        return self._set(body)

    def fail(self, error: object, at_ms: int) -> bool:
        """The clock did not answer (or its port is gone): the last state is kept, marked."""
        body = dict(self.body, up=0, err=str(error)[:120])
        body.setdefault("at", at_ms)
        return self._set(body)

    def log_checked(self, verdict: str) -> bool:
        """The station pulled and verified the clock's log: "ok", or "bad: why"."""
        return self._set(dict(self.body, log=verdict[:120]))

    def _plies(self, wm: int, bm: int, w: int, b: int, run: str, state: str) -> None:
        if state == "idle":
            self.plies = []             # a new game (or none yet)
        owm, obm = self.moves
        for side, old, new, now_ms in (("w", owm, wm, w), ("b", obm, bm, b)):
            if new < old:               # undone presses: drop the side's last plies
                n = old - new
                keep = []
                for p in reversed(self.plies):
                    if p[1] == side and n:
                        n -= 1
                        continue
                    keep.append(p)
                self.plies = keep[::-1]
            for _ in range(max(0, new - old)):
                # exact when the side is waiting now; else its last time seen
                clk = now_ms if run != side or self.last[side] is None else self.last[side]
                self.plies.append((len(self.plies) + 1, side, clk))
        self.plies = [(i + 1, s, c) for i, (_, s, c) in enumerate(self.plies)]
        self.moves = (wm, bm)
        self.last = {"w": w, "b": b}

    # ---- to the hall ----------------------------------------------------------------------
    def _set(self, body: dict[str, Any]) -> bool:
        # the running side's time and the observation time change at every poll: not news
        key = {k: v for k, v in body.items() if k not in ("t", "at", body.get("run"))}
        changed = key != self.body_key
        self.body = body
        self.body_key = key
        return changed

    def message(self) -> dict[str, Any]:
        """The fields of the next message (sid and seq added)."""
        self.seq += 1
        return dict(self.body, sid=self.sid, seq=self.seq)
