"""Board tests on an emulated Pico (the official MicroPython v1.28.0 RPI_PICO image in rp2040js).

Tiers: `make test` runs the tests not marked `board_long` (deploy, boot, a short game, a few
power cuts, the host's status); `make test-board` runs them all (RP2040_CUTS power cuts per
build, default 200). Each build is deployed once per session with `chessclock deploy` over
a pty (mpremote -> socat -> the emulated USB CDC); its flash image is then reused.

The image is MicroPython's own release file, read from outside the repository (images.py);
without it every board test skips with one line that says where it was looked for.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "firmware"))

import images  # noqa: E402
from emu import BOARDS, ROOT, EmuClock, build  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "board_long: the long board tier (make test-board)")
    config.addinivalue_line("markers", "no_image: runs without the official images")


def pytest_collection_modifyitems(config, items):
    why = images.missing(images.PICO_UF2, images.PICO_BOOTROM)
    if why:
        skip = pytest.mark.skip(reason="board tier skipped: " + why)
        for item in items:
            if "no_image" not in item.keywords:
                item.add_marker(skip)


_DEPLOYED = {}


@pytest.fixture(scope="session", params=BOARDS)
def deployed(request, tmp_path_factory):
    """(board, flash image after `chessclock deploy`, deploy's output) for each build."""
    board = request.param
    if board not in _DEPLOYED:
        out = build(board, ROOT / "build" / "rp2040" / board)
        work = tmp_path_factory.mktemp(board)
        with EmuClock(board, build_dir=out, workdir=work) as clk:
            clk.boot()
            tty = clk.serial()
            r = clk.chessclock("deploy", "--board", board, "--port", tty, "--build", out,
                               check=False, timeout=3600)
            image = work / "deployed.bin"
            clk.cut(image)
        _DEPLOYED[board] = (board, image, r)
    return _DEPLOYED[board]
