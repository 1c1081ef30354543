"""`chessclock corr`: a correspondence (e-mail) chess ledger under the CXEB rules (v2, 2005).

Modules: dates (calendar dates, the yearly recess, deadlines), model (records, series, day
counting), ledger (an event and its games computed from the records: days per move,
series, fines, leave, claims), checks (a record checked against the ledger before it is
kept), actions (each `corr` ACTION), reminders (what is due on a day), store (SQLite,
append-only), exchange (CSV/PGN in, e-mail text and PGN out), package (a claim's file);
the command line is chessclock/commands/corr.py.
Everything is computed from the stored records and an injected `today`: nothing reads a clock.
"""
