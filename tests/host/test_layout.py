"""The host package's shape: no import circle anywhere in host/chessclock (imports inside
functions count), no domain module importing from chessclock.commands, no module over 600
lines and no function over 80. Read from the sources with `ast`: nothing is imported."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "host" / "chessclock"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

# Known exceptions, until the ruling cluster moves into chessclock/ruling/: these modules
# are left out of every check below (circles through them, their sizes, their imports).
def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The chessclock modules `name` imports, at any depth of its code: `from P import X`
    is the module P.X when there is one, else P."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:
                full = base + "." + a.name
                out.add(full if full in known else base)
    return {m for m in out if m in known and m != name}


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    mods = modules(root)
    known = set(mods)
    return {n: imported(n, p, known) for n, p in mods.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
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

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)


def long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return ["%s:%d %s (%d lines)" % (path.name, node.lineno, node.name,
                                     node.end_lineno - node.lineno + 1)
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]


def test_no_import_circle_in_the_host_package():
    assert circles(graph()) == []


def test_no_domain_module_imports_from_commands():
    wrong = sorted("%s -> %s" % (n, m) for n, deps in graph().items()
                   for m in deps
                   if not n.startswith("chessclock.commands") and n != "chessclock.cli"
                   and m.startswith("chessclock.commands"))
    assert wrong == []


def test_no_module_over_600_lines():
    big = sorted("%s (%d lines)" % (n, len(p.read_text(encoding="utf-8").splitlines()))
                 for n, p in modules().items()
                 if len(p.read_text(encoding="utf-8").splitlines()) > MAX_MODULE_LINES)
    assert big == []


def test_no_function_over_80_lines():
    long = [f for n, p in modules().items()
            for f in long_functions(p)]
    assert long == []


def test_every_command_of_the_table_is_a_module_of_commands():
    from chessclock import cli
    from chessclock.commands import log
    mods = modules()
    tables = list(cli.COMMANDS.values()) + list(log.SUBCOMMANDS.values())
    wrong = sorted(m for m, _help in tables
                   if not m.startswith("commands.") or "chessclock." + m not in mods)
    assert wrong == []


# ---- the checks themselves, on small trees --------------------------------------------
def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "chessclock"
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


@pytest.mark.parametrize("files, want", [
    # a circle through an import inside a function
    ({"__init__.py": "", "a.py": "from chessclock import b\n",
      "b.py": "def f():\n    from chessclock.a import x\n"},
     [["chessclock.a", "chessclock.b"]]),
    # relative imports, three modules round
    ({"__init__.py": "", "p/__init__.py": "", "p/a.py": "from . import b\n",
      "p/b.py": "from .c import y\n", "p/c.py": "import chessclock.p.a\n"},
     [["chessclock.p.a", "chessclock.p.b", "chessclock.p.c"]]),
    # one way only: no circle
    ({"__init__.py": "", "a.py": "from chessclock import b\n", "b.py": "import os\n"}, []),
])
def test_circles_are_found(tmp_path, files, want):
    assert circles(graph(_tree(tmp_path, files))) == want


def test_a_long_function_is_found(tmp_path):
    root = _tree(tmp_path, {"m.py": "def f():\n" + "    x = 1\n" * 80 + "\n\ndef g():\n"
                            "    pass\n"})
    assert long_functions(root / "m.py") == ["m.py:1 f (81 lines)"]


def test_no_command_help_names_a_module_alias():
    # the moves rewrote calls to C.x (clockrun): none of that may leak into what users read
    import re

    from chessclock import cli
    for name in cli.COMMANDS:
        parser = cli.build_parser([name])
        sub = next(a for a in parser._actions if a.dest == "command")
        text = sub.choices[name].format_help()
        assert not re.search(r"\b[A-Z]{1,2}\.[a-z_]+", text), (name, text)
