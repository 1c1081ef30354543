"""A new record checked before it is kept: against the whole ledger recomputed with it
(`check_new`), and the records that keep an event from being read (`records_to_set_aside`)."""

from __future__ import annotations  # methods name classes defined after them

import datetime as dt
from typing import Any

from .dates import CorrError, parse_date
from .ledger import Event, GameLedger
from .model import SIDES, WITHDRAW_REASONS, Record, check_leaves, label, side_of


def check_new(eid: str, before: list[Record], new: list[Record], today: dt.date) -> None:
    """Raise CorrError unless the records `new` may follow `before` (both lists of records
    of event `eid`), one after the other: each is checked against the ledger as it was,
    then everything is recomputed with it."""
    for i in range(len(new)):
        _check_one(eid, before + new[:i], [new[i]], today)


def _check_one(eid: str, before: list[Any], new: list[Any], today: Any) -> None:
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
        _check_game_record(ev.game(gid, today), gid, k, d)
    ev = Event.from_records(eid, before + new)
    check_leaves(ev.leaves)
    for gid in set(r.get("game") for r in new if r.get("game")):
        ev.game(gid, today)


def _check_game_record(g: GameLedger, gid: str, k: str, d: Record) -> None:
    """A record of one game checked against its ledger as it stands."""
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
