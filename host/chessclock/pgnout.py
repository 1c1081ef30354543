"""The one PGN writer of the host: `chessclock log export --format pgn` and the hall's
broadcast (docs/HALL.md) build a `chess.pgn.Game` and write it here.

python-chess writes a tag's value as it is given: a player named `X"] [Result "1-0`
would end the tag and add one of its own. The writer escapes a value as the PGN standard
says (section 8.1.1: `\\` for a backslash, `\\"` for a quote) and turns line breaks and
other control characters into spaces, so a value stays inside its own tag. Clock
annotations go through python-chess (`set_clock`, `set_emt`): one format, `h:mm:ss` and
the milliseconds that are not 0.
"""

import re
from collections.abc import Mapping

import chess
import chess.pgn


def escape(value: str) -> str:
    """A tag value as PGN text: one line, its quotes and backslashes escaped."""
    one_line = "".join(c if c >= " " and c != "\x7f" else " " for c in str(value))
    return one_line.replace("\\", "\\\\").replace('"', '\\"')


def unescape(value: str) -> str:
    """A tag value as python-chess reads it from a file (escapes kept) -> its text."""
    return re.sub(r"\\(.)", r"\1", value)


class _Exporter(chess.pgn.StringExporter):
    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, escape(tagvalue))


def new_game(headers: Mapping[str, str] | None = None) -> chess.pgn.Game:
    """A game with these tags (the seven of the roster first, as python-chess keeps them)."""
    game = chess.pgn.Game()
    for k, v in (headers or {}).items():
        game.headers[k] = str(v)
    return game


def add_ply(node: chess.pgn.GameNode, move: chess.Move, clk_ms: int | None = None,
            emt_ms: int | None = None) -> chess.pgn.GameNode:
    """The next ply after node, with [%clk] (time left, ms) and [%emt] (time it took)."""
    child = node.add_variation(move)
    if clk_ms is not None:
        child.set_clock(max(0, clk_ms) / 1000)
    if emt_ms is not None and emt_ms >= 0:
        child.set_emt(emt_ms / 1000)
    return child


def write(game: chess.pgn.Game, columns: int | None = 80, end: str = "\n\n") -> str:
    """The game as PGN text, then `end` (a blank line: games written one after another
    make a multi-game file); `columns` None keeps the movetext on one line."""
    return game.accept(_Exporter(columns=columns)) + end
