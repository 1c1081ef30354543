"""Where the firmware's sources and boards.toml are, for `sim`, `sim-serve` and `build`.

An installed wheel carries them as data of this package (chessclock/firmware/ and
chessclock/boards.toml, see pyproject.toml's force-include); a checkout (the editable
install of `make venv`) has them at the root: firmware/ and boards.toml. The firmware's
modules import each other as top-level packages (`from clockcore import engine`), as on the
board, so whatever runs them puts firmware_dir() on its path.
"""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def checkout_root() -> Path | None:
    """The repository's root when this package runs from a checkout, else None."""
    root = _HERE.parents[1]
    if (root / "firmware" / "clockcore" / "version.py").is_file() and \
            (root / "host" / "chessclock").is_dir():
        return root
    return None


def firmware_dir() -> Path:
    """The folder holding main.py, clockcore/, clockapp/, drivers/ and boards/."""
    packaged = _HERE / "firmware"
    if packaged.is_dir():
        return packaged
    root = checkout_root()
    if root is None:  # neither: a broken install, say so rather than fail on an import later
        raise FileNotFoundError("the firmware sources are missing from %s; reinstall "
                                "chessclock" % _HERE)
    return root / "firmware"


def boards_toml() -> Path:
    """The boards.toml this package ships with (the checkout's when run from one)."""
    packaged = _HERE / "boards.toml"
    if packaged.is_file():
        return packaged
    root = checkout_root()
    return (root if root is not None else _HERE) / "boards.toml"


def importable() -> str:
    """Put the firmware's folder on sys.path once, for running the app in this process
    (`chessclock sim`); returns the folder."""
    folder = str(firmware_dir())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return folder
