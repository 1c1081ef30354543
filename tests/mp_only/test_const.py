# The one const() (clockcore/__init__.py): a module that takes const from it still has its
# constants folded by MicroPython's compiler, which leaves a constant named with a leading
# underscore out of the module's dict (and puts its value where the name was used).

from clockapp import serialport, storage, storefold, timefmt


def test_underscore_constants_are_folded_away():
    for mod, names in ((timefmt, ("_TENTHS_MAX_MS", "_HOUR_S", "_CAP_S", "_SPACE", "_ZERO",
                                  "_COLON", "_DOT")),
                       (storefold, ("_FOLD_CHUNK",)),
                       (serialport, ("_POLLIN", "_POLLOUT"))):
        for name in names:
            assert not hasattr(mod, name), "%s.%s was not folded" % (mod.__name__, name)


def test_public_constants_stay_and_folded_ones_still_work():
    assert storage.ENOENT == 2          # const() without an underscore: kept, importable
    buf = bytearray(8)
    timefmt.format_time(buf, 4000000)   # _HOUR_S, _ZERO, _COLON, _SPACE, ... where used
    assert bytes(buf) == b" 1:06:40"
    timefmt.format_time(buf, 9999999 * 1000)
    assert bytes(buf) == b"99:59:59"    # _CAP_S
