"""The registries of display kinds and MCUs: clockcore.parts (what the board needs) and the
host's chessclock.board.displays / chessclock.board.mcus (validation, wiring, BOM, current
draw) hold the same kinds, each with all its data, and every kind boards.toml names is in both; an
unknown display or MCU is a one-line error everywhere, never a default kind."""

import ast
import json
import sys
import tomllib
import types
from pathlib import Path

import pytest
from cliutil import run_cli

from chessclock import hardware as hw
from chessclock.board import deploy as deploy
from chessclock.board import displays as displays
from chessclock.board import mcus as mcus
from chessclock.board import profiles as boards
from clockcore import parts as core

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"


# ---- every kind has all its data ----------------------------------------------------


def display_problems(core_displays, host_displays):
    """What a display kind lacks, one string a problem ([] when the registries agree)."""
    out = []
    for name in core_displays:
        if name not in host_displays:
            out.append("%s: in clockcore.parts.DISPLAYS, not in chessclock.board.displays" % name)
    for name, k in host_displays.items():
        if name not in core_displays:
            out.append("%s: in chessclock.board.displays, no driver in clockcore.parts" % name)
            continue
        module, cls, bus, pin_keys = core_displays[name]
        src = FIRMWARE / (module.replace(".", "/") + ".py")
        classes = ({n.name for n in ast.parse(src.read_text()).body
                    if isinstance(n, ast.ClassDef)} if src.is_file() else set())
        if cls not in classes:
            out.append("%s: driver %s.%s does not exist in firmware/" % (name, module, cls))
        if bus not in (core.BUS_PINS, core.BUS_I2C):
            out.append("%s: bus %r is neither BUS_PINS nor BUS_I2C" % (name, bus))
        if bus == core.BUS_PINS and (not pin_keys or
                                     tuple(key for _p, key in k.signals) != pin_keys):
            out.append("%s: its signals are not its pins %r" % (name, pin_keys))
        if bus == core.BUS_I2C and (pin_keys or not k.addrs or
                                    {key for _p, key in k.signals} != {"sda", "scl"}):
            out.append("%s: an I2C display has addresses and SDA/SCL signals" % name)
        if not k.chip or not k.geometry or name not in k.title.lower():
            out.append("%s: no chip or geometry (pixels or digits) to name it" % name)
        pins = set(k.module_pins)
        if not {"GND", "VCC"} <= pins or not {p for p, _k in k.signals} <= pins:
            out.append("%s: its connector lacks GND, VCC or a signal pin" % name)
        desc, pn, price = k.part
        if name not in desc.lower() or not pn or not price > 0:
            out.append("%s: no BOM line (a description naming it, part number, price)" % name)
        if len(k.ma) != 3 or not 0 < k.ma[0] <= k.ma[1] <= k.ma[2]:
            out.append("%s: no current draw (low <= typical <= high mA)" % name)
        if not k.pullup_pins:
            out.append("%s: which lines the module pulls up is not said" % name)
    return out


def mcu_problems(core_mcus, host_mcus):
    out = []
    for name in core_mcus:
        if name not in host_mcus:
            out.append("%s: in clockcore.parts.MCUS, not in chessclock.board.mcus" % name)
    for name, m in host_mcus.items():
        if name not in core_mcus:
            out.append("%s: in chessclock.board.mcus, not in clockcore.parts.MCUS" % name)
            continue
        if not m.mpy_arch or m.mpy_arch == "?":
            out.append("%s: no mpy-cross -march" % name)
        if not m.header or not {"GND", "3V3", m.vin} <= set(m.power):
            out.append("%s: no header positions or power pins (GND, 3V3, %s)" % (name, m.vin))
        if m.board_type == "?" or not m.part[1] or not m.part[2] > 0:
            out.append("%s: no board or BOM line" % name)
        if not 0 < m.board_ma[0] <= m.board_ma[1] <= m.board_ma[2]:
            out.append("%s: no current draw" % name)
        if not m.battery_ma(25, 3600) > 25 * 0.5:
            out.append("%s: no regulator model" % name)
    return out


def test_every_display_kind_has_its_driver_wiring_bom_and_current():
    assert display_problems(core.DISPLAYS, displays.DISPLAYS) == []
    assert set(displays.NAMES) == set(core.DISPLAYS) == set(boards.DISPLAY_TYPES)


def test_every_mcu_has_its_port_pins_board_and_current():
    assert mcu_problems(core.MCUS, mcus.MCUS) == []
    for name, m in mcus.MCUS.items():
        assert m.port == core.MCUS[name][0]


def test_the_completeness_checks_fail_on_a_kind_without_its_data():
    # a display kind added to the core only, one the host has without a driver, and one
    # with a driver that does not exist
    assert display_problems(dict(core.DISPLAYS, lcd=("drivers.lcd", "LCD", core.BUS_PINS,
                                                     ("clk",))), displays.DISPLAYS) == [
        "lcd: in clockcore.parts.DISPLAYS, not in chessclock.board.displays"]
    host = dict(displays.DISPLAYS)
    host["lcd"] = host["tm1637"]
    assert "lcd: in chessclock.board.displays, no driver in clockcore.parts" in \
        display_problems(core.DISPLAYS, host)
    broken = dict(core.DISPLAYS, tm1637=("clockapp.displays.tm1637", "TM1638Display", core.BUS_PINS,
                                         ("clk", "dio")))
    assert display_problems(broken, displays.DISPLAYS) == [
        "tm1637: driver clockapp.displays.tm1637.TM1638Display does not exist in firmware/"]
    # a kind with no BOM line, no current, no geometry
    bare = types.SimpleNamespace(**vars(displays.get("ssd1306")))
    bare.part, bare.ma, bare.geometry = ("", "", 0), (), ""
    assert len(display_problems(core.DISPLAYS, dict(displays.DISPLAYS, ssd1306=bare))) == 3
    assert mcu_problems(dict(core.MCUS, stm32=("stm32", True, False)), mcus.MCUS) == [
        "stm32: in clockcore.parts.MCUS, not in chessclock.board.mcus"]


def test_every_display_and_mcu_in_boards_toml_is_in_both_registries():
    # read raw: validation would refuse an unknown kind before this could see it
    data = tomllib.loads((ROOT / "boards.toml").read_text())
    for name, prof in data["boards"].items():
        assert prof["mcu"] in core.MCUS and prof["mcu"] in mcus.MCUS, name
        for side in ("left", "right"):
            kind = prof["displays"][side]["type"]
            assert kind in core.DISPLAYS and kind in displays.DISPLAYS, (name, side, kind)


def test_a_new_kind_needs_no_type_switch_in_the_host():
    # the kinds are looked up, never compared by name, outside the registries
    for path in list((ROOT / "host" / "chessclock" / "hardware").glob("*.py")) + [
            ROOT / "host" / "chessclock" / "board" / "profiles.py",
            FIRMWARE / "boards" / "mcu.py"]:
        text = path.read_text()
        for name in list(core.DISPLAYS) + list(core.MCUS):
            assert '== "%s"' % name not in text, (path.name, name)


# ---- an unknown display or MCU: one line, exit 2, everywhere -------------------------

PROFILE = """
[chemistry.cell]
full_mv = 4200
low_mv = 3600
critical_mv = 3400

[boards.p]
mcu = "rp2040"
levers = { left = 2, right = 3 }
buttons = { start = 6, menu = 7, plus = 8, minus = 9 }
buzzer = { pin = 15 }
battery = { pin = 26, r_top = 100_000, r_bottom = 100_000, chemistry = "cell" }

[boards.p.displays.left]
type = "tm1637"
clk = 10
dio = 11

[boards.p.displays.right]
type = "tm1637"
clk = 12
dio = 13
"""

# (old text, new text, the one error line)
UNKNOWN = [
    ('type = "tm1637"\nclk = 10', 'type = "lcd"\nclk = 10',
     "p: displays.left.type: unknown display type 'lcd' (known: tm1637, ssd1306)"),
    ('type = "tm1637"\nclk = 12', 'type = "TM1637"\nclk = 12',
     "p: displays.right.type: unknown display type 'TM1637' (known: tm1637, ssd1306)"),
    ('type = "tm1637"\nclk = 10', 'type = ["tm1637"]\nclk = 10',
     "p: displays.left.type: unknown display type ['tm1637'] (known: tm1637, ssd1306)"),
    ('type = "tm1637"\nclk = 10', 'type = 1637\nclk = 10',
     "p: displays.left.type: unknown display type 1637 (known: tm1637, ssd1306)"),
    ('type = "tm1637"\nclk = 10', 'clk = 10', "p: displays.left.type: missing (required)"),
    ('mcu = "rp2040"', 'mcu = "stm32"', "p: mcu: unknown MCU 'stm32' (known: rp2040, esp32)"),
    ('mcu = "rp2040"', 'mcu = "RP2040"',
     "p: mcu: unknown MCU 'RP2040' (known: rp2040, esp32)"),
    ('mcu = "rp2040"', 'mcu = ["rp2040"]',
     "p: mcu: unknown MCU ['rp2040'] (known: rp2040, esp32)"),
    ('mcu = "rp2040"', 'mcu = { name = "rp2040" }',
     "p: mcu: unknown MCU {'name': 'rp2040'} (known: rp2040, esp32)"),
]


def test_the_base_profile_is_valid():
    assert boards.loads(PROFILE).get("p").config["displays"][0]["type"] == "tm1637"


@pytest.mark.parametrize("old,new,line", UNKNOWN, ids=[u[2][:40] for u in UNKNOWN])
def test_an_unknown_display_or_mcu_is_one_line_and_exit_2(tmp_path, capsys, old, new, line):
    assert old in PROFILE
    f = tmp_path / "boards.toml"
    f.write_text(PROFILE.replace(old, new, 1))
    # chessclock boards check / show
    for argv in (["boards", "check", str(f)], ["boards", "--file", str(f), "show", "p"]):
        code, out, err = run_cli(argv)
        assert (code, out, err) == (2, "", "chessclock boards: %s\n" % line)
    # chessclock build
    code, out, err = run_cli(["build", "--board", "p", "--boards-file", str(f),
                           "--out", str(tmp_path / "b")])
    assert code == 2 and out == "" and err.count("\n") == 1 and line in err, err
    assert "Traceback" not in err
    # python -m chessclock.hardware check (on a copy of the checkout with this boards.toml)
    (tmp_path / "hardware").mkdir()
    assert hw.main(["check"], root=tmp_path) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and cap.err == "chessclock.hardware: %s\n" % line


def test_the_board_refuses_an_unknown_display_or_mcu(monkeypatch, tmp_path):
    # firmware/boards/mcu.py on a fake machine: a board.json made by hand or by another
    # version names what it cannot drive -> ConfigError naming it, not a default driver
    from test_boards import fake_machine
    monkeypatch.setitem(sys.modules, "machine", fake_machine())
    monkeypatch.setitem(sys.modules, "micropython",
                        types.SimpleNamespace(alloc_emergency_exception_buf=lambda n: None))
    monkeypatch.delitem(sys.modules, "boards.mcu", raising=False)
    import boards.mcu as mod
    monkeypatch.setattr(mod, "sys", types.SimpleNamespace(platform="rp2"))
    monkeypatch.setattr(mod.time, "sleep_ms", lambda ms: None, raising=False)
    tm = types.ModuleType("clockapp.displays.tm1637")
    tm.TM1637Display = lambda clk, dio, frame: ("tm1637", clk.n, dio.n, frame())
    monkeypatch.setitem(sys.modules, "clockapp.displays.tm1637", tm)
    fast = types.ModuleType("drivers.tm1637_rp2")   # PIN_FRAMES on rp2 (viper: no CPython)

    class Rp2Frames:
        def __init__(self, clk, dio):
            self.gpio = (clk, dio)

        def frame(self):
            return self.gpio

    fast.Rp2Frames = Rp2Frames
    monkeypatch.setitem(sys.modules, "drivers.tm1637_rp2", fast)
    cfg = json.loads(boards.loads(PROFILE).get("p").to_json())
    with pytest.raises(mod.ConfigError, match=r"unknown MCU 'stm32' \(known: rp2040, esp32\)"):
        mod.McuBoard(dict(cfg, mcu="stm32"))
    board = mod.McuBoard(dict(cfg, displays=[cfg["displays"][0], {"type": "lcd", "clk": 1}]))
    with pytest.raises(mod.ConfigError, match=r"unknown display type 'lcd' \(known: tm1637"):
        board.displays()
    # the registry's driver is what a known kind gets, its pins in the registry's order,
    # and on the RP2040 the registry's frames on the same GPIOs
    assert mod.McuBoard(cfg).displays() == (("tm1637", 10, 11, (10, 11)),
                                            ("tm1637", 12, 13, (12, 13)))


def test_the_build_refuses_an_unknown_display_before_compiling(tmp_path):
    f = tmp_path / "boards.toml"
    f.write_text(PROFILE.replace('type = "tm1637"\nclk = 10', 'type = "lcd"\nclk = 10'))
    with pytest.raises(deploy.DeployError, match="unknown display type 'lcd'"):
        deploy.build("p", tmp_path / "out", boards_file=f)
    assert not (tmp_path / "out").exists()


def test_every_chemistry_in_boards_toml_has_its_cells_and_bom_lines():
    # the battery model and the BOM are keyed by chemistry name as well
    from chessclock.hardware.battery import CELLS
    from chessclock.hardware.bom import BATTERY_PARTS
    data = tomllib.loads((ROOT / "boards.toml").read_text())
    for name in data["chemistry"]:
        assert name in CELLS and name in BATTERY_PARTS, name
