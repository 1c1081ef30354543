"""Moves as players write them (CXEB Art. 2, 5, 6), read with python-chess.

Art. 2: simplified algebraic notation with the piece initials in Portuguese: R = Rei (king),
D = Dama (queen), T = Torre (rook), B = Bispo (bishop), C = Cavalo (knight); another language
(English: K, Q, R, B, N) by the players' prior agreement (§ único). A game's `notation` is
`pt`, `en` or `auto` (either; a move that reads as two different moves, which only R can
do, is incomplete). Castling is O-O / O-O-O (or 0-0 / 0-0-0).

Art. 5: "+", "xeque", "#", "mate", "x", ":", "toma", "ep", "e.p.", "en passant" may be
added if they are true of the move; left out they change nothing, added wrongly they make
the move impossible.

Art. 6: a move that reads as exactly one legal move is valid and legal; one that no piece
can make as written is impossible (III); one that reads as more than one move is
incomplete (IV); one a piece could make but the rules forbid (the king left in check,
castling through check) is illegal (II). What the ledger stores for the PGN is always the
standard (English) SAN that python-chess writes.
"""

from __future__ import annotations

import re

import chess

from .dates import CorrError

PORTUGUESE = {"R": "K", "D": "Q", "T": "R", "B": "B", "C": "N"}
ENGLISH = {"K": "K", "Q": "Q", "R": "R", "B": "B", "N": "N"}
LANGUAGES = {"pt": ("Portuguese", PORTUGUESE), "en": ("English", ENGLISH)}
NOTATIONS = ("auto", "pt", "en")
_TO_PORTUGUESE = {v: k for k, v in PORTUGUESE.items()}

_WORDS = re.compile(r"\s*\b(xeque-mate|xeque|mate|toma|en\s+passant|e\.\s*p\.|ep)(?=\W|$)\s*",
                    re.I)
_BARE = re.compile(r"^([A-Z])?([a-h])?([1-8])?([a-h][1-8])(?:=?([A-Z]))?$")
_CASTLE = re.compile(r"^[Oo0](-[Oo0]){1,2}$")


class BadMove(CorrError):
    """A move as written is not valid and legal (Art. 6); `kind` is impossible, incomplete
    or illegal."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(text)
        self.kind = kind


def _marks(text: str) -> tuple[str, dict[str, bool]]:
    """The move without the Art. 5 expressions, and which of them were written."""
    marks = {"check": False, "mate": False, "capture": False, "ep": False}
    t = text.strip()
    t = re.sub(r"[!?]+$", "", t)   # annotations, not part of the move

    def word(m: re.Match[str]) -> str:
        w = m.group(1).lower().replace(" ", "")
        if w == "xeque":
            marks["check"] = True
        elif w in ("mate", "xeque-mate"):
            marks["mate"] = True
        elif w == "toma":
            marks["capture"] = True
        else:
            marks["ep"] = True
        return ""
    t = _WORDS.sub(word, t)
    if "#" in t or "++" in t:
        marks["mate"] = True
    if "+" in t:
        marks["check"] = True
    t = t.replace("#", "").replace("+", "")
    if "x" in t or ":" in t:
        marks["capture"] = True
    t = t.replace("x", "").replace(":", "").replace(" ", "")
    return t, marks


def _candidates(board: chess.Board, bare: str, langs: list[str]) -> list[tuple[str, str]]:
    """(language, English SAN to try) for each language whose letters the move uses."""
    if _CASTLE.match(bare):
        return [("", "O-O-O" if bare.count("-") == 2 else "O-O")]
    m = _BARE.match(bare.replace("-", ""))
    if not m:
        return []
    piece, file_, rank, to, promo = m.groups()
    out = []
    for lang in langs:
        letters = LANGUAGES[lang][1]
        if (piece and piece not in letters) or (promo and promo not in letters):
            continue
        san = "%s%s%s%s%s" % (letters[piece] if piece else "", file_ or "", rank or "", to,
                              "=" + letters[promo] if promo else "")
        out.append((lang, san))
    return out


def _pseudo(board: chess.Board, san: str) -> bool:
    """Whether a piece could make the move `san` (English, no marks) if the rules about
    check were left aside: the move is then illegal rather than impossible."""
    if san.startswith("O-O"):
        return False
    m = _BARE.match(san)
    if not m:
        return False
    piece, file_, rank, to, promo = m.groups()
    ptype = chess.PIECE_SYMBOLS.index(piece.lower()) if piece else chess.PAWN
    for mv in board.pseudo_legal_moves:
        if (board.piece_type_at(mv.from_square) == ptype
                and chess.square_name(mv.to_square) == to
                and (not file_ or chess.square_name(mv.from_square)[0] == file_)
                and (not rank or chess.square_name(mv.from_square)[1] == rank)
                and (mv.promotion == (chess.PIECE_SYMBOLS.index(promo.lower())
                                      if promo else None))):
            return True
    return False


def read_move(board: chess.Board, text: str, notation: str = "auto") -> chess.Move:
    """The one legal move `text` stands for on `board`; BadMove (one line, with the
    article) if it is impossible, incomplete or illegal."""
    langs = ["pt", "en"] if notation == "auto" else [notation]
    names = " or ".join("%s (%s)" % (LANGUAGES[x][0], " ".join(LANGUAGES[x][1]))
                        for x in langs)
    bare, marks = _marks(text)
    cands = _candidates(board, bare, langs)
    if not cands:
        raise BadMove("impossible", "%r is not a move in %s notation (Art. 2): it is "
                      "impossible (Art. 6 III)" % (text, names))
    found: dict[chess.Move, str] = {}
    ambiguous = illegal = False
    for lang, san in cands:
        try:
            found.setdefault(board.parse_san(san), lang)
        except chess.AmbiguousMoveError:
            ambiguous = True
        except (chess.IllegalMoveError, chess.InvalidMoveError):
            illegal = illegal or _pseudo(board, san)
    if len(found) > 1:
        a, b = list(found)
        raise BadMove("incomplete", "%r reads as %s in %s and %s in %s: it is incomplete "
                      "(Art. 6 IV); the game's notation (corr game --notation) says which"
                      % (text, board.san(a), LANGUAGES[found[a]][0], board.san(b),
                         LANGUAGES[found[b]][0]))
    if not found:
        if ambiguous:
            raise BadMove("incomplete", "%r fits more than one piece: it is incomplete "
                          "(Art. 6 IV); say which piece, e.g. with its file" % text)
        if illegal:
            raise BadMove("illegal", "%r is against the rules in this position: it is "
                          "illegal (Art. 6 II)" % text)
        raise BadMove("impossible", "%r cannot be played in this position as written: it "
                      "is impossible (Art. 6 III)" % text)
    move = next(iter(found))
    wrong = []
    if marks["capture"] and not board.is_capture(move):
        wrong.append("a capture ('x')")
    if marks["ep"] and not board.is_en_passant(move):
        wrong.append("en passant")
    if marks["mate"]:
        after = board.copy(stack=False)
        after.push(move)
        if not after.is_checkmate():
            wrong.append("mate")
    elif marks["check"] and not board.gives_check(move):
        wrong.append("check ('+')")
    if wrong:
        raise BadMove("impossible", "%r: %s is not %s; an expression added wrongly makes the "
                      "move impossible (Art. 5, Art. 6 III)" % (
                          text, board.san(move), " nor ".join(wrong)))
    return move


def in_language(san: str, notation: str) -> str:
    """Standard SAN written with the game's piece letters (Portuguese for `pt`)."""
    if notation != "pt":
        return san
    return "".join(_TO_PORTUGUESE.get(c, c) for c in san)


_NUMBER = re.compile(r"\d+\s*(?:\.\.\.|\.\.|\u2026|\.)")


def read_sequence(board: chess.Board, text: str, notation: str = "auto") -> list[str]:
    """The standard SAN of a sequence of moves from `board` ('5...Cc6 6.Bb5', the numbers
    optional): each must be valid and legal where it is played (BadMove otherwise)."""
    b = board.copy(stack=False)
    out = []
    for tok in _NUMBER.sub(" ", text).replace(",", " ").split():
        mv = read_move(b, tok, notation)
        out.append(b.san(mv))
        b.push(mv)
    if not out:
        raise BadMove("incomplete", "%r holds no move" % text)
    return out
