"""A clock's board: its profile, its parts, and the firmware built for it and deployed to it.

    profiles.py  boards.toml read and checked: the board profiles (`chessclock boards`)
    mcus.py      what each microcontroller's pins can do, and its module's power
    displays.py  the display kinds: chip, geometry, connector, BOM line, current
    deploy.py    the firmware compiled for a board, copied to it over USB and verified

The wiring, netlist, BOM and build guide made from a profile are chessclock.hardware.
"""
