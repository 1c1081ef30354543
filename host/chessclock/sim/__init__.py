"""The clock without a board.

    script.py    a script of presses replayed through the engine (`chessclock simulate`)
    terminal.py  the real firmware on a simulated board, drawn in a terminal (`chessclock sim`)
    serve.py     the simulated board as a serial device on a pty (`chessclock sim-serve`)
"""
