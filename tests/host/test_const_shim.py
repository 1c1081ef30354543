"""One const() for the firmware, clockcore/__init__.py. Every module that writes
`X = const(...)` takes const from there (MicroPython's compiler folds it all the same:
tests/mp_only/test_const.py); none carries its own CPython fallback."""

import re
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
SHIM = FIRMWARE / "clockcore" / "__init__.py"


def test_every_const_comes_from_the_one_shim():
    users = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        if path == SHIM or "__pycache__" in path.parts:
            continue
        text = path.read_text()
        rel = path.relative_to(FIRMWARE)
        assert not re.search(r"^\s*def const\(", text, re.M), "%s defines its own const" % rel
        assert "from micropython import const" not in text, (
            "%s: take const from clockcore" % rel)
        if re.search(r"= const\(", text):
            assert re.search(r"^from clockcore import ([\w ]+, )?const\b", text, re.M), rel
            users.append(rel)
    assert len(users) >= 18   # the engine, the app, the drivers: a sanity floor


def test_the_shim_is_the_identity_on_cpython():
    from clockcore import const
    assert const(7) == 7 and const(-(1 << 29)) == -(1 << 29)
