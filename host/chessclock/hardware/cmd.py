"""`python -m chessclock.hardware generate|render|check` (make hardware)."""

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, TextIO

from chessclock.board import profiles as boardsmod
from chessclock.hardware.checks import check_all
from chessclock.hardware.files import (
    RENDERED,
    generated_files,
    load_models,
    root_dir,
    write_sidecar,
)
from chessclock.hardware.schematic import schematic_svg


def generate(root: Any = None, out: TextIO = sys.stdout) -> int:
    root = Path(root) if root is not None else root_dir()
    b, models = load_models(root)
    for name, w in models.items():
        folder = root / "hardware" / name
        folder.mkdir(parents=True, exist_ok=True)
        for fname, text in generated_files(w, w.profile.config["battery"]["chemistry"],
                                           b).items():
            path = folder / fname
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                out.write("wrote %s\n" % path.relative_to(root))
    return 0


def render(root: Any = None, out: TextIO = sys.stdout) -> int:
    root = Path(root) if root is not None else root_dir()
    if shutil.which("dot") is None:
        out.write("graphviz's `dot` is missing (apt-get install graphviz; make hardware "
                  "does it)\n")
        return 2
    wireviz = Path(sys.executable).with_name("wireviz")
    _b, models = load_models(root)
    for name, w in models.items():
        folder = root / "hardware" / name
        subprocess.run([str(wireviz) if wireviz.exists() else "wireviz", "-f", "ps",
                        "-O", "wiring", str(folder / "wiring.yaml")], check=True,
                       stdout=subprocess.DEVNULL)
        _shrink_png(folder / "wiring.png")
        (folder / "schematic.svg").write_text(schematic_svg(w), encoding="utf-8")
        write_sidecar(folder)
        out.write("rendered %s: %s\n" % (folder.relative_to(root), ", ".join(RENDERED)))
    return 0


PNG_WIDTH = 2400   # pixels: readable on a repository page, about 100 KB


def _shrink_png(path: Any) -> None:
    """A palette PNG (the picture has few colours): a fraction of the size, same look."""
    from PIL import Image
    with Image.open(path) as im:
        im = im.convert("RGB")
        if im.width > PNG_WIDTH:
            im = im.resize((PNG_WIDTH, round(im.height * PNG_WIDTH / im.width)),
                           Image.Resampling.LANCZOS)
        small = im.quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def main(argv: list[str] | None = None, root: Any = None) -> int:
    """The command; `root`: the checkout whose boards.toml and hardware/ it reads (tests)."""
    argv = sys.argv[1:] if argv is None else argv
    action = argv[0] if argv else "check"
    if action not in ("generate", "render", "check"):
        print("usage: python -m chessclock.hardware generate|render|check", file=sys.stderr)
        return 2
    try:
        return _run(action, root)
    except boardsmod.BoardsFileError as e:   # a bad boards.toml: each problem on a line
        for err in e.errors:
            print("chessclock.hardware: %s" % err, file=sys.stderr)
        return 2


def _run(action: str, root: Any) -> int:
    if action == "generate":
        return generate(root)
    if action == "render":
        return render(root)
    problems = check_all(root)
    for pr in problems:
        print(pr)
    print("hardware/: %s" % ("ok" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0
