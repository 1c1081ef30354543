# Test runner for the core tests on the MicroPython unix port (also runs under CPython).
#
#   MICROPYPATH=.frozen:firmware:tests/core micropython tests/mp_run.py [FILTER]
#
# Imports every tests/core/test_*.py (and, under MicroPython, tests/mp_only/test_*.py),
# calls each `test_*` callable in the order the module
# defines it, and ends with one line "N passed, M failed"; exit status 1 when M > 0.
# FILTER keeps only the tests whose "module.test_name" contains it. A module that fails to
# import counts as one failure. Plain asserts only: there is no pytest here.

import gc
import os
import sys

try:
    import traceback
except ImportError:  # MicroPython
    traceback = None


def _print_exc(e):
    if hasattr(sys, "print_exception"):  # MicroPython
        sys.print_exception(e)
    else:
        traceback.print_exc(file=sys.stdout)


def _dirname(path):
    i = path.rfind("/")
    if i < 0:
        return "."
    return path[:i] or "/"


def _absolute(path):
    """Good enough to compare sys.path entries; no ".." handling."""
    if path.startswith("/"):
        return path
    while path.startswith("./"):
        path = path[2:]
    if path in ("", "."):
        return os.getcwd()
    return os.getcwd() + "/" + path


def _defined_order(path):
    """Names of `def test_*` at module level in source order ([] if unreadable)."""
    names = []
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("def test_") or line.startswith("async def test_"):
                    name = line.split("def ", 1)[1].split("(", 1)[0].strip()
                    if name not in names:
                        names.append(name)
    except OSError:
        pass
    return names


def _tests_of(mod, path):
    found = {}
    for name in dir(mod):
        if name.startswith("test_"):
            obj = getattr(mod, name)
            if callable(obj):
                found[name] = obj
    order = [n for n in _defined_order(path) if n in found]
    rest = sorted(n for n in found if n not in order)
    return [(n, found[n]) for n in order + rest]


def main(argv):
    pattern = argv[1] if len(argv) > 1 else None
    impl = sys.implementation
    print("interpreter: %s %s" % (impl.name, ".".join(str(v) for v in impl.version[:3])))

    here = _dirname(__file__)
    # tests/core runs everywhere; tests/mp_only holds what only MicroPython can measure
    # (gc.mem_alloc), so pytest does not collect it.
    folders = [here + "/core"]
    if impl.name == "micropython":
        folders.append(here + "/mp_only")
    for folder in folders:
        if _absolute(folder) not in [_absolute(p) for p in sys.path if p]:
            sys.path.append(folder)
    print("sys.path: %s" % sys.path)

    modules = []
    for folder in folders:
        modules += sorted((folder, f[:-3]) for f in os.listdir(folder)
                          if f.startswith("test_") and f.endswith(".py"))
    passed = 0
    failed = 0
    for core, modname in modules:
        try:
            mod = __import__(modname)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: B036 - a broken module must not stop the run
            failed += 1
            print("FAIL %s (import)" % modname)
            _print_exc(e)
            continue
        for name, fn in _tests_of(mod, core + "/" + modname + ".py"):
            full = modname + "." + name
            if pattern is not None and pattern not in full:
                continue
            try:
                fn()
            except KeyboardInterrupt:
                raise
            except BaseException as e:  # noqa: B036 - includes SystemExit from a test
                failed += 1
                print("FAIL %s" % full)
                _print_exc(e)
            else:
                passed += 1
            gc.collect()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
