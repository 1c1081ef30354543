# Helpers for the core tests, which run both under pytest (CPython) and under
# tests/mp_run.py (the MicroPython unix port): plain asserts, no pytest features.


def raises(exc_type, fn, *args):
    """Call fn(*args); it must raise exc_type. Return the exception for further checks."""
    try:
        fn(*args)
    except exc_type as e:
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn),
                                                 exc_type.__name__))


def message(exc_type, fn, *args):
    """The message of the exception fn(*args) must raise."""
    e = raises(exc_type, fn, *args)
    return str(e.args[0]) if e.args else ""
