"""The correspondence ledger, computed from records: days per move and side, series, excess.

Pure: no storage, no clock. The records and their checks, the series and the day counting;
chessclock.corr.ledger computes an event and its games from them.
Records are never changed: a correction is a later `void` record (Art. 6 comment, Art. 8).

Day counting (seed-requirements §14 leaves it open; chosen here, docs/CORRESPONDENCE.md):
a move's thinking time is the days d with received < d <= sent, i.e. the day a move arrives
is not counted and the day the reply is sent is. Each such day is either counted, or not
counted because it is before the official start (Art. 12 §1), in the recess (comment on
Art. 12), a day of the mover's leave (Art. 28-30) or after the official end (Art. 31).
Days between a message being sent and received (transit) and the opponent's days are never
the mover's. So for each side: counted + not counted == calendar days of the game.
"""

from __future__ import annotations  # methods name classes defined after them

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from clockcore import presets

from .dates import CorrError, parse_date

WHITE, BLACK = 0, 1
SIDES = ("white", "black")
FINE_FIRST, FINE_REPEAT = 5, 10        # Art. 7, Art. 7 §1
CLAIM_PENALTY = 10                     # Art. 22 §1
ANNOUNCE_AFTER = 12                    # Art. 13
TRANSIT_ACCEPTED = 1                   # Art. 12
LEAVE_NORMAL, LEAVE_SPECIAL = 30, 30   # Art. 28, 28 §2
CONTEST_DAYS, DECIDE_DAYS = 15, 15     # Art. 21, 21 §2
FINE_REASONS = ("impossible", "incomplete", "illegal", "invalid")
Record = dict[str, Any]   # one ledger record: {"seq", "kind", "data", ...} (store.py)


def series_stages() -> list[tuple[int, int]]:
    """The CXEB control as the clock's stage model describes it (preset cxeb-correspondence:
    Stage(40 days, 10 moves), a last stage with a move count repeats): [(days, moves)]."""
    st = presets.find("cxeb-correspondence").control.white.stages
    return [(s.time_ms // presets.DAY, s.moves) for s in st]


def budget(stages: list[tuple[int, int]], n: int) -> int:
    """Days allowed for the first n moves of a count: the stages' times added as the
    engine's _pass_stage adds them (unused time carries over, Art. 12 §2), so the check
    "more than 40 days for 10 or fewer moves, 80 for 20 ..." (Art. 16) is cum > budget(n)."""
    total, passed, i = 0, 0, 0
    while True:
        days, moves = stages[i]
        total += days
        if moves == 0 or n <= passed + moves:
            return total
        passed += moves
        i = min(i + 1, len(stages) - 1)


def side_of(ply: int) -> int:
    return WHITE if ply % 2 else BLACK


def label(ply: int) -> str:
    """1 -> '1', 2 -> '1...': White's and Black's first moves (as they are typed)."""
    return "%d%s" % ((ply + 1) // 2, "" if ply % 2 else "...")


def parse_move(text: str | None) -> int:
    """'12', '12.', '12w' or 'w12' -> White's 12th; '12...', '12..', '12b' -> Black's: a ply."""
    t = (text or "").strip().lower().replace(" ", "")
    side = WHITE
    if t.endswith("..") or t.endswith("b"):
        side, t = BLACK, t.rstrip(".b")
    elif t.startswith("b"):
        side, t = BLACK, t[1:]
    else:
        t = t.rstrip(".w").lstrip("w")
    if not t.isdigit() or int(t) < 1 or int(t) > 5000:
        raise CorrError("%r is not a move number (write 12 for White's 12th move, 12... for "
                        "Black's)" % text)
    return 2 * int(t) - 1 + side


_GLUED = re.compile(r"^\s*(\d+\s*(?:\.\.\.|\.\.|\u2026|\.))\s*([A-Za-z].*|0-0.*)$")


def split_move(number: str, san: str) -> tuple[str, str]:
    """'3...Nf6' (number and move with no space between) -> ('3...', 'Nf6')."""
    m = _GLUED.match(number or "")
    if m is None:
        return number, san
    if san:
        raise CorrError("%r already holds the move %r; give %r alone or the number alone"
                        % (number, m.group(2), san))
    return m.group(1).replace("\u2026", "..."), m.group(2)


def as_date(x: Any) -> Any:
    return parse_date(x) if x is not None else None


@dataclass(frozen=True)
class Leave:
    """A player's leave in a phase (Art. 28-30), as its `leave` record gives it."""

    seq: int
    player: str
    start: dt.date
    end: dt.date
    kind: str               # normal, special or outage
    notified: dt.date       # when the opponents and the director were told (Art. 29)
    retroactive: bool       # special leave granted from its start (Art. 28 §3)

    @classmethod
    def from_record(cls, rec: Any) -> "Leave":
        d = rec["data"]
        start = as_date(d["start"])
        return cls(rec["seq"], d["player"], start, as_date(d["end"]), d.get("kind", "normal"),
                   as_date(d.get("notified")) or start, bool(d.get("retroactive")))

    def days(self) -> list[dt.date]:
        """The days the leave stops the player's time: from the notice on (Art. 29), unless
        the director granted it retroactively (Art. 28 §3)."""
        first = self.start if self.retroactive else max(self.start, self.notified)
        return [first + dt.timedelta(days=i) for i in range((self.end - first).days + 1)]


def check_leaves(leaves: list[Leave]) -> None:
    """Raise CorrError if a player's leave breaks Art. 28-29 (the last one is the new one)."""
    by_player = {}
    for lv in leaves:
        by_player.setdefault(lv.player, []).append(lv)
    for player, lvs in by_player.items():
        normal, special, seen = 0, 0, set()
        for lv in lvs:
            where = "leave of %s %s..%s" % (player, lv.start, lv.end)
            if lv.end < lv.start:
                raise CorrError("%s: ends before it starts" % where)
            if lv.retroactive and lv.kind != "special":
                raise CorrError("%s: only the special leave can be retroactive (Art. 28 §3)"
                                % where)
            days = lv.days()
            if not days:
                raise CorrError("%s: notified on %s, after it ended: it stops no time "
                                "(Art. 29)" % (where, lv.notified))
            if seen.intersection(days):
                raise CorrError("%s: overlaps an earlier leave of the same player" % where)
            seen.update(days)
            if lv.kind in ("normal", "outage"):
                normal += len(days)
                if normal > LEAVE_NORMAL:
                    extra = ("; an outage over 30 days beyond leave eliminates the player "
                             "(Art. 25)" if lv.kind == "outage" else "")
                    raise CorrError("%s: %d days of leave in this phase, %d allowed (Art. 28)%s"
                                    % (where, normal, LEAVE_NORMAL, extra))
            elif lv.kind == "special":
                if special:
                    raise CorrError("%s: only one special leave per phase (Art. 28 §2)" % where)
                if normal < LEAVE_NORMAL:
                    raise CorrError("%s: a special leave comes after the 30 normal days are "
                                    "used (%d used, Art. 28 §2)" % (where, normal))
                if len(days) > LEAVE_SPECIAL:
                    raise CorrError("%s: a special leave is at most 30 days (Art. 28 §2)"
                                    % where)
                special = len(days)
            else:
                raise CorrError("%s: unknown kind %r (normal, special, outage)" % (where, lv.kind))


_DATE, _OPT_DATE, _INT, _STR, _OPT_STR = "date", "date?", "int", "str", "str?"
_SHAPES: dict[str, dict[str, str]] = {
    "event": {"start": _DATE, "end": _OPT_DATE, "tz": _OPT_STR, "theme": _OPT_STR},
    "holiday": {"dates": "dates"},
    "game": {"white": _STR, "black": _STR, "notation": _OPT_STR},
    "move": {"ply": _INT, "san": _OPT_STR, "sent": _DATE, "received": _OPT_DATE,
             "proposal": _OPT_STR, "accept": _OPT_STR, "repeats": _OPT_STR},
    "ack": {"ply": _INT, "received": _DATE},
    "notice": {"ply": _INT, "date": _DATE},
    "fine": {"ply": _INT, "reason": _STR, "date": _DATE},
    "void": {"from_ply": _INT, "date": _DATE},
    "leave": {"player": _STR, "start": _DATE, "end": _DATE, "notified": _OPT_DATE},
    "remind": {"ply": _INT, "kind": _STR, "date": _DATE},
    "claim": {"by": _STR, "date": _DATE, "notified": _OPT_DATE},
    "contest": {"claim": _INT, "date": _DATE},
    "decide": {"claim": _INT, "date": _DATE},
    "result": {"result": _STR, "date": _DATE},
    "repair": {"set_aside": "ints", "date": _DATE},
    "request": {"player": _STR, "date": _DATE, "about": _OPT_STR},
    "answer": {"player": _STR, "date": _DATE},
    "withdraw": {"player": _STR, "date": _DATE, "reason": _STR},
}
_EVENT_KINDS = {"event", "holiday", "leave", "repair", "request", "answer", "withdraw"}
_GAME_KINDS = set(_SHAPES) - _EVENT_KINDS
ANSWER_DAYS = 7                        # Art. 23 § único
WITHDRAW_REASONS = ("abandonment", "elimination", "death", "suspension")   # Art. 27


def check_record(eid: str, r: Record) -> None:
    """Raise CorrError unless a stored record has the shape its kind needs: a record that
    is not JSON, lacks a field or holds a field of the wrong type is named, one line."""
    k, d = r.get("kind"), r.get("data")
    what = "event %s: record %s (%s)" % (eid, r.get("seq"), k)
    tail = "; `chessclock corr repair %s` sets it aside, keeping it in the ledger" % eid
    if r.get("bad") or not isinstance(d, dict):
        raise CorrError("%s: %s%s" % (what, r.get("bad") or "its data is not a JSON object",
                                      tail))
    shape = _SHAPES.get(str(k))
    if shape is None:
        raise CorrError("%s: unknown kind of record%s" % (what, tail))
    if k in _GAME_KINDS and not (isinstance(r.get("game"), str) and r["game"]):
        raise CorrError("%s: no game%s" % (what, tail))
    for key, t in shape.items():
        v = d.get(key)
        opt = t.endswith("?")
        if v is None and opt:
            continue
        ok = {"int": isinstance(v, int) and not isinstance(v, bool) and 0 < v < 10 ** 5,
              "str": isinstance(v, str), "str?": isinstance(v, str),
              "date": isinstance(v, str), "date?": isinstance(v, str),
              "dates": isinstance(v, list) and all(isinstance(x, str) for x in v),
              "ints": isinstance(v, list) and all(isinstance(x, int) for x in v)}[t]
        if k == "decide" and key == "claim":
            ok = ok and isinstance(d.get("upheld"), bool)
        if k == "claim" and key == "by":
            ok = v in SIDES
        if k == "game" and key == "notation":
            ok = v in ("auto", "pt", "en")
        if not ok:
            raise CorrError("%s: field %r is %s%s" % (what, key, "missing" if v is None
                                                        else "malformed: %r" % (v,), tail))
        try:
            if t.startswith("date"):
                parse_date(v, key)
            elif t == "dates":
                for x in v or ():
                    parse_date(x, key)
        except CorrError as e:
            raise CorrError("%s: %s%s" % (what, e, tail)) from None
