"""The board side of a ruling's input: the scoresheet (PGN), a position (FEN), a move as
played, with python-chess reading them."""

import re
from typing import Any

import chess
import chess.pgn

from chessclock.ruling.events import RulingError


def side_name(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


def read_pgn(path: str) -> chess.pgn.Game:
    """The scoresheet in a PGN file: its first game, which must have moves."""
    try:
        with open(path, encoding="utf-8") as f:
            game = chess.pgn.read_game(f)
    except OSError as e:
        raise RulingError("cannot read %s: %s" % (path, e.strerror or e)) from None
    except (UnicodeDecodeError, ValueError):
        raise RulingError("%s is not a scoresheet (not PGN text)" % path) from None
    if game is None:
        raise RulingError("%s: no game in the PGN" % path)
    if game.errors:
        raise RulingError("%s is not a scoresheet: %s" % (path, game.errors[0]))
    if game.next() is None:
        raise RulingError("%s is not a scoresheet: no moves in it (--pgn is the game's "
                          "moves up to the flag, as the arbiter has them)" % path)
    return game


def scoresheet(game: chess.pgn.Game) -> dict[str, Any]:
    """{'white': n, 'black': n, 'board': final board, 'last_mover': side or None}."""
    board = game.board()
    counts = {"white": 0, "black": 0}
    last = None
    for move in game.mainline_moves():
        last = "white" if board.turn else "black"
        counts[last] += 1
        board.push(move)
    return {"white": counts["white"], "black": counts["black"], "board": board,
            "last_mover": last, "headers": dict(game.headers)}


_COORD = re.compile(r"^([a-h][1-8])\s*[-x:]?\s*([a-h][1-8])\s*=?([qrbnQRBN])?$")


def board_from(game: chess.pgn.Game | None = None, fen: str | None = None) -> chess.Board:
    """The position at the end of the scoresheet (with its move history), else the FEN."""
    if game is not None:
        board = game.board()
        for mv in game.mainline_moves():
            board.push(mv)
        return board
    if fen is None:
        raise RulingError("give the position: --pgn GAME.pgn (the scoresheet) or --fen FEN")
    try:
        return chess.Board(fen)
    except ValueError as e:
        raise RulingError("--fen: %s" % e) from None


def parse_move(board: chess.Board, text: str | None) -> chess.Move:
    """A move as played, legal or not: coordinates (e2e4, e2-e4, e7e8q) or legal SAN."""
    t = (text or "").strip()
    m = _COORD.match(t)
    if m:
        promo = m.group(3)
        return chess.Move(chess.parse_square(m.group(1)), chess.parse_square(m.group(2)),
                          chess.Piece.from_symbol(promo.lower()).piece_type if promo else None)
    try:
        return board.parse_san(t)
    except ValueError:
        raise RulingError("--move %r: give the move as played in coordinates (e.g. e1f2, "
                          "e7e8q): an illegal move has no SAN" % text) from None


def legal_position(board: chess.Board) -> None:
    """Refuse a position no game can reach (a king missing, pawns on the last rank, the
    side not to move in check), with python-chess's reason."""
    status = board.status()
    if status != chess.STATUS_VALID:
        names = [n[7:].lower().replace("_", " ") for n in dir(chess)
                 if n.startswith("STATUS_") and n != "STATUS_VALID"
                 and status & getattr(chess, n)]
        raise RulingError("the position is not one a game can reach (%s)" % ", ".join(
            sorted(names)))


def one_king_each(board: chess.Board) -> None:
    """Refuse a position without exactly one king of each colour."""
    if len(board.pieces(chess.KING, chess.WHITE)) != 1 or \
            len(board.pieces(chess.KING, chess.BLACK)) != 1:
        raise RulingError("the position needs one king of each colour")


def retracted_board(fen: str) -> chess.Board:
    """The position after taking back a move of each side (both-kings --retracted)."""
    try:
        return chess.Board(fen)
    except ValueError as e:
        raise RulingError("--retracted: %s" % e) from None
