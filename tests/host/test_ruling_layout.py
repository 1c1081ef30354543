"""The rulings' package reads one way: no import circle through it, nothing in it taken from
the command line modules (chessclock.commands), no module over 600 lines and no function
over 80, every function annotated. Imports are read with `ast`, those inside functions
too."""

import ast
import os

import pytest

HOST = os.path.join(os.path.dirname(__file__), "..", "..", "host")
PACKAGE = os.path.join(HOST, "chessclock")
MAX_LINES = 600
MAX_FUNCTION_LINES = 80


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


def _imports(name, path):
    """The host modules `name` imports, anywhere in it (a package's own __init__ is not
    counted for its submodules: it holds no imports of them)."""
    found = set()
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            for a in node.names:
                sub = base + "." + a.name
                found.add(sub if sub in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


def _graph():
    return {name: _imports(name, path) for name, path in MODULES.items()}


def _circles(graph):
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_cluster_is_there():
    assert "chessclock.commands.ruling" in MODULES
    assert any(_in_cluster(m) and m != "chessclock.commands.ruling" for m in MODULES)


def test_no_import_circle_through_the_rulings():
    circles = [c for c in _circles(_graph()) if any(_in_cluster(m) for m in c)]
    assert circles == []


def test_the_rulings_take_nothing_from_the_command_line_modules():
    graph = _graph()
    wrong = {name: sorted(m for m in graph[name] if m.startswith("chessclock.commands"))
             for name in graph if _in_cluster(name) and name != "chessclock.commands.ruling"}
    assert {k: v for k, v in wrong.items() if v} == {}


@pytest.mark.parametrize("name", sorted(m for m in MODULES if _in_cluster(m)))
def test_module_and_function_sizes(name):
    path = MODULES[name]
    with open(path, encoding="utf-8") as f:
        lines = f.read().count("\n")
    assert lines <= MAX_LINES, "%s has %d lines" % (name, lines)
    long = ["%s (%d lines)" % (node.name, node.end_lineno - node.lineno + 1)
            for node in ast.walk(_tree(path))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert long == []


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


def test_the_circle_finder_finds_one():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
