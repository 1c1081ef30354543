"""Moves in (CSV from an e-mail client's export, PGN with date comments) and out (the text
for the next e-mail, Art. 3; PGN with the dates, Art. 41)."""

import csv
import datetime as dt
import email.utils
import io
import re
import zoneinfo
from typing import Any

from .dates import CorrError, parse_date
from .model import label, parse_move, split_move

_MOVE_IN_TEXT = re.compile(r"(\d+)\s*(\.\.\.|\.\.|\.)\s*([^\s,;]+)")


def to_event_date(text: str, tz: str, what: str) -> dt.date:
    """A date, or a timestamp as mail clients write it (ISO or RFC 2822 with an offset),
    as the calendar date in the event's time zone."""
    text = (text or "").strip()
    if re.match(r"^\d{4}-\d{2}-\d{2}$", text):
        return parse_date(text, what)
    stamp = None
    try:
        stamp = dt.datetime.fromisoformat(text)
    except ValueError:
        try:
            stamp = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            stamp = None
    if stamp is None:
        raise CorrError("%s: %r is neither a date nor a mail timestamp" % (what, text))
    if stamp.tzinfo is None:
        return stamp.date()   # no offset given: read as the event's own time
    return stamp.astimezone(zoneinfo.ZoneInfo(tz)).date()


_COLS = {
    "move": ("move", "ply", "lance", "no", "number"),
    "san": ("san", "notation", "jogada"),
    "received": ("received", "recebido", "received_date", "receipt"),
    "sent": ("sent", "date", "enviado", "sent_date", "data"),
    "subject": ("subject", "assunto"),
}


def read_csv(text: str, tz: str, name: str = "CSV") -> list[Any]:
    """Rows of (ply, san, received or None, sent) from a CSV. Columns (any case, in any
    order): move (12 or 12...), san, received, sent; or, as a mail client exports its
    sent folder, Date and Subject ("Game 3: 12... Nf6") with an optional Received."""
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as e:
        raise CorrError("%s: %s" % (name, e)) from None
    if not rows:
        raise CorrError("%s: empty" % name)
    head = [h.strip().lower() for h in rows[0]]
    col = {}
    for key, names in _COLS.items():
        for i, h in enumerate(head):
            if h in names and key not in col:
                col[key] = i
    if "sent" not in col or not ("move" in col or "subject" in col):
        raise CorrError("%s: the header needs a sent (or Date) column and a move (or Subject) "
                        "column; it has %s" % (name, ", ".join(head)))
    out = []
    for n, row in enumerate(rows[1:], 2):
        if not any(c.strip() for c in row):
            continue
        where = "%s line %d" % (name, n)

        def cell(key: str, row: Any = row) -> str:
            i = col.get(key)
            return row[i].strip() if i is not None and i < len(row) else ""
        try:
            if "move" in col and cell("move"):
                number, san = split_move(cell("move"), cell("san"))
                ply = parse_move(number)
            else:
                m = _MOVE_IN_TEXT.search(cell("subject"))
                if not m:
                    raise CorrError("no move like '12... Nf6' in the subject %r"
                                    % cell("subject"))
                ply = parse_move(m.group(1) + ("..." if len(m.group(2)) > 1 else ""))
                san = m.group(3)
            rec = to_event_date(cell("received"), tz, "received") if cell("received") else None
            sent = to_event_date(cell("sent"), tz, "sent")
        except CorrError as e:
            raise CorrError("%s: %s" % (where, e)) from None
        out.append((ply, san, rec, sent))
    return out


_PGN_DATE = re.compile(r"\b(received|rcvd|recebido|sent|enviado)\b\s*[:=]?\s*(\S+)", re.I)


def read_pgn(text: str, theme_plies: int, name: str = "PGN") -> list[Any]:
    """Rows from a PGN whose moves carry comments like {received 2026-03-01 sent
    2026-03-04}; the moves of the thematic opening carry none and are skipped."""
    import chess.pgn  # python-chess, only when a PGN is read

    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise CorrError("%s: no game in it" % name)
    if game.errors:
        raise CorrError("%s: %s" % (name, str(game.errors[0]).splitlines()[0]))
    out = []
    for node in game.mainline():
        ply = node.ply()
        if ply <= theme_plies:
            continue
        dates = {}
        for word, value in _PGN_DATE.findall(node.comment):
            key = "sent" if word.lower() in ("sent", "enviado") else "received"
            dates[key] = parse_date(value, "%s move %s %s" % (name, label(ply), key))
        if "sent" not in dates:
            raise CorrError("%s: move %s %s has no {sent YYYY-MM-DD} comment"
                            % (name, label(ply), node.san()))
        out.append((ply, node.san(), dates.get("received"), dates["sent"]))
    return out


def days(n: int) -> str:
    return "%d day%s" % (n, "" if n == 1 else "s")


def _move(m: Any, notation: str = "auto") -> str:
    """A move as the e-mail writes it: its number and the standard SAN in the game's piece
    letters (Portuguese for a `pt` game, Art. 2)."""
    from .notation import in_language

    return "%s %s" % (m.label, in_language(m.san, notation)) if m.san else m.label


def email_text(g: Any, ply: int | None = None) -> str:
    """The lines a player pastes into the e-mail carrying move `ply` (default the last):
    tournament and game (Art. 3 I), the move received with its dates and the dates of
    receipt and reply (II, Art. 4 II), this move's thinking time (III) and both running
    totals (§2), the sender (IV)."""
    if not g.moves:
        raise CorrError("game %s: no move recorded yet" % g.id)
    m = g.moves[-1] if ply is None else next((x for x in g.moves if x.ply == ply), None)
    if m is None:
        raise CorrError("game %s: no move %s in the ledger" % (g.id, label(ply or 0)))
    ev = g.ev
    idx = g.moves.index(m)
    prev = g.moves[idx - 1] if idx else None
    tot = [0, 0]
    for x in g.moves[:idx + 1]:
        tot[x.side] = x.total
    lines = ["%s%s, game %s: %s - %s" % (ev.name, ", " + ev.phase if ev.phase else "", g.id,
                                         g.players[0], g.players[1])]
    if prev is not None:
        lines.append("Your move %s, sent %s, received %s%s" % (
            _move(prev, g.notation), prev.sent, m.received,
            " (date not given: set from the average transit, Art. 14)" if m.estimated else ""))
    else:
        lines.append("Start: %s" % m.received)
    detail = ["%d counted" % m.counted]
    if m.doubled:
        detail.append("+%d doubled after day 12 (Art. 13)" % m.doubled)
    for fine, why in m.fines:
        detail.append("+%d fine: %s" % (fine, why))
    lines += ["My move %s, sent %s" % (_move(m, g.notation), m.sent),
              "Thinking time of this move: %s (%s)" % (days(m.charged), "; ".join(detail)),
              "Totals: %s %s, %s %s" % (g.players[0], days(tot[0]), g.players[1], days(tot[1])),
              "My count %d: %d days for %d move(s), %d allowed" % (
                  m.count_no, m.count_cum, m.count_move, m.budget)]
    if m.transit is not None and m.transit > 1:
        lines.append("Transit of your move: %d days (over 1 day: reported to the director, "
                     "Art. 12)" % m.transit)
    lines.append(g.players[m.side])
    return "\n".join(lines) + "\n"


def pgn(g: Any) -> str:
    """The game as PGN with the dates of every move in its comment (Art. 41)."""
    ev = g.ev
    res = g.result["result"] if g.result else "*"
    head = [("Event", ev.name), ("Site", "CXEB e-mail"), ("Date", str(ev.start).replace("-", ".")),
            ("Round", g.id), ("White", g.players[0]), ("Black", g.players[1]), ("Result", res),
            ("TimeControl", "10/40days (CXEB Art. 12)")]
    if ev.theme:
        head.append(("Annotator", "thematic opening: " + ev.theme))
    out = ['[%s "%s"]' % (k, str(v).replace('"', "'")) for k, v in head]
    words = []
    if ev.theme:
        words.append(ev.theme)
    unread = False
    for m in g.moves:
        comment = "received %s sent %s days %d total %d" % (m.received, m.sent, m.charged,
                                                            m.total)
        if unread or m.seq not in g.std:
            # no standard SAN (no notation, or a notation that does not read): this move
            # and the ones after it are only comments, so the PGN stays readable
            unread = True
            words.append("{%s %s: %s}" % (m.label, (m.typed or "?").replace("}", ")"),
                                          comment))
            continue
        # every move has a comment, so Black's too needs its number ('12...')
        words.append(m.label + ("." if m.side == 0 else ""))
        words.append(m.san)
        words.append("{%s}" % comment)
    words.append(res)
    body, line = [], ""
    for w in words:
        if len(line) + len(w) + 1 > 79 and line:
            body.append(line)
            line = w
        else:
            line = (line + " " + w).strip()
    body.append(line)
    return "\n".join(out) + "\n\n" + "\n".join(body) + "\n"

