"""The rules behind `chessclock knockout`: the single-elimination event of the Brazilian rule
sheet (seed S3): each player plays one game a round, the winner goes on, the loser is out
(S3 1), and the winner of the last game wins the event (S3 2). Colours are drawn by lot (S3,
"Noções Gerais": who takes White is decided by lot).

    chessclock knockout draw PLAYERS.txt --out BRACKET.json [--lot N]
    chessclock knockout result BRACKET.json --game N --winner white|black
    chessclock knockout show BRACKET.json

PLAYERS.txt: one name a line, in the order the organisers pair them (1 v 2, 3 v 4, ...);
when the number is not a power of two the first players listed get a bye in round 1. The
lot is Python's `random.Random(N)`: `--lot N` makes the draw repeatable, without it a number
is drawn and recorded in the file. A drawn game goes to the play-off (S3 4.1: `chessclock
ruling playoff`), so a result here is always a winner.
"""

from __future__ import annotations

import random
from typing import Any

from chessclock.errors import InputError


class KnockoutError(InputError):
    pass


def _pair(names: list[str | None], rng: random.Random, round_no: int) -> list[dict[str, Any]]:
    games = []
    for i in range(0, len(names), 2):
        a, b = names[i], names[i + 1]
        if a is None or b is None:
            games.append({"round": round_no, "white": a or b, "black": None, "bye": True,
                          "winner": a or b})
            continue
        if rng.random() < 0.5:
            a, b = b, a
        games.append({"round": round_no, "white": a, "black": b, "bye": False,
                      "winner": None})
    return games


def draw(players: list[str], lot: int) -> dict[str, Any]:
    if len(players) < 2:
        raise KnockoutError("a knockout needs at least 2 players")
    if len(set(players)) != len(players):
        dup = sorted({p for p in players if players.count(p) > 1})[0]
        raise KnockoutError("%r is listed twice" % dup)
    size = 1
    while size < len(players):
        size *= 2
    byes = size - len(players)
    # the first `byes` players meet nobody: [p1, None, p2, None, ..., rest in order]
    slots: list[str | None] = []
    for p in players[:byes]:
        slots += [p, None]
    slots += players[byes:]
    rng = random.Random(lot)
    state = {"lot": lot, "draws": 1, "players": players, "games": _pair(slots, rng, 1),
             "champion": None}
    _advance(state)
    return state


def _advance(state: dict[str, Any]) -> None:
    """Pair the next round once every game of the last one has a winner; the winner of the
    last game wins the event (S3 2)."""
    games = state["games"]
    last = max(g["round"] for g in games)
    current = [g for g in games if g["round"] == last]
    if any(g["winner"] is None for g in current):
        return
    winners = [g["winner"] for g in current]
    if len(winners) == 1:
        state["champion"] = winners[0]
        return
    rng = random.Random("%d/%d" % (state["lot"], state["draws"]))
    state["draws"] += 1
    games += _pair(winners, rng, last + 1)
    _advance(state)


def record(state: dict[str, Any], game: int, winner: str) -> str:
    games = state["games"]
    if not 1 <= game <= len(games):
        raise KnockoutError("--game %d: the bracket has games 1 to %d" % (game, len(games)))
    g = games[game - 1]
    if g["bye"]:
        raise KnockoutError("game %d is a bye: %s goes on without playing" % (game, g["white"]))
    if g["winner"] is not None:
        raise KnockoutError("game %d already has a winner (%s)" % (game, g["winner"]))
    g["winner"] = g[winner]
    _advance(state)
    if state["champion"] is not None:
        return "%s wins the last game and the event (S3 2)" % state["champion"]
    return "%s wins game %d and goes on; %s is out (S3 1)" % (
        g["winner"], game, g["black" if winner == "white" else "white"])


def lines(state: dict[str, Any]) -> list[str]:
    out = ["knockout of %d players (colours by lot %d)" % (len(state["players"]),
                                                          state["lot"])]
    for i, g in enumerate(state["games"], 1):
        if g["bye"]:
            out.append("round %d game %d: %s, bye" % (g["round"], i, g["white"]))
        else:
            out.append("round %d game %d: %s (White) - %s (Black)%s" % (
                g["round"], i, g["white"], g["black"],
                ": %s wins" % g["winner"] if g["winner"] else ""))
    if state["champion"]:
        out.append("winner of the event: %s (the winner of the last game, S3 2)"
                   % state["champion"])
    return out

