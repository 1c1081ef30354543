"""An event and its games computed from their records: `Event.from_records` reads an event's
records (as the store keeps them, in the order they were written) and `Event.game(gid,
today)` gives a `GameLedger`: each move's days received, sent, counted and charged, series,
fines, claims and the result (the day counting is chessclock.corr.model's)."""

from __future__ import annotations  # methods name classes defined after them

import datetime as dt
from typing import Any

from .dates import Calendar, CorrError, day_range, parse_date
from .model import (
    ANNOUNCE_AFTER,
    CLAIM_PENALTY,
    CONTEST_DAYS,
    DECIDE_DAYS,
    FINE_FIRST,
    FINE_REPEAT,
    SIDES,
    TRANSIT_ACCEPTED,
    WHITE,
    Leave,
    Record,
    as_date,
    budget,
    check_record,
    label,
    series_stages,
    side_of,
)


class Event:
    def __init__(self, eid: str, data: Any) -> None:
        self.id = eid
        self.name = data.get("name") or eid
        self.phase = data.get("phase", "")
        self.start = parse_date(data["start"], "start")
        self.end = as_date(data.get("end"))
        self.tz = data.get("tz", "UTC")
        self.theme = data.get("theme", "")
        self.theme_plies = int(data.get("theme_plies", 0))
        self.holidays = set(as_date(h) for h in data.get("holidays", []))
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
                ev.holidays.update(as_date(h) for h in d["dates"])
            elif k == "game":
                ev.games[r["game"]] = d
                ev.game_recs[r["game"]] = []
            elif k == "leave":
                ev.leaves.append(Leave.from_record(r))
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

    def __init__(self, ply: int, rec: Any) -> None:
        d = rec["data"]
        self.ply, self.side, self.label = ply, side_of(ply), label(ply)
        self.seq = rec["seq"]
        self.typed = d.get("san") or ""   # as the player wrote it (Art. 2)
        self.san = self.typed               # standard SAN once read (GameLedger)
        self.sent = parse_date(d["sent"], "sent")
        self.given_received = as_date(d.get("received"))
        self.received: dt.date | None = None   # set for every row by _received()
        self.estimated = False
        self.conditional = bool(d.get("conditional"))
        self.early = False   # a first move sent before the official start (Art. 12 §1)
        self.proposal = d.get("proposal") or ""   # conditional moves proposed (Art. 9)
        self.transit: int | None = None
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

    def as_dict(self) -> dict[str, Any]:
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


def _classify(ev: Any, after: dt.date, upto: dt.date, leave: Any, halted: Any = ()
              ) -> tuple[list[dt.date], dict[str, Any]]:
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


def _doubling(counted: list[dt.date], notice: Any) -> tuple[int, bool]:
    """Art. 13: days from the 13th counted day count double unless the player announced by
    the 12th. Returns (extra days, notice in time)."""
    if len(counted) <= ANNOUNCE_AFTER:
        return 0, notice is not None
    ok = notice is not None and notice <= counted[ANNOUNCE_AFTER - 1]
    return (0 if ok else len(counted) - ANNOUNCE_AFTER), ok


class GameLedger:
    def __init__(self, ev: Any, gid: str, gdata: Any, recs: list[Any], today: Any) -> None:
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

    def _withdrawal(self) -> None:
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
    def _sort(self, recs: list[Any]) -> None:
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
    def _read_notation(self) -> None:
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

    def _compute(self, penalties: Any) -> None:
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

    def _charge(self, m: Any, leave: Any, after: dt.date, upto: dt.date) -> None:
        counted, m.cats = _classify(self.ev, after, upto, leave, self.halted)
        m.counted = len(counted)
        m.notice = self.notices.get(m.ply)
        m.doubled, m.notice_ok = _doubling(counted, m.notice)
        m.counted_dates = counted

    def _fines(self, penalties: Any) -> None:
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

    def _series(self) -> None:
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

    def _pending(self, penalties: Any) -> None:
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
    def _claims(self) -> tuple[dict[Any, Any], set[dt.date]]:
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
            notified = as_date(d.get("notified")) or date
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

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.ev.id, "game": self.id, "white": self.players[0],
            "black": self.players[1], "state": self.state(), "today": str(self.today),
            "totals": {SIDES[s]: self.totals[s] for s in (0, 1)},
            "moves": [m.as_dict() for m in self.moves], "pending": self.pending,
            "claims": self.claims, "voided": [label(r["data"]["ply"]) for r in self.voided],
            "result": self.result, "set_aside": self.ev.set_aside,
            "notation": self.notation, "warnings": self.warnings,
            "excesses": {SIDES[s]: [m.label for m in self.excesses[s]] for s in (0, 1)}}
