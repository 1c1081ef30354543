# const() for every firmware module: `from clockcore.const import const`, then `X = const(7)`.
# On MicroPython this is micropython.const itself, and the compiler folds `X = const(...)`
# wherever const came from (it matches the name when it parses the module): X's uses become
# the number, and a name with a leading underscore is left out of the module's dict
# (tests/mp_only/test_const.py). On CPython, the host and the tests, it is the identity.

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):  # type: ignore[misc]  # the stubs' const is generic; this one plainly returns x
        return x
