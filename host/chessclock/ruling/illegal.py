"""Rulings on an illegal move and on both kings in check, per rule set (seed-requirements
§6.5-6.7): the consequence each rule set gives is applied, not only quoted: the result, the
time to add (with the `chessclock adjust` command that does it), or "referred" where the
rules are silent (S3: the Organising Committee decides). The board facts come from
python-chess: legality and check.
"""

import chess

from chessclock.ruling import deadpos
from chessclock.ruling import rules as R
from chessclock.ruling.events import fmt, other
from chessclock.ruling.position import side_name
from chessclock.ruling.rules import RuleSet
from chessclock.ruling.verdict import (
    Result,
    Ruling,
    adjust_command,
    board_ruling,
    press_time_note,
    refer,
    win,
)

# Why a move is illegal, in the words of S3 item 3 (3.1-3.4).
NOT_ILLEGAL = "legal"
NO_ESCAPE = "does not get the king out of check (S3 3.1)"
KING_INTO_CHECK = "moves the king to an attacked square (S3 3.2)"
EXPOSES_KING = "exposes its own king to check (S3 3.3: a pinned piece, a protected piece " \
               "taken by the king)"
WRONG_MOVE = "moves or captures in a way the piece cannot (S3 3.4)"


def classify(board: chess.Board, move: chess.Move) -> tuple[str, str]:
    """(reason, detail) for a move in a position."""
    piece = board.piece_at(move.from_square)
    sq = chess.square_name
    if piece is None:
        return WRONG_MOVE, "there is no piece on %s" % sq(move.from_square)
    if piece.color != board.turn:
        return WRONG_MOVE, "the piece on %s is the opponent's" % sq(move.from_square)
    if board.is_legal(move):
        return NOT_ILLEGAL, "%s is a legal move" % board.san(move)
    if board.is_pseudo_legal(move):
        if board.is_check():
            return NO_ESCAPE, "the king is in check and stays in check"
        if piece.piece_type == chess.KING:
            return KING_INTO_CHECK, "the king would stand in check on %s" % sq(move.to_square)
        return EXPOSES_KING, "moving the piece on %s leaves the king in check" % sq(
            move.from_square)
    if piece.piece_type == chess.KING and abs(chess.square_file(move.from_square)
                                              - chess.square_file(move.to_square)) == 2:
        return WRONG_MOVE, "castling is not allowed here (a piece between, the king or " \
                           "rook has moved, or the king is in, passes or ends in check)"
    return WRONG_MOVE, "the %s on %s cannot go to %s" % (
        chess.piece_name(piece.piece_type), sq(move.from_square), sq(move.to_square))


# ---------------------------------------------------------------- illegal move (§6.5-6.7)

def rule_illegal(board: chess.Board, move: chess.Move, ruleset: RuleSet, count: int = 1,
                 blitz: bool = False, claim: str | None = None,
                 king_captured: str | None = None, noticed: str = "now",
                 max_nodes: int | None = None) -> Ruling:
    """An illegal move: why it is illegal, and what the rule set makes of it (the claim, the
    king taken, noticed only later, the player's first or second)."""
    r = board_ruling(ruleset)
    mover = side_name(board.turn)
    opp = other(mover)
    reason, detail = classify(board, move)
    r.facts = ["Position before the move: %s" % board.fen(),
               "%s played %s: %s" % (mover.capitalize(), move.uci(), detail)]
    if reason == NOT_ILLEGAL:
        r.rule("The move is legal: there is no illegal move to rule on", "illegal_move")
        r.summary = "no illegal move"
        return r
    r.facts.append("Illegal: it %s" % reason)
    if count > 1:
        r.facts.append("This is %s's illegal move number %d in the game" % (mover, count))
    r.illegal = {"by": mover, "move": move.uci(), "reason": reason, "count": count,
                 "noticed": noticed}
    kind = ruleset.illegal_kind
    if noticed == "later" and _noticed_later(r, ruleset):  # §6.7
        return r
    if kind == R.IllegalKind.LOSS:
        r.rule("An illegal move loses: %s loses" % mover, "illegal_move")
        r.result, r.summary = win(opp), "%s loses: illegal move" % mover
        return r
    if kind == R.IllegalKind.PLUS2_THEN_LOSS:
        return _plus2_then_loss(r, board, mover, count, blitz, max_nodes)
    if kind == R.IllegalKind.PLUS2_ON_CLAIM:
        r.rule("On %s's claim the arbiter may give %s 2 minutes more (his discretion): `%s`; "
               "the illegal move is corrected under the Laws (ACT 19)"
               % (opp, opp, adjust_command(opp, 120000, "illegal move",
                                          ruleset.art("illegal_move"))), "illegal_move")
        r.times = {opp: 120000}
        r.summary = "on claim: +2:00 to %s at the arbiter's discretion" % opp
        return r
    return _claim_win(r, mover, claim, king_captured)


def _noticed_later(r: Ruling, ruleset: RuleSet) -> bool:
    """Neither player noticed the illegal move at the time (§6.7). True when that settles
    the ruling; else the position before it is reinstated and the move penalised as any
    other."""
    if ruleset.unnoticed == R.Unnoticed.STANDS:
        r.rule("Illegal moves neither player noticed cannot be corrected afterwards, "
               "and no claim can rest on them: the game goes on from the position on "
               "the board", "unnoticed_illegal")
        r.summary = "the illegal move stands"
        return True
    if ruleset.unnoticed == R.Unnoticed.REFERRED:
        if ruleset.illegal_kind == R.IllegalKind.LOSS:
            r.rule("The rules make an illegal move a loss but say nothing of one found "
                   "only later", "illegal_move")
        refer(r, "an illegal move found after the game went on")
        return True
    r.rule("The position immediately before the irregularity is reinstated (if it "
           "cannot be determined, the last identifiable position before it); the "
           "clocks are set by the arbiter's best judgement", "unnoticed_illegal")
    return False


def _plus2_then_loss(r: Ruling, board: chess.Board, mover: str, count: int, blitz: bool,
                     max_nodes: int | None) -> Ruling:
    """FIDE 7.5.5: the first completed illegal move gives the opponent 2 minutes (blitz 1);
    the second loses, unless the opponent cannot mate."""
    opp = other(mover)
    if count <= 1:
        ms = 60000 if blitz else 120000
        r.rule("The position before the illegal move is reinstated and %s makes a legal "
               "move (touch-move applies); first completed illegal move: %s gets %s "
               "more: `%s`" % (mover, opp, "1 minute" if blitz else "2 minutes",
                               adjust_command(opp, ms, "illegal move",
                                              r.ruleset.art("illegal_move"))),
               "illegal_move")
        r.times = {opp: ms}
        r.summary = "+%s to %s; play on" % (fmt(ms), opp)
        return r
    v = deadpos.can_mate(board, not board.turn, max_nodes=max_nodes or
                         deadpos.DEFAULT_NODES)
    r.mate = v.as_dict()
    r.rule("A second completed illegal move by the same player loses the game, unless "
           "the opponent cannot checkmate by any series of legal moves: %s"
           % v.describe(), "illegal_move")
    if v.status == deadpos.Status.PROVEN:
        r.result, r.summary = Result.DRAW, "second illegal move, but %s cannot mate: " \
                                         "draw" % opp
    else:
        r.result, r.summary = win(opp), "%s loses: second illegal move" % mover
    return r


def _claim_win(r: Ruling, mover: str, claim: str | None, king_captured: str | None) -> Ruling:
    """RAP 8c: a win if claimed before the claimant touches a piece; the king may be
    taken."""
    opp = other(mover)
    if king_captured == "before-press":
        r.rule("%s took the king before %s had pressed the clock: the game is drawn"
               % (opp.capitalize(), mover), "illegal_move")
        press_time_note(r, "Whether the king was taken before the press")
        r.result, r.summary = Result.DRAW, "king taken before the press: draw"
        return r
    if claim == "after-touch":
        r.rule("%s touched a piece before claiming: the claim comes too late and the move "
               "stands" % opp.capitalize(), "illegal_move")
        r.summary = "claim too late: the move stands"
        return r
    if claim == "before-touch" or king_captured == "after-press":
        how = ("by taking the king after the press" if king_captured == "after-press"
               else "before touching a piece")
        r.rule("%s claimed %s: %s wins (an illegal move, the king left or put in check "
               "included)" % (opp.capitalize(), how, opp), "illegal_move")
        if king_captured == "after-press":
            press_time_note(r, "Whether the king was taken after the press")
        r.result, r.summary = win(opp), "%s wins: illegal move claimed" % opp
        return r
    r.rule("%s wins if he claims before touching a piece (--claim before-touch); taking "
           "the king before %s pressed the clock is a draw (--king-captured before-press); "
           "without a claim the move stands" % (opp.capitalize(), mover), "illegal_move")
    r.summary = "depends on the claim: give --claim or --king-captured"
    return r


# ---------------------------------------------------------------- both kings in check

def both_kings_in_check(board: chess.Board) -> bool:
    us = board.king(board.turn)
    them = board.king(not board.turn)
    return (us is not None and them is not None and board.is_check()
            and board.is_attacked_by(board.turn, them))


def rule_both_kings(board: chess.Board, ruleset: RuleSet,
                    retracted: chess.Board | None = None) -> Ruling:
    """Both kings in check: an illegal move was made and not noticed."""
    r = board_ruling(ruleset)
    r.facts = ["Position: %s" % board.fen()]
    if not both_kings_in_check(board):
        r.rule("The kings are not both in check in this position", "both_kings")
        r.summary = "not both kings in check"
        return r
    r.facts.append("Both kings are in check: an illegal move was made and not noticed")
    how = ruleset.both_kings
    if how == R.BothKings.REFERRED:
        return refer(r, "both kings in check")
    if how == R.BothKings.ARBITER:
        r.rule("Illegal moves the players did not notice stand and no claim can rest on "
               "them; the rules give no remedy for both kings in check: the arbiter "
               "decides, and his decision is final", "both_kings")
        r.summary = "the arbiter decides (final)"
        return r
    if how == R.BothKings.RESTORE:
        r.rule("The move that left a king in check was an illegal move: the position "
               "immediately before it is reinstated and the illegal move penalised (first: "
               "+2 min to the opponent; second: loss); `chessclock ruling illegal-move` "
               "with that position and move applies it", "both_kings")
        r.summary = "reinstate the position before the illegal move"
        return r
    # ACT 21: retract a move of each side if that solves it, else a draw
    if retracted is None:
        r.rule("One move of each side is taken back if that leaves a legal position; "
               "otherwise the game is drawn (give --retracted FEN, the position after "
               "taking them back, to check it)", "both_kings")
        r.summary = "retract a move each if that solves it, else draw"
        return r
    r.facts.append("Position after taking back a move each: %s" % retracted.fen())
    if retracted.is_valid() and not both_kings_in_check(retracted):
        r.rule("Taking back a move each gives a legal position: play resumes from it, %s "
               "to move" % side_name(retracted.turn), "both_kings")
        r.summary = "a move each taken back; play on"
        return r
    r.rule("Taking back a move each does not give a legal position: the game is drawn",
           "both_kings")
    r.result, r.summary = Result.DRAW, "both kings in check, not solved by a retraction: draw"
    return r
