"""Who played a game, for PGN headers and rulings: from the clock's log (the
pairing record, code 62, that `chessclock pairings push` makes each clock keep with every
game) or, for a log without one, from the round's pairings file and the board number.

A pairing is a dict {"board", "round" (0: not known), "white", "black", "event"}."""

from collections.abc import Iterable, Mapping
from typing import Any


def from_events(events: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The pairing the game's events name last (a later one corrects an earlier one; a
    `pairing-cleared` removes it), or None."""
    p = None
    for e in events:
        if e.get("type") == "pairing":
            p = {k: e.get(k) for k in ("board", "round", "white", "black", "event")}
        elif e.get("type") == "pairing-cleared":
            p = None
    return p


def from_file(path: str, board: int, round_no: str | None = None) -> dict[str, Any]:
    """Board `board` of a pairings file (CSV or FIDE TRF, as `chessclock hall` reads it);
    ValueError with a one-line reason."""
    from chessclock.hall import pairings

    rnd = pairings.load(path, round_no=round_no)   # PairingError is a ValueError
    p = rnd.pairing(board)
    if p is None:
        raise ValueError("board %d is not paired in %s (boards %s)"
                         % (board, path, ", ".join(str(b) for b in sorted(rnd.boards))))
    r = str(rnd.round or "").strip()
    return {"board": board, "round": int(r) if r.isdigit() else (r or 0),
            "white": p["white"], "black": p["black"], "event": rnd.event}


def pgn_headers(p: Mapping[str, Any]) -> dict[str, str]:
    """The PGN tags a pairing gives: White, Black, Round, Board, Event (those it knows)."""
    out = {}
    if p.get("event"):
        out["Event"] = p["event"]
    if p.get("round"):
        out["Round"] = str(p["round"])
    if p.get("board"):
        out["Board"] = str(p["board"])
    for side, tag in (("white", "White"), ("black", "Black")):
        if p.get(side) and p[side] != "?":
            out[tag] = p[side]
    return out


def describe(p: Mapping[str, Any]) -> str:
    """One line: 'board 12, round 3 (Spring Open): White Anna Müller - Black Bob Li'."""
    where = "board %s" % p.get("board")
    if p.get("round"):
        where += ", round %s" % p["round"]
    if p.get("event"):
        where += " (%s)" % p["event"]
    return "%s: White %s - Black %s" % (where, p.get("white") or "?", p.get("black") or "?")
