# clockcore: the clock's portable core (engine, controls, ticks, log, protocol).
#
# Also const() for every firmware module: `from clockcore import const`, then `X = const(7)`.
# It lives here, not in a module of its own, because every module imports clockcore anyway
# (a module more would cost heap on the board). On MicroPython this is micropython.const
# itself, and the compiler folds `X = const(...)` wherever const came from (it matches the
# name when it parses the module): X's uses become the number, and a name with a leading
# underscore is left out of the module's dict (tests/mp_only/test_const.py). On CPython,
# the host and the tests, it is the identity.

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):  # type: ignore[misc]  # the stubs' const is generic; this one plainly returns x
        return x


def unload(name):
    """Forget module `name` (e.g. "clockapp.gameread"), imported for a one-off job: its code
    goes with the next collection once nothing refers to it, and an import loads it again.
    (Its names stay interned: MicroPython never frees a qstr.)"""
    import sys
    sys.modules.pop(name, None)
    i = name.rfind(".")
    parent = sys.modules.get(name[:i]) if i > 0 else None
    leaf = name[i + 1:]
    if parent is not None and leaf in parent.__dict__:
        delattr(parent, leaf)
