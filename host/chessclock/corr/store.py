"""The ledger's storage: one SQLite table of records, append-only.

A record is (seq, event, game, kind, JSON data, entered). Triggers refuse UPDATE and DELETE,
so a move once recorded stays as it was (CXEB comment on Art. 6); a correction is a new
record (`void`, `fine`, ...). Every append is one write transaction (`BEGIN IMMEDIATE`):
the records are read, the whole ledger is recomputed with the new ones and they are
inserted while no other writer can come in between, so two writers at once cannot both
record the same move, and a record the rules refuse is never written.
"""

import json
import sqlite3

from .dates import CorrError

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    event TEXT NOT NULL,
    game TEXT,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    entered TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_event ON records(event, seq);
CREATE TRIGGER IF NOT EXISTS records_no_update BEFORE UPDATE ON records
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: records are never changed'); END;
CREATE TRIGGER IF NOT EXISTS records_no_delete BEFORE DELETE ON records
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: records are never deleted'); END;
"""


class Store:
    def __init__(self, path):
        try:
            # isolation_level=None: transactions are begun here, explicitly; a second
            # writer waits for the first (up to `timeout` seconds) instead of failing.
            self.db = sqlite3.connect(path, timeout=30, isolation_level=None)
            self.db.executescript(SCHEMA)
        except sqlite3.Error as e:
            raise CorrError("ledger database %s: %s" % (path, e)) from None

    def close(self):
        self.db.close()

    def records(self, event):
        rows = self.db.execute(
            "SELECT seq, game, kind, data, entered FROM records WHERE event = ? ORDER BY seq",
            (event,)).fetchall()
        return [{"seq": s, "game": g, "kind": k, "data": json.loads(d), "entered": e}
                for s, g, k, d, e in rows]

    def events(self):
        return [r[0] for r in self.db.execute(
            "SELECT event FROM records WHERE kind = 'event' ORDER BY seq")]

    def append(self, event, new, check):
        """Append records (dicts with game, kind, data, entered) for `event` once
        `check(all records with the new ones)` has passed; all or nothing. The records are
        read and checked inside the write transaction, so no other writer can append in
        between."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise CorrError("ledger database: %s (nothing written)" % e) from None
        try:
            recs = self.records(event)
            nxt = (recs[-1]["seq"] if recs else 0) + 1
            check(recs + [dict(r, seq=nxt + i) for i, r in enumerate(new)])
            for r in new:
                self.db.execute(
                    "INSERT INTO records (event, game, kind, data, entered) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (event, r.get("game"), r["kind"], json.dumps(r["data"], sort_keys=True),
                     r["entered"]))
            self.db.execute("COMMIT")
        except sqlite3.Error as e:
            self.db.execute("ROLLBACK")
            raise CorrError("ledger database: %s (nothing written)" % e) from None
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
