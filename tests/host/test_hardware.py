"""hardware/ against boards.toml: wiring files, BOMs, rendered pictures (no graphviz here).

`make hardware` regenerates and renders; these tests only read. Each check is also shown to
fail on a broken copy, so a silent checker cannot pass them.
"""

import shutil
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

from chessclock import hardware as hw  # noqa: E402
from chessclock.board import profiles as boardsmod  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def models():
    return hw.load_models(ROOT)


def test_every_profile_has_its_hardware_folder_and_it_agrees_with_boards_toml():
    assert hw.check_all(ROOT) == []


def test_every_profile_has_every_file(models):
    _b, ms = models
    assert ms
    for name in ms:
        for f in hw.GENERATED + hw.RENDERED + (hw.SIDECAR,):
            assert (ROOT / "hardware" / name / f).is_file(), (name, f)
    assert (ROOT / "hardware" / "NOTES.md").is_file()


def test_the_documented_profiles_are_the_battery_builds_with_switches_to_gnd(models):
    # hardware/ draws switches to GND and a battery divider: a profile without a battery or
    # with switch_idle "low" (the emulated bench) has no build documents, and no folder
    b, ms = models
    bench = b.profiles["esp32-tm1637-bench"]
    assert "esp32-tm1637-bench" not in ms and not (ROOT / "hardware" / bench.name).exists()
    assert {"pico-tm1637", "pico-ssd1306", "esp32-tm1637"} <= set(ms)
    for name, prof in b.profiles.items():
        cfg = prof.config
        assert (name in ms) == (cfg["battery"] is not None and cfg["switch_idle"] == 1)
    grounded = boardsmod.loads((ROOT / "boards.toml").read_text().replace(
        'switch_idle = "low"', 'switch_idle = "high"'))
    assert not hw.documented(grounded.profiles["esp32-tm1637-bench"])   # no battery


def test_pictures_are_small_enough_to_commit():
    for f in (ROOT / "hardware").glob("*/*.[ps][nv]g"):
        assert f.stat().st_size < 400_000, f


def _wiring(name):
    return yaml.safe_load((ROOT / "hardware" / name / "wiring.yaml").read_text())


def _check(models, name, doc):
    b, _ms = models
    return hw.check_wiring(b.profiles[name], yaml.safe_dump(doc, sort_keys=False))


def _conn(doc, part):
    """The connection set that ends at `part` (the generator writes one per cable)."""
    return next(c for c in doc["connections"] if part in c[2])


def test_the_committed_wiring_reads_back_to_the_profiles_pins(models):
    _b, ms = models
    for name, w in ms.items():
        assert hw.check_wiring(w.profile, (ROOT / "hardware" / name / "wiring.yaml").read_text()) \
            == []


def test_a_pin_moved_in_the_wiring_is_found(models):
    doc = _wiring("pico-tm1637")
    mcu = doc["connectors"]["MCU"]
    i = mcu["pins"].index(4)                 # header pin 4 = GP2 = levers.left
    mcu["pins"][i], mcu["pinlabels"][i] = 22, "GP17"
    _conn(doc, "LEVER_L")[0]["MCU"][1] = 22
    problems = _check(models, "pico-tm1637", doc)
    assert any("levers.left is wired to GP17, boards.toml says GP2" in p for p in problems)


def test_a_label_that_is_not_its_header_pin_is_found(models):
    doc = _wiring("pico-tm1637")
    mcu = doc["connectors"]["MCU"]
    mcu["pinlabels"][mcu["pins"].index(4)] = "GP14"
    problems = _check(models, "pico-tm1637", doc)
    assert any("labelled GP14, but GP14 is pin 19" in p for p in problems)


def test_two_functions_on_one_pin_are_found(models):
    doc = _wiring("pico-tm1637")
    _conn(doc, "BTN_START")[0]["MCU"][1] = 4     # START's wire onto GP2 (levers.left)
    problems = _check(models, "pico-tm1637", doc)
    assert any("GP2 has two functions: buttons.start, levers.left" in p for p in problems)
    assert any("buttons.start is wired to GP2, boards.toml says GP6" in p for p in problems)


def test_a_pin_that_cannot_do_its_job_is_found(models):
    doc = _wiring("esp32-tm1637")
    mcu = doc["connectors"]["MCU"]
    i = mcu["pins"].index("J3-9")                # GPIO18 = levers.left
    mcu["pins"][i], mcu["pinlabels"][i] = "J2-5", "GPIO34"
    _conn(doc, "LEVER_L")[0]["MCU"][1] = "J2-5"
    problems = _check(models, "esp32-tm1637", doc)
    assert any("levers.left (GPIO34): GPIO34 is input-only without an internal pull-up" in p
               for p in problems)


def test_a_missing_wire_and_a_signal_on_ground_are_found(models):
    doc = _wiring("pico-ssd1306")
    doc["connections"] = [c for c in doc["connections"] if "DISPLAY_R" not in c[2]]
    problems = _check(models, "pico-ssd1306", doc)
    assert problems == []          # the right OLED shares I2C0's pins: still every function
    doc["connections"] = [c for c in doc["connections"] if "DISPLAY_L" not in c[2]]
    problems = _check(models, "pico-ssd1306", doc)
    assert problems == []          # and so does the fuel gauge
    doc["connections"] = [c for c in doc["connections"] if "FUEL_GAUGE" not in c[2]]
    problems = _check(models, "pico-ssd1306", doc)
    assert any("i2c0.sda (GP4 in boards.toml) is not wired" in p for p in problems)
    doc = _wiring("pico-tm1637")
    _conn(doc, "LEVER_R")[0]["MCU"][0] = 4       # LEVER_R's GND wire onto GP2
    problems = _check(models, "pico-tm1637", doc)
    assert any("GP2 is wired to LEVER_R.COM, a ground or supply pin" in p for p in problems)


def test_two_mcu_pins_on_one_net_are_found(models):
    doc = _wiring("pico-tm1637")
    doc["connections"].append([{"MCU": [4]}, {"W_LEVER_L": [2]}, {"BTN_START": [1]}])
    problems = _check(models, "pico-tm1637", doc)
    assert any("are wired together" in p for p in problems)


def test_the_running_side_leds_are_checked_like_any_other_pin(models):
    # every build wires its two LEDs, each to its boards.toml pin
    _b, ms = models
    for name, w in ms.items():
        want = hw.functions(w.profile)
        assert want["leds.left"][1] == want["leds.right"][1] == boardsmod.ROLE_OUT, name
    # an LED wire moved to another pin
    doc = _wiring("pico-tm1637")
    mcu = doc["connectors"]["MCU"]
    i = mcu["pins"].index(19)                # header pin 19 = GP14 = leds.left
    mcu["pins"][i], mcu["pinlabels"][i] = 22, "GP17"
    _conn(doc, "LED_L")[0]["MCU"][1] = 22
    problems = _check(models, "pico-tm1637", doc)
    assert any("leds.left is wired to GP17, boards.toml says GP14" in p for p in problems)
    # an LED not wired at all
    doc = _wiring("pico-ssd1306")
    doc["connections"] = [c for c in doc["connections"] if "LED_R" not in c[2]]
    problems = _check(models, "pico-ssd1306", doc)
    assert any("leds.right (GP16 in boards.toml) is not wired" in p for p in problems)
    # an LED on the same pin as a lever
    doc = _wiring("pico-tm1637")
    _conn(doc, "LED_R")[0]["MCU"][1] = 4         # LED_R's signal onto GP2 (levers.left)
    problems = _check(models, "pico-tm1637", doc)
    assert any("GP2 has two functions: leds.right, levers.left" in p for p in problems)
    # ESP32: an LED on an input-only pin
    doc = _wiring("esp32-tm1637")
    mcu = doc["connectors"]["MCU"]
    i = mcu["pins"].index("J2-12")               # GPIO14 = leds.right
    mcu["pins"][i], mcu["pinlabels"][i] = "J2-6", "GPIO35"
    _conn(doc, "LED_R")[0]["MCU"][1] = "J2-6"
    problems = _check(models, "esp32-tm1637", doc)
    assert any("leds.right (GPIO35): GPIO35 is input-only (GPIO34..GPIO39) and cannot drive "
               "an output" in p for p in problems)
    # the series resistor's value, as the divider's
    doc = _wiring("esp32-tm1637")
    doc["connectors"]["LED_L"]["notes"] = doc["connectors"]["LED_L"]["notes"].replace(
        "R5 330 ohm", "R5 33 ohm")
    problems = _check(models, "esp32-tm1637", doc)
    assert any("LED_L's series resistor is not R5 330 ohm" in p for p in problems)


def _gauge_mcu_wire(doc):
    """The fuel gauge's cable from the MCU: [GND, 3V3, SCL, SDA] header pins."""
    return next(c for c in doc["connections"] if "FUEL_GAUGE" in c[2] and "MCU" in c[0])


def _move_mcu_pin(doc, conn, i, pid, label):
    """Put wire i of a connection on MCU header pin pid (labelled label)."""
    mcu = doc["connectors"]["MCU"]
    if pid not in mcu["pins"]:
        mcu["pins"].append(pid)
        mcu["pinlabels"].append(label)
    conn[0]["MCU"][i] = pid


def test_the_fuel_gauge_is_wired_as_boards_toml_says(models):
    b, _ms = models
    prof = b.profiles["pico-ssd1306"]
    assert prof.config["fuel_gauge"] == {"type": "max17048", "i2c": 0, "addr": 0x36,
                                         "low_pct": 45}
    assert all(b.profiles[n].config["fuel_gauge"] is None
               for n in ("pico-tm1637", "esp32-tm1637"))
    doc = _wiring("pico-ssd1306")
    part = doc["connectors"]["FUEL_GAUGE"]
    assert "MAX17048" in part["type"] and "0x36" in part["subtype"]
    assert _check(models, "pico-ssd1306", doc) == []
    # on the OLEDs' bus pins (GP4 = header 6, GP5 = header 7), 3V3 (36) and GND
    assert _gauge_mcu_wire(doc)[0]["MCU"][1:] == [36, 7, 6]
    # the cell, before the power switch
    cell = next(c for c in doc["connections"] if "FUEL_GAUGE" in c[2] and "BATTERY" in c[0])
    assert cell[0]["BATTERY"] == ["+", "-"] and cell[2]["FUEL_GAUGE"] == ["CELL+", "CELL-"]
    assert "FUEL_GAUGE" not in _wiring("pico-tm1637")["connectors"]


def test_a_missing_fuel_gauge_is_found(models):
    doc = _wiring("pico-ssd1306")
    del doc["connectors"]["FUEL_GAUGE"]
    doc["connections"] = [c for c in doc["connections"] if "FUEL_GAUGE" not in c[2]]
    problems = _check(models, "pico-ssd1306", doc)
    # the OLEDs still have the bus pins: only the gauge's own check can tell
    assert problems == ["hardware/pico-ssd1306/wiring.yaml: FUEL_GAUGE is missing: "
                        "boards.toml has a max17048 fuel gauge on i2c0 (GP4, GP5)"]
    # the part drawn, but its bus wires left out
    doc = _wiring("pico-ssd1306")
    conn = _gauge_mcu_wire(doc)
    conn[0]["MCU"], conn[1]["W_FUEL_GAUGE"], conn[2]["FUEL_GAUGE"] = [28, 36], [1, 2], \
        ["GND", "VIN"]
    problems = _check(models, "pico-ssd1306", doc)
    assert any("FUEL_GAUGE.SDA is not wired to an MCU pin (boards.toml: i2c0.sda = GP4)"
               in p for p in problems)
    assert any("FUEL_GAUGE.SCL is not wired to an MCU pin (boards.toml: i2c0.scl = GP5)"
               in p for p in problems)


def test_a_fuel_gauge_on_other_pins_is_found(models):
    # its SDA on GP17 (header 22), not on the OLEDs' GP4
    doc = _wiring("pico-ssd1306")
    _move_mcu_pin(doc, _gauge_mcu_wire(doc), 3, 22, "GP17")
    problems = _check(models, "pico-ssd1306", doc)
    assert any("FUEL_GAUGE.SDA is wired to GP17, boards.toml says GP4 (i2c0.sda)" in p
               for p in problems)
    assert any("i2c0.sda is wired to GP17, boards.toml says GP4" in p for p in problems)
    # SDA and SCL swapped
    doc = _wiring("pico-ssd1306")
    mcu = _gauge_mcu_wire(doc)[0]["MCU"]
    mcu[2], mcu[3] = mcu[3], mcu[2]
    problems = _check(models, "pico-ssd1306", doc)
    assert any("GP4 has two functions: i2c0.scl, i2c0.sda" in p for p in problems)
    assert any("FUEL_GAUGE.SCL is wired to GP4, boards.toml says GP5 (i2c0.scl)" in p
               for p in problems)
    # VIN on VSYS (header 39) instead of 3V3
    doc = _wiring("pico-ssd1306")
    _gauge_mcu_wire(doc)[0]["MCU"][1] = 39
    problems = _check(models, "pico-ssd1306", doc)
    assert any("FUEL_GAUGE.VIN is not wired to the MCU's 3V3" in p for p in problems)
    # the cell side after the power switch: it would stop counting while the clock is off
    doc = _wiring("pico-ssd1306")
    cell = next(c for c in doc["connections"] if "FUEL_GAUGE" in c[2] and "BATTERY" in c[0])
    cell[0] = {"POWER": ["BAT+", "BAT-"]}
    problems = _check(models, "pico-ssd1306", doc)
    assert problems == ["hardware/pico-ssd1306/wiring.yaml: FUEL_GAUGE.CELL+ is not wired to "
                        "BATTERY.+ (the cell, before the power switch)"]
    # a gauge in the wiring of a build that has none in boards.toml
    doc = _wiring("pico-tm1637")
    doc["connectors"]["FUEL_GAUGE"] = _wiring("pico-ssd1306")["connectors"]["FUEL_GAUGE"]
    problems = _check(models, "pico-tm1637", doc)
    assert any("FUEL_GAUGE is wired, but boards.toml has no fuel_gauge" in p
               for p in problems)
    doc["connectors"]["MCU"]["pins"].append(6)               # header pin 6 = GP4
    doc["connectors"]["MCU"]["pinlabels"].append("GP4")
    doc["connections"].append([{"MCU": [6]}, {"W_GAUGE": [1]}, {"FUEL_GAUGE": ["SDA"]}])
    doc["cables"]["W_GAUGE"] = {"wirecount": 1}
    problems = _check(models, "pico-tm1637", doc)
    assert any("GP4 is wired to FUEL_GAUGE.SDA, which is no function of boards.toml" in p
               for p in problems)


def test_an_oled_on_other_pins_than_its_bus_is_found(models):
    # one part of a shared bus moved: the pin still has the bus's function, on two pins
    doc = _wiring("pico-ssd1306")
    _move_mcu_pin(doc, _conn(doc, "DISPLAY_R"), 3, 22, "GP17")
    problems = _check(models, "pico-ssd1306", doc)
    assert any("i2c0.sda is wired to GP17, boards.toml says GP4" in p for p in problems)


def test_the_led_resistor_gives_a_few_milliamps():
    # (3.3 V - Vf) / 330 ohm over a red LED's 1.8..2.2 V: 3 to 10 mA (visible at 10 m),
    # inside the RP2040's default 4 mA pad drive at the typical Vf
    assert hw.LED_R == 330
    currents = [hw.led_ma(vf) for vf in hw.LED_VF]
    assert currents == sorted(currents)         # low, typical, high cases
    assert 3 <= currents[0] and currents[-1] <= 10
    assert currents[1] == pytest.approx(3.94, abs=0.01) and currents[1] <= 4


def test_a_wrong_display_or_divider_is_found(models):
    doc = _wiring("pico-tm1637")
    doc["connectors"]["DISPLAY_L"]["type"] = "SSD1306 OLED"
    doc["connectors"]["POWER"]["notes"] = doc["connectors"]["POWER"]["notes"].replace(
        "r_bottom R2 = 100000", "r_bottom R2 = 47000")
    problems = _check(models, "pico-tm1637", doc)
    assert any("DISPLAY_L is 'SSD1306 OLED', boards.toml has a tm1637" in p for p in problems)
    assert any("divider is not r_top 100000 / r_bottom 100000" in p for p in problems)


def test_every_bom_parses_and_names_the_profiles_parts(models):
    b, ms = models
    for name, w in ms.items():
        prof = w.profile
        text = (ROOT / "hardware" / name / "bom.csv").read_text()
        assert hw.check_bom(prof, text) == []
        header = text.splitlines()[0].split(",")
        assert header == ["ref", "part", "quantity", "typical_part_number", "approx_price_eur"]
    prof = b.profiles["pico-ssd1306"]
    text = (ROOT / "hardware" / "pico-ssd1306" / "bom.csv").read_text()
    no_piezo = "\n".join(line for line in text.splitlines() if "piezo" not in line.lower())
    assert any("buzzer" in p for p in hw.check_bom(prof, no_piezo))
    tm = text.replace("SSD1306", "TM1637")
    assert any("2 ssd1306 display(s) expected" in p for p in hw.check_bom(prof, tm))
    no_leds = "\n".join(line for line in text.splitlines() if "running side" not in line)
    assert any("running-side LEDs" in p for p in hw.check_bom(prof, no_leds))
    no_r = "\n".join(line for line in text.splitlines() if "LED series" not in line)
    assert any("LED series resistors" in p for p in hw.check_bom(prof, no_r))
    # the fuel gauge: listed once for the build that has one, never for the others
    gauge = [line for line in text.splitlines() if line.startswith("FUEL_GAUGE,")]
    assert len(gauge) == 1 and "MAX17048" in gauge[0]
    no_gauge = "\n".join(line for line in text.splitlines() if line not in gauge)
    assert "hardware/pico-ssd1306/bom.csv: needs 1 max17048 fuel gauge (boards.toml " \
           "fuel_gauge)" in hw.check_bom(prof, no_gauge)
    tm_text = (ROOT / "hardware" / "pico-tm1637" / "bom.csv").read_text()
    assert "hardware/pico-tm1637/bom.csv: lists a fuel gauge, boards.toml has none" in \
        hw.check_bom(b.profiles["pico-tm1637"], tm_text + gauge[0] + "\n")
    assert hw.check_bom(prof, text.replace("approx_price_eur", "price"))


@pytest.fixture
def copy(tmp_path):
    shutil.copy(ROOT / "boards.toml", tmp_path / "boards.toml")
    shutil.copytree(ROOT / "hardware", tmp_path / "hardware")
    return tmp_path


def test_a_pin_changed_in_boards_toml_fails_until_hardware_is_regenerated(copy):
    toml = copy / "boards.toml"
    toml.write_text(toml.read_text().replace(
        "levers = { left = 2, right = 3 }                          # header pins 4 and 5",
        "levers = { left = 17, right = 3 }"))
    problems = hw.check_all(copy)
    assert "hardware/pico-tm1637/wiring.yaml: differs from what boards.toml generates " \
           "(make hardware)" in problems
    assert any("pico-tm1637/wiring.yaml: levers.left is wired to GP2, boards.toml says GP17"
               in p for p in problems)
    hw.generate(copy, out=open("/dev/null", "w"))
    problems = hw.check_all(copy)
    # regenerated, not re-rendered: the pictures are stale
    assert problems == ["hardware/pico-tm1637/wiring.yaml: not what was rendered last "
                        "(rendered.sha256): make hardware",
                        "hardware/pico-tm1637/netlist.txt: not what was rendered last "
                        "(rendered.sha256): make hardware"]


def test_a_fuel_gauge_taken_out_of_boards_toml_fails_until_regenerated(copy):
    toml = copy / "boards.toml"
    line = 'fuel_gauge = { type = "max17048", bus = "i2c0", low_pct = 45 }\n'
    assert line in toml.read_text()
    toml.write_text(toml.read_text().replace(line, ""))
    problems = hw.check_all(copy)
    for f in hw.GENERATED:
        assert "hardware/pico-ssd1306/%s: differs from what boards.toml generates " \
               "(make hardware)" % f in problems
    assert "hardware/pico-ssd1306/wiring.yaml: FUEL_GAUGE is wired, but boards.toml has " \
           "no fuel_gauge" in problems
    assert "hardware/pico-ssd1306/bom.csv: lists a fuel gauge, boards.toml has none" \
           in problems
    hw.generate(copy, out=open("/dev/null", "w"))
    assert "FUEL_GAUGE" not in (copy / "hardware" / "pico-ssd1306" / "wiring.yaml").read_text()
    assert all("not what was rendered last" in p for p in hw.check_all(copy))


def test_a_picture_not_rendered_from_the_current_yaml_is_found(copy):
    svg = copy / "hardware" / "esp32-tm1637" / "wiring.svg"
    svg.write_text(svg.read_text().replace("GPIO18", "GPIO19"))
    assert hw.check_all(copy) == ["hardware/esp32-tm1637/wiring.svg: not what was rendered "
                                  "last (rendered.sha256): make hardware"]
    (copy / "hardware" / "pico-old").mkdir()
    assert "hardware/pico-old: no such profile in boards.toml" in hw.check_all(copy)


def test_the_committed_schematics_are_what_the_drawing_code_makes(models):
    pytest.importorskip("schemdraw")
    _b, ms = models
    for name, w in ms.items():
        assert (ROOT / "hardware" / name / "schematic.svg").read_text() == hw.schematic_svg(w)


def test_battery_life_estimates(models):
    b, ms = models
    lives = {}
    for name, w in ms.items():
        prof = w.profile
        chem = prof.config["battery"]["chemistry"]
        lives[name] = hw.battery_life(prof, chem, b.chemistries[chem])
    # 3 x NiMH warned at 1.15 V a cell: ~8 % of the charge left on the assumed curve
    assert lives["pico-tm1637"]["cases"][1]["reserve_pct"] == pytest.approx(8.0, abs=0.1)
    for name, life in lives.items():
        for c in life["cases"]:
            assert 0 < c["after_low_h"] < c["full_h"]
            if name != "pico-ssd1306":
                # warned by voltage only: no such build gives FIDE's 10 h after the warning
                assert c["after_low_h"] < 10
                assert "fuel_gauge" not in life and "low_pct_for_10h" not in c
    # the fuel gauge build is warned at 45 % state of charge: 45 % of 2000 mAh is left,
    # no curve needed, and that gives FIDE's 10 h in every current case
    life = lives["pico-ssd1306"]
    assert life["fuel_gauge"]["low_pct"] == 45
    assert life["fuel_gauge"]["low_mv_reserve_pct"] == pytest.approx(8.3, abs=0.1)
    for c in life["cases"]:
        assert c["reserve_pct"] == 45
        assert c["after_low_h"] == pytest.approx(2000 * 0.45 / c["battery_ma"], rel=0.01)
        assert c["after_low_h"] >= 10
        assert c["low_pct_for_10h"] < 45
    assert [c["after_low_h"] for c in life["cases"]] == [19.3, 14.2, 11.2]
    readme = (ROOT / "hardware" / "pico-ssd1306" / "README.md").read_text()
    assert "warns at 45 % state of charge" in readme and "also warns at 3600 mV" in readme
    # the lit running-side LED is in the load: typical case = board + displays + LED
    typical = lives["pico-tm1637"]["cases"][1]
    assert typical["load_ma"] == pytest.approx(25 + 2 * 40 + hw.led_ma(2.0), abs=0.05)
    # the curve lookups invert each other
    for v in (1.15, 1.22, 1.3):
        assert hw.cell_v_at(hw.NIMH_CURVE, hw.soc_at(hw.NIMH_CURVE, v)) == pytest.approx(v)


def test_every_pin_the_mcu_rules_allow_has_a_header_position():
    # so that any pin boards.toml may choose can be drawn on the board's header
    roles = (boardsmod.ROLE_INPUT, boardsmod.ROLE_PWM, boardsmod.ROLE_ADC, boardsmod.ROLE_IO,
             boardsmod.ROLE_OUT)
    for mcu_name, mcu in boardsmod.MCUS.items():
        for gpio in range(48):
            if any(mcu.pin_problem(gpio, r) is None for r in roles):
                assert gpio in mcu.header, (mcu_name, gpio)
