"""The serial link to the clocks (docs/PROTOCOL.md).

    transport.py  Link: framing, retries, the arbiter's key; ClockError and its exit codes
    ports.py      which serial ports hold clocks (USB ids, simulated clocks, --port/--all)
    view.py       clocks' status as a table, for `status`, `watch` and `log-pull`
    pairing.py    a round's pairing as the clock's `pairing` request
"""
