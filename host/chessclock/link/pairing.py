"""A pairing as the clock takes it: the `pairing BOARD ROUND WHITE BLACK [EVENT]` request,
its names cut to what the clock keeps and to one signed request line
(`chessclock pairings push`)."""

from typing import Any

from clockcore import protocol as P

NAME_MAX = 40      # bytes of UTF-8 a clock keeps per name (firmware/clockapp/sessionops.py)


def _cut(text: str, n: int) -> str:
    """text in at most n bytes of UTF-8, cut at a character."""
    b = text.encode()
    while len(b) > n:
        text = text[:-1]
        b = text.encode()
    return text


def request_args(board: int, rnd: int, white: str | None, black: str | None,
                 event: str) -> tuple[list[Any], bool]:
    """The `pairing` arguments that fit one signed request line: each name at most
    NAME_MAX bytes; then, if the line is still too long, the event dropped and the longer
    name shortened. Returns (args, shortened)."""
    names = [_cut(x or "?", NAME_MAX) for x in (white, black)]
    ev = _cut(event, NAME_MAX)
    short = names != [white or "?", black or "?"] or ev != event

    def fits(ev: str) -> tuple[bool, list[Any]]:
        args = [board, rnd] + names + ([ev] if ev else [])
        line = P.encode_request(999999999, "pairing", args, b"\0" * 32, b"0" * 32)
        return len(line) <= P.LINE_MAX, args
    ok, args = fits(ev)
    if not ok and ev:
        short = True
        ev = ""
        ok, args = fits(ev)
    while not ok:
        short = True
        i = 0 if len(names[0].encode()) >= len(names[1].encode()) else 1
        names[i] = names[i][:-1]
        ok, args = fits(ev)
    return args, short
