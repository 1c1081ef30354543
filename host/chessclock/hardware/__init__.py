"""The build documents under hardware/, generated from boards.toml, and their check.

boards.toml is the one source of pins and parts. For every profile with a battery and its
switches to GND (files.documented: the emulated bench's profile has neither) this package
writes hardware/<profile>/:

    wiring.yaml      the wiring diagram (WireViz 0.4 YAML)                  generated
    netlist.txt      every net of the circuit, perfboard parts included    generated
    bom.csv          bill of materials                                      generated
    README.md        the build guide with the pin table                     generated
    wiring.svg/png   WireViz's rendering of wiring.yaml                     rendered
    schematic.svg    the circuit drawn with schemdraw (from the netlist)    rendered
    rendered.sha256  sha256 of the inputs and of the rendered files        rendered

    python -m chessclock.hardware generate   # the four generated files of every profile
    python -m chessclock.hardware render     # needs graphviz's `dot` (make hardware)
    python -m chessclock.hardware check      # what tests/host/test_hardware.py checks

Drift is stopped three ways (check_all, without graphviz): the generated files must equal
what `generate` writes from boards.toml now; each wiring.yaml is read back on its own
(check_wiring: its nets traced from MCU pin to part pin) and compared with the profile: a
pin in one and not the other, two functions on one pin, two MCU pins on one net, a signal
on a power pin, the per-MCU pin rules (chessclock/mcus.py), and the fuel gauge when
boards.toml has one (on its bus's pins, 3V3, GND, the cell before the power switch);
rendered.sha256 must name
the current wiring.yaml and netlist.txt and the pictures beside them, so a picture not
re-rendered after a change fails.

A module per job: model.py (the wiring of one profile: parts, pins, cables), trace.py
(a wiring file's nets), netlist.py, bom.py, battery.py (the battery-life model), guide.py
(the build guide), schematic.py, files.py (what hardware/<profile>/ holds), checks.py and
cmd.py (the command). Per-MCU data comes from chessclock/mcus.py, per-display data from
the display registry, chessclock/displays.py.
"""

# The names the tests and other code use, from the module that has each.
from chessclock.hardware.battery import NIMH_CURVE, battery_life, cell_v_at, soc_at
from chessclock.hardware.bom import BOM_COLUMNS, bom_rows, bom_text
from chessclock.hardware.checks import check_all, check_bom, check_wiring
from chessclock.hardware.cmd import generate, main, render
from chessclock.hardware.files import (
    GENERATED,
    RENDERED,
    SIDECAR,
    documented,
    generated_files,
    load_models,
    read_sidecar,
    root_dir,
    write_sidecar,
)
from chessclock.hardware.guide import readme_text
from chessclock.hardware.model import LED_R, LED_VF, Wiring, functions, led_ma, signal_of
from chessclock.hardware.netlist import netlist_text
from chessclock.hardware.schematic import schematic_svg
from chessclock.hardware.trace import WiringError, trace_nets

__all__ = [
    "BOM_COLUMNS", "GENERATED", "LED_R", "LED_VF", "NIMH_CURVE", "RENDERED", "SIDECAR",
    "Wiring", "WiringError", "battery_life", "bom_rows", "bom_text", "cell_v_at", "check_all",
    "check_bom", "check_wiring", "documented", "functions", "generate", "generated_files",
    "led_ma", "load_models", "main", "netlist_text", "read_sidecar", "readme_text", "render",
    "root_dir", "schematic_svg", "signal_of", "soc_at", "trace_nets", "write_sidecar",
]
