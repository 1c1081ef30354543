"""Board tests on an emulated Pico (MicroPython v1.28.0 RPI_PICO in rp2040js).

Tiers: `make test` runs the tests not marked `board_long` (deploy, boot, a short game, a few
power cuts, the host's status); `make test-board` runs them all (RP2040_CUTS power cuts per
build, default 200). Each build is deployed once per session with `chessclock deploy` over
a pty (mpremote -> socat -> the emulated USB CDC); its flash image is then reused.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "firmware"))

from emu import BOARDS, ROOT, EmuClock, build  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "board_long: the long board tier (make test-board)")


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
