"""The rulings' package is there and annotated throughout, and mypy checks it strictly.
Its imports and sizes are tests/host/test_layout.py's, for the whole host package."""

import ast
import os

import pytest

HOST = os.path.join(os.path.dirname(__file__), "..", "..", "host")
PACKAGE = os.path.join(HOST, "chessclock")


def _modules():
    """{dotted name: path} of every module under host/chessclock."""
    out = {}
    for root, _, files in os.walk(PACKAGE):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, HOST)[:-3].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            out[".".join(rel)] = path
    return out


MODULES = _modules()


def _in_cluster(name):
    """The rulings: the package chessclock.ruling and its command."""
    return name == "chessclock.ruling" or name.startswith("chessclock.ruling.") or \
        name == "chessclock.commands.ruling"


def _tree(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def test_the_cluster_is_there():
    assert "chessclock.commands.ruling" in MODULES
    assert any(_in_cluster(m) and m != "chessclock.commands.ruling" for m in MODULES)


@pytest.mark.parametrize("name", sorted(m for m in MODULES if _in_cluster(m)))
def test_every_function_is_annotated(name):
    """What mypy's disallow_untyped_defs asks of these modules (host/mypy.ini), checked
    here too so that the section cannot be dropped unseen."""
    bare = []
    for node in ast.walk(_tree(MODULES[name])):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        a = node.args
        params = [p for p in a.posonlyargs + a.args + a.kwonlyargs
                  if p.arg not in ("self", "cls")] + [p for p in (a.vararg, a.kwarg) if p]
        if node.returns is None or any(p.annotation is None for p in params):
            bare.append(node.name)
    assert bare == []


def test_mypy_is_strict_on_the_rulings():
    import configparser

    ini = configparser.ConfigParser()
    ini.read(os.path.join(HOST, "mypy.ini"))
    assert ini.getboolean("mypy-chessclock.*", "disallow_untyped_defs")
    # and no section turns it off for the rulings or their command
    for section in ini.sections():
        if "ruling" in section and ini.has_option(section, "disallow_untyped_defs"):
            assert ini.getboolean(section, "disallow_untyped_defs"), section
