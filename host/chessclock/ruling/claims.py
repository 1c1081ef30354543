"""Rulings on a draw claim and on a complaint about the clock's setting, per rule set
(seed-requirements §2.8, §6.2, §10.2). The consequence each rule set gives is applied, not
only quoted: the result, the time to add (with the `chessclock adjust` command that does
it), or "referred" where the rules are silent (S3: the Organising Committee decides).

The board facts come from python-chess: the plies since the last capture or pawn move (its
halfmove clock), repetitions. The clock cannot see the board: where a ruling rests on when
a lever was pressed, it says what the press time shows and what it cannot (ACT 20, RAP 17:
a move is made when the hand leaves the piece).
"""

import chess

from chessclock.ruling import deadpos
from chessclock.ruling.events import SIDES, Event, RulingError, fmt, other
from chessclock.ruling.position import parse_move, side_name
from chessclock.ruling.rules import DRAW_CLAIM_GROUNDS, ComplaintWindow, RuleSet
from chessclock.ruling.verdict import (
    Result,
    Ruling,
    adjust_command,
    board_ruling,
    press_time_note,
    refer,
)

# ---------------------------------------------------------------- draw claims (§6.2, §10.2)

def no_capture_plies(board: chess.Board) -> int:
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


def _pieces_of(board: chess.Board, color: chess.Color) -> str:
    """The side's pieces besides the king, as letters, e.g. "RP"."""
    return "".join(chess.piece_symbol(pt).upper() * len(board.pieces(pt, color))
                   for pt in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN))


def no_chances_listed(board: chess.Board, claimant: chess.Color) -> str | None:
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


def _dark(square: chess.Square) -> bool:
    return bool(chess.BB_SQUARES[square] & chess.BB_DARK_SQUARES)


def repetition_cycle(board: chess.Board) -> tuple[int, chess.Color | None]:
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


def _rule_rap_repetition(r: Ruling, after: chess.Board, ground: str, written: bool) -> bool:
    """RAP 10d: the game is drawn when there is perpetual check, or when a player shows a
    forced repetition of the position (the Laws of the time: three times)."""
    if not after.move_stack:
        r.rule("A FEN has no history: give the scoresheet (--pgn) to show the repetition",
               "repetition")
        return False
    times, checker = repetition_cycle(after)
    tail = " after the intended move" if written else ""
    if ground == "perpetual":
        if times >= 3 and checker is not None:
            r.rule("RAP 10d: perpetual check: the position stands for the %s time%s and every "
                   "move of %s since it first stood gave check: the game is drawn"
                   % (_nth(times), tail, side_name(checker)), "repetition")
            return True
        r.rule("RAP 10d: no perpetual check on the scoresheet: %s"
               % ("the position stands only %d time(s)%s (three shown)" % (times, tail)
                  if times < 3 else "not every move of one side gave check"), "repetition")
        return False
    valid = times >= 3
    r.rule("RAP 10d: a repetition of the position: it stands %d time(s)%s; three show it%s"
           % (times, tail, "" if valid else ": not shown"), "repetition")
    return valid


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, "%dth" % n)


def rule_draw_claim(board: chess.Board, ruleset: RuleSet, ground: str = "moves",
                    n_moves: int | None = None, intended: str | None = None,
                    found: str | None = None, from_fen: bool = False,
                    own_flag: str | None = None) -> Ruling:
    """A draw claim by the side to move (it writes its intended move, if any, first)."""
    r = board_ruling(ruleset)
    claimant = side_name(board.turn)
    opp = other(claimant)
    r.facts = ["Position at the claim: %s" % board.fen(),
               "Claim by %s (the side to move) on the ground: %s" % (claimant, ground)]
    if ground not in DRAW_CLAIM_GROUNDS:
        raise RulingError("--ground %r: one of %s" % (ground,
                                                      ", ".join(DRAW_CLAIM_GROUNDS)))
    after = board
    if intended is not None:
        mv = parse_move(board, intended)
        if not board.is_legal(mv):
            raise RulingError("--move %s: the intended move is not legal here" % intended)
        r.facts.append("Intended move written on the scoresheet: %s" % board.san(mv))
        after = board.copy()
        after.push(mv)
    topic = {"moves": "draw_claim", "repetition": "repetition"}.get(ground,
                                                                   "practical_chances")
    if ruleset.key == "rap1990" and ground == "perpetual":
        topic = "repetition"   # RAP 10d
    valid: bool | None
    if ground == "moves":
        valid = _moves_claim(r, after, n_moves, from_fen)
    elif ground == "repetition" and ruleset.key != "rap1990":
        valid = _repetition_claim(r, board, after)
    elif ruleset.key == "rap1990" and ground != "no-chances":  # RAP 10d
        valid = _rule_rap_repetition(r, after, ground, after is not board)
    else:  # ACT 14a-b
        valid = _act14_claim(r, board, ground, found, own_flag)
    if valid is None:
        return r
    if valid:
        r.result, r.summary = Result.DRAW, "claim correct: draw"
        r.rule("The claim is correct: the game is drawn", topic)
        return r
    return _claim_refused(r, ground, opp, intended)


def _moves_claim(r: Ruling, after: chess.Board, n_moves: int | None,
                 from_fen: bool) -> bool | None:
    """The last N moves of each player without a capture or a pawn move: whether the claim
    is correct; None when the game is drawn without a claim (FIDE 9.6.2)."""
    ruleset = r.ruleset
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
        r.result, r.summary = Result.DRAW, "%d-move rule: draw" % auto
        return None
    valid = plies >= 2 * n
    r.rule("The claim needs the last %d moves of each player without a capture or a "
           "pawn move: %s" % (n, "they were" if valid else "only %d were" % (plies // 2)),
           "draw_claim")
    return valid


def _repetition_claim(r: Ruling, board: chess.Board, after: chess.Board) -> bool:
    """The same position three times, the intended move (if written) included."""
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
    return valid


def _act14_claim(r: Ruling, board: chess.Board, ground: str, found: str | None,
                 own_flag: str | None) -> bool | None:
    """ACT 14a-b: perpetual check, or no practical winning chances, claimed with the
    claimant's own flag up: whether the claim is correct; None when the ruling cannot go
    further (the claim is not admissible, or the arbiter's finding is not given)."""
    if r.ruleset.key != "act1987":
        raise RulingError("--ground %s is a claim of the Active rules (ACT 14) or of the "
                          "5-minute rules (RAP 10d): use --rules act1987 or rap1990"
                          % ground)
    claimant = side_name(board.turn)
    r.facts.append("Material: %s %s, %s %s" % (
        claimant, deadpos.material_signature(board, board.turn), other(claimant),
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
        return None
    if ground == "perpetual":
        r.rule("ACT 14a: %s claims he can keep the opposing king in perpetual check; the "
               "arbiter judges it (give --found correct|incorrect)" % claimant,
               "practical_chances")
        if found is None:
            r.summary = "the arbiter judges the claim (--found)"
            return None
        return found == "correct"
    listed = no_chances_listed(board, board.turn)
    if listed is None:
        r.rule("ACT 14b: %s against %s is not among the positions without practical "
               "winning chances (with unequal material only the side with the "
               "advantage may claim): the claim is false"
               % (deadpos.material_signature(board, board.turn),
                  deadpos.material_signature(board, not board.turn)),
               "practical_chances")
        return False
    r.rule("ACT 14b: %s is a position without practical winning chances for "
           "the opponent%s" % (listed, "" if found != "incorrect" else
                                "; but the arbiter finds the opponent has a "
                                "demonstrable forced win (ACT 14 NOTE)"),
           "practical_chances")
    return found != "incorrect"


def _claim_refused(r: Ruling, ground: str, opp: str, intended: str | None) -> Ruling:
    """An incorrect claim: the rule set's penalty, if any, and play continues."""
    ruleset = r.ruleset
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

def first_presses(events: list[Event]) -> dict[str, int]:
    """Each side's first press in the log: its clock time."""
    out = {}
    for e in events:
        if e.get("type") == "press" and e.get("side") in SIDES and e["side"] not in out:
            out[e["side"]] = e["t_ms"]
    return out


def rule_complaint(events: list[Event], ruleset: RuleSet, at_ms: int,
                   by: str | None = None) -> Ruling:
    """Was a complaint about the clock's setting (or the pieces) made in time?"""
    r = Ruling(ruleset)
    first = first_presses(events)
    r.facts = ["Complaint about the setting at %s%s" % (fmt(at_ms), " by %s" % by if by
                                                         else "")]
    for s in SIDES:
        r.facts.append("%s's first press: %s" % (s.capitalize(), fmt(first[s]) if s in first
                                                  else "none in the log"))
    window = ruleset.complaint_window
    if window == ComplaintWindow.REFERRED:
        return refer(r, "a complaint about the clock's setting")
    if window is None:
        r.rule("A wrong setting found during the game is corrected whenever it is found: "
               "the arbiter sets the clock right and adjusts the times and the move counter "
               "(`chessclock settime`, `chessclock moves`)", "setting_complaint")
        r.in_time = True
        r.summary = "in time: the arbiter corrects the setting"
        return r
    if window == ComplaintWindow.OWN:
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
