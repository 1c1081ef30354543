"""The correspondence ledger, computed from records: days per move and side, series, excess.

Pure: no storage, no clock. `Event.from_records` reads an event's records (as the store keeps
them, in the order they were written) and `Event.game(gid, today)` gives a `GameLedger`.
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
from typing import Any

from clockcore import presets

from .dates import Calendar, CorrError, day_range, parse_date

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


def _d(x):
    return parse_date(x) if x is not None else None


class Leave:
    def __init__(self, rec):
        d = rec["data"]
        self.seq = rec["seq"]
        self.player = d["player"]
        self.start, self.end = _d(d["start"]), _d(d["end"])
        self.kind = d.get("kind", "normal")
        self.notified = _d(d.get("notified")) or self.start
        self.retroactive = bool(d.get("retroactive"))

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


class Event:
    def __init__(self, eid, data):
        self.id = eid
        self.name = data.get("name") or eid
        self.phase = data.get("phase", "")
        self.start = parse_date(data["start"], "start")
        self.end = _d(data.get("end"))
        self.tz = data.get("tz", "UTC")
        self.theme = data.get("theme", "")
        self.theme_plies = int(data.get("theme_plies", 0))
        self.holidays = set(_d(h) for h in data.get("holidays", []))
        self.stages = series_stages()
        self.games = {}       # gid -> game data
        self.game_recs = {}   # gid -> its records
        self.leaves = []
        self.set_aside: list[int] = []   # seqs of records a repair set aside
        self.requests: list[dict[str, Any]] = []      # the director's requests (Art. 23)
        self.withdrawals: dict[str, dict[str, Any]] = {}   # player -> record (Art. 27)
        self.calendar = Calendar(self.holidays)   # from_records sets it again, holidays read

    @classmethod
    def from_records(cls, eid: str, recs: list[Record]) -> Event:
        """The event from its records; records a `repair` record set aside are skipped
        (they stay in the store and are listed in `set_aside`)."""
        aside: set[int] = set()
        for r in recs:
            if r["kind"] == "repair" and isinstance(r.get("data"), dict):
                aside.update(x for x in r["data"].get("set_aside", []) if isinstance(x, int))
        ev = None
        for r in recs:
            if r["seq"] in aside:
                continue
            check_record(eid, r)
            k, d = r["kind"], r["data"]
            if k == "repair":
                continue
            if k == "event":
                ev = cls(eid, d)
            elif ev is None:
                raise CorrError("event %s: records before its creation" % eid)
            elif k == "holiday":
                ev.holidays.update(_d(h) for h in d["dates"])
            elif k == "game":
                ev.games[r["game"]] = d
                ev.game_recs[r["game"]] = []
            elif k == "leave":
                ev.leaves.append(Leave(r))
            elif k == "request":
                ev.requests.append({"seq": r["seq"], "player": d["player"], "date": d["date"],
                                    "about": d.get("about") or "", "answered": None})
            elif k == "answer":
                # answers the player's earliest request still open
                q = next((q for q in ev.requests
                          if q["player"] == d["player"] and q["answered"] is None), None)
                if q is not None:
                    q["answered"] = d["date"]
            elif k == "withdraw":
                ev.withdrawals.setdefault(d["player"], dict(d, seq=r["seq"]))
            else:
                ev.game_recs.setdefault(r["game"], []).append(r)
        if ev is None:
            raise CorrError("no event %r (create it with: chessclock corr event new %s ...)"
                            % (eid, eid))
        ev.calendar = Calendar(ev.holidays)
        ev.set_aside = sorted(aside)
        return ev

    def leave_days(self, player: str) -> set[dt.date]:
        out = set()
        for lv in self.leaves:
            if lv.player == player:
                out.update(lv.days())
        return out

    def game(self, gid: str, today: dt.date) -> GameLedger:
        if gid not in self.games:
            raise CorrError("event %s has no game %r (add it with: chessclock corr game "
                            "EVENT GAME --white W --black B)" % (self.id, gid))
        return GameLedger(self, gid, self.games[gid], self.game_recs.get(gid, []), today)


class MoveRow:
    """One sent move and what it cost its sender."""

    def __init__(self, ply, rec):
        d = rec["data"]
        self.ply, self.side, self.label = ply, side_of(ply), label(ply)
        self.seq = rec["seq"]
        self.typed = d.get("san") or ""   # as the player wrote it (Art. 2)
        self.san = self.typed               # standard SAN once read (GameLedger)
        self.sent = parse_date(d["sent"], "sent")
        self.given_received = _d(d.get("received"))
        self.received: dt.date | None = None   # set for every row by _received()
        self.estimated = False
        self.conditional = bool(d.get("conditional"))
        self.early = False   # a first move sent before the official start (Art. 12 §1)
        self.proposal = d.get("proposal") or ""   # conditional moves proposed (Art. 9)
        self.transit = None
        self.cats = {}
        self.counted = 0
        self.doubled = 0
        self.fines = []      # (days, why)
        self.notice = None
        self.notice_ok = False
        self.charged = 0
        self.count_no = self.count_move = self.count_cum = self.budget = 0
        self.excess = False
        self.total = 0

    def as_dict(self):
        return {
            "move": self.label, "ply": self.ply, "side": SIDES[self.side], "san": self.san,
            "typed": self.typed,
            "received": str(self.received), "received_estimated": self.estimated,
            "sent": str(self.sent), "transit": self.transit,
            "transit_reported": bool(self.transit and self.transit > TRANSIT_ACCEPTED),
            "counted": self.counted, "not_counted": self.cats, "doubled": self.doubled,
            "notice": str(self.notice) if self.notice else None,
            "fines": [{"days": f, "why": w} for f, w in self.fines],
            "charged": self.charged, "total": self.total, "count": self.count_no,
            "count_move": self.count_move, "count_cum": self.count_cum,
            "budget": self.budget, "excess": self.excess}


def _classify(ev, after, upto, leave, halted=()):
    """(counted dates, {category: days}) for the days in (after, upto]."""
    counted, cats = [], {}
    for d in day_range(after, upto):
        if d <= ev.start:
            c = "before_start"          # Art. 12 §1
        elif ev.end and d > ev.end:
            c = "after_end"             # Art. 31
        elif d in halted:
            c = "halted"                # Art. 20: the game waits for the director
        elif ev.calendar.in_recess(d):
            c = "recess"                # comment on Art. 12
        elif d in leave:
            c = "leave"                 # Art. 28-30
        else:
            counted.append(d)
            continue
        cats[c] = cats.get(c, 0) + 1
    return counted, cats


def _doubling(counted, notice):
    """Art. 13: days from the 13th counted day count double unless the player announced by
    the 12th. Returns (extra days, notice in time)."""
    if len(counted) <= ANNOUNCE_AFTER:
        return 0, notice is not None
    ok = notice is not None and notice <= counted[ANNOUNCE_AFTER - 1]
    return (0 if ok else len(counted) - ANNOUNCE_AFTER), ok


class GameLedger:
    def __init__(self, ev, gid, gdata, recs, today):
        self.ev, self.id, self.today = ev, gid, today
        self.players = (gdata["white"], gdata["black"])
        self.first_ply = ev.theme_plies + 1
        self.leave = [ev.leave_days(p) for p in self.players]
        self.notation = gdata.get("notation") or "auto"
        self.result: dict[str, Any] | None = None   # the result record in force (_sort)
        self.voided = []
        self.warnings = []
        self._sort(recs)
        self._read_notation()
        # A claim's outcome (penalty days, days the game stood halted) can change the
        # days of later moves and so a later claim: recompute until nothing changes.
        penalties, self.halted = {}, set()
        for _ in range(len(self.claim_recs) + 2):
            self._compute(penalties)
            new, halted = self._claims()
            if new == penalties and halted == self.halted:
                break
            penalties, self.halted = new, halted
        self._withdrawal()
        self._pending(penalties)

    def _withdrawal(self):
        """Art. 27: after a player's abandonment or elimination (or death, or suspension by
        the club) the results of finished games stand and every remaining game is lost for
        that player (for both, if both left)."""
        self.withdrawn = None
        out = [(w, s) for s, p in enumerate(self.players)
               for w in [self.ev.withdrawals.get(p)] if w is not None]
        if not out:
            return
        first = min(parse_date(w["date"]) for w, _ in out)
        if self.result is not None and parse_date(self.result["date"]) <= first:
            return   # finished before: the result stands
        if any(c["loses"] for c in self.claims):
            return   # lost on time before: stands
        sides = set(s for _, s in out)
        res = "0-0" if len(sides) == 2 else "0-1" if WHITE in sides else "1-0"
        why = "; ".join("%s: %s on %s" % (self.players[s], w["reason"], w["date"])
                        for w, s in out)
        self.withdrawn = why
        self.result = {"result": res, "date": str(first),
                       "reason": "%s; remaining games lost (Art. 27)" % why}

    # ---- the records, in force ---------------------------------------------------
    def _sort(self, recs):
        moves, self.acks, self.notices, self.fine_recs = [], {}, {}, []
        self.claim_recs, self.contests, self.decisions, self.reminds = [], {}, {}, []
        self.result = None
        for r in recs:
            k, d = r["kind"], r["data"]
            if k == "void":
                p = d["from_ply"]
                self.voided += [m for m in moves if m["data"]["ply"] >= p]
                moves = [m for m in moves if m["data"]["ply"] < p]
                self.acks = {q: a for q, a in self.acks.items() if q < p - 1}
                self.notices = {q: n for q, n in self.notices.items() if q < p}
            elif k == "move":
                moves.append(r)
            elif k == "ack":
                self.acks[d["ply"]] = parse_date(d["received"])
            elif k == "notice":
                self.notices[d["ply"]] = parse_date(d["date"])
            elif k == "fine":
                self.fine_recs.append(r)
            elif k == "claim":
                self.claim_recs.append(r)
            elif k == "contest":
                self.contests[d["claim"]] = parse_date(d["date"])
            elif k == "decide":
                self.decisions[d["claim"]] = (parse_date(d["date"]), bool(d["upheld"]))
            elif k == "remind":
                self.reminds.append(d)
            elif k == "result":
                self.result = d
        self.move_recs = moves

    # ---- the moves on the board (Art. 2, 5, 6) -----------------------------------
    def _read_notation(self):
        """Standard SAN of every move in force, read from the notation as written on the
        board after the theme. `board` is the position now (None once a move has no
        notation or cannot be read: nothing after it can be checked), `before_last` the
        position before the last move."""
        import chess

        from .notation import read_move

        self.std: dict[int, str] = {}   # record seq -> standard SAN
        self.board: chess.Board | None = chess.Board()
        self.before_last: chess.Board | None = None
        self.unknown = ""
        for tok in self.ev.theme.replace(".", ". ").split():
            if tok.rstrip(".").isdigit() or tok in (".", "..", "..."):
                continue
            try:
                self.board.push_san(tok)
            except ValueError:
                self.board, self.unknown = None, "the theme %s" % self.ev.theme
                break
        for r in self.move_recs:
            text = r["data"].get("san") or ""
            where = label(r["data"]["ply"])
            if self.board is None:
                continue
            if not text:
                self.board, self.unknown = None, "move %s has no notation" % where
                continue
            try:
                mv = read_move(self.board, text, self.notation)
            except CorrError as e:
                self.warnings.append("move %s: %s" % (where, e))
                self.board, self.unknown = None, "move %s cannot be read" % where
                continue
            self.std[r["seq"]] = self.board.san(mv)
            self.before_last = self.board.copy()
            self.board.push(mv)

    # ---- days per move -----------------------------------------------------------
    def avg_transit(self, upto: int) -> int:
        """Art. 14: the mean transit of earlier moves whose dates were given, rounded half
        up; 0 when none is known (delivery is "quase imediata", Art. 12)."""
        ts = [m.transit for m in self.moves[:upto] if m.transit is not None and not m.estimated]
        return (2 * sum(ts) + len(ts)) // (2 * len(ts)) if ts else 0

    def _compute(self, penalties):
        ev = self.ev
        self.moves = []
        prev = None
        for i, r in enumerate(self.move_recs):
            ply = r["data"]["ply"]
            m = MoveRow(ply, r)
            m.san = self.std.get(r["seq"], m.typed)
            where = "move %s" % m.label
            if ply != self.first_ply + i:
                raise CorrError("%s: out of order, the next move to record is %s"
                                % (where, label(self.first_ply + i)))
            if prev is None:
                m.received = m.given_received or ev.start
                if m.given_received is None and m.sent < ev.start:
                    # Art. 12 §1: players who have their pairing may start before the
                    # official start, with no days counted until it
                    m.received, m.early = m.sent, True
            else:
                acked = self.acks.get(ply - 1)
                if acked and m.given_received and acked != m.given_received:
                    raise CorrError("%s: received %s, but %s was acknowledged as received on "
                                    "%s" % (where, m.given_received, prev.label, acked))
                m.received = m.given_received or acked
                if m.received is None:   # Art. 14: set from the average transit
                    m.received = prev.sent + dt.timedelta(days=self.avg_transit(i))
                    m.estimated = True
                if m.received < prev.sent:
                    raise CorrError("%s: %s received on %s, before it was sent on %s"
                                    % (where, prev.label, m.received, prev.sent))
                m.transit = (m.received - prev.sent).days
            if m.sent < m.received:
                if m.estimated:
                    m.received = m.sent
                else:
                    raise CorrError("%s: reply sent on %s, before its move was received on %s"
                                    % (where, m.sent, m.received))
            self._charge(m, self.leave[m.side], m.received, m.sent)
            self.moves.append(m)
            prev = m
        self._fines(penalties)
        self._series()

    def _charge(self, m, leave, after, upto):
        counted, m.cats = _classify(self.ev, after, upto, leave, self.halted)
        m.counted = len(counted)
        m.notice = self.notices.get(m.ply)
        m.doubled, m.notice_ok = _doubling(counted, m.notice)
        m.counted_dates = counted

    def _fines(self, penalties):
        by_ply = {m.ply: m for m in self.moves}
        nxt = self.first_ply + len(self.moves)
        self.pending_fines = []
        seen = {}
        for r in self.fine_recs:
            d = r["data"]
            ply = d["ply"]
            if ply not in by_ply:
                continue   # voided with its move
            offenders = [side_of(ply)] + ([1 - side_of(ply)] if d.get("both") else [])
            for s in offenders:
                key = (ply, s)
                if d.get("conditional") or d.get("late"):
                    days = 0   # Art. 7 §3 (conditional), §2 (not pointed out at once)
                else:
                    days = FINE_REPEAT if seen.get(key) else FINE_FIRST
                    seen[key] = True
                why = "%s move %s%s" % (d["reason"], label(ply),
                                        " (Art. 8, both)" if d.get("both") else "")
                target = ply if s == side_of(ply) else ply + 1
                if target in by_ply:
                    by_ply[target].fines.append((days, why))
                elif target == nxt:
                    self.pending_fines.append((days, why))
        for m in self.moves:
            for ply, days in penalties.items():
                if ply == m.ply:
                    m.fines.append((days, "unfounded excess claim (Art. 22 §1)"))
            m.charged = m.counted + m.doubled + sum(f for f, _ in m.fines)

    def _series(self):
        """Art. 12 §2, 16, 19: per side, cumulative days against budget(n) of the count;
        an excess starts a new count from the next move, for the offender only."""
        self.count = [[1, 0, 0], [1, 0, 0]]   # per side: count number, moves, days
        self.excesses = [[], []]
        self.totals = [0, 0]
        for m in self.moves:
            c = self.count[m.side]
            c[1] += 1
            c[2] += m.charged
            self.totals[m.side] += m.charged
            m.total = self.totals[m.side]
            m.count_no, m.count_move, m.count_cum = c[0], c[1], c[2]
            m.budget = budget(self.ev.stages, c[1])
            if c[2] > m.budget:
                m.excess = True
                self.excesses[m.side].append(m)
                self.count[m.side] = [c[0] + 1, 0, 0]

    def _pending(self, penalties):
        """The move being thought about now, counted up to today."""
        self.pending = None
        if self.finished():
            return
        ply = self.first_ply + len(self.moves)
        side = side_of(ply)
        last = self.moves[-1] if self.moves else None
        if last is None:
            received, est = self.ev.start, False
        elif ply - 1 in self.acks:
            received, est = self.acks[ply - 1], False
        else:
            received = last.sent + dt.timedelta(days=self.avg_transit(len(self.moves)))
            est = True
        upto = self.today
        counted, cats = _classify(self.ev, received, upto, self.leave[side], self.halted)
        notice = self.notices.get(ply)
        doubled, ok = _doubling(counted, notice)
        fines = list(self.pending_fines) + [(d, "unfounded excess claim (Art. 22 §1)")
                                            for p, d in penalties.items() if p == ply]
        charged = len(counted) + doubled + sum(f for f, _ in fines)
        c = self.count[side]
        n = c[1] + 1
        cum = c[2] + charged
        self.pending = {
            "move": label(ply), "ply": ply, "side": SIDES[side], "received": str(received),
            "upto": str(upto),
            "received_estimated": est, "acknowledged": last is None or ply - 1 in self.acks,
            "counted": len(counted), "doubled": doubled, "not_counted": cats,
            "fines": [{"days": f, "why": w} for f, w in fines], "charged": charged,
            "count": c[0], "count_move": n, "count_cum": cum,
            "budget": budget(self.ev.stages, n),
            # Over time only once the receipt is confirmed (an ack or the first move); before
            # that the Art. 15 schedule applies and the estimate is only shown.
            "over_time": cum > budget(self.ev.stages, n) and not est,
            "over_time_estimated": cum > budget(self.ev.stages, n) and est,
            "total": self.totals[side] + charged,
            "day12": str(counted[ANNOUNCE_AFTER - 1]) if len(counted) >= ANNOUNCE_AFTER
            else None}

    # ---- claims (Art. 17-22) -----------------------------------------------------
    def _claims(self):
        """Run every claim through its states; returns the penalties it imposes
        ({claimant's ply: days}) and the days the game stood halted by a 2nd-excess claim
        (from the day after the claim to its decision, withdrawal or today). State per
        claim in self.claims."""
        cal = self.ev.calendar
        self.claims = []
        penalties, halted = {}, set()
        used = set()
        registered = [0, 0]
        for n, r in enumerate(self.claim_recs, 1):
            d = r["data"]
            by = SIDES.index(d["by"])
            off = 1 - by
            date = parse_date(d["date"])
            notified = _d(d.get("notified")) or date
            target = None
            for m in self.excesses[off]:
                if m.sent <= date and m.ply not in used:
                    target = m
                    break
            c: dict[str, Any] = {"claim": n, "by": SIDES[by], "against": SIDES[off],
                                 "date": str(date), "notified": str(notified),
                                 "excess": target.label if target else None,
                                 "ordinal": registered[off] + 1}
            late_by = None
            if target is not None:
                # The claim is due by the end of the series the excess fell in: at the
                # latest when the claimant answers the offender's 10th/20th/... move.
                block = -(-target.count_move // 10) * 10
                reply_ply = target.ply + 2 * (block - target.count_move) + 1
                reply = next((m for m in self.moves if m.ply == reply_ply), None)
                if reply is not None and date > reply.sent:
                    late_by = reply.sent
                c["due_by"] = str(reply.sent) if reply else "the reply to move %s" % (
                    label(reply_ply - 1))
            contest_by = cal.add_days(notified, CONTEST_DAYS)
            c["contest_by"] = str(contest_by)
            contested = self.contests.get(n)
            decided = self.decisions.get(n)
            resumed = next((m for m in self.moves if m.side == by and m.sent > date), None)
            if contested:
                c["contested"] = str(contested)
                c["decide_by"] = str(cal.add_days(contested, DECIDE_DAYS))
            if late_by is not None:
                state = "archived"       # Art. 18: wait for the next series
            elif decided:
                state = "upheld" if decided[1] else "dismissed"
                c["decided"] = str(decided[0])
            elif c["ordinal"] >= 2 and resumed is not None:
                state = "cancelled"      # Art. 22 §2
            elif contested:
                state = "contested"
            elif self.today > contest_by:
                state = "upheld"         # Art. 21 §1: not contested, recognised
            else:
                state = "open"
            if state == "upheld":
                registered[off] += 1
                if target is not None:
                    used.add(target.ply)
            if state == "dismissed" and c["ordinal"] >= 2 and decided:
                # Art. 22 §1: charged to the claimant's move in progress at the decision
                pen = next((m.ply for m in self.moves if m.side == by and m.sent >= decided[0]),
                           None)
                if pen is None:
                    nxt = self.first_ply + len(self.moves)
                    pen = nxt if side_of(nxt) == by else nxt + 1
                penalties[pen] = penalties.get(pen, 0) + CLAIM_PENALTY
            c["state"] = state
            c["halts"] = c["ordinal"] >= 2 and state in ("open", "contested")
            if c["ordinal"] >= 2 and late_by is None:
                stop = (decided[0] if decided else resumed.sent
                        if state == "cancelled" and resumed is not None
                        else min(self.today, contest_by) if state == "upheld" else self.today)
                halted.update(day_range(date, stop))
            c["loses"] = c["ordinal"] >= 2 and state == "upheld"
            self.claims.append(c)
        return penalties, halted

    # ---- the game as a whole -----------------------------------------------------
    def finished(self) -> bool:
        if self.result is not None:
            return True
        return any(c["loses"] for c in getattr(self, "claims", []))

    def state(self) -> str:
        if self.withdrawn and self.result is not None:
            return "finished %s (%s, Art. 27)" % (self.result["result"], self.withdrawn)
        if self.result is not None:
            return "finished %s" % self.result["result"]
        for c in self.claims:
            if c["loses"]:
                return "%s lost on time (second excess, Art. 22)" % c["against"]
        for c in self.claims:
            if c["halts"]:
                return "halted by claim %d (Art. 20)" % c["claim"]
        return "in play"

    def halting_claim(self) -> dict[str, Any] | None:
        return next((c for c in self.claims if c["halts"]), None)

    def calendar_days(self, side: int) -> tuple[int, dict[str, int]]:
        """Every day of the game, for one side: (counted, not counted by reason). The
        game runs from the first move's receipt to the last date in the ledger."""
        if not self.moves and self.pending is None:
            return 0, {}
        start = self.moves[0].received if self.moves else self.ev.start
        assert start is not None   # every move row has its receipt (_received)
        counted, cats = 0, {}
        last = start
        for m in self.moves:
            if m.side == side:
                counted += m.counted
                for k, v in m.cats.items():
                    cats[k] = cats.get(k, 0) + v
            last = max(last, m.sent)
        p = self.pending
        upto = parse_date(p["upto"]) if p is not None else last
        if p is not None and upto > last:
            if SIDES.index(p["side"]) == side:
                counted += p["counted"]
                for k, v in p["not_counted"].items():
                    cats[k] = cats.get(k, 0) + v
            last = upto
        own = counted + sum(cats.values())
        span = (last - start).days
        cats["opponent_or_transit"] = span - own
        return counted, cats

    def as_dict(self):
        return {
            "event": self.ev.id, "game": self.id, "white": self.players[0],
            "black": self.players[1], "state": self.state(), "today": str(self.today),
            "totals": {SIDES[s]: self.totals[s] for s in (0, 1)},
            "moves": [m.as_dict() for m in self.moves], "pending": self.pending,
            "claims": self.claims, "voided": [label(r["data"]["ply"]) for r in self.voided],
            "result": self.result, "set_aside": self.ev.set_aside,
            "notation": self.notation, "warnings": self.warnings,
            "excesses": {SIDES[s]: [m.label for m in self.excesses[s]] for s in (0, 1)}}


def check_new(eid: str, before: list[Record], new: list[Record], today: dt.date) -> None:
    """Raise CorrError unless the records `new` may follow `before` (both lists of records
    of event `eid`), one after the other: each is checked against the ledger as it was,
    then everything is recomputed with it."""
    for i in range(len(new)):
        _check_one(eid, before + new[:i], [new[i]], today)


def _check_one(eid, before, new, today):
    for r in new:
        for key in ("sent", "received", "date", "notified"):
            if r["data"].get(key) and parse_date(r["data"][key], key) > today:
                raise CorrError("%s %s is after today (%s): a ledger records what happened"
                                % (key, r["data"][key], today))
    if any(r["kind"] == "repair" for r in new):
        ev = Event.from_records(eid, before + new)
        for gid in ev.games:
            ev.game(gid, today)
        return
    if any(r["kind"] == "event" for r in new):
        if any(r["kind"] == "event" for r in before):
            raise CorrError("event %s exists already" % eid)
        Event.from_records(eid, new)
        return
    ev = Event.from_records(eid, before)
    for r in new:
        k, d, gid = r["kind"], r["data"], r.get("game")
        if k == "game":
            if gid in ev.games:
                raise CorrError("event %s has a game %s already" % (eid, gid))
            continue
        if k in ("request", "answer", "withdraw"):
            _check_director(ev, k, d)
            continue
        if k in ("leave", "holiday"):
            continue
        g = ev.game(gid, today)
        nxt = g.first_ply + len(g.moves)
        last = g.moves[-1] if g.moves else None
        if k == "move":
            if g.finished():
                raise CorrError("game %s: %s; no move can follow" % (gid, g.state()))
            _check_notation(g, d)
            halt = g.halting_claim()
            if halt is not None and d["ply"] == nxt and SIDES[side_of(nxt)] != halt["by"]:
                raise CorrError("game %s: halted by %s's claim %d until the director decides "
                                "(Art. 20); only the claimant's move, which withdraws the claim "
                                "(Art. 22 §2), can follow" % (gid, halt["by"], halt["claim"]))
        elif k == "ack":
            if last is None or d["ply"] != last.ply:
                raise CorrError("game %s: only the last move sent (%s) can be acknowledged"
                                % (gid, last.label if last else "none yet"))
            if parse_date(d["received"]) < last.sent:
                raise CorrError("game %s: move %s received on %s, before it was sent on %s"
                                % (gid, last.label, d["received"], last.sent))
        elif k == "notice":
            if d["ply"] != nxt:
                raise CorrError("game %s: a notice (Art. 13) is for the move being thought "
                                "about, %s" % (gid, label(nxt)))
            if (g.pending and not g.pending["received_estimated"]
                    and parse_date(d["date"]) < parse_date(g.pending["received"])):
                raise CorrError("game %s: notice on %s, before %s" % (
                    gid, d["date"], "the start" if nxt == g.first_ply
                    else "move %s was received" % label(nxt - 1)))
        elif k in ("fine", "void"):
            p = d["ply"] if k == "fine" else d["from_ply"]
            if not any(m.ply == p for m in g.moves):
                raise CorrError("game %s: move %s is not in the ledger" % (gid, label(p)))
        elif k in ("contest", "decide"):
            n = d["claim"]
            if not 1 <= n <= len(g.claims):
                raise CorrError("game %s has no claim %d" % (gid, n))
            c = g.claims[n - 1]
            date = parse_date(d["date"])
            if date < parse_date(c["date"]):
                raise CorrError("game %s: claim %d was made on %s, after %s"
                                % (gid, n, c["date"], date))
            if k == "contest":
                if n in g.contests:
                    raise CorrError("game %s: claim %d is contested already" % (gid, n))
                if date > parse_date(c["contest_by"]):
                    raise CorrError("game %s: claim %d could be contested up to %s (15 days, "
                                    "Art. 21); %s is late" % (gid, n, c["contest_by"], date))
            elif n in g.decisions:
                raise CorrError("game %s: claim %d is decided already" % (gid, n))
        elif k == "claim":
            if g.finished():
                raise CorrError("game %s: %s" % (gid, g.state()))
            if g.halting_claim() is not None:
                raise CorrError("game %s: a claim is open already" % gid)
        elif k == "result":
            if g.withdrawn:
                raise CorrError("game %s: %s" % (gid, g.state()))
            if g.result is not None:
                raise CorrError("game %s: result %s recorded already" % (gid, g.result["result"]))
    ev = Event.from_records(eid, before + new)
    check_leaves(ev.leaves)
    for gid in set(r.get("game") for r in new if r.get("game")):
        ev.game(gid, today)


def _check_director(ev: Event, k: str, d: Record) -> None:
    """A director's request (Art. 23), its answer, or a withdrawal (Art. 27)."""
    player = d["player"]
    if not any(player in (g["white"], g["black"]) for g in ev.games.values()):
        raise CorrError("%s plays no game in event %s" % (player, ev.id))
    if k == "answer":
        q = next((q for q in ev.requests if q["player"] == player and q["answered"] is None),
                 None)
        if q is None:
            raise CorrError("%s has no request of the director to answer (corr ask first)"
                            % player)
        if parse_date(d["date"]) < parse_date(q["date"]):
            raise CorrError("%s answered on %s, before the request of %s" % (
                player, d["date"], q["date"]))
    elif k == "withdraw":
        if player in ev.withdrawals:
            raise CorrError("%s left the event already (%s on %s)" % (
                player, ev.withdrawals[player]["reason"], ev.withdrawals[player]["date"]))
        if d["reason"] not in WITHDRAW_REASONS:
            raise CorrError("reason %r: one of %s (Art. 27)" % (d["reason"],
                                                               ", ".join(WITHDRAW_REASONS)))


def _check_notation(g: GameLedger, d: Record) -> None:
    """A new move's notation: one valid, legal move (Art. 2, 5, 6), the repetition of the
    opponent's last move exact (Art. 4 II), conditional moves proposed or accepted as
    Art. 9 says. Raises CorrError (a BadMove) otherwise."""
    from .notation import read_move, read_sequence

    text = d.get("san") or ""
    nxt = g.first_ply + len(g.moves)
    if d["ply"] != nxt:
        return   # out of order: said by the recomputation
    if d.get("repeats") and not g.moves:
        raise CorrError("game %s: move %s is the first: there is no move of the opponent to "
                        "repeat (Art. 4 II)" % (g.id, label(nxt)))
    if d.get("repeats"):
        last = g.moves[-1]
        if g.before_last is None:
            raise CorrError("game %s: the message repeats %s as %r, but %s: the repetition "
                            "cannot be checked" % (g.id, last.label, d["repeats"], g.unknown))
        try:
            rep = g.before_last.san(read_move(g.before_last, d["repeats"], g.notation))
        except CorrError as e:
            rep = "(%s)" % e
        if rep != last.san:
            raise CorrError("game %s: the message repeats %s %s as %r, which is not that move "
                            "(Art. 4 II): point it out at once, a fine of 5 days (Art. 7)"
                            % (g.id, last.label, last.san, d["repeats"]))
    if not text:
        if d.get("proposal") or d.get("accept"):
            raise CorrError("game %s: move %s: conditional moves need the move's notation "
                            "(Art. 9)" % (g.id, label(nxt)))
        return
    if g.board is None:
        raise CorrError("game %s: move %s %r cannot be checked: %s; record the earlier "
                        "moves' notation (correct --from) first" % (
                            g.id, label(nxt), text, g.unknown))
    try:
        mv = read_move(g.board, text, g.notation)
    except CorrError as e:
        raise CorrError("game %s: move %s %s; the receiver points it out at once and the "
                        "sender is fined 5 days (Art. 7)" % (g.id, label(nxt), e)) from None
    san = g.board.san(mv)
    if d.get("accept"):
        _check_acceptance(g, nxt, san, d["accept"])
    if d.get("proposal"):
        after = g.board.copy(stack=False)
        after.push(mv)
        try:
            read_sequence(after, d["proposal"], g.notation)
        except CorrError as e:
            raise CorrError("game %s: conditional moves after %s %s: %s (Art. 9)"
                            % (g.id, label(nxt), san, e)) from None


def _check_acceptance(g: GameLedger, ply: int, san: str, text: str) -> None:
    """Art. 9 §1: accepting conditional moves means repeating, in the reply, the move or
    sequence accepted: a prefix of the proposal that ends with a proposed move of the
    proposer. §2: playing the proposer's conditional move as if it had been played, with
    no move of one's own, does not advance the game and is illegal."""
    from .notation import read_sequence

    assert g.board is not None
    last = g.moves[-1] if g.moves else None
    if last is None or not last.proposal:
        raise CorrError("game %s: move %s accepts conditional moves, but %s proposed none "
                        "(Art. 9)" % (g.id, label(ply), "the last move" if last else
                                      "no move was made and"))
    try:
        prop = read_sequence(g.board, last.proposal, g.notation)
    except CorrError as e:
        raise CorrError("game %s: the conditional moves proposed with %s do not read: %s"
                        % (g.id, last.label, e)) from None
    where = "game %s: move %s accepts %r" % (g.id, label(ply), text)
    try:
        acc = read_sequence(g.board, text, g.notation)
    except CorrError:
        after = g.board.copy(stack=False)
        after.push_san(prop[0])
        try:
            skipped = read_sequence(after, text, g.notation)
        except CorrError:
            skipped = []
        if skipped and skipped == prop[1:1 + len(skipped)]:
            raise CorrError("%s: it plays the conditional %s without its condition and makes "
                            "no move of its own: an illegal reply (Art. 9 §2, Art. 7)"
                            % (where, skipped[0])) from None
        raise CorrError("%s: not the moves proposed (%s): the reply is not valid (Art. 9 §1, "
                        "Art. 7)" % (where, " ".join(prop))) from None
    if acc != prop[:len(acc)] or len(acc) % 2 or acc[0] != san:
        raise CorrError("%s: an acceptance repeats the proposed sequence (%s) from this move "
                        "up to a move of the proposer; the reply is not valid (Art. 9 §1, "
                        "Art. 7)" % (where, " ".join(prop)))


def records_to_set_aside(eid: str, recs: list[Record], today: dt.date) -> list[Record]:
    """The records that keep event `eid` from being computed: replayed in order, a record
    is set aside when the event (or its game) cannot be computed with it, e.g. a second
    record of one move written by two writers at once, or a record whose data is
    malformed. The others are kept as they are."""
    done: set[int] = set()   # set aside by an earlier repair
    for r in recs:
        if r["kind"] == "repair" and isinstance(r.get("data"), dict):
            done.update(r["data"].get("set_aside", []))
    kept: list[Record] = []
    aside: list[Record] = []
    for r in recs:
        if r["seq"] in done:
            continue
        try:
            ev = Event.from_records(eid, kept + [r])
            gids = [r["game"]] if r.get("game") in ev.games else list(ev.games)
            for gid in gids:
                ev.game(gid, today)
        except CorrError:
            aside.append(r)
            continue
        kept.append(r)
    return aside
