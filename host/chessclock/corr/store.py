"""The ledger's storage: one SQLite table of records, append-only, and a hash chain.

A record is (seq, event, game, kind, JSON data, entered). Triggers refuse UPDATE and DELETE,
so a move once recorded stays as it was (CXEB comment on Art. 6); a correction is a new
record (`void`, `fine`, `repair`, ...). Every append is one write transaction (`BEGIN
IMMEDIATE`): the records are read, the whole ledger is recomputed with the new ones and
they are inserted while no other writer can come in between, so two writers at once cannot
both record the same move, and a record the rules refuse is never written.

The chain: each record of an event has a row in `chain` with the hash of the record before
it (`prev`) and its own hash, sha256(prev + the record's seq, event, game, kind, data and
entered as written). `heads` keeps, per event, the number of records and the last hash.
Every read of an event checks the chain and the head (`verify`), so a record changed,
removed or slipped in with SQL tools outside chessclock is reported before anything is
computed from it. A ledger written before the chain existed gets its chain computed once,
when it is first opened (`migrated` says how many records).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from .dates import CorrError

GENESIS = "0" * 64
CHAIN_VERSION = 1   # PRAGMA user_version of a ledger whose records are chained

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
CREATE TABLE IF NOT EXISTS chain (
    seq INTEGER PRIMARY KEY,
    event TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chain_event ON chain(event, seq);
CREATE TRIGGER IF NOT EXISTS chain_no_update BEFORE UPDATE ON chain
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: its chain is never changed'); END;
CREATE TRIGGER IF NOT EXISTS chain_no_delete BEFORE DELETE ON chain
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: its chain is never changed'); END;
CREATE TABLE IF NOT EXISTS heads (
    event TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    hash TEXT NOT NULL
);
"""


class LedgerDamaged(CorrError):
    """The stored records do not match their chain: changed, removed or added outside
    chessclock. Exit status 3."""

    exit_code = 3


def record_hash(prev: str, seq: int, event: str, game: str | None, kind: str, data: str,
                entered: str) -> str:
    body = json.dumps([seq, event, game, kind, data, entered], ensure_ascii=True)
    return hashlib.sha256((prev + body).encode("ascii")).hexdigest()


class Store:
    def __init__(self, path: str) -> None:
        self.migrated = 0   # records chained on opening a ledger written without the chain
        try:
            # isolation_level=None: transactions are begun here, explicitly; a second
            # writer waits for the first (up to `timeout` seconds) instead of failing.
            self.db = sqlite3.connect(path, timeout=30, isolation_level=None)
            self.db.executescript(SCHEMA)
            if self.db.execute("PRAGMA user_version").fetchone()[0] < CHAIN_VERSION:
                self._migrate()
        except sqlite3.Error as e:
            raise CorrError("ledger database %s: %s" % (path, e)) from None

    def close(self) -> None:
        self.db.close()

    def _migrate(self) -> None:
        """Chain every record of a ledger written before the chain, once."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if self.db.execute("PRAGMA user_version").fetchone()[0] < CHAIN_VERSION:
                heads: dict[str, tuple[int, str]] = {}
                for seq, event, game, kind, data, entered in self.db.execute(
                        "SELECT seq, event, game, kind, data, entered FROM records "
                        "ORDER BY seq").fetchall():
                    n, prev = heads.get(event, (0, GENESIS))
                    h = record_hash(prev, seq, event, game, kind, data, entered)
                    self.db.execute("INSERT INTO chain (seq, event, prev, hash) "
                                    "VALUES (?, ?, ?, ?)", (seq, event, prev, h))
                    heads[event] = (n + 1, h)
                    self.migrated += 1
                for event, (n, h) in heads.items():
                    self.db.execute("INSERT INTO heads (event, count, hash) VALUES (?, ?, ?)",
                                    (event, n, h))
                self.db.execute("PRAGMA user_version = %d" % CHAIN_VERSION)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    # ---- reading, with the chain checked ---------------------------------------
    def verify(self, event: str) -> tuple[list[str], dict[str, Any]]:
        """(problems found, {"records", "head"}): every record of `event` against its
        chain row, every chain row against a record, and the last one against the head."""
        problems: list[str] = []
        rows = self.db.execute(
            "SELECT r.seq, r.game, r.kind, r.data, r.entered, c.prev, c.hash FROM records r "
            "LEFT JOIN chain c ON c.seq = r.seq WHERE r.event = ? ORDER BY r.seq",
            (event,)).fetchall()
        prev, n = GENESIS, 0
        for seq, game, kind, data, entered, cprev, chash in rows:
            what = "record %d (%s%s)" % (seq, kind, ", game %s" % game if game else "")
            if chash is None:
                problems.append("%s is not in the chain: added outside chessclock" % what)
                continue
            n += 1
            if cprev != prev:
                problems.append("a record before %s is missing: the chain does not link "
                                "to the one before it" % what)
            if record_hash(cprev, seq, event, game, kind, data, entered) != chash:
                problems.append("%s was changed after it was written: it does not match "
                                "its hash" % what)
            prev = chash
        have = set(r[0] for r in rows)
        deleted = ["record %d was deleted: it is in the chain, not in the ledger" % seq
                   for (seq,) in self.db.execute(
                       "SELECT seq FROM chain WHERE event = ? ORDER BY seq", (event,))
                   if seq not in have]
        problems[:0] = deleted   # the cause first, then the broken links it leaves
        head = self.db.execute("SELECT count, hash FROM heads WHERE event = ?",
                               (event,)).fetchone()
        if head is None and rows:
            problems.append("the event has no head: its chain was removed")
        elif head is not None and (head[0] != n or head[1] != prev):
            problems.append("the head says %d records ending in %s..., the chain has %d "
                            "ending in %s...: records at the end were removed or added"
                            % (head[0], head[1][:12], n, prev[:12]))
        return problems, {"records": len(rows), "head": prev}

    def records(self, event: str) -> list[dict[str, Any]]:
        """The records of `event` in order, once the chain checked out (LedgerDamaged
        otherwise). A record whose data is not a JSON object has data None and `bad` set."""
        problems, _ = self.verify(event)
        if problems:
            more = len(problems) - 1
            raise LedgerDamaged("event %s: the ledger was changed outside chessclock: %s%s"
                                % (event, problems[0], "; %d more problem%s (corr verify %s "
                                                       "lists them)" % (
                                                           more, "s" if more > 1 else "", event)
                                   if more else ""))
        out = []
        for s, g, k, d, e in self.db.execute(
                "SELECT seq, game, kind, data, entered FROM records WHERE event = ? "
                "ORDER BY seq", (event,)).fetchall():
            r: dict[str, Any] = {"seq": s, "game": g, "kind": k, "data": None, "entered": e}
            try:
                r["data"] = json.loads(d)
            except ValueError as err:
                r["bad"] = "its data is not JSON (%s)" % str(err).splitlines()[0]
            if r["data"] is not None and not isinstance(r["data"], dict):
                r["data"], r["bad"] = None, "its data is not a JSON object"
            out.append(r)
        return out

    # ---- writing -----------------------------------------------------------------
    def append(self, event: str, new: list[Any], check: Any) -> None:
        """Append records (dicts with game, kind, data, entered) for `event` once
        `check(all records with the new ones)` has passed; all or nothing. The records are
        read, checked and chained inside the write transaction, so no other writer can
        append in between."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise CorrError("ledger database: %s (nothing written)" % e) from None
        try:
            recs = self.records(event)
            nxt = (recs[-1]["seq"] if recs else 0) + 1
            check(recs + [dict(r, seq=nxt + i) for i, r in enumerate(new)])
            head = self.db.execute("SELECT count, hash FROM heads WHERE event = ?",
                                   (event,)).fetchone()
            n, prev = head if head is not None else (0, GENESIS)
            for r in new:
                data = json.dumps(r["data"], sort_keys=True)
                cur = self.db.execute(
                    "INSERT INTO records (event, game, kind, data, entered) "
                    "VALUES (?, ?, ?, ?, ?)", (event, r.get("game"), r["kind"], data,
                                               r["entered"]))
                seq = cur.lastrowid
                assert seq is not None   # an INSERT into a rowid table gives its rowid
                h = record_hash(prev, seq, event, r.get("game"), r["kind"], data, r["entered"])
                self.db.execute("INSERT INTO chain (seq, event, prev, hash) VALUES (?, ?, ?, ?)",
                                (seq, event, prev, h))
                n, prev = n + 1, h
            self.db.execute("INSERT INTO heads (event, count, hash) VALUES (?, ?, ?) "
                            "ON CONFLICT(event) DO UPDATE SET count = excluded.count, "
                            "hash = excluded.hash", (event, n, prev))
            self.db.execute("COMMIT")
        except sqlite3.Error as e:
            self.db.execute("ROLLBACK")
            raise CorrError("ledger database: %s (nothing written)" % e) from None
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
