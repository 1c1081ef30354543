# The serial link answers status and hello itself; its other operations are carried out
# by modules by area (clockapp/ops_*.py), each imported when its first operation comes and
# kept for the next. Runs on CPython and MicroPython.

import sys

from simutil import boot

import clockapp
from clockcore import protocol as P

AREAS = ("ops_game", "ops_log", "ops_adjourn", "ops_admin", "ops_session")


def _unload():
    """Forget the operations' modules, as on a clock that has not used them yet."""
    for name in AREAS:
        sys.modules.pop("clockapp." + name, None)
        if name in clockapp.__dict__:
            delattr(clockapp, name)


def _loaded():
    return [name for name in AREAS if "clockapp." + name in sys.modules]


def _ask(app, rid, op, *args):
    line = P.encode_request(rid, op, list(args), None, None)
    return P.decode_reply(app.link.handle(line[:-1])[:-1])


def test_an_operations_module_is_imported_with_its_first_operation_and_kept():
    _unload()
    board, app = boot()
    for rid, op in enumerate(("hello", "status", "control", "auth")):
        assert _ask(app, rid + 1, op)[1], op
    assert _loaded() == []                       # the link's own: nothing imported
    ok, fields = _ask(app, 10, "set", "5m+3s")[1:]
    assert ok and fields["spec"] == "5m+3s"
    assert _loaded() == ["ops_game"]
    game = sys.modules["clockapp.ops_game"]
    ok, fields = _ask(app, 11, "incident")[1:]
    assert not ok and fields["detail"] == "no game is in progress"
    assert _loaded() == ["ops_game", "ops_session"]
    assert _ask(app, 12, "start")[2]["state"] == "running"
    assert sys.modules["clockapp.ops_game"] is game   # kept, not imported again
    # refused by the authorisation (keyless, in a game): its module is not needed
    ok, fields = _ask(app, 13, "adjput", "0", "QUJD")[1:]
    assert not ok and fields["code"] == P.E_AUTH_REQUIRED
    assert _loaded() == ["ops_game", "ops_session"]
    ok, fields = _ask(app, 14, "sim", "nosuch")[1:]
    assert not ok and fields["code"] == P.E_ARGS   # the board's hook refused it
    assert _loaded() == ["ops_game", "ops_admin", "ops_session"]
    ok, fields = _ask(app, 15, "log", "0")[1:]
    assert ok and int(fields["n"]) > 0
    assert _loaded() == ["ops_game", "ops_log", "ops_admin", "ops_session"]
    ok, fields = _ask(app, 16, "adjexport")[1:]
    assert not ok and fields["code"] == P.E_STATE
    assert _loaded() == list(AREAS)


def test_an_unknown_operation_imports_nothing():
    _unload()
    board, app = boot()
    ok, fields = _ask(app, 1, "nosuch")[1:]
    assert not ok and fields["code"] == P.E_UNKNOWN
    assert _loaded() == []

