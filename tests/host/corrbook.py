"""A correspondence event written record by record, as `chessclock corr` would store it:
every record goes through the same check (chessclock.corr.checks.check_new) before it is kept."""

import datetime as dt

from chessclock.corr.checks import check_new
from chessclock.corr.ledger import Event
from chessclock.corr.model import parse_move


def D(text):
    return dt.date.fromisoformat(text)


class Book:
    def __init__(self, start, end=None, theme="", theme_plies=0, holidays=(), today=None):
        # today: fixed, or (None) the latest date written so far
        self.fixed_today = today
        self.today = D(start)
        self.recs = []
        self.add("event", None, {"name": "Test", "start": start, "end": end, "tz": "UTC",
                                 "theme": theme, "theme_plies": theme_plies,
                                 "holidays": list(holidays)})

    def add(self, kind, game, data):
        r = {"seq": len(self.recs) + 1, "kind": kind, "game": game, "data": data,
             "entered": "x"}
        if self.fixed_today is None:
            for key in ("start", "sent", "received", "date", "notified"):
                if data.get(key):
                    self.today = max(self.today, D(data[key]))
        else:
            self.today = self.fixed_today
        check_new("E", self.recs, [r], self.today)
        self.recs.append(r)
        return self

    def game(self, gid="g", white="Ana", black="Bruno"):
        return self.add("game", gid, {"white": white, "black": black})

    def move(self, mv, sent, received=None, san="", gid="g"):
        return self.add("move", gid, {"ply": parse_move(mv), "san": san, "sent": sent,
                                      "received": received})

    def ledger(self, gid="g", today=None):
        return Event.from_records("E", self.recs).game(gid, today or self.today)

    def play(self, white_days, black_days, start, gid="g", transit=0):
        """Moves from `start` (White's receipt of the pairing): each side thinks its days in
        turn, every message arrives `transit` days after it was sent."""
        t = D(start)
        n = max(len(white_days), len(black_days))
        for i in range(n):
            for side, days in ((0, white_days), (1, black_days)):
                if i >= len(days):
                    return self
                received = t if i or side else None
                sent = t + dt.timedelta(days=days[i])
                self.move("%d%s" % (i + 1, "..." if side else ""), str(sent),
                          str(received) if received else None, gid=gid)
                t = sent + dt.timedelta(days=transit)
        return self
