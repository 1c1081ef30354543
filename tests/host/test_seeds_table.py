"""docs/SEEDS.md is generated from the tests' seed markers (tests/host/gen_seeds.py): the page
must be what the generator writes, so a status cannot claim more than the tests prove."""

import os

import gen_seeds
import pytest


def test_seeds_page_is_what_the_tests_say():
    with open(gen_seeds.PAGE, encoding="utf-8") as f:
        on_disk = f.read()
    assert on_disk == gen_seeds.page(), (
        "docs/SEEDS.md is out of date: run `python tests/host/gen_seeds.py`")


def _tree(tmp_path, test_source):
    (tmp_path / "tests" / "host").mkdir(parents=True)
    (tmp_path / "tests" / "core").mkdir()
    (tmp_path / "tests" / "host" / "test_x.py").write_text(test_source)
    for rel in ("tests/core/test_engine.py", "tests/core/test_presets.py",
                "tests/core/test_notation.py"):
        (tmp_path / rel).write_text("")
    return str(tmp_path)


def test_a_marked_test_shows_in_its_row(tmp_path, monkeypatch):
    monkeypatch.setattr(gen_seeds, "named_test_files", lambda where, root: [])
    root = _tree(tmp_path, "import pytest\n\n@pytest.mark.seed('RGC 13.2', item='2.7')\n"
                           "def test_window():\n    pass\n")
    monkeypatch.setattr(gen_seeds, "ITEMS", [("2.7", "substitutions", "done", "")])
    (row,) = gen_seeds.rows(root)
    assert row[2] == "RGC 13.2"
    assert row[4] == "`tests/host/test_x.py::test_window`"


@pytest.mark.parametrize("items,source,message", [
    ([("2.7", "subs", "missing", "")],
     "@pytest.mark.seed('RGC 13.2', item='2.7')\ndef test_a():\n    pass\n", "called missing"),
    ([("2.7", "subs", "done", "")],
     "@pytest.mark.seed('RGC 13.2', item='9.9')\ndef test_a():\n    pass\n",
     "catalogue lacks"),
    ([("2.7", "subs", "done", "")],
     "@pytest.mark.seed('RGC 13.2')\ndef test_a():\n    pass\n", "item="),
    ([("2.7", "subs", "done", "tests/host/test_gone.py")], "", "does not exist"),
    ([("2.7", "subs", "finished", "")], "", "unknown status"),
])
def test_a_claim_the_tests_do_not_back_is_refused(tmp_path, monkeypatch, items, source,
                                                  message):
    root = _tree(tmp_path, "import pytest\n\n" + source)
    monkeypatch.setattr(gen_seeds, "ITEMS", items)
    with pytest.raises(gen_seeds.TableError, match=message):
        gen_seeds.rows(root)


def test_done_without_a_test_says_so(tmp_path, monkeypatch):
    root = _tree(tmp_path, "")
    monkeypatch.setattr(gen_seeds, "ITEMS", [("1.6", "sd", "done", "presets")])
    (row,) = gen_seeds.rows(root)
    assert row[3] == "done (no test named)"


def test_the_page_lists_every_catalogue_item_once():
    text = gen_seeds.page()
    for item, *_ in gen_seeds.ITEMS:
        assert text.count("\n| %s |" % item) == 1, item
    assert os.path.basename(gen_seeds.PAGE) == "SEEDS.md"
