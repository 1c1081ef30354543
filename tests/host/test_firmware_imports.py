"""The firmware's imports run one way: no module imports, at module level or inside a
function, a module that imports it back (directly or through others)."""

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def _module_name(path: Path) -> str:
    rel = path.relative_to(FIRMWARE).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(FIRMWARE.rglob("*.py"))
            if "__pycache__" not in p.parts}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The firmware modules `path` imports anywhere in it (functions included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            # `from pkg import mod` imports pkg.mod when that is a module
            names = [node.module] + [node.module + "." + a.name for a in node.names]
        found.update(n for n in names if n in known)
    return found


def graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {name: imports_of(path, known) - {name, name.rpartition(".")[0]}
            for name, path in mods.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each import circle once, as the path from its smallest module back to it."""
    found: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                key = tuple(sorted(path))
                if key not in seen:
                    seen.add(key)
                    found.append(path + [start])
            elif nxt > start and nxt not in path:
                walk(start, nxt, path + [nxt])

    for start in sorted(edges):
        walk(start, start, [start])
    return found


def test_the_firmware_has_no_import_circle():
    assert circles(graph()) == []


def test_the_circle_finder_finds_a_circle_through_a_function_level_import(tmp_path: Path):
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [["a", "b", "c", "a"]]
    src = tmp_path / "m.py"
    src.write_text("import x\n\ndef f():\n    from pkg import y\n    from pkg.z import w\n")
    assert imports_of(src, {"x", "pkg", "pkg.y", "pkg.z", "q"}) == {"x", "pkg", "pkg.y",
                                                                     "pkg.z"}


def test_the_link_loads_its_operations_modules_by_name_and_none_imports_it_back():
    """link.py loads an area's module when its first operation comes, by the name in its
    _AREAS table (App.load: parked, tests/core/test_link_ops.py), none at its top, and no
    operations module imports the link back."""
    edges = graph()
    lazy = {m for m in edges if m.startswith("clockapp.ops_")}
    assert len(lazy) >= 5, "the link's operations are in clockapp/ops_*.py"
    top = ast.parse((FIRMWARE / "clockapp" / "link.py").read_text()).body
    at_top: set[str] = set()
    areas: set[str] = set()
    for node in top:
        if isinstance(node, ast.ImportFrom) and node.module:
            at_top.add(node.module)
            at_top.update(node.module + "." + a.name for a in node.names)
        elif isinstance(node, ast.Import):
            at_top.update(a.name for a in node.names)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and any(
                isinstance(t, ast.Name) and t.id == "_AREAS" for t in node.targets):
            areas = {"clockapp." + v.value for v in node.value.values
                     if isinstance(v, ast.Constant) and isinstance(v.value, str)}
    assert not at_top & lazy
    assert areas == lazy
    for m in sorted(lazy):
        assert "clockapp.link" not in edges[m], m


def test_every_module_the_app_loads_by_name_exists():
    """App.load and App.part take a clockapp module's name as a string, which no import
    graph sees: each name written in the firmware is a module there."""
    names: set[str] = set()
    for path in FIRMWARE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("load", "part") and node.args \
                    and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    assert {"link", "menu", "seal"} <= names
    for name in sorted(names):
        assert (FIRMWARE / "clockapp" / (name + ".py")).is_file(), name
