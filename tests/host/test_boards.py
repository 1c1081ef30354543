"""boards.toml -> board.json, its validation, the firmware build, and boards/mcu.py against
a fake `machine` module."""

import hashlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from cliutil import run_cli

from chessclock.board import deploy as deploy
from chessclock.board import profiles as boards

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = Path(sys.executable).parent / "micropython"


# ---- the real boards.toml -----------------------------------------------------------

REAL = boards.load(ROOT / "boards.toml")
SCHEMA_KEYS = ["schema", "board", "mcu", "levers", "buttons", "switch_idle", "link_levers",
               "buzzer", "leds", "battery", "watchdog_ms", "i2c", "displays", "fuel_gauge"]


def test_the_three_required_profiles_exist():
    assert {"pico-tm1637", "pico-ssd1306", "esp32-tm1637"} <= set(REAL.profiles)
    assert REAL.get("pico-tm1637").mcu.name == "rp2040"
    assert REAL.get("esp32-tm1637").mcu.name == "esp32"


def test_a_profile_and_the_boards_read_are_frozen_values():
    import dataclasses
    prof = REAL.get("pico-tm1637")
    for target, field in ((prof, "name"), (prof, "config"), (REAL, "profiles")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(target, field, None)
    assert boards.loads((ROOT / "boards.toml").read_text()).get("pico-tm1637") == prof


@pytest.mark.parametrize("name", list(REAL.profiles))
def test_every_profile_converts_to_the_documented_schema(name):
    cfg = json.loads(REAL.get(name).to_json())
    assert list(cfg) == SCHEMA_KEYS
    assert cfg["schema"] == 1 and cfg["board"] == name
    assert len(cfg["levers"]) == 2 and len(cfg["buttons"]) == 4
    assert all(isinstance(p, int) for p in cfg["levers"] + cfg["buttons"])
    assert set(cfg["buzzer"]) == {"pin", "duty_u16"}
    leds = cfg["leds"] or []
    assert cfg["leds"] is None or (len(leds) == 2 and all(isinstance(p, int) for p in leds))
    assert cfg["switch_idle"] in (0, 1) and cfg["link_levers"] in (True, False)
    b = cfg["battery"]
    assert b is None or set(b) == {"pin", "r_top", "r_bottom", "adc_full_mv", "chemistry",
                                   "full_mv", "low_mv", "critical_mv"}
    if b is not None:
        assert b["full_mv"] > b["low_mv"] > b["critical_mv"] > 0
        # a full battery stays inside the ADC's range through the divider
        assert b["full_mv"] * b["r_bottom"] // (b["r_top"] + b["r_bottom"]) <= b["adc_full_mv"]
    g = cfg["fuel_gauge"]
    assert g is None or (set(g) == {"type", "i2c", "addr", "low_pct"}
                         and g["i2c"] in [bus["id"] for bus in cfg["i2c"]])
    assert len(cfg["displays"]) == 2
    ids = {bus["id"] for bus in cfg["i2c"]}
    for d in cfg["displays"]:
        if d["type"] == "tm1637":
            assert set(d) == {"type", "clk", "dio"}
        else:
            assert set(d) == {"type", "i2c", "addr"} and d["i2c"] in ids
    pins = (cfg["levers"] + cfg["buttons"] + [cfg["buzzer"]["pin"]] + ([b["pin"]] if b else [])
            + leds
            + [p for d in cfg["displays"] if d["type"] == "tm1637" for p in (d["clk"], d["dio"])]
            + [p for bus in cfg["i2c"] for p in (bus["sda"], bus["scl"])])
    assert len(pins) == len(set(pins)), "a pin used twice got through"


def test_every_build_has_its_running_side_leds():
    # FIDE: which clock runs must be seen at a distance; a TM1637 only blinks its colon
    assert REAL.get("pico-tm1637").config["leds"] == [14, 16]
    assert REAL.get("pico-ssd1306").config["leds"] == [14, 16]
    assert REAL.get("esp32-tm1637").config["leds"] == [13, 14]


def test_the_tournament_builds_read_switches_to_gnd_and_only_the_bench_takes_link_presses():
    # the play builds: switches to GND (idle high), a battery, no lever from the link
    for name in ("pico-tm1637", "pico-ssd1306", "esp32-tm1637"):
        cfg = REAL.get(name).config
        assert (cfg["switch_idle"], cfg["link_levers"]) == (1, False), name
        assert cfg["battery"] is not None, name
    # the emulated bench: esp32-tm1637's pins, switches to 3V3 (inputs that all read low are
    # switches not pressed), no battery divider (no ADC read), levers over the link
    bench, play = REAL.get("esp32-tm1637-bench").config, REAL.get("esp32-tm1637").config
    assert (bench["switch_idle"], bench["link_levers"], bench["battery"]) == (0, True, None)
    assert bench["mcu"] == "esp32"
    for key in ("levers", "buttons", "buzzer", "leds", "displays", "i2c", "watchdog_ms"):
        assert bench[key] == play[key], key


def test_switch_idle_and_link_levers_go_into_the_board_config():
    # the defaults: switches to GND, no lever from the link; a battery is optional
    cfg = boards.loads(ESP).get("e").config
    assert (cfg["switch_idle"], cfg["link_levers"]) == (1, False)
    low = ESP.replace('mcu = "esp32"', 'mcu = "esp32"\nswitch_idle = "low"\n'
                      'link_levers = true')
    cfg = boards.loads(low).get("e").config
    assert (cfg["switch_idle"], cfg["link_levers"]) == (0, True)
    high = ESP.replace('mcu = "esp32"', 'mcu = "esp32"\nswitch_idle = "high"')
    assert boards.loads(high).get("e").config["switch_idle"] == 1
    bare = ESP.replace('battery = { pin = 34, r_top = 100_000, r_bottom = 47_000, '
                       'chemistry = "cell" }\n', "")
    assert bare != ESP and boards.loads(bare).get("e").config["battery"] is None


def test_ssd1306_profile_shares_one_bus_at_two_addresses():
    cfg = REAL.get("pico-ssd1306").config
    assert cfg["i2c"] == [{"id": 0, "sda": 4, "scl": 5, "freq": 400000}]
    assert [d["addr"] for d in cfg["displays"]] == [0x3C, 0x3D]


def test_cli_list_show_check():
    code, out, err = run_cli(["boards"])
    assert code == 0 and "pico-tm1637" in out and "esp32" in out, err
    code, out, err = run_cli(["boards", "show", "pico-ssd1306"])
    assert code == 0 and json.loads(out) == REAL.get("pico-ssd1306").config, err
    code, out, err = run_cli(["boards", "check", str(ROOT / "boards.toml")])
    assert code == 0 and "ok" in out, err
    code, out, err = run_cli(["boards", "show", "no-such-board"])
    assert code == 2 and "unknown board 'no-such-board'" in err and out == ""


# ---- validation: each kind of error, with its profile and key named -----------------

CHEM = """
[chemistry.cell]
full_mv = 4200
low_mv = 3600
critical_mv = 3400
"""

PICO = CHEM + """
[boards.p]
mcu = "rp2040"
levers = { left = 2, right = 3 }
buttons = { start = 6, menu = 7, plus = 8, minus = 9 }
buzzer = { pin = 15 }
battery = { pin = 26, r_top = 100_000, r_bottom = 100_000, chemistry = "cell" }

[boards.p.i2c0]
sda = 4
scl = 5

[boards.p.displays.left]
type = "ssd1306"
bus = "i2c0"
addr = 0x3C

[boards.p.displays.right]
type = "ssd1306"
bus = "i2c0"
addr = 0x3D
"""

ESP = CHEM + """
[boards.e]
mcu = "esp32"
levers = { left = 18, right = 19 }
buttons = { start = 21, menu = 22, plus = 23, minus = 4 }
buzzer = { pin = 25 }
battery = { pin = 34, r_top = 100_000, r_bottom = 47_000, chemistry = "cell" }

[boards.e.displays.left]
type = "tm1637"
clk = 26
dio = 27

[boards.e.displays.right]
type = "tm1637"
clk = 32
dio = 33
"""


PICO_LEDS = PICO.replace("buzzer = { pin = 15 }\n",
                         "buzzer = { pin = 15 }\nleds = { left = 14, right = 16 }\n")
ESP_LEDS = ESP.replace("buzzer = { pin = 25 }\n",
                       "buzzer = { pin = 25 }\nleds = { left = 13, right = 14 }\n")


def test_the_snippet_bases_are_valid():
    assert boards.loads(PICO).get("p").config["displays"][1] == {"type": "ssd1306", "i2c": 0,
                                                                 "addr": 0x3D}
    assert boards.loads(ESP).get("e").config["levers"] == [18, 19]
    # leds is optional: null without it, [left, right] with it
    assert boards.loads(PICO).get("p").config["leds"] is None
    assert boards.loads(PICO_LEDS).get("p").config["leds"] == [14, 16]
    assert boards.loads(ESP_LEDS).get("e").config["leds"] == [13, 14]


# (base, old text, new text, expected profile: key, expected words of the problem)
BROKEN = [
    # unknown and missing keys
    ("pico", 'mcu = "rp2040"', 'mcu = "rp2040"\ncolour = "red"', "p: colour",
     "unknown key"),
    ("pico", "buzzer = { pin = 15 }\n", "", "p: buzzer", "missing"),
    ("pico", "levers = { left = 2, right = 3 }", "levers = { left = 2 }", "p: levers.right",
     "missing"),
    ("pico", "levers = { left = 2,", "levers = { left = 2, middle = 10,", "p: levers.middle",
     "unknown key"),
    ("pico", "sda = 4\n", "", "p: i2c0.sda", "missing"),
    ("pico", 'mcu = "rp2040"', 'mcu = "stm32"', "p: mcu", "unknown MCU"),
    ("pico", 'type = "ssd1306"\nbus = "i2c0"\naddr = 0x3C', 'type = "lcd"',
     "p: displays.left.type", "unknown display type"),
    ("pico", "[boards.p]", "[boardz.q]\nx = 1\n[boards.p]", "boards.toml: boardz",
     "unknown top-level key"),
    # values
    ("pico", "left = 2,", "left = true,", "p: levers.left", "must be a GPIO number"),
    ("pico", 'mcu = "rp2040"', 'mcu = "rp2040"\nwatchdog_ms = 10000', "p: watchdog_ms",
     "500 to 8388"),
    ("pico", "low_mv = 3600", "low_mv = 4300", "chemistry cell: low_mv",
     "thresholds must fall"),
    ("pico", 'chemistry = "cell"', 'chemistry = "lead"', "p: battery.chemistry",
     "unknown chemistry 'lead'"),
    ("pico", "r_top = 100_000", "r_top = 10_000", "p: battery.r_top",
     "above the rp2040 ADC's 3300 mV"),
    # pin clashes
    ("pico", "menu = 7", "menu = 3", "p: buttons.menu", "GP3 is also levers.right (pin clash)"),
    ("pico", "buzzer = { pin = 15 }", "buzzer = { pin = 4 }", "p: i2c0.sda",
     "GP4 is also buzzer.pin (pin clash)"),
    ("esp", "clk = 32", "clk = 26", "e: displays.right.clk",
     "GPIO26 is also displays.left.clk (pin clash)"),
    # RP2040 pin capabilities
    ("pico", "pin = 26,", "pin = 22,", "p: battery.pin", "GP22 has no ADC"),
    ("pico", "buzzer = { pin = 15 }", "buzzer = { pin = 25 }", "p: buzzer.pin",
     "GP25 is used on the Pico board"),
    ("pico", "pin = 26,", "pin = 29,", "p: battery.pin", "GP29 is used on the Pico board"),
    ("pico", "plus = 8", "plus = 30", "p: buttons.plus", "GP30 does not exist"),
    ("pico", "sda = 4\nscl = 5", "sda = 5\nscl = 4", "p: i2c0.sda", "not an I2C0 SDA pin"),
    ("pico", "sda = 4\nscl = 5", "sda = 4\nscl = 7", "p: i2c0.sda", "not an I2C0 SCL pin"),
    # I2C displays
    ("pico", "addr = 0x3D", "addr = 0x3C", "p: displays.right.addr", "address clash"),
    ("pico", "addr = 0x3D", "addr = 0x3E", "p: displays.right.addr", "0x3C or 0x3D"),
    ("pico", 'bus = "i2c0"\naddr = 0x3C', 'bus = "i2c1"\naddr = 0x3C',
     "p: displays.left.bus", "no I2C bus 'i2c1'"),
    ("pico", "[boards.p.i2c0]", "[boards.p.i2c1]\nsda = 10\nscl = 11\n[boards.p.i2c0]",
     "p: i2c1", "no display or fuel gauge uses this I2C bus"),
    # ESP32 pin capabilities
    ("esp", "left = 18", "left = 34", "e: levers.left",
     "GPIO34 is input-only without an internal pull-up"),
    ("esp", "clk = 32", "clk = 35", "e: displays.right.clk",
     "input-only (GPIO34..GPIO39) and cannot drive"),
    ("esp", "buzzer = { pin = 25 }", "buzzer = { pin = 39 }", "e: buzzer.pin",
     "cannot drive an output"),
    ("esp", "plus = 23", "plus = 7", "e: buttons.plus", "SPI flash"),
    ("esp", "start = 21", "start = 0", "e: buttons.start", "strapping pin"),
    ("esp", "right = 19", "right = 15", "e: levers.right", "strapping pin"),
    ("esp", "dio = 33", "dio = 12", "e: displays.right.dio", "GPIO12 is a strapping pin"),
    ("esp", "pin = 34,", "pin = 25,", "e: battery.pin", "ADC2"),
    ("esp", "pin = 34,", "pin = 23,", "e: battery.pin", "GPIO23 has no ADC"),
    ("esp", "minus = 4", "minus = 1", "e: buttons.minus", "UART0"),
    ("esp", "minus = 4", "minus = 24", "e: buttons.minus", "does not exist on the ESP32"),
    ("esp", "minus = 4", "minus = 37", "e: buttons.minus", "not broken out"),
    ("esp", "r_top = 100_000", "r_top = 20_000", "e: battery.r_top",
     "above the esp32 ADC's 2450 mV"),
    # the switches' idle level and the link's levers
    ("esp", 'mcu = "esp32"', 'mcu = "esp32"\nswitch_idle = "up"', "e: switch_idle",
     'must be "high" (switches to GND, pull-up) or "low"'),
    ("esp", 'mcu = "esp32"', 'mcu = "esp32"\nswitch_idle = 0', "e: switch_idle",
     "not 0"),
    ("esp", 'mcu = "esp32"', 'mcu = "esp32"\nswitch_idle = ["low"]', "e: switch_idle",
     "not ['low']"),
    ("esp", 'mcu = "esp32"', 'mcu = "esp32"\nlink_levers = 1', "e: link_levers",
     "must be true or false, not 1"),
    ("esp", 'mcu = "esp32"', 'mcu = "esp32"\nlink_levers = "yes"', "e: link_levers",
     "must be true or false, not 'yes'"),
    ("esp", "battery = { pin = 34,", "battery = { pin = 34, idle = 1,", "e: battery.idle",
     "unknown key"),
    ("esp", "left = 18", "left = 36", "e: levers.left", "GPIO36 is input-only"),
]


BROKEN += [
    # running-side LEDs (bases with `leds` added)
    ("pico-leds", "leds = { left = 14, right = 16 }", "leds = { left = 14 }",
     "p: leds.right", "missing"),
    ("pico-leds", "leds = { left = 14, right = 16 }",
     "leds = { left = 14, right = 16, middle = 17 }", "p: leds.middle", "unknown key"),
    ("pico-leds", "leds = { left = 14, right = 16 }", "leds = 14", "p: leds",
     "must be a table"),
    ("pico-leds", "right = 16 }", "right = 15 }", "p: leds.right",
     "GP15 is also buzzer.pin (pin clash)"),
    ("pico-leds", "left = 14,", "left = 4,", "p: leds.left", "GP4 is also i2c0.sda (pin clash)"),
    ("pico-leds", "left = 14,", "left = 25,", "p: leds.left", "GP25 is used on the Pico board"),
    ("esp-leds", "right = 14 }", "right = 35 }", "e: leds.right",
     "GPIO35 is input-only (GPIO34..GPIO39) and cannot drive an output"),
    ("esp-leds", "left = 13,", "left = 26,", "e: leds.left",
     "GPIO26 is also displays.left.clk (pin clash)"),
    ("esp-leds", "left = 13,", "left = 0,", "e: leds.left", "strapping pin"),
    ("esp-leds", "left = 13,", "left = 12,", "e: leds.left", "strapping pin"),
    ("esp-leds", "left = 13,", "left = 9,", "e: leds.left", "SPI flash"),
]
GAUGE = 'fuel_gauge = { type = "max17048", bus = "i2c0", low_pct = 45 }'
PICO_GAUGE = PICO.replace('chemistry = "cell" }\n', 'chemistry = "cell" }\n' + GAUGE + "\n")
BROKEN += [
    # fuel gauge (base with one on the OLEDs' bus)
    ("pico-gauge", 'type = "max17048"', 'type = "ina219"', "p: fuel_gauge.type",
     "unknown fuel gauge 'ina219'"),
    ("pico-gauge", 'bus = "i2c0", low', 'bus = "i2c1", low', "p: fuel_gauge.bus",
     "no I2C bus 'i2c1'"),
    ("pico-gauge", "low_pct = 45", "low_pct = 0", "p: fuel_gauge.low_pct", "1 to 99"),
    ("pico-gauge", ", low_pct = 45", "", "p: fuel_gauge.low_pct", "missing"),
    ("pico-gauge", "low_pct = 45", "low_pct = 45, alert = 1", "p: fuel_gauge.alert",
     "unknown key"),
]
BASES = {"pico": PICO, "esp": ESP, "pico-leds": PICO_LEDS, "esp-leds": ESP_LEDS,
         "pico-gauge": PICO_GAUGE}


def test_fuel_gauge_goes_into_the_board_config():
    cfg = boards.loads(PICO_GAUGE).get("p").config
    assert cfg["fuel_gauge"] == {"type": "max17048", "i2c": 0, "addr": 0x36, "low_pct": 45}
    assert boards.loads(PICO).get("p").config["fuel_gauge"] is None
    # a bus that only the gauge uses is a used bus
    only = PICO_GAUGE.replace('bus = "i2c0", low', 'bus = "i2c1", low').replace(
        "[boards.p.i2c0]", "[boards.p.i2c1]\nsda = 10\nscl = 11\n[boards.p.i2c0]")
    assert boards.loads(only).get("p").config["fuel_gauge"]["i2c"] == 1


@pytest.mark.parametrize("base,old,new,where,words", BROKEN,
                         ids=["%s:%s" % (b[3], b[4][:24]) for b in BROKEN])
def test_each_error_names_profile_and_key(base, old, new, where, words):
    text = BASES[base]
    assert old in text, "the test's snippet edit does not apply"
    with pytest.raises(boards.BoardsFileError) as e:
        boards.loads(text.replace(old, new, 1))
    messages = [str(x) for x in e.value.errors]
    assert any(m.startswith(where + ":") and words in m for m in messages), messages


def test_bad_toml_and_missing_file_are_named(tmp_path):
    with pytest.raises(boards.BoardsFileError, match="not valid TOML"):
        boards.loads(PICO + "\n[boards.p\n")
    with pytest.raises(boards.BoardsFileError, match="cannot read"):
        boards.load(tmp_path / "nope.toml")


def test_check_command_exits_2_naming_every_error(tmp_path):
    f = tmp_path / "boards.toml"
    f.write_text(ESP.replace("left = 18", "left = 34").replace("plus = 23", "plus = 7"))
    code, out, err = run_cli(["boards", "check", str(f)])
    assert code == 2 and out == ""
    assert "e: levers.left: GPIO34 is input-only" in err
    assert "e: buttons.plus: GPIO7 is wired to the SPI flash" in err
    code, out, err = run_cli(["boards", "--file", str(f), "show", "e"])
    assert code == 2 and "e: levers.left" in err


@pytest.mark.parametrize("line,words", [
    ('switch_idle = "down"', 'e: switch_idle: must be "high"'),
    ("switch_idle = true", "e: switch_idle: must be \"high\""),
    ("switch_idle = {}", "e: switch_idle: must be \"high\""),
    ('link_levers = "true"', "e: link_levers: must be true or false, not 'true'"),
    ("link_levers = 0", "e: link_levers: must be true or false, not 0"),
])
def test_check_command_bad_switch_idle_and_link_levers_one_line_each(tmp_path, line, words):
    f = tmp_path / "boards.toml"
    f.write_text(ESP.replace('mcu = "esp32"', 'mcu = "esp32"\n' + line))
    code, out, err = run_cli(["boards", "check", str(f)])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err


# ---- the build: `make firmware` ----------------------------------------------------


def _sha(p):
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("builds")
    return {name: (root / name, deploy.build(name, root / name)) for name in REAL.profiles}


@pytest.mark.parametrize("name", list(REAL.profiles))
def test_build_has_every_module_and_a_correct_manifest(builds, name):
    out, manifest = builds[name]
    modules = deploy.firmware_modules()
    assert "boards/mcu.py" in modules and "boards/sim.py" not in modules
    for pkg in ("clockcore", "clockapp"):
        src = sorted(p.relative_to(ROOT / "firmware").as_posix()
                     for p in (ROOT / "firmware" / pkg).rglob("*.py"))
        assert set(src) - set(deploy.HOST_ONLY) <= set(modules)
    # the host's log reader stays off the board
    assert "clockcore/logread.py" in deploy.HOST_ONLY
    assert not set(deploy.HOST_ONLY) & set(modules)
    want = {m[:-3] + ".mpy" for m in modules} | {"main.py", "board.json"}
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert files == want | {"MANIFEST.sha256"}
    assert not (out / "boards" / "sim.mpy").exists()
    # the manifest: every file but itself, with its real sha256, sorted, sha256sum format
    lines = (out / "MANIFEST.sha256").read_text().splitlines()
    assert [ln.split("  ", 1)[1] for ln in lines] == sorted(want)
    for ln in lines:
        h, rel = ln.split("  ", 1)
        assert _sha(out / rel) == h, rel
    assert deploy.read_manifest(out / "MANIFEST.sha256") == manifest
    # .mpy v6 from the 1.29 cross-compiler; main.py as source; board.json from boards.toml
    for rel in want:
        if rel.endswith(".mpy"):
            head = (out / rel).read_bytes()[:4]
            assert head[:2] == b"M\x06", rel
    assert (out / "main.py").read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()
    assert json.loads((out / "board.json").read_text()) == REAL.get(name).config


def test_build_uses_the_mcu_architecture(monkeypatch, tmp_path):
    seen = set()
    real = deploy.mpy_cross

    def spy(src, dst, name, arch):
        seen.add(arch)
        return real(src, dst, name, arch)

    monkeypatch.setattr(deploy, "mpy_cross", spy)
    deploy.build("esp32-tm1637", tmp_path / "e")
    deploy.build("pico-tm1637", tmp_path / "p")
    assert seen == {"xtensawin", "armv6m"}


def test_build_refuses_to_wipe_a_folder_that_is_not_a_build(tmp_path):
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(deploy.DeployError, match="not a firmware build"):
        deploy.build("pico-tm1637", tmp_path)
    assert (tmp_path / "precious.txt").exists()


def test_build_command_unknown_board_exits_2(tmp_path):
    code, out, err = run_cli(["build", "--board", "nope", "--out", str(tmp_path / "x")])
    assert code == 2 and "unknown board 'nope'" in err


@pytest.mark.skipif(not MICROPYTHON.exists(), reason="no MicroPython unix port in the venv")
def test_built_mpy_files_load_on_micropython(builds):
    out, _ = builds["pico-tm1637"]
    code = ("import clockcore.engine, clockcore.notation, clockapp.board, clockapp.view, "
            "boards.mcu; print('loaded', boards.mcu.SCHEMA)")
    r = subprocess.run([str(MICROPYTHON), "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, MICROPYPATH=".frozen:" + str(out)), timeout=60)
    assert r.returncode == 0 and "loaded 1" in r.stdout, r.stdout + r.stderr


def test_package_json_lists_every_firmware_module():
    pkg = json.loads((ROOT / "package.json").read_text())
    assert pkg == deploy.package_json(), (
        "package.json is out of date: run `.venv/bin/chessclock build --board pico-tm1637 "
        "--package-json`")
    for target, url in pkg["urls"]:
        assert (ROOT / url).is_file() and url == "firmware/" + target


def _run_manifest(tmp_path, monkeypatch):
    """firmware/manifest.py as MicroPython's makemanifest runs it (its folder current; the
    functions stubbed to record their calls) on a copy of firmware/ in tmp_path. The calls."""
    import shutil
    fw = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware", fw, ignore=shutil.ignore_patterns("__pycache__"))
    calls = []

    def recorder(name):
        return lambda *a, **k: calls.append((name, a, k))

    env = {name: recorder(name) for name in ("include", "metadata", "package", "module")}
    monkeypatch.chdir(fw)
    exec(compile((fw / "manifest.py").read_text(), "manifest.py", "exec"), env)
    return calls, fw


def test_package_manifest_names_existing_packages(tmp_path, monkeypatch):
    calls, _ = _run_manifest(tmp_path, monkeypatch)
    packages = {a[0]: k.get("files") for kind, a, k in calls if kind == "package"}
    assert set(packages) == {"clockcore", "clockapp", "drivers", "boards"}
    # the real board and its package's __init__; no sim
    assert packages["boards"] == ["__init__.py", "mcu.py", "rawflash.py"]
    assert all((ROOT / "firmware/boards" / f).is_file() for f in packages["boards"])
    for name in packages:
        assert (ROOT / "firmware" / name).is_dir()
    # clockcore is listed file by file (to leave the host-only reader out): the same files
    # as a `make firmware` build
    built = [m.split("/", 1)[1] for m in deploy.firmware_modules() if m.startswith("clockcore/")]
    assert sorted(packages["clockcore"]) == sorted(built)


# ---- firmware/boards/mcu.py on a fake `machine` -------------------------------------


class FakePin:
    IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2
    IRQ_FALLING, IRQ_RISING = 4, 8
    made = {}

    def __init__(self, n, mode=-1, pull=-1, value=None):
        self.n, self.mode, self.pull = n, mode, pull
        self.level = 1 if value is None else value
        self.writes = 0
        self.irq_args = None
        FakePin.made[n] = self

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v
        self.writes += 1
        return None

    def irq(self, **kw):
        if not kw:   # pin.irq(): the IRQ object, its flags() the edges that raised it
            return self
        self.irq_args = kw
        return self

    def flags(self):
        return self.edges

    edges = 0


class FakePWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin, self._freq, self._duty = pin, freq, duty_u16

    def freq(self, f):
        self._freq = f

    def duty_u16(self, d):
        self._duty = d


class FakeADC:
    ATTN_11DB = 3
    raw = 32768
    uv = None

    def __init__(self, pin, atten=None):
        self.pin, self.atten = pin, atten

    def read_u16(self):
        return FakeADC.raw


class FakeADCuv(FakeADC):
    def read_uv(self):
        return 1_500_000


class FakeWDT:
    def __init__(self, timeout):
        self.timeout, self.fed = timeout, 0

    def feed(self):
        self.fed += 1


class FakeI2C:
    def __init__(self, id, scl, sda, freq):
        self.id, self.scl, self.sda, self.freq = id, scl, sda, freq


class FakeTime:
    now = 1000

    @staticmethod
    def ticks_us():
        FakeTime.now += 7
        return FakeTime.now

    @staticmethod
    def ticks_diff(a, b):
        return a - b

    @staticmethod
    def ticks_add(a, b):
        return a + b

    @staticmethod
    def sleep_us(us):
        pass

    @staticmethod
    def sleep_ms(ms):
        pass


def fake_machine(esp32=False):
    m = types.ModuleType("machine")
    m.Pin, m.PWM, m.WDT, m.I2C = FakePin, FakePWM, FakeWDT, FakeI2C
    m.ADC = FakeADCuv if esp32 else FakeADC
    return m


@pytest.fixture
def mcu(monkeypatch):
    """boards.mcu imported against fakes; returns (module, make(profile, menu_held))."""
    FakePin.made = {}

    def load(esp32):
        machine = fake_machine(esp32)
        monkeypatch.setitem(sys.modules, "machine", machine)
        monkeypatch.setitem(sys.modules, "micropython",
                            types.SimpleNamespace(alloc_emergency_exception_buf=lambda n: None))
        monkeypatch.delitem(sys.modules, "boards.mcu", raising=False)
        import boards.mcu as mod
        monkeypatch.setattr(mod, "time", FakeTime)
        monkeypatch.setattr(mod, "sys", types.SimpleNamespace(
            platform="esp32" if esp32 else "rp2"))
        tm = types.ModuleType("clockapp.displays.tm1637")
        tm.TM1637Display = lambda clk, dio, frame=None: ("tm1637", clk, dio, frame)
        fast = types.ModuleType("drivers.tm1637_rp2")   # viper: no CPython

        class Rp2Frames:
            def __init__(self, clk, dio):
                self.gpio = (clk, dio)

            def frame(self, buf, n):
                return 0

        fast.Rp2Frames = Rp2Frames
        monkeypatch.setitem(sys.modules, "drivers.tm1637_rp2", fast)
        ss = types.ModuleType("clockapp.displays.ssd1306")
        ss.SSD1306Display = lambda i2c, addr: ("ssd1306", i2c, addr)
        monkeypatch.setitem(sys.modules, "clockapp.displays.tm1637", tm)
        monkeypatch.setitem(sys.modules, "clockapp.displays.ssd1306", ss)
        return mod, machine

    def make(name, menu_held=False, tmp=None, level=None):
        cfg = REAL.get(name).config
        mod, machine = load(cfg["mcu"] == "esp32")
        if level is not None:   # every input reads this level (the emulator's GPIO: 0)
            orig_level = FakePin.__init__

            def at_level(self, n, mode=-1, pull=-1, value=None):
                orig_level(self, n, mode, pull, value)
                if mode == FakePin.IN:
                    self.level = level
            monkeypatch.setattr(FakePin, "__init__", at_level)
        if menu_held:
            orig = FakePin.__init__

            def init(self, n, mode=-1, pull=-1, value=None):
                orig(self, n, mode, pull, value)
                if n == cfg["buttons"][1]:
                    self.level = 0
            monkeypatch.setattr(FakePin, "__init__", init)
        path = tmp / "board.json"
        path.write_text(REAL.get(name).to_json())
        return mod, machine, mod.McuBoard.from_config(str(path))

    return make


def test_mcu_board_inputs_and_levers_on_rp2040(mcu, tmp_path):
    mod, machine, board = mcu("pico-tm1637", tmp=tmp_path)
    cfg = REAL.get("pico-tm1637").config
    for n in cfg["levers"] + cfg["buttons"]:
        assert (FakePin.made[n].mode, FakePin.made[n].pull) == (FakePin.IN, FakePin.PULL_UP)
    assert board.read_levers() == 0 and board.read_buttons() == 0
    FakePin.made[cfg["levers"][1]].level = 0
    FakePin.made[cfg["buttons"][0]].level = 0
    FakePin.made[cfg["buttons"][3]].level = 0
    assert board.read_levers() == 2
    assert board.read_buttons() == 1 | 8   # BTN_START | BTN_MINUS
    got = []
    board.attach_levers(lambda lever, t, closed: got.append((lever, t, closed)))
    left = FakePin.made[cfg["levers"][0]]
    assert left.irq_args["hard"] is True
    assert left.irq_args["trigger"] == FakePin.IRQ_FALLING | FakePin.IRQ_RISING
    left.level = 0
    left.irq_args["handler"](left)
    right = FakePin.made[cfg["levers"][1]]
    right.level = 1
    right.irq_args["handler"](right)
    assert [(g[0], g[2]) for g in got] == [(0, True), (1, False)]
    assert got[1][1] > got[0][1]
    # a tap inside a flash write: both edges latched, the lever open again at the IRQ
    got.clear()
    left.level, left.edges = 1, FakePin.IRQ_FALLING | FakePin.IRQ_RISING
    left.irq_args["handler"](left)
    assert [(g[0], g[2]) for g in got] == [(0, True), (0, False)]
    assert got[0][1] == got[1][1]
    assert board.maintenance_requested() is False
    assert board.storage_root() == "/"


def test_mcu_board_outputs_battery_watchdog(mcu, tmp_path):
    mod, machine, board = mcu("pico-tm1637", tmp=tmp_path)
    pwm = board._pwm
    board.buzz(2000)
    assert (pwm._freq, pwm._duty) == (2000, 32768)
    board.buzz(0)
    assert pwm._duty == 0
    FakeADC.raw = 32768
    # half scale of 3300 mV at the pin, times (100k + 100k) / 100k
    assert board.battery_mv() == 3300 * 32768 // 65535 * 2
    assert board.battery_low_mv == 3450
    assert board._wdt is None
    board.feed_watchdog()
    board.feed_watchdog()
    assert board._wdt.timeout == 4000 and board._wdt.fed == 2
    assert not hasattr(board, "reset_cause")   # never called: removed
    left, right = board.displays()
    assert left[0] == "tm1637" and left[1].n == 10 and left[2].n == 11
    assert left[1].mode == FakePin.OUT
    # the RP2040's TM1637 frames at register level, on the same two GPIOs (PIN_FRAMES)
    assert left[3].__self__.gpio == (10, 11) and right[3].__self__.gpio == (right[1].n,
                                                                           right[2].n)
    assert board.displays() == (left, right)   # made once


@pytest.mark.parametrize("name", ["pico-tm1637", "esp32-tm1637"])
def test_mcu_board_running_side_leds(mcu, tmp_path, name):
    mod, machine, board = mcu(name, tmp=tmp_path)
    left_n, right_n = REAL.get(name).config["leds"]
    left, right = FakePin.made[left_n], FakePin.made[right_n]
    # outputs, off from the moment they are made (no flash of light at boot)
    assert (left.mode, left.level, right.mode, right.level) == (FakePin.OUT, 0, FakePin.OUT, 0)
    board.set_running(mod.LEFT)
    assert (left.level, right.level) == (1, 0)
    board.set_running(mod.RIGHT)
    assert (left.level, right.level) == (0, 1)
    board.set_running(-1)
    assert (left.level, right.level) == (0, 0)
    assert FakePin.made[left_n] is left     # the pins were made once, not per call
    # a board.json without LEDs (made before the key existed, or leds = null) still works
    cfg = dict(REAL.get(name).config)
    del cfg["leds"]
    quiet = mod.McuBoard(cfg)
    quiet.set_running(mod.LEFT)
    assert quiet._led_l is None
    cfg["leds"] = None
    mod.McuBoard(cfg).set_running(mod.RIGHT)


def test_mcu_board_on_esp32(mcu, tmp_path):
    mod, machine, board = mcu("esp32-tm1637", tmp=tmp_path)
    board.attach_levers(lambda *a: None)
    assert "hard" not in FakePin.made[18].irq_args   # the esp32 port has no hard pin IRQs
    assert board._adc.atten == FakeADC.ATTN_11DB
    assert board.battery_mv() == 1500 * (100_000 + 47_000) // 47_000   # read_uv(): calibrated
    left, right = board.displays()
    assert left[0] == "tm1637" and left[3] is None   # the Python bit-bang: no RP2040 SIO here


class _ErasedDev:
    """A journal's raw device that reads erased (clockapp/journal.py's interface)."""
    blocks, first, last = 2, 32, 4080

    def read(self, i, off, buf):
        buf[:] = b"\xff" * len(buf)


@pytest.mark.parametrize("platform, found", [
    ("esp32", "vfs"), ("esp32", None), ("rp2", "flash"), ("unix", None)])
def test_mcu_board_journal_reaches_the_block_device_under_littlefs(
        mcu, tmp_path, monkeypatch, platform, found):
    # the journal's blocks are reserved in littlefs (boards/rawflash.py) on the block
    # device it is mounted on: rp2.Flash(), or the ESP32's data partition labelled "vfs"
    mod, machine, board = mcu("esp32-tm1637", tmp=tmp_path)
    asked = []

    class Partition:
        TYPE_DATA = 1

        @staticmethod
        def find(kind, subtype=0xFF, label=None):
            asked.append((kind, label))
            return ["vfs"] if found == "vfs" else []

    monkeypatch.setitem(sys.modules, "esp32", types.SimpleNamespace(Partition=Partition))
    monkeypatch.setitem(sys.modules, "rp2", types.SimpleNamespace(Flash=lambda: "flash"))
    monkeypatch.setattr(mod, "sys", types.SimpleNamespace(platform=platform))
    from boards import rawflash
    made = []

    def make(flash, path, count, fs=None):
        made.append((flash, path, count))
        return _ErasedDev()

    monkeypatch.setattr(rawflash.ReservedFlash, "make", make)
    jr = board.journal()
    if found is None:
        assert jr is None and made == []
    else:
        assert made == [(found, "/journal.bin", 48)] and jr.clean and jr.empty()
    assert asked == ([(Partition.TYPE_DATA, "vfs")] if platform == "esp32" else [])


def test_mcu_board_switches_to_3v3_read_an_all_low_gpio_as_nothing_pressed(mcu, tmp_path):
    # the bench profile (switch_idle "low"): pull-downs, and every input low is idle
    mod, machine, board = mcu("esp32-tm1637-bench", tmp=tmp_path, level=0)
    cfg = REAL.get("esp32-tm1637-bench").config
    for n in cfg["levers"] + cfg["buttons"]:
        assert (FakePin.made[n].mode, FakePin.made[n].pull) == (FakePin.IN, FakePin.PULL_DOWN)
    assert board.maintenance_requested() is False          # MENU is not taken as held
    assert board.read_levers() == 0 and board.read_buttons() == 0
    assert board.battery_mv() == -1 and board._adc is None  # no divider: no ADC made
    # pressed reads high
    FakePin.made[cfg["levers"][0]].level = 1
    FakePin.made[cfg["buttons"][2]].level = 1
    assert board.read_levers() == 1 and board.read_buttons() == 4   # BTN_PLUS
    got = []
    board.attach_levers(lambda lever, t, closed: got.append((lever, closed)))
    right = FakePin.made[cfg["levers"][1]]
    right.level = 1
    right.irq_args["handler"](right)
    right.level = 0
    right.irq_args["handler"](right)
    assert got == [(1, True), (1, False)]
    # the same pins idle high (switches to GND): all low is every switch held, MENU too
    FakePin.made = {}
    mod, machine, grounded = mcu("esp32-tm1637", tmp=tmp_path, level=0)
    assert grounded.maintenance_requested() is True
    assert grounded.read_levers() == 3 and grounded.read_buttons() == 15


def test_mcu_board_link_levers_press_and_release(mcu, tmp_path):
    from clockcore import protocol as P
    mod, machine, board = mcu("esp32-tm1637-bench", tmp=tmp_path, level=0)
    with pytest.raises(P.ProtocolError) as e:      # before the app attached its levers
        board.sim_op(["press", "left"])
    assert e.value.code == P.E_STATE
    got = []
    board.attach_levers(lambda lever, t, closed: got.append((lever, t, closed)))
    (key, t0), = board.sim_op(["press", "right", "50"])
    assert key == "t_us" and got == [(1, t0, True)]
    assert board.read_levers() == 2                 # held while the hold lasts
    with pytest.raises(P.ProtocolError) as e:       # one press at a time
        board.sim_op(["press", "left"])
    assert e.value.code == P.E_STATE
    FakeTime.now = t0 + 50_000                      # the hold is over: released once
    assert board.read_levers() == 0
    assert [(g[0], g[2]) for g in got] == [(1, True), (1, False)] and got[1][1] >= t0 + 50_000
    assert board.read_levers() == 0 and len(got) == 2
    board.sim_op(["press", "left"])                 # the default hold: 80 ms
    FakeTime.now += 79_000
    assert board.read_levers() == 1
    FakeTime.now += 1_000
    assert board.read_levers() == 0 and [g[2] for g in got[2:]] == [True, False]
    for bad in (["press"], ["press", "middle"], ["button", "start"], ["press", "left", "x"],
                ["press", "left", "0"], ["press", "left", "60001"], ["press", "left", "1", "2"]):
        with pytest.raises(P.ProtocolError) as e:
            board.sim_op(bad)
        assert e.value.code == P.E_ARGS, bad
    # a play build has no such op: the link answers `sim` as unknown there
    FakePin.made = {}
    mod, machine, play = mcu("esp32-tm1637", tmp=tmp_path)
    assert not hasattr(play, "sim_op")


def test_mcu_board_ssd1306_and_maintenance(mcu, tmp_path):
    mod, machine, board = mcu("pico-ssd1306", menu_held=True, tmp=tmp_path)
    assert board.maintenance_requested() is True
    left, right = board.displays()
    assert left[0] == right[0] == "ssd1306" and left[1] is right[1]   # one shared bus
    assert (left[2], right[2]) == (0x3C, 0x3D)
    bus = left[1].i2c   # the machine.I2C, in the SharedI2C the lever interrupt may use
    assert (bus.id, bus.sda.n, bus.scl.n, bus.freq) == (0, 4, 5, 400000)


def test_mcu_board_refuses_a_config_for_another_mcu_or_schema(mcu, tmp_path):
    mod, machine, board = mcu("pico-tm1637", tmp=tmp_path)
    cfg = dict(REAL.get("esp32-tm1637").config)
    with pytest.raises(mod.ConfigError, match="for esp32"):
        mod.McuBoard(cfg)
    cfg = dict(REAL.get("pico-tm1637").config, schema=2)
    with pytest.raises(mod.ConfigError, match="schema 2"):
        mod.McuBoard(cfg)
    with pytest.raises(mod.ConfigError, match="nope.json on the board"):
        mod.McuBoard.from_config(str(tmp_path / "nope.json"))


# ---- `make typecheck` really checks -------------------------------------------------

STUBS = ROOT / ".venv" / "stubs"
PLANT = """\
import machine
import time


def setup():
    p = machine.Pin(5, machine.Pin.%s)
    machine.PWM(p, %s=1000)
    return time.ticks_diff(time.ticks_us(), 0)
"""


@pytest.mark.parametrize("port", ["rp2", "esp32"])
def test_typecheck_catches_a_wrong_machine_api_name_and_argument(port, tmp_path):
    if not (STUBS / port / "machine.pyi").exists():
        pytest.skip("no %s stubs (make venv installs them)" % port)

    def mypy(source):
        f = tmp_path / "plant.py"
        f.write_text(source)
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "firmware/mypy.ini"),
             "--custom-typeshed-dir", str(STUBS / port), "--cache-dir", str(tmp_path / "c"),
             str(f)],
            capture_output=True, text=True, timeout=300,
            env=dict(os.environ, MYPYPATH=str(STUBS / port)))

    good = mypy(PLANT % ("IN", "freq"))
    assert good.returncode == 0, good.stdout + good.stderr
    bad = mypy(PLANT % ("INN", "frequency"))
    assert bad.returncode == 1
    assert '"type[Pin]" has no attribute "INN"' in bad.stdout
    assert 'Unexpected keyword argument "frequency" for "PWM"' in bad.stdout


class FakeGaugeI2C:
    """A MAX17048 at 0x36: 16-bit registers, big-endian."""

    def __init__(self, regs):
        self.regs = regs
        self.fail = False

    def readfrom_mem_into(self, addr, reg, buf):
        if self.fail or addr != 0x36:
            raise OSError(19)   # ENODEV: nothing answers
        v = self.regs[reg]
        buf[0], buf[1] = v >> 8, v & 0xFF


def test_mcu_board_fuel_gauge(mcu, tmp_path):
    mod, machine, board = mcu("pico-ssd1306", tmp=tmp_path)
    assert board.battery_low_pct == REAL.get("pico-ssd1306").config["fuel_gauge"]["low_pct"]
    bus = board._i2c[0].i2c   # in its SharedI2C
    gauge = FakeGaugeI2C({0x04: 44 << 8})
    bus.readfrom_mem_into = gauge.readfrom_mem_into   # the OLEDs' bus, shared
    assert board.battery_pct() == 44
    gauge.fail = True                    # unplugged: no reading, the voltage still warns
    assert board.battery_pct() == -1
    gauge.fail = False
    assert board.battery_pct() == 44
    # builds without a gauge: no reading, no threshold
    mod, machine, plain = mcu("pico-tm1637", tmp=tmp_path)
    assert plain.battery_pct() == -1 and plain.battery_low_pct == -1
