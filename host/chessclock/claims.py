"""Rulings on what happens on the board, per rule set: illegal moves, both kings in check,
draw claims, and a complaint about the clock's setting (seed-requirements §2.8, §6.2,
§6.5-6.7, §10.2). The consequence each rule set gives is applied, not only quoted: the
result, the time to add (with the `chessclock adjust` command that does it), or "referred"
where the rules are silent (S3: the Organising Committee decides).

    chessclock ruling illegal-move (--pgn GAME.pgn | --fen FEN) --move e1f2 [--count N]
                      [--blitz] [--claim before-touch|after-touch]
                      [--king-captured before-press|after-press] [--noticed now|later]
    chessclock ruling both-kings --fen FEN [--retracted FEN]
    chessclock ruling draw-claim (--pgn GAME.pgn | --fen FEN) [--ground moves|repetition|
                      perpetual|no-chances] [--moves N] [--move INTENDED] [--found ...]
    chessclock ruling complaint FLAGFILE --at TIME [--by white|black]

The board facts come from python-chess: legality, check, the plies since the last capture
or pawn move (its halfmove clock), repetitions. The clock cannot see the board: where a
ruling rests on when a lever was pressed, it says what the press time shows and what it
cannot (ACT 20, RAP 17: a move is made when the hand leaves the piece).
"""

import re

import chess

from chessclock import rules as R
from chessclock.ruling import Ruling, RulingError, fmt, other

SIDES = ("white", "black")


def side_name(color):
    return "white" if color == chess.WHITE else "black"


def _win(side):
    return "1-0" if side == "white" else "0-1"


BOARD_FACTS = "FACTS (from the scoresheet or the position given)"


def board_ruling(ruleset):
    r = Ruling(ruleset)
    r.facts_title = BOARD_FACTS
    return r


def refer(r, why):
    """Record a case the rules do not cover as referred to the organisers (S3)."""
    r.referred = why
    r.result = "referred"
    r.rule("%s: %s" % (why, R.REFERRED_TEXT), "referred")
    r.summary = "referred to the Organising Committee: %s" % why
    return r


def press_time_note(r, what):
    """The clock logs when a lever was pressed; the rule set says when a move is made."""
    rs = r.ruleset
    if rs.move_made_at == R.MOVE_AT_RELEASE:
        text = ("%s rests on a press time: the log records when the lever was pressed, not "
                "when the hand left the piece, which is when a move is made; the move was "
                "made at or before the press" % what)
    elif rs.move_made_at == R.MOVE_AT_PRESS:
        text = ("%s rests on a press time: a move is completed by pressing the clock, "
                "which is what the log records" % what)
    else:
        text = ("%s rests on a press time: the log records when the lever was pressed; "
                "the rules do not say when a move is made (the player moves, then presses)"
                % what)
    r.rule(text, "move_time")


def adjust_command(side, ms, reason=None, article=None):
    """The command that gives `side` ms more, with its ground (--reason, --article) when
    known, so that the log carries it."""
    out = "chessclock adjust %s +%s" % (side, "%dm" % (ms // 60000) if ms % 60000 == 0
                                        else "%ds" % (ms // 1000))
    if reason:
        out += ' --reason "%s"' % reason
        article = (article or "").split(" (")[0].strip()   # the article, not its gloss
        if article and len(article.encode()) <= 40:        # what the clock keeps of it
            out += ' --article "%s"' % article
    return out


# ---------------------------------------------------------------- positions and moves

_COORD = re.compile(r"^([a-h][1-8])\s*[-x:]?\s*([a-h][1-8])\s*=?([qrbnQRBN])?$")


def board_from(game=None, fen=None):
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


def parse_move(board, text):
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


# Why a move is illegal, in the words of S3 item 3 (3.1-3.4).
NOT_ILLEGAL = "legal"
NO_ESCAPE = "does not get the king out of check (S3 3.1)"
KING_INTO_CHECK = "moves the king to an attacked square (S3 3.2)"
EXPOSES_KING = "exposes its own king to check (S3 3.3: a pinned piece, a protected piece " \
               "taken by the king)"
WRONG_MOVE = "moves or captures in a way the piece cannot (S3 3.4)"


def classify(board, move):
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

def rule_illegal(board, move, ruleset, count=1, blitz=False, claim=None, king_captured=None,
                 noticed="now", max_nodes=None):
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

    if noticed == "later":  # neither player noticed it at the time (§6.7)
        if ruleset.unnoticed == R.UNNOTICED_STANDS:
            r.rule("Illegal moves neither player noticed cannot be corrected afterwards, "
                   "and no claim can rest on them: the game goes on from the position on "
                   "the board", "unnoticed_illegal")
            r.summary = "the illegal move stands"
            return r
        if ruleset.unnoticed == R.UNNOTICED_REFERRED:
            if kind == R.ILLEGAL_LOSS:
                r.rule("The rules make an illegal move a loss but say nothing of one found "
                       "only later", "illegal_move")
            return refer(r, "an illegal move found after the game went on")
        r.rule("The position immediately before the irregularity is reinstated (if it "
               "cannot be determined, the last identifiable position before it); the "
               "clocks are set by the arbiter's best judgement", "unnoticed_illegal")
        # and the completed illegal move is penalised as any other, below

    if kind == R.ILLEGAL_LOSS:
        r.rule("An illegal move loses: %s loses" % mover, "illegal_move")
        r.result, r.summary = _win(opp), "%s loses: illegal move" % mover
        return r

    if kind == R.ILLEGAL_PLUS2_THEN_LOSS:
        if count <= 1:
            ms = 60000 if blitz else 120000
            r.rule("The position before the illegal move is reinstated and %s makes a legal "
                   "move (touch-move applies); first completed illegal move: %s gets %s "
                   "more: `%s`" % (mover, opp, "1 minute" if blitz else "2 minutes",
                                   adjust_command(opp, ms, "illegal move",
                                                  ruleset.art("illegal_move"))),
                   "illegal_move")
            r.times = {opp: ms}
            r.summary = "+%s to %s; play on" % (fmt(ms), opp)
            return r
        from chessclock import deadpos

        v = deadpos.can_mate(board, not board.turn, max_nodes=max_nodes or
                             deadpos.DEFAULT_NODES)
        r.mate = v.as_dict()
        r.rule("A second completed illegal move by the same player loses the game, unless "
               "the opponent cannot checkmate by any series of legal moves: %s"
               % v.describe(), "illegal_move")
        if v.status == deadpos.PROVEN:
            r.result, r.summary = "1/2-1/2", "second illegal move, but %s cannot mate: " \
                                             "draw" % opp
        else:
            r.result, r.summary = _win(opp), "%s loses: second illegal move" % mover
        return r

    if kind == R.ILLEGAL_PLUS2_ON_CLAIM:
        r.rule("On %s's claim the arbiter may give %s 2 minutes more (his discretion): `%s`; "
               "the illegal move is corrected under the Laws (ACT 19)"
               % (opp, opp, adjust_command(opp, 120000, "illegal move",
                                          ruleset.art("illegal_move"))), "illegal_move")
        r.times = {opp: 120000}
        r.summary = "on claim: +2:00 to %s at the arbiter's discretion" % opp
        return r

    # RAP 8c: a win if claimed before the claimant touches a piece; the king may be taken.
    if king_captured == "before-press":
        r.rule("%s took the king before %s had pressed the clock: the game is drawn"
               % (opp.capitalize(), mover), "illegal_move")
        press_time_note(r, "Whether the king was taken before the press")
        r.result, r.summary = "1/2-1/2", "king taken before the press: draw"
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
        r.result, r.summary = _win(opp), "%s wins: illegal move claimed" % opp
        return r
    r.rule("%s wins if he claims before touching a piece (--claim before-touch); taking "
           "the king before %s pressed the clock is a draw (--king-captured before-press); "
           "without a claim the move stands" % (opp.capitalize(), mover), "illegal_move")
    r.summary = "depends on the claim: give --claim or --king-captured"
    return r


# ---------------------------------------------------------------- both kings in check

def both_kings_in_check(board):
    us = board.king(board.turn)
    them = board.king(not board.turn)
    return (us is not None and them is not None and board.is_check()
            and board.is_attacked_by(board.turn, them))


def rule_both_kings(board, ruleset, retracted=None):
    r = board_ruling(ruleset)
    r.facts = ["Position: %s" % board.fen()]
    if not both_kings_in_check(board):
        r.rule("The kings are not both in check in this position", "both_kings")
        r.summary = "not both kings in check"
        return r
    r.facts.append("Both kings are in check: an illegal move was made and not noticed")
    how = ruleset.both_kings
    if how == R.BOTH_KINGS_REFERRED:
        return refer(r, "both kings in check")
    if how == R.BOTH_KINGS_ARBITER:
        r.rule("Illegal moves the players did not notice stand and no claim can rest on "
               "them; the rules give no remedy for both kings in check: the arbiter "
               "decides, and his decision is final", "both_kings")
        r.summary = "the arbiter decides (final)"
        return r
    if how == R.BOTH_KINGS_RESTORE:
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
    r.result, r.summary = "1/2-1/2", "both kings in check, not solved by a retraction: draw"
    return r


# ---------------------------------------------------------------- draw claims (§6.2, §10.2)

GROUNDS = ("moves", "repetition", "perpetual", "no-chances")


def no_capture_plies(board):
    """Plies since the last capture or pawn move (python-chess's halfmove clock)."""
    return board.halfmove_clock


# ACT 14b: the positions without practical winning chances, as (the claimant's piece, the
# opponent's only piece); with unequal material only the side with the advantage claims,
# and the claimant may have more than the piece listed (ACT 14 NOTE).
NO_CHANCES_PAIRS = (
    ("Q", "Q"), ("R", "R"), ("B", "B"), ("N", "N"), ("P", "P"),   # like against like
    ("R", "N"), ("R", "B"),                                       # rook v knight or bishop
    ("B", "N"), ("N", "B"),                                       # bishop v knight
    ("B", "P"), ("N", "P"), ("R", "P"),                           # a piece v a pawn
    ("Q", "R"), ("Q", "B"), ("Q", "N"), ("Q", "P"),               # queen v anything less
)
_NAMES = {"Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}


def _pieces_of(board, color):
    """The side's pieces besides the king, as letters, e.g. "RP"."""
    return "".join(chess.piece_symbol(pt).upper() * len(board.pieces(pt, color))
                   for pt in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN))


def no_chances_listed(board, claimant):
    """The ACT 14b entry that covers the claim of `claimant` (a colour), or None."""
    mine, theirs = _pieces_of(board, claimant), _pieces_of(board, not claimant)
    for x, y in NO_CHANCES_PAIRS:
        if theirs == y and x in mine:
            return "%s against %s" % (_NAMES[x], _NAMES[y])
    # king against the "wrong" bishop and a rook's pawn, the claimant's king on or next to
    # the queening square
    if sorted(theirs) == ["B", "P"]:
        opp = not claimant
        pawn = next(iter(board.pieces(chess.PAWN, opp)))
        bishop = next(iter(board.pieces(chess.BISHOP, opp)))
        if chess.square_file(pawn) in (0, 7):
            queening = chess.square(chess.square_file(pawn), 7 if opp == chess.WHITE else 0)
            wrong = _dark(queening) != _dark(bishop)
            king = board.king(claimant)
            if wrong and king is not None and chess.square_distance(king, queening) <= 1:
                return ("king against the bishop that does not control the queening square "
                        "and a rook's pawn, the claimant's king controlling %s"
                        % chess.square_name(queening))
    return None


def _dark(square):
    return bool(chess.BB_SQUARES[square] & chess.BB_DARK_SQUARES)


def repetition_cycle(board):
    """(times the position stands, the side that gave check with every move since its first
    time or None): a perpetual check shown on the scoresheet."""
    key = board.epd()
    b = board.copy()
    times, all_checks, made = 1, {chess.WHITE: True, chess.BLACK: True}, \
        {chess.WHITE: 0, chess.BLACK: 0}
    span = None
    while b.move_stack:
        mv = b.pop()
        mover = b.turn
        made[mover] += 1
        if not b.gives_check(mv):
            all_checks[mover] = False
        if b.epd() == key:
            times += 1
            span = {c: all_checks[c] and made[c] > 0 for c in (chess.WHITE, chess.BLACK)}
    checker = None
    if span:
        checker = next((c for c in (chess.WHITE, chess.BLACK) if span[c]), None)
    return times, checker


def _rule_rap_repetition(r, after, ground, written):
    """RAP 10d: the game is drawn when there is perpetual check, or when a player shows a
    forced repetition of the position (the Laws of the time: three times)."""
    if not after.move_stack:
        r.rule("A FEN has no history: give the scoresheet (--pgn) to show the repetition",
               "repetition")
        return False
    times, checker = repetition_cycle(after)
    tail = " after the intended move" if written else ""
    if ground == "perpetual":
        valid = times >= 3 and checker is not None
        if valid:
            r.rule("RAP 10d: perpetual check: the position stands for the %s time%s and every "
                   "move of %s since it first stood gave check: the game is drawn"
                   % (_nth(times), tail, side_name(checker)), "repetition")
        else:
            r.rule("RAP 10d: no perpetual check on the scoresheet: %s"
                   % ("the position stands only %d time(s)%s (three shown)" % (times, tail)
                      if times < 3 else "not every move of one side gave check"),
                   "repetition")
        return valid
    valid = times >= 3
    r.rule("RAP 10d: a repetition of the position: it stands %d time(s)%s; three show it%s"
           % (times, tail, "" if valid else ": not shown"), "repetition")
    return valid


def _nth(n):
    return {1: "first", 2: "second", 3: "third"}.get(n, "%dth" % n)


def rule_draw_claim(board, ruleset, ground="moves", n_moves=None, intended=None,
                    found=None, from_fen=False, own_flag=None):
    """A draw claim by the side to move (it writes its intended move, if any, first)."""
    r = board_ruling(ruleset)
    claimant = side_name(board.turn)
    opp = other(claimant)
    r.facts = ["Position at the claim: %s" % board.fen(),
               "Claim by %s (the side to move) on the ground: %s" % (claimant, ground)]
    if ground not in GROUNDS:
        raise RulingError("--ground %r: one of %s" % (ground, ", ".join(GROUNDS)))
    after = board
    if intended is not None:
        mv = parse_move(board, intended)
        if not board.is_legal(mv):
            raise RulingError("--move %s: the intended move is not legal here" % intended)
        r.facts.append("Intended move written on the scoresheet: %s" % board.san(mv))
        after = board.copy()
        after.push(mv)
    valid = None
    topic = {"moves": "draw_claim", "repetition": "repetition"}.get(ground,
                                                                   "practical_chances")
    if ruleset.key == "rap1990" and ground == "perpetual":
        topic = "repetition"   # RAP 10d
    if ground == "moves":
        n = n_moves if n_moves is not None else ruleset.draw_claim_moves
        if n is None or n < 1:
            raise RulingError("--moves N: the number of moves of each player, 1 or more")
        plies = no_capture_plies(after)
        r.facts.append("Moves of each player without a capture or a pawn move: %d (%d "
                       "half-moves%s)" % (plies // 2, plies, ", from the FEN's halfmove "
                                          "field" if from_fen else ""))
        auto = ruleset.draw_auto_moves
        if auto and plies >= 2 * auto and not after.is_checkmate():
            r.rule("The last %d moves of each player were made without a capture or a pawn "
                   "move: the game is drawn without a claim" % auto, "draw_claim")
            r.result, r.summary = "1/2-1/2", "%d-move rule: draw" % auto
            return r
        valid = plies >= 2 * n
        r.rule("The claim needs the last %d moves of each player without a capture or a "
               "pawn move: %s" % (n, "they were" if valid else "only %d were" % (plies // 2)),
               "draw_claim")
    elif ground == "repetition" and ruleset.key != "rap1990":
        if not board.move_stack:
            r.rule("A FEN has no history: give the scoresheet (--pgn) to check repetitions",
                   "repetition")
        valid = after.is_repetition(3)
        r.rule("The same position with the same player to move %s at least three times%s"
               % ("occurs" if valid else "does not occur",
                  " after the intended move" if after is not board else ""), "repetition")
        if not valid and after is board and board.can_claim_threefold_repetition():
            r.rule("A move the claimant could write would repeat it a third time: the "
                   "claim needs that move written on the scoresheet first (--move)",
                   "repetition")
    elif ruleset.key == "rap1990" and ground != "no-chances":  # RAP 10d
        valid = _rule_rap_repetition(r, after, ground, after is not board)
    else:  # ACT 14a-b
        if ruleset.key != "act1987":
            raise RulingError("--ground %s is a claim of the Active rules (ACT 14) or of the "
                              "5-minute rules (RAP 10d): use --rules act1987 or rap1990"
                              % ground)
        from chessclock import deadpos

        r.facts.append("Material: %s %s, %s %s" % (
            claimant, deadpos.material_signature(board, board.turn), opp,
            deadpos.material_signature(board, not board.turn)))
        if own_flag is None:
            raise RulingError("ACT 14: a draw claim is made with the claimant's own flag up: "
                              "give --own-flag up|fallen (the claimant's flag)")
        r.facts.append("The claimant's own flag: %s" % own_flag)
        if own_flag != "up":
            r.rule("ACT 14 lets a player claim a draw only with his own flag up; %s's flag "
                   "has fallen: the claim cannot be made (the flag is ruled on its own: "
                   "ACT 9c, 10)" % claimant, "practical_chances")
            r.summary = "claim not admissible: the claimant's flag has fallen"
            return r
        if ground == "perpetual":
            r.rule("ACT 14a: %s claims he can keep the opposing king in perpetual check; the "
                   "arbiter judges it (give --found correct|incorrect)" % claimant,
                   "practical_chances")
            if found is None:
                r.summary = "the arbiter judges the claim (--found)"
                return r
            valid = found == "correct"
        else:
            listed = no_chances_listed(board, board.turn)
            if listed is None:
                r.rule("ACT 14b: %s against %s is not among the positions without practical "
                       "winning chances (with unequal material only the side with the "
                       "advantage may claim): the claim is false"
                       % (deadpos.material_signature(board, board.turn),
                          deadpos.material_signature(board, not board.turn)),
                       "practical_chances")
                valid = False
            else:
                r.rule("ACT 14b: %s is a position without practical winning chances for "
                       "the opponent%s" % (listed, "" if found != "incorrect" else
                                            "; but the arbiter finds the opponent has a "
                                            "demonstrable forced win (ACT 14 NOTE)"),
                       "practical_chances")
                valid = found != "incorrect"
    if valid:
        r.result, r.summary = "1/2-1/2", "claim correct: draw"
        r.rule("The claim is correct: the game is drawn", topic)
        return r
    ms = ruleset.false_claim_ms
    if ruleset.false_claim_grounds is not None and ground not in ruleset.false_claim_grounds:
        ms = None   # ACT 14's +2 min is for its own claims, not the Laws' 50-move claim
    if ruleset.key == "br-knockout":
        r.rule("The claim is not correct: play continues (the rules set no penalty for it)",
               "false_claim")
        r.summary = "claim refused; play on"
        return r
    if ms:
        r.rule("The claim is not correct: %s gets %s more: `%s`; then play continues%s"
               % (opp, fmt(ms), adjust_command(opp, ms, "incorrect claim",
                                               ruleset.art("false_claim")),
                  " with the intended move" if intended is not None else ""), "false_claim")
        r.times = {opp: ms}
        r.summary = "claim refused: +%s to %s; play on" % (fmt(ms), opp)
        return r
    r.rule("The claim is not correct: play continues (the seed sets no time penalty for "
           "it)", "false_claim")
    r.summary = "claim refused; play on"
    return r


# ---------------------------------------------------------------- setting complaint (§2.8)

def first_presses(events):
    out = {}
    for e in events:
        if e.get("type") == "press" and e.get("side") in SIDES and e["side"] not in out:
            out[e["side"]] = e["t_ms"]
    return out


def rule_complaint(events, ruleset, at_ms, by=None):
    """Was a complaint about the clock's setting (or the pieces) made in time?"""
    r = Ruling(ruleset)
    first = first_presses(events)
    r.facts = ["Complaint about the setting at %s%s" % (fmt(at_ms), " by %s" % by if by
                                                         else "")]
    for s in SIDES:
        r.facts.append("%s's first press: %s" % (s.capitalize(), fmt(first[s]) if s in first
                                                  else "none in the log"))
    window = ruleset.complaint_window
    if window == "referred":
        return refer(r, "a complaint about the clock's setting")
    if window is None:
        r.rule("A wrong setting found during the game is corrected whenever it is found: "
               "the arbiter sets the clock right and adjusts the times and the move counter "
               "(`chessclock settime`, `chessclock moves`)", "setting_complaint")
        r.in_time = True
        r.summary = "in time: the arbiter corrects the setting"
        return r
    if window == "own":
        if by is None:
            raise RulingError("complaint under %s: give --by white|black (the complaint is "
                              "too late once that player has moved)" % ruleset.key)
        closing = [first[by]] if by in first else []
        closes = "once %s has made his first move" % by
    else:
        closing = [first[s] for s in SIDES] if len(first) == 2 else []
        closes = "once each player has made his first move"
    late = bool(closing) and max(closing) <= at_ms
    r.in_time = not late
    r.rule("No complaint about the setting is accepted %s, unless both players agree: "
           "this one is %s" % (closes, "TOO LATE" if late else "IN TIME"),
           "setting_complaint")
    pending = [t for t in closing if t > at_ms] if closing else []
    if not late and pending:
        r.rule("The press that closes the window came at %s, after the complaint; a move "
               "can be made before its press, so if the hand had already left the piece "
               "when the complaint came, it was too late" % fmt(min(pending)),
               "move_time")
    press_time_note(r, "The deadline")
    if late:
        r.summary = "too late (unless both players agree); play on"
    else:
        r.summary = "in time: the arbiter checks and corrects the setting"
    return r
