"""The event codes live in one table (firmware/clockcore/events.py). A code
defined anywhere else, a name used that the table lacks, a code logged as a bare number,
an undocumented code or link command: each fails here. (The records themselves round-trip
in tests/core/test_events.py.)"""

import re
from pathlib import Path

from simutil import boot

from clockcore import events as EV
from clockcore import logread as LR

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "firmware" / "clockcore" / "events.py"


def _sources():
    for top in ("firmware", "host", "bench", "tests"):
        for p in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" not in p.parts and "node_modules" not in p.parts:
                yield p


def test_no_module_but_the_table_defines_an_event_code():
    defined = re.compile(r"^\s*(EV_[A-Z0-9_]+)\s*=", re.M)
    others = {}
    for p in _sources():
        if p != TABLE:
            names = defined.findall(p.read_text())
            if names:
                others[str(p.relative_to(ROOT))] = names
    assert others == {}


def test_every_event_name_used_anywhere_is_in_the_table():
    used = re.compile(r"\b(EV_[A-Z0-9_]*[A-Z0-9])\b")
    missing = {}
    for p in _sources():
        text = p.read_text()
        for name in set(used.findall(text)):
            if not hasattr(EV, name):
                missing.setdefault(name, []).append(str(p.relative_to(ROOT)))
    assert missing == {}


def test_the_firmware_logs_codes_by_name_never_by_number():
    bare = re.compile(r"\.log(?:_big|w_big)?\(\s*-?\d")
    found = []
    for p in sorted((ROOT / "firmware").rglob("*.py")):
        for i, line in enumerate(p.read_text().splitlines(), 1):
            if bare.search(line):
                found.append("%s:%d: %s" % (p.relative_to(ROOT), i, line.strip()))
    assert found == []


def test_every_code_has_a_row_in_the_event_log_doc():
    doc = (ROOT / "docs" / "EVENT-LOG.md").read_text()
    rows = set()
    for line in doc.splitlines():
        m = re.match(r"\|\s*([0-9][0-9, \-–]*)\s*\|", line)
        if m:
            for part in m.group(1).split(","):
                part = part.strip()
                if re.fullmatch(r"\d+\s*[-–]\s*\d+", part):
                    a, b = re.split(r"\s*[-–]\s*", part)
                    rows.update(range(int(a), int(b) + 1))
                elif part.isdigit():
                    rows.add(int(part))
    assert set(LR.NAMES) - rows == set()


def test_every_link_command_is_documented():
    board, app = boot()
    doc = (ROOT / "docs" / "PROTOCOL.md").read_text()
    missing = [op for op in sorted(app.link.ops) if "`%s" % op not in doc]
    assert missing == []


def test_the_host_compares_codes_by_name_never_by_number():
    bare = re.compile(r"\bcode\s*(==|!=|<|>=)\s*\d")
    found = []
    for p in sorted((ROOT / "host" / "chessclock").rglob("*.py")):
        for i, line in enumerate(p.read_text().splitlines(), 1):
            if bare.search(line) and "exit" not in line.lower():
                found.append("%s:%d: %s" % (p.relative_to(ROOT), i, line.strip()))
    assert found == []


def test_every_code_of_the_table_is_used_by_the_firmware():
    """No dead codes (five were once defined and never used): each EV_ name appears in
    a firmware module besides the table (ruff's F401 keeps those uses from being bare
    imports)."""
    text = "\n".join(p.read_text() for p in sorted((ROOT / "firmware").rglob("*.py"))
                     if p != TABLE)
    unused = [name for name in sorted(vars(EV)) if name.startswith("EV_")
              and not re.search(r"\b%s\b" % name, text)]
    assert unused == []
