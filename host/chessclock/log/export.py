"""A verified log out: a readable table, CSV, JSON Lines, or a game as PGN with [%clk] and
[%emt] (chessclock.pgnout writes it)."""

import csv
import io
import json
from typing import Any

from chessclock.log.records import Game, Result, hms


def table(res: Result) -> str:
    lines = ["%8s %12s  %-13s %-5s %12s %12s %5s  %s"
             % ("seq", "t", "event", "side", "white", "black", "moves", "details")]
    for d in res.events:
        side = d.get("side", "")
        moves = d.get("moves", "")
        skip = ("seq", "t_ms", "type", "side", "white_ms", "black_ms", "moves")
        details = " ".join("%s=%s" % (k, v) for k, v in d.items() if k not in skip)
        lines.append("%8d %12s  %-13s %-5s %12s %12s %5s  %s"
                     % (d["seq"], hms(d["t_ms"]), d["type"], side, hms(d["white_ms"]),
                        hms(d["black_ms"]), moves, details))
    return "\n".join(lines) + "\n"


CSV_FIELDS = ("seq", "t_ms", "type", "side", "white_ms", "black_ms", "moves", "stage",
              "credit_ms", "emt_ms", "added_ms", "presses_in_stage", "delta_ms", "reason",
              "state", "arg")


def to_csv(res: Result) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(CSV_FIELDS) + ["details"], lineterminator="\n")
    w.writeheader()
    for d in res.events:
        row = {k: d[k] for k in CSV_FIELDS if k in d}
        extra = {k: v for k, v in d.items() if k not in CSV_FIELDS}
        if extra:
            row["details"] = json.dumps(extra, sort_keys=True)
        w.writerow(row)
    return out.getvalue()


def to_jsonl(res: Result) -> str:
    return "".join(json.dumps(d) + "\n" for d in res.events)


def to_pgn(game: Game, moves_pgn: str | None = None) -> str:
    """The game as PGN: [%clk] (time left after the move) and [%emt] (time used on it) per
    move, TimeControl tag, Date/UTCDate/UTCTime from the clock's wall clock, Result and
    Termination "time forfeit" after a flag; merged with a PGN's moves when given. Without
    moves (a clock-only PGN) no move is invented (null moves are refused by most readers):
    the presses' times go into the game's comment."""
    import chess.pgn

    from chessclock import pgnout

    if moves_pgn is not None:
        pg = chess.pgn.read_game(io.StringIO(moves_pgn))
        if pg is None or pg.errors:
            raise ValueError("the PGN given is not a game%s"
                             % (": %s" % pg.errors[0] if pg is not None and pg.errors else ""))
        moves = list(pg.mainline_moves())
        out = pgnout.new_game({k: pgnout.unescape(v) for k, v in pg.headers.items()})
        out.setup(pg.board())
    else:
        out = pgnout.new_game()
        moves = None
    h = game.header
    if game.pairing:   # the round's pairing the clock was given; a scoresheet's own win
        from chessclock import gamenames
        for k, v in gamenames.pgn_headers(game.pairing).items():
            if out.headers.get(k, "?") in ("?", ""):
                out.headers[k] = v
    out.headers["TimeControl"] = _tc_pgn(h["control"])
    out.headers["Annotator"] = "chessclock %s, clock %s" % (h["firmware"], h["clock_id"])
    if game.utc_start:
        day, tod = game.utc_start[:10].replace("-", "."), game.utc_start[11:19]
        if "?" in out.headers.get("Date", "?"):
            out.headers["Date"] = day
        out.headers["UTCDate"] = day
        out.headers["UTCTime"] = tod
    if game.result is not None and game.result != "*":
        # entered on the clock or by the host (ACT 12, RAP 11): the arbiter's word
        out.headers["Result"] = game.result
        if game.flag_side >= 0 and game.result == ("0-1" if game.flag_side == 0 else "1-0"):
            out.headers["Termination"] = "time forfeit"
    elif game.flag_side >= 0:
        if out.headers.get("Result", "*") == "*":
            out.headers["Result"] = "0-1" if game.flag_side == 0 else "1-0"
        out.headers["Termination"] = "time forfeit"
    node: chess.pgn.GameNode = out
    # A game resumed from an adjournment: its earlier sessions' moves carry no clock here
    skip = game.before[0] + game.before[1]
    if moves is not None:
        for mv in moves[:skip]:
            node = node.add_variation(mv)
        moves = moves[skip:]
    n = len(game.plies) if moves is None else min(len(game.plies), len(moves))
    if moves is None:
        words = []
        white_n = game.before[0]
        for i in range(n):
            side, clk, emt, _ = game.plies[i]
            if side == 0:
                white_n += 1
            words.append("%s%s %s%s" % ("%d. " % white_n if side == 0 else "",
                                        "White" if side == 0 else "Black", hms(clk),
                                        " (%s)" % hms(emt) if emt >= 0 else ""))
        out.comment = ("Clock only, no moves (export with --pgn SCORESHEET for them): time left "
                       "after each press (time it took): " + "; ".join(words)) if words \
            else "Clock only: no press recorded"
    for i, mv in enumerate((moves or [])[:n]):   # no moves: the comment above says it
        side, clk, emt, _ = game.plies[i]
        node = pgnout.add_ply(node, mv, clk, emt)
    if moves is not None and len(moves) > n:
        for mv in moves[n:]:
            node = node.add_variation(mv)
    return pgnout.write(out, columns=None, end="\n")


def _tc_pgn(control: Any) -> str:
    from clockcore import notation

    try:
        return notation.format_pgn(control)
    except ValueError:
        return "?"

