"""One firmware version everywhere: `hello`, the log's game headers,
`chessclock --version`, the freeze manifest and package.json."""

import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path

from simutil import boot

from chessclock import __version__, cli
from clockcore import logread as LR
from clockcore import protocol as P
from clockcore.version import VERSION

ROOT = Path(__file__).resolve().parents[2]


def test_one_version_everywhere():
    assert __version__ == VERSION
    assert json.loads((ROOT / "package.json").read_text())["version"] == VERSION
    import tomllib
    with open(ROOT / "pyproject.toml", "rb") as f:    # what pip says the package is
        meta = tomllib.load(f)
    assert meta["project"]["dynamic"] == ["version"]
    assert meta["tool"]["hatch"]["version"]["path"] == "firmware/clockcore/version.py"
    from importlib.metadata import version
    assert version("chessclock") == VERSION
    assert re.search(r'version="%s"' % re.escape(VERSION),
                     (ROOT / "firmware" / "manifest.py").read_text())
    board, app = boot()
    line = P.encode_request(1, "hello")
    assert P.decode_reply(app.link.handle(line[:-1])[:-1])[2]["fw"] == VERSION
    app.flush()
    reader = LR.Reader()
    headers = [r for r in (reader.decode(p) for p in app.store.read_log()) if r.header]
    assert headers and all(h.header["firmware"] == VERSION for h in headers)
    out = io.StringIO()
    with redirect_stdout(out):
        try:
            cli.main(["--version"])
        except SystemExit as e:
            assert e.code == 0
    assert VERSION in out.getvalue()
