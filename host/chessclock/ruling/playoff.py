"""The knockout play-off (seed S3 4.1): a drawn game is replayed for at most 10 moves each;
whoever takes the king, or else has more material points (P1, N3, B3, R5, Q9), wins.

    chessclock ruling playoff (--pgn PLAYOFF.pgn | --fen FEN) [--limit N] [--rules R]

On the clock the preset `br-playoff` ends the game at the press that gives both sides 10
moves (engine move limit; the log records `limit` then `end`). This computes the result
from the final position: a FEN (a king may be missing: it was taken), or the play-off's
scoresheet, of which only the first N moves of each side count.
"""

import chess
import chess.pgn

from chessclock.ruling import rules as R
from chessclock.ruling.events import Event, RulingError, fmt, resolve_control
from chessclock.ruling.facts import Facts
from chessclock.ruling.flag import rule_flag
from chessclock.ruling.rules import RuleSet
from chessclock.ruling.verdict import Result, Ruling, board_ruling, refer

LETTERS = {chess.PAWN: "P", chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R",
           chess.QUEEN: "Q"}


def points(board: chess.Board, color: chess.Color) -> int:
    """Material points of a side (the king counts apart: taking it wins)."""
    return sum(R.PLAYOFF_POINTS[LETTERS[p.piece_type]] for p in board.piece_map().values()
               if p.color == color and p.piece_type != chess.KING)


def _count_line(board: chess.Board, color: chess.Color) -> str:
    parts = []
    for pt in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
        n = len(board.pieces(pt, color))
        if n:
            parts.append("%d%s x %d" % (n, LETTERS[pt], R.PLAYOFF_POINTS[LETTERS[pt]]))
    return " + ".join(parts) or "nothing but the king"


def final_position(game: chess.pgn.Game, limit: int
                   ) -> tuple[chess.Board, dict[chess.Color, int], int]:
    """(board, moves made {white, black}, moves left unplayed, mated side or None) after
    at most `limit` moves of each side of the scoresheet."""
    board = game.board()
    made = {chess.WHITE: 0, chess.BLACK: 0}
    extra = 0
    for mv in game.mainline_moves():
        if made[board.turn] >= limit:
            extra += 1
            continue
        made[board.turn] += 1
        board.push(mv)
    return board, made, extra


def fen_board(fen: str) -> chess.Board:
    """A board from a FEN that may lack a king (taken in the play-off)."""
    try:
        board = chess.Board(fen)
    except ValueError as e:
        raise RulingError("--fen: %s" % e) from None
    for color in (chess.WHITE, chess.BLACK):
        if len(board.pieces(chess.KING, color)) > 1:
            raise RulingError("--fen: %s has more than one king" % (
                "White" if color else "Black"))
    if board.king(chess.WHITE) is None and board.king(chess.BLACK) is None:
        raise RulingError("--fen: neither side has a king")
    return board


def rule_playoff(ruleset: RuleSet, game: chess.pgn.Game | None = None,
                 board: chess.Board | None = None, limit: int = R.PLAYOFF_MOVES,
                 events: list[Event] | None = None) -> Ruling:
    """The play-off's result from its final position; `events`, the play-off's clock log
    (optional): a flag that fell before the move limit decides as in any game."""
    r = board_ruling(ruleset)
    if not 1 <= limit <= 999:
        raise RulingError("--limit %d: the play-off's moves a side, 1 to 999" % limit)
    if not ruleset.playoff:
        r.facts = ["Rules: %s" % ruleset.title]
        r.rule("These rules have no material-points play-off (S3 4.1 has: --rules "
               "br-knockout)", "playoff")
        r.summary = "no play-off in these rules"
        return r
    r.facts = []
    if game is not None:
        board, made, extra = final_position(game, limit)
        r.facts.append("Play-off scoresheet: White %d moves, Black %d moves (at most %d "
                       "each count)" % (made[chess.WHITE], made[chess.BLACK], limit))
        if extra:
            r.facts.append("%d further half-moves on the scoresheet come after the limit "
                           "and do not count" % extra)
    elif board is None:
        raise RulingError("give the final position: --pgn PLAYOFF.pgn or --fen FEN")
    r.facts.append("Final position: %s" % board.fen())
    pts = {c: points(board, c) for c in (chess.WHITE, chess.BLACK)}
    r.points = {"white": pts[chess.WHITE], "black": pts[chess.BLACK]}
    for c, name in ((chess.WHITE, "White"), (chess.BLACK, "Black")):
        r.facts.append("%s: %s = %d points" % (name, _count_line(board, c), pts[c]))
    if events is not None:
        clock = _clock_facts(r, ruleset, events, board, limit)
        if clock is not None:
            return clock
    r.rule("Points: pawn 1, knight 3, bishop 3, rook 5, queen 9; the king is infinitely "
           "valuable: whoever takes it wins", "playoff")
    for c, name, win in ((chess.WHITE, "White", Result.BLACK_WINS),
                         (chess.BLACK, "Black", Result.WHITE_WINS)):
        if board.king(c) is None:
            r.rule("%s's king was taken: %s wins the play-off" % (
                name, "Black" if c == chess.WHITE else "White"), "playoff")
            r.result, r.summary = win, "king taken"
            return r
    if board.is_checkmate():
        loser = "White" if board.turn == chess.WHITE else "Black"
        r.rule("%s is checkmated: the king cannot escape being taken, so the side that "
               "mated wins the play-off (reading of S3 4.1: the rules speak of taking "
               "the king)" % loser, "playoff")
        r.result = Result.BLACK_WINS if board.turn == chess.WHITE else Result.WHITE_WINS
        r.summary = "checkmate (the king would be taken)"
        return r
    if board.is_stalemate():
        return refer(r, "the play-off ended in stalemate (points would be White %d, "
                        "Black %d)" % (pts[chess.WHITE], pts[chess.BLACK]))
    if pts[chess.WHITE] == pts[chess.BLACK]:
        return refer(r, "the play-off ended with equal points (%d each)" % pts[chess.WHITE])
    if game is not None and min(made.values()) < limit:
        r.rule("The scoresheet has fewer than %d moves of each side: if the play-off ended "
               "otherwise (a flag, a resignation) that decides; the points are those of "
               "this position" % limit, "playoff")
    w = pts[chess.WHITE] > pts[chess.BLACK]
    r.rule("%s has more points (%d against %d): %s wins the play-off" % (
        "White" if w else "Black", max(pts.values()), min(pts.values()),
        "White" if w else "Black"), "playoff")
    r.result = Result.WHITE_WINS if w else Result.BLACK_WINS
    r.summary = "more points: %s %d, %s %d" % ("White", pts[chess.WHITE], "Black",
                                                 pts[chess.BLACK])
    return r


def _clock_facts(r: Ruling, ruleset: RuleSet, events: list[Event], board: chess.Board,
                 limit: int) -> Ruling | None:
    """Add what the play-off's clock log shows; a ruling on a flag if one decides."""
    facts = Facts.of(events)
    r.facts += ["Clock: " + x for x in facts.lines()]
    if facts.limit is not None:
        if facts.presses["white"] != limit or facts.presses["black"] != limit:
            r.rule("The clock ended the play-off at its move limit; the presses (White %d, "
                   "Black %d) differ from %d each: the scoresheet decides which moves were "
                   "made" % (facts.presses["white"], facts.presses["black"], limit), "counter")
        return None
    flags = facts.standing_flags
    if flags:
        control, spec, _ = resolve_control(None, events)  # the log's header, if any
        fr = rule_flag(events, ruleset, control, spec, board=board)
        fr.facts = r.facts + fr.facts[len(facts.lines(spec, ruleset.title)):]
        fr.facts_title = r.facts_title
        fr.lines.insert(0, ("A flag fell at %s, before the play-off's %d moves each: "
                            "the flag decides, as in any game" % (fmt(flags[0]["t_ms"]),
                                                                   limit),
                            ruleset.art("playoff")))
        fr.points = r.points
        return fr
    r.rule("The clock's log shows no move limit reached and no flag: the play-off was ended "
           "otherwise (the arbiter's end, a resignation); the points below are those of the "
           "final position", "playoff")
    return None
