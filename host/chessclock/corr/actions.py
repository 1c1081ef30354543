"""The correspondence ledger's actions, one a `chessclock corr` ACTION: each reads the event
from the store, checks a write against the whole recomputed ledger before it is appended, and
prints text, a table or JSON (chessclock/commands/corr.py parses the command line)."""

import datetime as dt
import json
import os
import re
import zoneinfo
from typing import Any

from chessclock.corr.checks import check_new, records_to_set_aside
from chessclock.corr.dates import CorrError, parse_date
from chessclock.corr.exchange import days
from chessclock.corr.ledger import Event
from chessclock.corr.model import SIDES, label, parse_move, split_move
from chessclock.corr.store import LedgerDamaged

DEFAULT_DB = "corr.sqlite3"


class Ctx:
    def __init__(self, args: Any, out: Any, err: Any) -> None:
        from chessclock.corr.store import Store

        self.args, self.out = args, out
        self.json = getattr(args, "json", False)
        self.path = getattr(args, "db", None) or os.environ.get("CHESSCLOCK_CORR_DB", DEFAULT_DB)
        self.store = Store(self.path)
        if self.store.migrated:
            err.write("chessclock corr: %s was written without a hash chain: the chain was "
                      "computed now for its %d records\n" % (self.path, self.store.migrated))
        self.eid = args.event

    def event(self) -> Any:
        return Event.from_records(self.eid, self.store.records(self.eid))

    def today(self, tz: str | None = None) -> dt.date:
        t = getattr(self.args, "today", None)
        if t:
            return parse_date(t, "--today")
        if tz is None:
            tz = self.event().tz
        return dt.datetime.now(zoneinfo.ZoneInfo(tz)).date()   # the only clock read

    def write(self, recs: list[Any], today: Any) -> None:
        for r in recs:
            r["entered"] = str(today)
        self.store.append(self.eid, recs, lambda all_: check_new(
            self.eid, all_[:len(all_) - len(recs)], all_[len(all_) - len(recs):], today))


def run_action(args: Any, out: Any, err: Any) -> int:
    ctx = Ctx(args, out, err)
    try:
        handler = globals()["_do_" + args.corr_cmd.replace("-", "_")]
        return handler(ctx, args)
    finally:
        ctx.store.close()


def _say(ctx: Ctx, text: str, data: Any) -> int:
    if ctx.json:
        ctx.out.write(json.dumps(data, indent=1, sort_keys=True, default=str) + "\n")
    else:
        ctx.out.write(text if text.endswith("\n") else text + "\n")
    return 0


def _date(x: Any, what: str) -> Any:
    return str(parse_date(x, what)) if x else None


def _theme_plies(theme: str) -> int:
    if not theme.strip():
        return 0
    import chess

    board = chess.Board()
    n = 0
    for tok in theme.replace(".", ". ").split():
        if tok.rstrip(".").isdigit() or tok in (".", "..", "..."):
            continue
        try:
            board.push_san(tok)
        except ValueError:
            raise CorrError("--theme: %r is not a legal move after %d plies" % (tok, n)) from None
        n += 1
    return n


def _do_event(ctx: Ctx, a: Any) -> int:
    try:
        zoneinfo.ZoneInfo(a.tz)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise CorrError("--tz: %r is not a time zone (e.g. America/Sao_Paulo, UTC)"
                        % a.tz) from None
    start, end = parse_date(a.start, "--start"), _date(a.end, "--end")
    if end and parse_date(end) < start:
        raise CorrError("--end %s is before --start %s" % (end, start))
    data = {"name": a.name or a.event, "phase": a.phase, "start": str(start), "end": end,
            "tz": a.tz, "theme": a.theme.strip(), "theme_plies": _theme_plies(a.theme),
            "holidays": [_date(h, "--holiday") for h in a.holiday]}
    ctx.write([{"kind": "event", "game": None, "data": data}], ctx.today(a.tz))
    return _say(ctx, "event %s: from %s%s%s" % (a.event, start, " to %s" % end if end else "",
                                                 ", theme %s" % data["theme"] if data["theme"]
                                                 else ""), data)


def _do_holiday(ctx: Ctx, a: Any) -> int:
    dates = [_date(d, "holiday") for d in a.dates]
    ctx.write([{"kind": "holiday", "game": None, "data": {"dates": dates}}], ctx.today())
    return _say(ctx, "event %s: holidays %s" % (a.event, ", ".join(dates)), {"holidays": dates})


def _do_game(ctx: Ctx, a: Any) -> int:
    data = {"white": a.white, "black": a.black, "notation": a.notation}
    ctx.write([{"kind": "game", "game": a.game, "data": data}], ctx.today())
    return _say(ctx, "game %s: %s - %s" % (a.game, a.white, a.black), data)


def _after(ctx: Ctx, a: Any, what: str) -> Any:
    g = ctx.event().game(a.game, ctx.today())
    return _say(ctx, "game %s: %s; totals %s %d, %s %d days; %s" % (
        a.game, what, g.players[0], g.totals[0], g.players[1], g.totals[1], g.state()),
        g.as_dict())


def _do_move(ctx: Ctx, a: Any) -> int:
    number, san = split_move(a.move, a.san.strip())
    ply = parse_move(number)
    data = {"ply": ply, "san": san, "sent": _date(a.sent, "--sent"),
            "received": _date(a.received, "--received"), "conditional": a.conditional}
    if a.repeats:
        data["repeats"] = a.repeats
    if a.propose:
        data["proposal"] = a.propose
    recs = [{"kind": "move", "game": a.game, "data": data}]
    if a.accept:
        data["accept"] = a.accept
        recs += _accepted(ctx, a, data)
    ctx.write(recs, ctx.today())
    g = ctx.event().game(a.game, ctx.today())
    m = next(x for x in g.moves if x.ply == ply)
    cond = [x for x in g.moves if ply < x.ply <= ply + len(recs) - 1]
    extra = " (EXCESS: %d > %d, Art. 16)" % (m.count_cum, m.budget) if m.excess else ""
    if m.sent <= g.ev.start:
        extra += (" (sent before the official start on %s: an early start is allowed and "
                  "no day up to the start is counted, Art. 12 §1)" % g.ev.start)
    if cond:
        extra += "; accepted conditional moves recorded (Art. 9): %s" % " ".join(
            "%s %s" % (x.label, x.san) for x in cond)
    return _say(ctx, "game %s: %s %s sent %s: %s%s; totals %s %d, %s %d" % (
        a.game, m.label, m.san, m.sent, days(m.charged), extra, g.players[0], g.totals[0],
        g.players[1], g.totals[1]), m.as_dict())


def _accepted(ctx: Ctx, a: Any, data: Any) -> Any:
    """The moves after the reply in an accepted conditional sequence (Art. 9 §1, §3): the
    proposer's (and any later) moves, recorded as conditional moves on the reply's date.
    Whether the sequence is the one proposed is checked when the records are written."""
    from chessclock.corr.notation import read_sequence

    g = ctx.event().game(a.game, ctx.today())
    if g.board is None:
        return []
    try:
        seq = read_sequence(g.board, a.accept, g.notation)
    except CorrError:
        if not data["san"]:   # the check says what is wrong, with its article
            data["san"] = (re.sub(r"\d+\s*\.+", " ", a.accept).split() or [""])[0]
        return []
    if not data["san"]:
        data["san"] = seq[0]
    return [{"kind": "move", "game": a.game,
             "data": {"ply": data["ply"] + i, "san": s, "sent": data["sent"],
                      "received": data["sent"], "conditional": True}}
            for i, s in enumerate(seq[1:], 1)]


def _do_ack(ctx: Ctx, a: Any) -> int:
    data = {"ply": parse_move(a.move), "received": _date(a.received, "--received")}
    ctx.write([{"kind": "ack", "game": a.game, "data": data}], ctx.today())
    return _after(ctx, a, "%s received %s" % (label(data["ply"]), data["received"]))


def _do_notice(ctx: Ctx, a: Any) -> int:
    g = ctx.event().game(a.game, ctx.today())
    ply = g.first_ply + len(g.moves)
    data = {"ply": ply, "date": _date(a.date, "--date")}
    ctx.write([{"kind": "notice", "game": a.game, "data": data}], ctx.today())
    return _after(ctx, a, "notice for %s on %s (Art. 13)" % (label(ply), data["date"]))


def _do_fine(ctx: Ctx, a: Any) -> int:
    data = {"ply": parse_move(a.move), "reason": a.reason, "date": _date(a.date, "--date"),
            "conditional": a.conditional, "late": a.late, "both": a.both}
    ctx.write([{"kind": "fine", "game": a.game, "data": data}], ctx.today())
    return _after(ctx, a, "fine on %s (%s)" % (label(data["ply"]), a.reason))


def _do_leave(ctx: Ctx, a: Any) -> int:
    ev = ctx.event()
    if not any(a.player in (g["white"], g["black"]) for g in ev.games.values()):
        raise CorrError("%s plays no game in event %s" % (a.player, a.event))
    data = {"player": a.player, "start": _date(a.start, "--from"), "end": _date(a.end, "--to"),
            "kind": a.kind, "notified": _date(a.notified, "--notified"),
            "retroactive": a.retroactive}
    ctx.write([{"kind": "leave", "game": None, "data": data}], ctx.today())
    used = sum(len(lv.days()) for lv in ctx.event().leaves
               if lv.player == a.player and lv.kind != "special")
    return _say(ctx, "leave of %s %s..%s (%s); %d of 30 normal days used" % (
        a.player, data["start"], data["end"], a.kind, used), dict(data, normal_used=used))


def _do_remind(ctx: Ctx, a: Any) -> int:
    g = ctx.event().game(a.game, ctx.today())
    if not g.moves:
        raise CorrError("game %s: no move sent yet" % a.game)
    data = {"ply": g.moves[-1].ply, "kind": a.kind, "date": _date(a.date, "--date")}
    ctx.write([{"kind": "remind", "game": a.game, "data": data}], ctx.today())
    return _after(ctx, a, "%s of %s on %s" % (a.kind, g.moves[-1].label, data["date"]))


def _do_claim(ctx: Ctx, a: Any) -> int:
    data = {"by": a.by, "date": _date(a.date, "--date"),
            "notified": _date(a.notified, "--notified")}
    ctx.write([{"kind": "claim", "game": a.game, "data": data}], ctx.today())
    g = ctx.event().game(a.game, ctx.today())
    c = g.claims[-1]
    return _say(ctx, "game %s: claim %d by %s, excess %s, %s (ordinal %d); contest by %s" % (
        a.game, c["claim"], c["by"], c["excess"] or "none found in the ledger", c["state"],
        c["ordinal"], c["contest_by"]), c)


def _do_contest(ctx: Ctx, a: Any) -> int:
    ctx.write([{"kind": "contest", "game": a.game,
                "data": {"claim": a.claim, "date": _date(a.date, "--date")}}], ctx.today())
    return _after(ctx, a, "claim %d contested" % a.claim)


def _do_decide(ctx: Ctx, a: Any) -> int:
    ctx.write([{"kind": "decide", "game": a.game,
                "data": {"claim": a.claim, "date": _date(a.date, "--date"),
                         "upheld": a.upheld}}], ctx.today())
    return _after(ctx, a, "claim %d %s" % (a.claim, "upheld" if a.upheld else "unfounded"))


def _do_result(ctx: Ctx, a: Any) -> int:
    ctx.write([{"kind": "result", "game": a.game,
                "data": {"result": a.result, "date": _date(a.date, "--date"),
                         "reason": a.reason}}], ctx.today())
    return _after(ctx, a, "result %s" % a.result)


def _do_correct(ctx: Ctx, a: Any) -> int:
    data = {"from_ply": parse_move(a.start), "date": _date(a.date, "--date"), "reason": a.reason}
    ctx.write([{"kind": "void", "game": a.game, "data": data}], ctx.today())
    return _after(ctx, a, "moves from %s void (%s)" % (label(data["from_ply"]), a.reason))


def _do_import(ctx: Ctx, a: Any) -> int:
    from chessclock.corr.exchange import read_csv, read_pgn

    ev = ctx.event()
    fmt = a.format or ("pgn" if a.file.lower().endswith(".pgn") else "csv")
    name = os.path.basename(a.file)
    with open(a.file, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise CorrError("%s line %d: byte 0x%02x is not UTF-8 text; save the file as UTF-8"
                        % (name, line, raw[e.start])) from None
    rows = read_csv(text, ev.tz, name) if fmt == "csv" else read_pgn(text, ev.theme_plies, name)
    g = ev.game(a.game, ctx.today())
    have = {m.ply: m for m in g.moves}
    recs = []
    for ply, san, rec, sent in rows:
        if ply in have:   # already recorded: the same dates are fine, others are refused
            m = have[ply]
            if m.sent != sent or (rec and m.given_received and rec != m.given_received):
                raise CorrError("%s: move %s is recorded already with other dates (sent %s); "
                                "correct it first" % (name, m.label, m.sent))
            continue
        recs.append({"kind": "move", "game": a.game,
                     "data": {"ply": ply, "san": san, "sent": str(sent),
                              "received": str(rec) if rec else None, "conditional": False}})
    if recs:
        ctx.write(recs, ctx.today())
    return _after(ctx, a, "%d moves imported from %s" % (len(recs), name))


def _do_ask(ctx: Ctx, a: Any) -> int:
    from chessclock.corr.model import ANSWER_DAYS

    data = {"player": a.player, "date": _date(a.date, "--date"), "about": a.about}
    ctx.write([{"kind": "request", "game": None, "data": data}], ctx.today())
    ev = ctx.event()
    by = ev.calendar.add_days(parse_date(data["date"]), ANSWER_DAYS)
    return _say(ctx, "request to %s on %s: answer due by %s (7 days, Art. 23 § único), or "
                "the director may count %s as withdrawn from the games or eliminated" % (
                    a.player, data["date"], by, a.player), dict(data, answer_by=str(by)))


def _do_answer(ctx: Ctx, a: Any) -> int:
    data = {"player": a.player, "date": _date(a.date, "--date")}
    ctx.write([{"kind": "answer", "game": None, "data": data}], ctx.today())
    return _say(ctx, "%s answered the director on %s" % (a.player, data["date"]), data)


def _do_withdraw(ctx: Ctx, a: Any) -> int:
    data = {"player": a.player, "date": _date(a.date, "--date"), "reason": a.reason}
    ctx.write([{"kind": "withdraw", "game": None, "data": data}], ctx.today())
    ev = ctx.event()
    today = ctx.today()
    lines, games = [], []
    for gid, gd in ev.games.items():
        if a.player not in (gd["white"], gd["black"]):
            continue
        g = ev.game(gid, today)
        games.append({"game": gid, "state": g.state()})
        lines.append("  game %s %s - %s: %s" % (gid, g.players[0], g.players[1],
                                                 "result stands: " + g.state()
                                                 if not g.withdrawn else g.state()))
    return _say(ctx, "%s: %s on %s; finished results stand, the remaining games are lost "
                "(Art. 27):\n%s" % (a.player, a.reason, data["date"], "\n".join(lines)),
                dict(data, games=games))


def _do_verify(ctx: Ctx, a: Any) -> int:
    problems, info = ctx.store.verify(a.event)
    if not info["records"]:
        raise CorrError("no event %r in %s" % (a.event, ctx.path))
    data = dict(info, event=a.event, problems=problems, intact=not problems)
    if problems:
        if ctx.json:
            _say(ctx, "", data)
        else:
            ctx.out.write("".join("event %s: %s\n" % (a.event, p) for p in problems))
        raise LedgerDamaged("event %s: %d problem%s in the ledger's chain" % (
            a.event, len(problems), "s" if len(problems) > 1 else ""))
    return _say(ctx, "event %s: %d records, chain intact; head %s" % (
        a.event, info["records"], info["head"]), data)


def _do_repair(ctx: Ctx, a: Any) -> int:
    date = _date(a.date, "--date")
    today = ctx.today("UTC") if getattr(ctx.args, "today", None) else None
    recs = ctx.store.records(a.event)
    if not recs:
        raise CorrError("no event %r (create it with: chessclock corr event %s ...)"
                        % (a.event, a.event))
    if today is None:
        ev_rec = next((r for r in recs if r["kind"] == "event" and r["data"]), None)
        today = ctx.today(ev_rec["data"].get("tz", "UTC") if ev_rec else "UTC")
    if parse_date(date) > today:
        raise CorrError("--date %s is after today (%s): a ledger records what happened"
                        % (date, today))
    aside = records_to_set_aside(a.event, recs, today)
    if not aside:
        return _say(ctx, "event %s: nothing to repair, every record is read" % a.event,
                    {"set_aside": []})
    seqs = [r["seq"] for r in aside]
    ctx.write([{"kind": "repair", "game": None,
                "data": {"set_aside": seqs, "date": date, "reason": a.reason}}], today)
    return _say(ctx, "event %s: set aside %s (kept in the ledger, not read)" % (
        a.event, ", ".join("record %d (%s%s)" % (r["seq"], r["kind"], ", game %s" % r["game"]
                                                 if r.get("game") else "") for r in aside)),
        {"set_aside": seqs})


# ---- reading -------------------------------------------------------------------
def _ledgers(ctx: Ctx) -> tuple[Any, dt.date, list[Any]]:
    ev = ctx.event()
    today = ctx.today(ev.tz)
    return ev, today, [ev.game(gid, today) for gid in ev.games]


def _console(out: Any) -> Any:
    from rich.console import Console

    return Console(file=out, width=130, color_system=None, highlight=False, soft_wrap=False)


def _series(g: Any, s: int) -> str:
    p = g.pending
    if p is not None and SIDES.index(p["side"]) == s:
        return "%d (c%d %d/%d)%s" % (p["total"], p["count"], p["count_cum"], p["budget"],
                                     " OVER" if p["over_time"] else
                                     " over?" if p["over_time_estimated"] else "")
    last = next((m for m in reversed(g.moves) if m.side == s), None)
    if last is None:
        return "0"
    left = "%d (c%d %d/%d)" % (last.total, last.count_no, last.count_cum, last.budget)
    return left + (" EXCESS" if last.excess else "")


def _do_status(ctx: Ctx, a: Any) -> int:
    from rich.table import Table

    from chessclock.corr.reminders import event_items

    ev, today, gs = _ledgers(ctx)
    items = [i for i in event_items(ev, gs, today) if i["due"] <= str(today)]
    rows = []
    for g in gs:
        p = g.pending
        owes = since = nxt = ""
        if p is not None and g.halting_claim() is None:
            s = SIDES.index(p["side"])
            nxt = p["move"]
            if p["acknowledged"]:
                owes, since = g.players[s], p["received"]
            else:
                owes = "%s (not confirmed)" % g.players[s]
                since = str(g.moves[-1].sent)
        rows.append({"game": g.id, "white": g.players[0], "black": g.players[1], "next": nxt,
                     "owes": owes, "since": since, "white_days": _series(g, 0),
                     "black_days": _series(g, 1), "state": g.state(),
                     "over_time": bool(p and p["over_time"])})
    if ctx.json:
        return _say(ctx, "", {"event": ev.id, "today": str(today), "games": rows, "due": items})
    con = _console(ctx.out)
    t = Table(title="%s%s: today %s, %d games" % (ev.name, " " + ev.phase if ev.phase else "",
                                                 today, len(gs)), title_justify="left")
    for col in ("Game", "White", "Black", "Next", "Owes a reply", "Since", "White days",
                "Black days", "State"):
        t.add_column(col)
    for r in rows:
        t.add_row(r["game"], r["white"], r["black"], r["next"], r["owes"], r["since"],
                  r["white_days"], r["black_days"], r["state"])
    con.print(t)
    over = [r["game"] for r in rows if r["over_time"]]
    con.print("Over time: %s" % (", ".join(over) if over else "nobody"))
    con.print("Due today or overdue (%d):" % len(items))
    for i in items:
        con.print("  %s game %s, %s: %s [%s]%s" % (i["due"], i["game"], i["who"], i["what"],
                                                   i["art"], " OVERDUE" if i["overdue"] else ""))
    con.print("White/Black days: total (count: days used/allowed); over? = over time if the "
              "move arrived as the average transit says (Art. 14). Calendar days in %s." % ev.tz)
    return 0


def _do_due(ctx: Ctx, a: Any) -> int:
    from chessclock.corr.reminders import event_items

    ev, today, gs = _ledgers(ctx)
    items = [i for i in event_items(ev, gs, today) if i["due"] <= str(today)]
    text = "\n".join("%s game %s, %s: %s [%s]%s" % (
        i["due"], i["game"], i["who"], i["what"], i["art"], " OVERDUE" if i["overdue"] else "")
        for i in items) or "nothing due on %s" % today
    return _say(ctx, text, {"today": str(today), "due": items})


def _do_ledger(ctx: Ctx, a: Any) -> int:
    from rich.table import Table

    g = ctx.event().game(a.game, ctx.today())
    if ctx.json:
        d = g.as_dict()
        d["calendar"] = {}
        for s in (0, 1):
            counted, not_counted = g.calendar_days(s)
            d["calendar"][SIDES[s]] = {"counted": counted, "not_counted": not_counted}
        return _say(ctx, "", d)
    t = Table(title="game %s: %s - %s, %s" % (g.id, g.players[0], g.players[1], g.state()),
              title_justify="left")
    for col in ("Move", "SAN", "Received", "Sent", "Transit", "Counted", "Not counted",
                "x2", "Fines", "Charged", "Total", "Count"):
        t.add_column(col)
    for m in g.moves:
        nc = ", ".join("%s %d" % (k.replace("_", " "), v) for k, v in sorted(m.cats.items()))
        san = m.san if m.typed in ("", m.san) else "%s (%s)" % (m.san, m.typed)
        t.add_row(m.label, san, str(m.received) + ("*" if m.estimated else ""), str(m.sent),
                  "" if m.transit is None else str(m.transit) + ("!" if m.transit > 1 else ""),
                  str(m.counted), nc, str(m.doubled or ""),
                  " ".join("+%d" % f for f, _ in m.fines), str(m.charged), str(m.total),
                  "c%d %d: %d/%d%s" % (m.count_no, m.count_move, m.count_cum, m.budget,
                                       " EXCESS" if m.excess else ""))
    con = _console(ctx.out)
    con.print(t)
    p = g.pending
    if p is not None:
        con.print("Thinking now: %s (%s) since %s%s: %d days, count %d: %d/%d%s" % (
            p["move"], g.players[SIDES.index(p["side"])], p["received"],
            "*" if p["received_estimated"] else "", p["charged"], p["count"], p["count_cum"],
            p["budget"], " OVER TIME" if p["over_time"] else ""))
    for c in g.claims:
        con.print("Claim %d by %s on %s: excess %s, %s" % (c["claim"], c["by"], c["date"],
                                                           c["excess"], c["state"]))
    if g.voided:
        con.print("Void (kept, not counted): %s" % ", ".join(label(r["data"]["ply"])
                                                           for r in g.voided))
    if g.ev.set_aside:
        con.print("Set aside by a repair (kept, not read): record%s %s" % (
            "s" if len(g.ev.set_aside) > 1 else "", ", ".join(map(str, g.ev.set_aside))))
    for w in g.warnings:
        con.print("Warning: %s" % w)
    con.print("* received date set from the average transit (Art. 14); ! transit over 1 day "
              "(Art. 12)")
    return 0


def _do_email(ctx: Ctx, a: Any) -> int:
    from chessclock.corr.exchange import email_text

    g = ctx.event().game(a.game, ctx.today())
    text = email_text(g, parse_move(a.move) if a.move else None)
    return _say(ctx, text, {"text": text})


def _do_pgn(ctx: Ctx, a: Any) -> int:
    from chessclock.corr.exchange import pgn

    g = ctx.event().game(a.game, ctx.today())
    text = pgn(g)
    return _say(ctx, text, {"pgn": text})


def _do_claim_file(ctx: Ctx, a: Any) -> int:
    from chessclock.corr.package import claim_file

    g = ctx.event().game(a.game, ctx.today())
    text = claim_file(g, a.claim)
    return _say(ctx, text, {"text": text})


def _do_package(ctx: Ctx, a: Any) -> int:
    from chessclock.corr.package import package

    ev, today, gs = _ledgers(ctx)
    text, data, pgns = package(ev, gs, today)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "package.txt"), "w") as f:
            f.write(text)
        with open(os.path.join(a.out, "package.json"), "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        with open(os.path.join(a.out, "%s.pgn" % ev.id), "w") as f:
            f.write(pgns)
    return _say(ctx, text, data)
