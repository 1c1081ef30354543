"""What hardware/<profile>/ holds: the file names, the models of every profile from
boards.toml, the generated files' text, and the sidecar of the rendered ones."""

import hashlib
from pathlib import Path
from typing import Any

from chessclock.board import profiles as boardsmod
from chessclock.hardware.battery import battery_life
from chessclock.hardware.bom import bom_text
from chessclock.hardware.guide import readme_text
from chessclock.hardware.model import Wiring
from chessclock.hardware.netlist import netlist_text

GENERATED = ("wiring.yaml", "netlist.txt", "bom.csv", "README.md")
RENDERED = ("wiring.svg", "wiring.png", "schematic.svg")
SIDECAR = "rendered.sha256"


def root_dir() -> Path:
    """The checkout whose hardware/ this writes (the current folder outside one)."""
    from chessclock import sources
    return sources.checkout_root() or Path.cwd()


def documented(profile: Any) -> bool:
    """Whether hardware/ has build documents for the profile: a battery build with its
    switches to GND (the wiring, BOM and battery-life model draw those). A profile without
    a battery or with switch_idle "low" (the emulated bench's) has none."""
    cfg = profile.config
    return bool(cfg["battery"] is not None and cfg["switch_idle"] == 1)


def load_models(root: Any = None) -> tuple[Any, dict[str, Any]]:
    """The validated boards file and the wiring model of each documented profile."""
    root = Path(root) if root is not None else root_dir()
    b = boardsmod.load(root / "boards.toml")
    models = {}
    for name, prof in b.profiles.items():
        if not documented(prof):
            continue
        chem_name = prof.config["battery"]["chemistry"]
        chem = dict(b.chemistries[chem_name])
        chem["description"] = _chem_description(root / "boards.toml", chem_name)
        models[name] = Wiring(prof, chem)
    return b, models


def _chem_description(path: Any, name: str) -> str:
    import tomllib
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    return data["chemistry"][name].get("description", name)


def generated_files(w: Wiring, chem_name: str, b: str) -> dict[str, Any]:
    life = battery_life(w.profile, chem_name, b.chemistries[chem_name])
    return {"wiring.yaml": w.yaml_text(), "netlist.txt": netlist_text(w),
            "bom.csv": bom_text(w), "README.md": readme_text(w, life)}


def sha256(path: Any) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_sidecar(folder: Any) -> None:
    lines = ["%s  %s" % (sha256(folder / f), f) for f in ("wiring.yaml", "netlist.txt")
             + RENDERED]
    (folder / SIDECAR).write_text(
        "# sha256 of the inputs (wiring.yaml, netlist.txt) and of what `make hardware` "
        "rendered from them\n" + "\n".join(lines) + "\n", encoding="utf-8")


def read_sidecar(folder: Any) -> dict[str, str]:
    out = {}
    for line in (folder / SIDECAR).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            digest, _, name = line.partition("  ")
            out[name] = digest
    return out
