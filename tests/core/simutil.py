# Helpers for tests through the simulator board, on CPython and MicroPython alike
# (the unix port has no tempfile or shutil).

import os

from boards.sim import SimBoard, run_until
from clockapp.app import App

_n = [0]
_run = []   # this MicroPython run's folder name


def _rmtree(path):
    try:
        names = os.listdir(path)
    except OSError:
        return
    for name in names:
        p = path + "/" + name
        try:
            os.remove(p)
        except OSError:
            _rmtree(p)
    try:
        os.rmdir(path)
    except OSError:
        pass


def fresh_dir():
    """An empty folder for one simulated board's flash."""
    _n[0] += 1
    if hasattr(os, "getpid"):
        base = "/tmp/chessclock-sim-%d" % os.getpid()
    else:   # the unix port: a name of its own (runs side by side must not share folders)
        if not _run:
            _run.append("".join("%02x" % c for c in os.urandom(4)))
        base = "/tmp/ccsim-" + _run[0]
    try:
        os.mkdir(base)
    except OSError:
        pass
    path = "%s/%d" % (base, _n[0])
    _rmtree(path)
    os.mkdir(path)
    return path + "/"


def boot(root=None, **kw):
    """A simulated board and the app on it, first loop pass done."""
    board = SimBoard(root or fresh_dir(), **kw)
    app = App(board)
    app.step()
    return board, app


def until(app, board, t_ms):
    run_until(app, board, t_ms * 1000)


def text(display):
    return display.text()
