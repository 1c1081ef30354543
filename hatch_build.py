"""Build hook (hatchling, see pyproject.toml): the firmware's sources and boards.toml as
data of the chessclock package in the wheel, chessclock/firmware/ and chessclock/boards.toml,
so that `chessclock sim`, `sim-serve` and `build` work from an install
(host/chessclock/sources.py finds them). Not in an editable install (`make venv`): that one
reads the checkout's own firmware/ and boards.toml, never a stale copy."""

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# What `sim`, `sim-serve` and `build` read; firmware/mypy.ini is for the checkout only.
FIRMWARE = ("main.py", "manifest.py", "clockcore", "clockapp", "drivers", "boards")


class FirmwareAsData(BuildHookInterface):
    def initialize(self, version, build_data):
        if self.target_name != "wheel" or version != "standard":
            return
        for name in FIRMWARE:
            build_data["force_include"]["firmware/" + name] = "chessclock/firmware/" + name
        build_data["force_include"]["boards.toml"] = "chessclock/boards.toml"
