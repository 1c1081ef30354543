"""Can a side still checkmate? A helpmate question (FIDE 6.9, 5.2.2).

"The opponent cannot checkmate the player's king by any possible series of legal moves"
means: no sequence of legal moves, both sides cooperating, ends with the player's king
mated. So the question is a helpmate search, not a question about winning chances.

`can_mate(board, attacker)` answers with a `MateVerdict`:

- `PROVEN` impossible, with the method: a static argument that holds for every series of
  moves (lone king; lone minor piece against a bare king; only bishops on one colour of
  squares; a pawn wall that no pawn and no king can ever break: every pawn blocked for good,
  no pawn capture possible, no king able to reach an undefended enemy pawn), or an
  exhaustive search that visited every position reachable from this one without finding a
  mate (possible when the reachable set is small).
- `FOUND`: a series of legal moves that ends in mate of the defender's king, in SAN.
- `UNDECIDED`: neither within the node budget.

The search is a best-first search over positions (each position once, transposition key
without move counters; the 50/75-move rules are ignored, as the dead-position rule does),
ordered by a heuristic that pulls the defender's king towards a corner and the attacker's
pieces towards it. Positions where the game has ended (checkmate of either side,
stalemate) are not expanded. If the frontier empties, every reachable position has been
seen: a proof.
"""

import heapq
import itertools
from collections.abc import Hashable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import chess


class Status(StrEnum):
    """The answer of can_mate."""

    PROVEN = "proven"      # mate by the attacker is impossible: the position is dead for it
    FOUND = "found"        # a helpmate exists; `line` gives it
    UNDECIDED = "undecided"


DEFAULT_NODES = 60000


@dataclass(frozen=True)
class MateVerdict:
    """can_mate's answer: whether `attacker` can still mate, how that was decided, and the
    mating line when one was found."""

    status: Status
    attacker: chess.Color           # chess.WHITE / chess.BLACK: the side that would mate
    method: str                     # how it was decided, in words
    line: list[str] = field(default_factory=list)   # SAN moves, for FOUND
    nodes: int = 0

    @property
    def mate_impossible(self) -> bool:
        return self.status == Status.PROVEN

    def describe(self) -> str:
        who = "White" if self.attacker == chess.WHITE else "Black"
        if self.status == Status.PROVEN:
            return "PROVEN: %s cannot checkmate by any series of legal moves (%s)" % (
                who, self.method)
        if self.status == Status.FOUND:
            return "FOUND: %s can checkmate: %s (%s)" % (who, " ".join(self.line), self.method)
        return "UNDECIDED: no mate found and no proof within %d positions (%s)" % (
            self.nodes, self.method)

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "attacker": "white" if self.attacker else "black",
                "method": self.method, "line": self.line, "nodes": self.nodes}

    def __repr__(self) -> str:
        return "MateVerdict(%r, %r)" % (self.status.value, self.method)


def _king(board: chess.Board, color: chess.Color) -> chess.Square:
    """The square of `color`'s king: a position searched has both (the rulings refuse a
    position no game can reach)."""
    sq = board.king(color)
    if sq is None:
        raise ValueError("the %s king is missing" % ("white" if color else "black"))
    return sq


def _pieces(board: chess.Board, color: chess.Color) -> dict[chess.PieceType, chess.SquareSet]:
    return {pt: board.pieces(pt, color) for pt in chess.PIECE_TYPES if pt != chess.KING}


def _count(board: chess.Board, color: chess.Color) -> int:
    return sum(len(s) for s in _pieces(board, color).values())


def _static_proof(board: chess.Board, attacker: chess.Color) -> str | None:
    """A reason why `attacker` can never mate, valid for every continuation, or None."""
    defender = not attacker
    att = _pieces(board, attacker)
    n_att = _count(board, attacker)
    n_def = _count(board, defender)
    if n_att == 0:
        return "a lone king cannot give check"
    minors = len(att[chess.KNIGHT]) + len(att[chess.BISHOP])
    if n_att == 1 and minors == 1 and n_def == 0:
        return "a lone minor piece cannot mate a bare king"
    # Only bishops on the board (besides kings), all on squares of one colour: every
    # checking square and every square a bishop covers has that colour, and a king always
    # has flight squares of the other colour that nothing can ever occupy or cover.
    others = [pt for pt in (chess.PAWN, chess.KNIGHT, chess.ROOK, chess.QUEEN)
              if board.pieces(pt, chess.WHITE) or board.pieces(pt, chess.BLACK)]
    bishops = board.pieces(chess.BISHOP, chess.WHITE) | board.pieces(chess.BISHOP, chess.BLACK)
    if not others and bishops and (not bishops & chess.BB_DARK_SQUARES
                                   or not bishops & chess.BB_LIGHT_SQUARES):
        return "only bishops on squares of one colour remain"
    wall = _pawn_wall(board)
    if wall:
        return wall
    return None


def _pawn_wall(board: chess.Board) -> str | None:
    """Kings and pawns only, every pawn blocked for good and no pawn ever capturable:
    then nothing but the kings can ever move, no check can ever arise, so no mate."""
    for pt in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        if board.pieces(pt, chess.WHITE) or board.pieces(pt, chess.BLACK):
            return None
    pawns = board.pieces(chess.PAWN, chess.WHITE) | board.pieces(chess.PAWN, chess.BLACK)
    if not pawns or board.is_check():
        return None
    pawn_bb = int(pawns)
    for color in (chess.WHITE, chess.BLACK):
        for sq in board.pieces(chess.PAWN, color):
            ahead = sq + 8 if color == chess.WHITE else sq - 8
            if not (0 <= ahead < 64) or not pawn_bb & chess.BB_SQUARES[ahead]:
                return None  # can advance now or once a king steps away
            if chess.BB_PAWN_ATTACKS[color][sq] & int(board.pieces(chess.PAWN, not color)):
                return None  # a capture is possible now
    if board.ep_square is not None:
        return None
    for color in (chess.WHITE, chess.BLACK):
        enemy_pawns = board.pieces(chess.PAWN, not color)
        # squares the enemy pawns attack (fixed, since no pawn ever moves): our king can
        # never stand there, and an enemy pawn on such a square is defended for good
        attacked = 0
        for sq in enemy_pawns:
            attacked |= chess.BB_PAWN_ATTACKS[not color][sq]
        region = _flood(_king(board, color), pawn_bb | attacked)
        for sq in enemy_pawns:
            # capturable if our king reaches a neighbour and no enemy pawn defends it
            # (defence by the enemy king is ignored: it can walk away; so this stays a proof)
            if chess.BB_KING_ATTACKS[sq] & region and not attacked & chess.BB_SQUARES[sq]:
                return None
    return ("a pawn wall: every pawn is blocked for good, no pawn capture is possible and "
            "neither king can reach an undefended enemy pawn, so only the kings can ever "
            "move and no check can ever be given")


def _flood(start: chess.Square, blocked: int) -> int:
    """The squares a king on `start` can ever reach without crossing `blocked`."""
    region = chess.BB_SQUARES[start]
    frontier = region
    while frontier:
        nxt = 0
        for sq in chess.scan_forward(frontier):
            nxt |= chess.BB_KING_ATTACKS[sq]
        nxt &= ~blocked & ~region
        region |= nxt
        frontier = nxt
    return region


def _dist(a: chess.Square, b: chess.Square) -> int:
    return chess.square_distance(a, b)


def _corner_dist(sq: chess.Square) -> int:
    f, r = chess.square_file(sq), chess.square_rank(sq)
    return min(f, 7 - f) + min(r, 7 - r)


def _heuristic(board: chess.Board, attacker: chess.Color) -> int:
    """How far the position looks from a mate of the defender: lower is nearer."""
    dk = _king(board, not attacker)
    ak = _king(board, attacker)
    h = 2 * _corner_dist(dk) + _dist(ak, dk)
    # fewer defending pieces besides pawns: simpler positions, where the king is easier
    # to corner (its own pawns stay: they are the blockers of many helpmates)
    h += (chess.popcount(board.occupied_co[not attacker])
          - len(board.pieces(chess.PAWN, not attacker)) - 1)
    for pt in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.PAWN):
        for sq in board.pieces(pt, attacker):
            h += _dist(sq, dk) // 2
    return h


def _key(board: chess.Board) -> Hashable:
    return board._transposition_key()  # pinned python-chess 1.11.2


def _search(board: chess.Board, attacker: chess.Color,
            max_nodes: int) -> tuple[str, list[str], int]:
    """(FOUND, the line in SAN, nodes), (PROVEN, [], nodes) when every position reachable
    was seen without a mate, or (UNDECIDED, [], nodes) at the bound."""
    start = board.copy(stack=False)
    counter = itertools.count()
    # key -> (parent key, move) for the line back
    seen: dict[Hashable, tuple[Hashable, chess.Move] | None] = {_key(start): None}
    boards: dict[Hashable, chess.Board] = {}
    frontier = [(_heuristic(start, attacker), 0, next(counter), _key(start))]
    boards[_key(start)] = start
    nodes = 0
    while frontier:
        if nodes >= max_nodes:
            return Status.UNDECIDED, [], nodes
        _, depth, _, key = heapq.heappop(frontier)
        b = boards.pop(key)
        nodes += 1
        for move in b.legal_moves:
            b.push(move)
            k = _key(b)
            if k not in seen:
                seen[k] = (key, move)
                if b.is_check() and b.is_checkmate():
                    if b.turn != attacker:  # the defender is mated
                        line = _line(seen, k, start)
                        b.pop()
                        return Status.FOUND, line, nodes
                else:  # a stalemate has no moves: it is expanded to nothing
                    child = b.copy(stack=False)
                    boards[k] = child
                    prio = _heuristic(child, attacker) + (depth + 1) // 2
                    heapq.heappush(frontier, (prio, depth + 1, next(counter), k))
            b.pop()
    return Status.PROVEN, [], nodes


def _line(seen: dict[Hashable, tuple[Hashable, chess.Move] | None], key: Hashable,
          start: chess.Board) -> list[str]:
    """The moves from `start` to the position `key`, in SAN."""
    moves = []
    step = seen[key]
    while step is not None:
        parent, move = step
        moves.append(move)
        step = seen[parent]
    moves.reverse()
    b = start.copy(stack=False)
    san = []
    for m in moves:
        san.append(b.san(m))
        b.push(m)
    return san


def can_mate(board: chess.Board, attacker: chess.Color,
             max_nodes: int = DEFAULT_NODES) -> MateVerdict:
    """Can `attacker` (chess.WHITE/BLACK) checkmate the other king by any series of legal
    moves from `board`? A MateVerdict."""
    if board.is_checkmate():
        if board.turn != attacker:
            return MateVerdict(Status.FOUND, attacker, "the defender is already mated", [], 0)
        return MateVerdict(Status.PROVEN, attacker, "the game is over: the attacker is mated")
    if board.is_stalemate():
        return MateVerdict(Status.PROVEN, attacker, "the game is over: stalemate")
    reason = _static_proof(board, attacker)
    if reason:
        return MateVerdict(Status.PROVEN, attacker, reason)
    status, line, nodes = _search(board, attacker, max_nodes)
    if status == Status.FOUND:
        return MateVerdict(Status.FOUND, attacker, "helpmate search, %d positions" % nodes,
                           line, nodes)
    if status == Status.PROVEN:
        return MateVerdict(Status.PROVEN, attacker,
                           "exhaustive search: all %d reachable positions visited, no mate"
                           % nodes, nodes=nodes)
    return MateVerdict(Status.UNDECIDED, attacker, "helpmate search bound", nodes=nodes)


# The old rules' lists of endings in which nobody can mate (ACT 13, RAP 10e, S3): piece
# letters besides the king, per side.
def material_signature(board: chess.Board, color: chess.Color) -> str:
    order = "QRBNP"
    s = ""
    for ch in order:
        pt = chess.Piece.from_symbol(ch).piece_type
        s += ch * len(board.pieces(pt, color))
    return "K" + s


def same_colour_bishops(board: chess.Board) -> bool:
    bishops = board.pieces(chess.BISHOP, chess.WHITE) | board.pieces(chess.BISHOP, chess.BLACK)
    return bool(bishops) and (not bishops & chess.BB_DARK_SQUARES
                              or not bishops & chess.BB_LIGHT_SQUARES)
