"""The host package on its own: pyproject's ranges against constraints.txt's
tested pins, one version, the firmware carried by the wheel, matplotlib as an extra.
(`make test-wheel` installs the wheel in a fresh venv and runs it; these are the quick
checks of the same facts.)"""

import ast
import importlib.metadata
import importlib.util
import re
import tomllib
from pathlib import Path

from cliutil import run_cli
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from chessclock import sources
from clockcore.version import VERSION

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def pins():
    """{canonical name: Version} from constraints.txt; every line an exact pin."""
    out = {}
    for n, line in enumerate((ROOT / "constraints.txt").read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        req = Requirement(line)
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", (
            "constraints.txt line %d: %r is not NAME==VERSION" % (n, line))
        name = canonicalize_name(req.name)
        assert name not in out, "constraints.txt pins %s twice" % name
        out[name] = Version(specs[0].version)
    return out


def requirements():
    project = PYPROJECT["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    return [Requirement(r) for r in reqs]


def test_every_dependency_is_a_range_with_its_tested_pin_inside():
    tested = pins()
    for req in requirements():
        name = canonicalize_name(req.name)
        assert name in tested, "%s (pyproject) has no tested pin in constraints.txt" % name
        assert req.specifier.contains(tested[name], prereleases=True), (
            "constraints.txt pins %s==%s, outside pyproject's %s"
            % (name, tested[name], req.specifier))
        assert not any(s.operator == "==" for s in req.specifier), (
            "%s: pyproject says which versions work (a range); the pin goes in "
            "constraints.txt" % req)


def test_matplotlib_is_the_plot_extra_only():
    names = {canonicalize_name(Requirement(r).name) for r in PYPROJECT["project"]["dependencies"]}
    assert "matplotlib" not in names
    plot = [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"]["plot"]]
    assert [canonicalize_name(r.name) for r in plot] == ["matplotlib"]


def test_one_version_the_package_reads_from_the_firmware():
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert "version" not in PYPROJECT["project"]
    path = PYPROJECT["tool"]["hatch"]["version"]["path"]
    assert (ROOT / path).resolve() == (ROOT / "firmware" / "clockcore" / "version.py")
    assert re.search(r'^VERSION = "%s"$' % re.escape(VERSION), (ROOT / path).read_text(),
                     re.M)
    # what pip installed (make venv reinstalls when version.py changes)
    assert importlib.metadata.version("chessclock") == VERSION


def test_the_wheel_carries_every_firmware_package():
    """A new folder under firmware/ (a driver package, ...) must go into the wheel too, or
    sim/sim-serve/build from an install would miss it."""
    tree = ast.parse((ROOT / "hatch_build.py").read_text())
    carried = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                   and [t.id for t in n.targets] == ["FIRMWARE"])
    on_disk = {p.name for p in (ROOT / "firmware").iterdir()
               if p.name != "__pycache__" and (p.is_dir() or p.suffix == ".py")}
    assert on_disk == set(carried)


def test_from_a_checkout_the_sources_are_the_checkouts():
    assert sources.checkout_root() == ROOT
    assert sources.firmware_dir() == ROOT / "firmware"
    assert sources.boards_toml() == ROOT / "boards.toml"


def test_without_matplotlib_plot_and_html_say_so_in_one_line(monkeypatch, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    for option in ("--plot", "--html"):
        out = tmp_path / ("t.png" if option == "--plot" else "r.html")
        code, stdout, stderr = run_cli(["ruling", "any.log", option, str(out)])
        assert code == 2 and stdout == "" and not out.exists()
        assert stderr.count("\n") == 1 and "pip install 'chessclock[plot]'" in stderr


def _wheel_tree(dest: Path) -> Path:
    """The layout an installed wheel has (pyproject.toml, hatch_build.py): chessclock and
    clockcore at the top, the firmware's sources as chessclock/firmware/; no checkout."""
    import shutil
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "host" / "chessclock", dest / "chessclock", ignore=ignore)
    shutil.copytree(ROOT / "firmware" / "clockcore", dest / "clockcore", ignore=ignore)
    shutil.copytree(ROOT / "firmware", dest / "chessclock" / "firmware", ignore=ignore)
    shutil.copy(ROOT / "boards.toml", dest / "chessclock" / "boards.toml")
    return dest


def test_every_command_finds_the_firmware_from_an_install(tmp_path):
    """`seal --help`, `adjourn --help` (which read clockapp's snapshot format) and every
    other command's help, run from a wheel's layout with no checkout on any path (-I -S: no
    editable install, no site-packages). A command that needs a third-party dependency
    (chess, pyserial, ...) may miss it here (`make test-wheel` installs them); none may miss
    the firmware's own packages."""
    import subprocess
    import sys

    from chessclock import cli
    site = _wheel_tree(tmp_path / "site")
    for name in cli.COMMANDS:
        r = subprocess.run([sys.executable, "-I", "-S", "-c",
                            "import sys; sys.path.insert(0, %r); from chessclock import cli; "
                            "sys.exit(cli.main([%r, '--help']))" % (str(site), name)],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60)
        missing = re.search(r"No module named '([^'.]+)", r.stderr)
        assert missing is None or missing.group(1) not in (
            "clockapp", "clockcore", "drivers", "boards", "chessclock"), (name, r.stderr)
        if name in ("seal", "adjourn"):
            assert r.returncode == 0 and r.stdout.startswith("usage: chessclock " + name), (
                name, r.stderr)
