"""The clock's event log on the arbiter's laptop (docs/EVENT-LOG.md).

    records.py  a log file's records, heads and games as read (no replay)
    verify.py   CRCs, sequence, hash chain and authentication; each game through the engine
    export.py   a verified log as a table, CSV, JSON Lines or PGN
    replay.py   the clock's state at any instant of a game, from its log and the engine
    pull.py     a clock's log over the link into a local archive (resumable)
"""
