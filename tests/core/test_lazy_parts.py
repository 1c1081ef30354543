# What a clock loads only when it is first needed, off the heap of a game that never needs
# it (docs/FIRMWARE.md, "Modules"): the notation parser (clockcore/notation.py) for the
# plainest typed controls. Checked absent after a boot, then present, and working, after
# its first use. CPython and the MicroPython unix port (tests/mp_run.py).

import sys

from simutil import boot

import clockcore
from clockcore import engine as E
from clockcore import notation, presets

LAZY = ("clockcore.notation", "clockcore.plausible")


def _forget():
    """As on a clock just powered on: the parser not imported yet."""
    for name in LAZY:
        sys.modules.pop(name, None)
        leaf = name[name.find(".") + 1:]
        if leaf in clockcore.__dict__:
            delattr(clockcore, leaf)


def _loaded():
    return [name for name in LAZY if name in sys.modules]


def test_a_plain_typed_control_needs_no_parser():
    _forget()
    board, app = boot()
    app.new_game("5m+3s")
    assert _loaded() == []
    assert app.clock.main == [300000, 300000]
    assert app.clock.stages[E.WHITE][0].inc_ms == 3000
    app.new_game("90m/40+30m")                 # anything else: the parser
    assert "clockcore.notation" in sys.modules


def test_the_plain_forms_read_as_the_parser_reads_them():
    # every control the set-up menu's SEt writes (1-600 min, +0-120 s), and a margin
    for m in range(1, 1000):
        for s in (0, 1, 2, 30, 120, 999):
            spec = "%dm+%ds" % (m, s)
            assert presets.quick(spec) == notation.parse(spec), spec
    for s in range(0, 1000):
        spec = "3m+%ds" % s
        assert presets.quick(spec) == notation.parse(spec), spec
    assert presets.quick("7m") == notation.parse("7m")
    for spec in ("3", "3+2", "03m+2s", "3m+02s", "3M+2s", "3m+2S", " 3m+2s", "3m+2s ",
                 "3m+", "3m+s", "m+2s", "1000m", "0m+2s", "3m2s", "3m+2", "fide-blitz", 3):
        assert presets.quick(spec) is None, spec
