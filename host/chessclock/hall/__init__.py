"""The tournament hall: every clock on one arbiter page, live broadcast, pairings in and
results out (docs/HALL.md).

    station.py    polls clocks over the serial link (chessclock.link), one Tracker each
    tracker.py    a clock's status replies -> its hall state (plies with clocks, flags, ...)
    hub.py        the hall's boards: what the page, the broadcast and the results read
    mqtt.py       stations publish to an MQTT broker, the hub reads from it (optional)
    web.py        the page (Starlette, served by uvicorn), its live stream and actions
    broadcast.py  PGN per board and per round with [%clk]
    pairings.py   a round's pairings in (CSV, FIDE TRF-16), results out (CSV, TRF)
    demo.py       a hall of simulated clocks, for trying the page

`chessclock hall` is chessclock/commands/hall.py.
"""
