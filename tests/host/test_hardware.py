"""hardware/ against boards.toml: wiring files, BOMs, rendered pictures (no graphviz here).

`make hardware` regenerates and renders; these tests only read. Each check is also shown to
fail on a broken copy, so a silent checker cannot pass them.
"""

import shutil
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

from chessclock import boards as boardsmod  # noqa: E402
from chessclock import hardware as hw  # noqa: E402

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
    b, _ms = models
    for name, prof in b.profiles.items():
        assert hw.check_wiring(prof, (ROOT / "hardware" / name / "wiring.yaml").read_text()) \
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
    b, _ms = models
    for name, prof in b.profiles.items():
        want = hw.functions(prof)
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
    b, _ms = models
    for name, prof in b.profiles.items():
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
    b, _ms = models
    lives = {}
    for name, prof in b.profiles.items():
        chem = prof.config["battery"]["chemistry"]
        lives[name] = hw.battery_life(prof, chem, b.chemistries[chem])
    # 3 x NiMH warned at 1.15 V a cell: ~8 % of the charge left on the assumed curve
    assert lives["pico-tm1637"]["cases"][1]["reserve_pct"] == pytest.approx(8.0, abs=0.1)
    for life in lives.values():
        for c in life["cases"]:
            assert 0 < c["after_low_h"] < c["full_h"]
            # with the thresholds in boards.toml no build gives FIDE's 10 h after the warning
            assert c["after_low_h"] < 10
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
    for mcu_name, board in hw.BOARDS.items():
        mcu = boardsmod.MCUS[mcu_name]
        for gpio in range(48):
            if any(mcu.pin_problem(gpio, r) is None for r in roles):
                assert gpio in board["header"], (mcu_name, gpio)
