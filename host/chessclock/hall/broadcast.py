"""The live broadcast: a PGN a board, with [%clk] after every move, and the whole round as
one multi-game PGN (the format lichess broadcasts and other relays read by polling a URL).

The clock knows presses, not moves: each ply is a null move (`--`), as in `chessclock log
export`, with the time the side had left after it. A relay that has the moves (a DGT
board, the scoresheets) merges them by ply. Written with python-chess, so that what a relay
reads is what python-chess reads back.
"""

from typing import Any

import chess

from chessclock import pgnout


def game_pgn(headers: dict[str, str], body: dict[str, Any]) -> str:
    """One board's game as PGN text. headers: dict of PGN tags; body: the clock's last
    message (its plies: [[ply, clk_ms], ...] of the whole game as the hub kept them).
    Result: what the clock decided, as results.csv says it (pairings.decided)."""
    from chessclock.hall.pairings import decided

    game = pgnout.new_game(headers)
    if body.get("tc"):
        game.headers["TimeControl"] = _time_control(body["tc"])
    node: chess.pgn.GameNode = game
    for _, clk in body.get("plies", []):
        node = pgnout.add_ply(node, chess.Move.null(), clk)
    if body.get("fo"):
        side = "White" if body["fo"][0] == "w" else "Black"
        node.comment = (node.comment + " " if node.comment else "") + "%s's flag fell" % side
    game.headers["Result"] = decided(body)[0] if body else "*"
    return pgnout.write(game)


def _time_control(spec: str) -> str:
    """The PGN TimeControl of the clock's spec ("?" when PGN cannot say it)."""
    from clockcore import notation, presets
    try:
        control, _ = presets.resolve(spec)
        return notation.format_pgn(control)
    except (ValueError, KeyError):
        return "?"


def round_pgn(games: list[str]) -> Any:
    """The round: the boards' games one after another (board order)."""
    return "".join(games)
