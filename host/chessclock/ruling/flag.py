"""The ruling on a flag: what the log, the scoresheet and the position show, and what the
selected rule set makes of them (moves made, both flags, the stop of the clocks, whether the
opponent can still mate, a default)."""

from typing import Any, NamedTuple

import chess
import chess.pgn

from chessclock.ruling import deadpos
from chessclock.ruling import rules as R
from chessclock.ruling.events import SIDES, Event, fmt, other
from chessclock.ruling.facts import Facts
from chessclock.ruling.position import scoresheet
from chessclock.ruling.rules import RuleSet
from chessclock.ruling.verdict import Result, Ruling, press_time_note, refer, win
from clockcore.control import Control

Sheet = dict[str, Any]   # position.scoresheet's answer


class Requirement(NamedTuple):
    """What the stage a flag fell in asks for."""

    moves: int    # moves the stage asks for (0: the last period, all remaining moves)
    by_end: int   # moves in all by the stage's end (0 in the last period)
    last: bool    # the last period (sudden death)


def _stage_requirement(control: Control | None, side: str,
                       flag: Event) -> Requirement | None:
    """What the stage a flag fell in asks for; None when the control is unknown."""
    if control is None:
        return None
    stages = control.side(0 if side == "white" else 1).stages
    k = max(1, int(flag.get("stage", 1)))
    st = stages[min(k, len(stages)) - 1]
    if not st.moves:
        return Requirement(0, 0, True)
    if k < len(stages):
        cumulative = sum(s.moves for s in stages[:k])
    else:  # a last stage with a move count repeats: count from the stage's start
        cumulative = int(flag.get("moves", 0)) - int(flag.get("presses_in_stage", 0)) + st.moves
    return Requirement(st.moves, cumulative, False)


def rule_flag(events: list[Event], ruleset: RuleSet, control: Control | None = None,
              control_text: str | None = None, game: chess.pgn.Game | None = None,
              board: chess.Board | None = None, max_nodes: int | None = None) -> Ruling:
    """The ruling on the flag(s) in `events`. `game` a chess.pgn.Game (the scoresheet up
    to the flag), `board` a chess.Board (the final position) if no game. The facts are
    gathered first (Facts, the scoresheet, the flags to rule on); then each question is
    decided and explained in turn, the first that settles the game ending the ruling."""
    facts = Facts.of(events)
    r = Ruling(ruleset)
    r.when = facts.when
    r.facts = facts.lines(control_text, ruleset.title)
    sheet, board = _position_facts(r, game, board)
    if facts.defaults and _rule_default(r, facts, ruleset):
        return r
    candidates = _flag_candidates(facts, control, sheet)
    if not candidates:
        r.rule("No flag stands in the log: nothing to rule on for time.", "flag_fall")
        r.summary = "no flag"
        return r

    first = candidates[0]
    loser = first["side"]
    r.rule("%s's flag fell first, at %s (the clock records the instant time ran out)"
           % (loser.capitalize(), r.when(first["t_ms"])), "flag_fall")
    req = _stage_requirement(control, loser, first)
    if _rule_moves_made(r, first, req, sheet, ruleset):
        return r
    done, r = _rule_both_flags(r, facts, candidates, first, req, control, ruleset)
    if done:
        return r
    nodes = max_nodes or deadpos.DEFAULT_NODES
    if ruleset.cannot_mate == R.CannotMate.ANY_SERIES:
        return _rule_mate_any_series(r, board, loser, nodes)
    return _rule_material(r, board, loser, nodes, ruleset)


def _rule_default(r: Ruling, facts: Facts, ruleset: RuleSet) -> bool:
    """The log records the default time passing with a player absent: that decides the game
    before any flag (FIDE 6.7.1; S1 6.7; RGC 12.1, 12.4 at a resumption). True when it
    settles the ruling."""
    absent = []
    for d in facts.defaults:
        side = d.get("side")
        if side in SIDES and side not in absent:
            absent.append(side)
    if not absent:
        return False
    first = facts.defaults[0]
    when = "%s (%s after the scheduled start)" % (fmt(first["t_ms"]),
                                                  fmt(1000 * int(first.get("default_s", 0))))
    if ruleset.key == "br-knockout":
        refer(r, "the log records the default time passing at %s with %s absent, and "
                     "S3 sets no default time" % (when, " and ".join(absent)))
        return True
    if len(absent) == 2:
        r.rule("The log records the default time passing at %s with neither player at the "
               "board: both lose by default, unless the regulations or the arbiter decide "
               "otherwise" % when, "default")
        r.result, r.summary = Result.BOTH_LOSE, "both players default"
        return True
    late = absent[0]
    r.rule("The log records the default time passing at %s with %s not at the board: %s "
           "loses by default, unless the regulations or the arbiter decide otherwise; the "
           "flags do not matter" % (when, late, late), "default")
    r.result, r.summary = win(other(late)), "%s defaults" % late
    return True


def _position_facts(r: Ruling, game: chess.pgn.Game | None, board: chess.Board | None
                    ) -> tuple[Sheet | None, chess.Board | None]:
    """The scoresheet's facts and the position at the flag: (sheet or None, board)."""
    sheet = scoresheet(game) if game is not None else None
    if sheet is not None:
        board = sheet["board"]
        r.facts.append("Scoresheet: White %d moves, Black %d moves; %s to move at its end"
                       % (sheet["white"], sheet["black"], "White" if board.turn else "Black"))
    if board is not None:
        r.facts.append("Position at the flag: %s" % board.fen())
    return sheet, board


def _flag_candidates(facts: Facts, control: Control | None, sheet: Sheet | None
                     ) -> list[Event]:
    """The flags to rule on, earliest first: the standing flags, and the stages passed on
    time-out whose moves were missed."""
    # A control missed at a stage passed on time-out (the clock's "TIME" mode) is a flag too.
    # The clock logs such a time-out as a flag of the stage followed by the stage passed at
    # the same instant: it is ruled on below from the stage pass, with the presses made.
    timeouts = {(s["side"], s["t_ms"]) for s in facts.stage_passes
                if s.get("cause") == "timeout"}
    candidates = [dict(f, kind="flag") for f in facts.standing_flags
                  if (f["side"], f["t_ms"]) not in timeouts]
    for s in facts.stage_passes:
        if s.get("cause") != "timeout" or control is None:
            continue
        stages = control.side(0 if s["side"] == "white" else 1).stages
        prev = stages[min(int(s["stage"]) - 1, len(stages)) - 1]
        need = prev.moves
        made = s["presses_in_stage"]
        if sheet is not None and sheet[s["side"]] < sum(x.moves for x in
                                                         stages[:int(s["stage"]) - 1]):
            made = -1  # the whole scoresheet has fewer moves than the control asked
        if need and made < need:
            candidates.append(dict(s, kind="timeout", presses_in_stage=s["presses_in_stage"],
                                   stage=int(s["stage"]) - 1, proven=made == -1))
    candidates.sort(key=lambda c: c["t_ms"])
    return candidates


def _rule_moves_made(r: Ruling, first: Event, req: Requirement | None, sheet: Sheet | None,
                     ruleset: RuleSet) -> bool:
    """Decide and explain whether the flagged side had made the stage's moves (6.3.1, 6.4;
    the counter is advisory). True when that settles the ruling (the control was met, or
    only the scoresheet can tell)."""
    loser = first["side"]
    control_met = False
    if first["kind"] == "timeout":
        r.rule("The clock passed %s to stage %d on time-out after %d presses in stage %d, "
               "which asks for %d moves: %s" % (
                   loser, first["stage"] + 1, first["presses_in_stage"], first["stage"],
                   req[0] if req else 0,
                   "the scoresheet has fewer moves in all, so the control was missed"
                   if first.get("proven") else
                   "the counter is advisory: the arbiter checks the scoresheet at that moment"),
               "moves_check")
        r.rule("The counter alone proves nothing.", "counter")
        if not first.get("proven") and sheet is not None:
            r.result = Result.OPEN
            r.summary = ("the arbiter checks on the scoresheet whether %s had made the moves "
                         "by %s" % (loser, r.when(first["t_ms"])))
            r.rule("The scoresheet has %d moves by %s in all; whether they were made before "
                   "the time-out the log cannot show" % (sheet[loser], loser), "moves_check")
            return True
    elif req is None:
        r.rule("The control is not known (give --control): whether the stage asked for a "
               "number of moves cannot be checked", "moves_check")
    elif req[2]:
        r.rule("The flag fell in the last period, where all remaining moves must be made: "
               "the control cannot have been met", "moves_check")
    else:
        need, cumulative, _ = req
        presses = int(first.get("moves", 0))
        if sheet is not None:
            made = sheet[loser]
            note = ""
            if sheet["last_mover"] == loser and made > presses \
                    and ruleset.key == "fide2023":
                made -= 1
                note = ("; its last move on the scoresheet was not completed by a press of "
                        "the clock (FIDE 6.2.1), so it does not count")
            if sheet["last_mover"] == loser and made > presses and not note:
                note = ("; its last move counts though the clock got no press for it (a "
                        "move is made when the hand leaves the piece)")
            control_met = made >= cumulative
            r.moves_check = {"required": cumulative, "scoresheet": made, "counter": presses}
            r.rule("Stage %s asks for %d moves (%d in all by its end); the scoresheet shows %d "
                   "completed moves by %s%s, the clock's counter %d: the control was %s"
                   % (first.get("stage"), need, cumulative, made, loser, note, presses,
                      "MET" if control_met else "MISSED"), "moves_check")
            press_time_note(r, "Which moves were made before the flag")
            if control_met:
                r.rule("The counter showed fewer presses than moves; no claim rests on it "
                       "and the arbiter corrects the clock (counter and next stage's time)",
                       "counter")
        else:
            r.moves_check = {"required": cumulative, "scoresheet": None, "counter": presses}
            r.rule("Stage %s asks for %d moves (%d in all by its end); the clock counted %d "
                   "presses. The counter is advisory: check the scoresheet (give --pgn)"
                   % (first.get("stage"), need, cumulative, presses), "counter")
    if control_met:
        r.result = Result.OPEN
        r.summary = "no loss on time: %s made the control; play continues after the " \
                    "arbiter corrects the clock" % loser
        r.rule("No loss on time; the arbiter sets the clock right and play continues",
               "wrong_setting")
        return True

    return False


def _rule_both_flags(r: Ruling, facts: Facts, candidates: list[Event], first: Event,
                     req: Requirement | None, control: Control | None, ruleset: RuleSet
                     ) -> tuple[bool, Ruling]:
    """Decide and explain what the other flag and the stop of the clocks change (6.8 and
    each rule set's own answer). (True, ruling) when that settles it, else (False, r)."""
    loser = first["side"]
    winner = other(loser)
    second = next((c for c in candidates[1:] if c["side"] == winner), None)
    stop = facts.stop_after(first["t_ms"])
    if facts.frozen_after(first["t_ms"]):
        stop = first["t_ms"]
        if ruleset.both_flags != R.BothFlags.FIRST_LOSES:
            r.rule("The clock froze at the flag (both clocks stopped, so the other flag "
                   "could not fall): taken as the stop of the clocks", "claim")
    if second is not None:
        r.rule("%s's flag fell too, at %s; the order is recorded: %s first"
               % (winner.capitalize(), r.when(second["t_ms"]), loser), "both_flags")
        claimed_before = stop is not None and stop < second["t_ms"]
        if ruleset.both_flags == R.BothFlags.DRAW:
            if claimed_before:
                r.rule("The clocks were stopped at %s with only %s's flag down: the claim "
                       "was made before the second flag fell" % (r.when(stop), loser),
                       "claim")
            else:
                r.rule("Both flags are down: the game is drawn, whatever the order",
                       "both_flags")
                r.result, r.summary = Result.DRAW, "both flags down: draw"
                return True, r
        elif ruleset.both_flags == R.BothFlags.REFERRED:
            if claimed_before:
                r.rule("The clocks were stopped at %s with only %s's flag down: the flag "
                       "was announced before the second fell" % (r.when(stop), loser), "claim")
            else:
                r.rule("The opponent must announce the flag; with both flags down the "
                       "rules do not say who wins", "both_flags")
                return True, refer(r, "both flags down (%s first)" % loser)
        elif ruleset.both_flags == R.BothFlags.LATER_UNCLAIMED_DRAW:
            if claimed_before:
                r.rule("%s stopped the clocks at %s with his own flag up: a valid claim "
                       "(the log cannot tell who stopped them)" % (winner.capitalize(),
                                                                   r.when(stop)), "claim")
            else:
                r.rule("%s's flag fell after %s's flag, which had not been claimed: the "
                       "game is drawn" % (winner.capitalize(), loser), "both_flags")
                r.result, r.summary = Result.DRAW, "flag after an unclaimed flag: draw"
                return True, r
        else:
            last = req is not None and req[2]
            r.rule("The first flag decides; had the order not been established, the game "
                   "would %s" % ("be drawn (the last period)" if last
                                  else "continue (not the last period)"), "order_unknown")
            if control is not None and any(st.inc_ms or st.delay_ms for i in (0, 1)
                                           for st in control.side(i).stages):
                r.rule("(Guidelines III cover games without increment; this control has an "
                       "increment or delay)", "order_unknown")
    elif ruleset.both_flags != R.BothFlags.FIRST_LOSES:
        if stop is not None and stop > first["t_ms"]:
            r.rule("The clocks were stopped at %s with %s's flag down and %s's up: the "
                   "claim (the log cannot tell who stopped them)"
                   % (r.when(stop), loser, winner), "claim")

    return False, r


def _rule_mate_any_series(r: Ruling, board: chess.Board | None, loser: str,
                          nodes: int) -> Ruling:
    """FIDE 6.9: a loss on time unless no series of legal moves mates (deadpos's search)."""
    winner = other(loser)
    if board is None:
        r.rule("%s loses on time, unless the position is such that %s cannot checkmate "
               "by any series of legal moves (give --pgn or --fen to check)"
               % (loser.capitalize(), winner), "time_loss")
        r.result, r.summary = win(winner), "loss on time (position not checked)"
        return r
    v = deadpos.can_mate(board, chess.WHITE if winner == "white" else chess.BLACK,
                         max_nodes=nodes)
    r.mate = v.as_dict()
    r.rule(v.describe(), "cannot_mate")
    if v.status == deadpos.Status.PROVEN:
        r.rule("%s cannot checkmate %s's king by any series of legal moves: the game "
               "is drawn" % (winner.capitalize(), loser), "time_loss")
        r.result, r.summary = Result.DRAW, "flag fell, but the opponent cannot mate: draw"
    elif v.status == deadpos.Status.FOUND:
        r.rule("%s can still checkmate: %s loses on time" % (winner.capitalize(), loser),
               "time_loss")
        r.result, r.summary = win(winner), "%s loses on time" % loser
    else:
        r.rule("%s loses on time unless the arbiter establishes that no series of legal "
               "moves mates (the search did not settle it)" % loser.capitalize(),
               "time_loss")
        r.result, r.summary = win(winner), "loss on time (dead position undecided)"
    return r


def _rule_material(r: Ruling, board: chess.Board | None, loser: str, nodes: int,
                   ruleset: RuleSet) -> Ruling:
    """The old rules: a list of material that cannot mate, RAP with the "unless he shows
    mate" exception."""
    winner = other(loser)
    if board is None:
        r.rule("%s loses on time unless %s has not enough material to mate (give --pgn or "
               "--fen to check)" % (loser.capitalize(), winner), "time_loss")
        r.result, r.summary = win(winner), "loss on time (material not checked)"
        return r
    wcol = chess.WHITE if winner == "white" else chess.BLACK
    sig_w = deadpos.material_signature(board, wcol)
    sig_l = deadpos.material_signature(board, not wcol)
    listed = sig_w[1:] in ruleset.lone_material
    r.facts.append("Material: %s %s, %s %s" % (winner, sig_w, loser, sig_l))
    dead_ending = _listed_ending(board, sig_w, sig_l)
    if dead_ending:
        r.rule("The ending %s is in the list of draws" % dead_ending, "cannot_mate")
    if not listed and not dead_ending:
        r.rule("%s has %s: enough material to mate; %s loses on time"
               % (winner.capitalize(), sig_w, loser), "time_loss")
        r.result, r.summary = win(winner), "%s loses on time" % loser
        return r
    if ruleset.cannot_mate == R.CannotMate.LIST_UNLESS_SHOWN:
        v = deadpos.can_mate(board, wcol, max_nodes=nodes)
        r.mate = v.as_dict()
        r.rule(v.describe(), "cannot_mate")
        if v.status == deadpos.Status.FOUND:
            r.rule("%s has only %s but can show that mate is possible: %s loses on time"
                   % (winner.capitalize(), sig_w, loser), "cannot_mate")
            r.result, r.summary = win(winner), "%s loses on time" % loser
            return r
    r.rule("%s has only %s, not enough to mate: the game is drawn"
           % (winner.capitalize(), sig_w), "cannot_mate")
    r.result, r.summary = Result.DRAW, "the opponent has not enough material: draw"
    return r


def _listed_ending(board: chess.Board, sig_a: str, sig_b: str) -> str | None:
    pair = sorted((sig_a, sig_b))
    if pair == ["K", "K"]:
        return "K v K"
    if pair in (["K", "KB"], ["K", "KN"]):
        return "K v %s" % pair[1].replace("K", "K+")
    if pair == ["KB", "KB"] and deadpos.same_colour_bishops(board):
        return "K+B v K+B, bishops on the same colour"
    return None
