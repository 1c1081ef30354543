"""The board tier boots only official, unmodified MicroPython release images."""

import hashlib

import images
import pytest

pytestmark = pytest.mark.no_image


def test_the_published_sums_are_the_ones_in_the_images_folder_beside_them():
    """Where the images folder carries its own SHA256SUMS (as ../shared does), it agrees
    with the sums the tests check: a folder of other files cannot pass as the release."""
    sums = images.folder() / "SHA256SUMS"
    if not sums.is_file():
        pytest.skip(images.missing(*images.OFFICIAL) or "no SHA256SUMS beside the images")
    listed = dict(reversed(line.split()) for line in sums.read_text().splitlines() if line)
    for name, digest in images.OFFICIAL.items():
        assert listed.get(name) == digest, name


@pytest.mark.parametrize("name", sorted(images.OFFICIAL))
def test_an_official_image_present_is_checked_and_passes(name):
    if images.missing(name):
        pytest.skip(images.missing(name))
    path = images.official(name)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == images.OFFICIAL[name]


@pytest.mark.parametrize("name", [images.PICO_UF2, images.PICO_BOOTROM])
def test_a_modified_image_is_refused_before_it_boots(name, tmp_path, monkeypatch):
    """One byte changed (as a custom build would differ): refused with the two sums."""
    real = images.folder() / name
    data = bytearray(real.read_bytes() if real.is_file() else b"\0" * 16384)
    data[len(data) // 2] ^= 0xFF
    (tmp_path / name).write_bytes(bytes(data))
    monkeypatch.setenv(images.ENV, str(tmp_path))
    with pytest.raises(images.ImageError, match="refusing to boot a modified image"):
        images.official(name)


def test_a_folder_without_the_image_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setenv(images.ENV, str(tmp_path))
    why = images.missing(images.PICO_UF2, images.PICO_BOOTROM)
    assert images.PICO_UF2 in why and str(tmp_path) in why and images.ENV in why
    with pytest.raises(images.ImageError, match=images.PICO_UF2):
        images.official(images.PICO_UF2)


def test_the_repository_carries_no_micropython_image_or_build_recipe():
    """The clock ships as files for MicroPython's own image: no firmware image, bootrom or
    recipe that builds MicroPython is tracked (the images are read from outside)."""
    import re
    import subprocess
    r = subprocess.run(["git", "ls-files"], cwd=images.ROOT, capture_output=True, text=True)
    if r.returncode:
        pytest.skip("not a git checkout")
    bad = [f for f in r.stdout.splitlines()
           if re.search(r"\.(uf2|elf|bin)$|bootrom|(^|/)build\.sh$|^firmware/ports/|"
                        r"mpconfigboard", f)]
    assert bad == []
