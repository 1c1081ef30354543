"""schematic.svg: the circuit drawn with schemdraw."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chessclock.board import displays as displaysmod
from chessclock.board import profiles as boardsmod
from chessclock.hardware.model import GAUGE, GAUGE_PART, LED_PARTS, LED_R, i2c_bus, ohms

if TYPE_CHECKING:
    from chessclock.hardware.model import Wiring


def _bus_chips(cfg: dict[str, Any], bus_id: int) -> list[str]:
    """What is on I2C bus `bus_id`, as the schematic names it: the displays ("both SSD1306"
    for two of a kind), then the fuel gauge's chip."""
    kinds = [displaysmod.get(d["type"]).chip for d in cfg["displays"]
             if d.get("i2c") == bus_id]
    names = (["both " + kinds[0]] if len(kinds) == 2 and kinds[0] == kinds[1]
             else [" and ".join(kinds)] if kinds else [])
    gauge = cfg.get("fuel_gauge")
    if gauge and gauge["i2c"] == bus_id:
        names.append(GAUGE_PART[gauge["type"]][0])
    return names


def schematic_svg(w: "Wiring") -> str:
    import schemdraw
    import schemdraw.elements as elm
    schemdraw.use("svg")
    cfg = w.profile.config
    left, right, leds = _pin_lists(w)
    pins = [elm.IcPin(name=n, side="left", anchorname="L%d" % i) for i, (n, _t, _l)
            in enumerate(left)]
    pins += [elm.IcPin(name=n, side="right", anchorname="R%d" % i) for i, (n, _t)
             in enumerate(right)]
    n_side = max(len(left), len(right))
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=11, unit=2)
        ic = elm.Ic(pins=pins, size=(5, n_side * 1.2 + 1), pinspacing=1.2,
                    label=w.mcu.board_type + "\n(internal pull-ups\non inputs)")
        d += ic
        _draw_pins(d, ic, left, right)
        if cfg.get("fuel_gauge"):
            _schematic_gauge(d, w, ic)
        # the sub-circuits below, joined to the MCU by the pin names (net labels)
        x0 = ic.bbox.xmin - 4
        y = ic.bbox.ymin - 6
        _draw_buzzer(d, x0, y, right[0][0], w.mcu.vin)
        xd = x0 + 12
        _draw_sense(d, xd, y, right[1][0], cfg["battery"])
        _draw_leds(d, xd + 10, y, leds, w.gpio_label)
        _draw_power(d, x0, y - 6, w)
        svg = d.get_imagedata("svg")
    return svg.decode() if isinstance(svg, bytes) else svg


def _pin_lists(w: "Wiring") -> tuple[list[Any], list[Any], list[Any]]:
    """The MCU's pins as drawn: left [(pin, text, is a lever)], right [(pin, text)], and
    the running-side LEDs [(side, gpio)]."""
    cfg = w.profile.config
    lab = w.gpio_label
    left = [(lab(cfg["levers"][0]), "LEVER L", True), (lab(cfg["levers"][1]), "LEVER R", True)]
    left += [(lab(g), "BTN " + n.upper(), False)
             for g, n in zip(cfg["buttons"], boardsmod.BUTTONS, strict=True)]
    right = [(lab(cfg["buzzer"]["pin"]), "buzzer"), (lab(cfg["battery"]["pin"]), "battery")]
    for side, d in zip(boardsmod.SIDES, cfg["displays"], strict=True):
        kind = displaysmod.get(d["type"])
        right += [(lab(d[key]), "%s %s %s" % (kind.chip, side, module_pin))
                  for module_pin, key in kind.signals if not kind.on_i2c]
    for bus in cfg["i2c"]:
        on_bus = _bus_chips(cfg, bus["id"])
        text = ", ".join(on_bus)
        right += [(lab(bus["sda"]), "I2C%d SDA: %s" % (bus["id"], text)),
                  (lab(bus["scl"]), "I2C%d SCL: %s" % (bus["id"], text))]
    leds = list(zip(boardsmod.LEDS, cfg["leds"] or (), strict=False))
    right += [(lab(g), "running LED %s" % side) for side, g in leds]
    return left, right, leds


def _draw_pins(d: Any, ic: Any, left: list[Any], right: list[Any]) -> None:
    """Switches to ground on the left pins, net labels on the right ones."""
    import schemdraw.elements as elm
    for i, (_n, text, is_lever) in enumerate(left):
        a = getattr(ic, "L%d" % i)
        d += elm.Line().at(a).left().length(1.5)
        sw = elm.Switch() if is_lever else elm.Button()
        d += sw.left().label(text + (" (see-saw)" if is_lever else ""), loc="top",
                             fontsize=9)
        d += elm.Ground().right()
    for i, (_n, text) in enumerate(right):
        a = getattr(ic, "R%d" % i)
        d += elm.Line().at(a).right().length(1.5)
        d += elm.Dot(open=True).label(text, loc="right", fontsize=9)


def _draw_buzzer(d: Any, x0: float, y: float, pin: Any, vin: str) -> None:
    """R3 -> Q1 base; collector -> piezo -> VIN; R4 across the piezo."""
    import schemdraw.elements as elm
    d += elm.Line().at((x0, y)).right().length(2.5).label(pin + " (buzzer)",
                                                          loc="top", fontsize=10)
    d += elm.Resistor().right().label("R3 1k", fontsize=9)
    q = elm.BjtNpn(circle=True).anchor("base").label("Q1\n2N3904", loc="right",
                                                       fontsize=9)
    d += q
    d += elm.Ground().at(q.emitter)
    d += elm.Line().at(q.collector).up().length(0.5)
    top = d.here
    d += elm.RBox(w=1.2, h=0.6).up().label("PIEZO", loc="top", fontsize=9)
    spk_top = d.here
    d += elm.Vdd().label(vin)
    d += elm.Line().at(top).right().length(1.5)
    d += elm.Resistor().up().toy(spk_top).label("R4 1k", loc="bottom", fontsize=9)
    d += elm.Line().left().tox(q.collector)


def _draw_sense(d: Any, xd: float, y: float, pin: Any, bat: dict[str, Any]) -> None:
    """The battery sense: the divider from the switched battery to the ADC pin."""
    import schemdraw.elements as elm
    d += elm.Line().at((xd, y)).right().length(3).label(
        pin + " (battery, ADC)", loc="top", fontsize=10)
    node = d.here
    d += elm.Dot()
    d += elm.Resistor().up().label("R1 %s\nr_top" % ohms(bat["r_top"]), loc="bottom",
                                   fontsize=9)
    d += elm.Vdd().label("BAT+ (switched)")
    d += elm.Resistor().at(node).down().label("R2 %s\nr_bottom" % ohms(bat["r_bottom"]),
                                              loc="bottom", fontsize=9)
    d += elm.Ground()
    d += elm.Line().at(node).right().length(2)
    d += elm.Capacitor().down().label("C2 100n", loc="bottom", fontsize=9)
    d += elm.Ground()


def _draw_leds(d: Any, xl: float, y: float, leds: list[Any], lab: Callable[[int], str]) -> None:
    """The running-side LEDs: pin -> series resistor -> LED -> GND, one a side."""
    import schemdraw.elements as elm
    for i, (side, g) in enumerate(leds):
        _des, r_ref, d_ref = LED_PARTS[side]
        d += elm.Line().at((xl, y - 3 * i)).right().length(3).label(
            "%s (LED %s)" % (lab(g), side), loc="top", fontsize=10)
        d += elm.Resistor().right().label("%s %s" % (r_ref, ohms(LED_R)), fontsize=9)
        d += elm.LED().down().label("%s red" % d_ref, loc="bottom", fontsize=9)
        d += elm.Ground()


def _draw_power(d: Any, x0: float, y: float, w: "Wiring") -> None:
    """The battery, the switch, the Schottky into VIN (USB feeds VIN through the board's
    own), and the build's note."""
    import schemdraw.elements as elm
    p = w.profile
    gauge = p.config.get("fuel_gauge")
    vin = w.mcu.vin
    d += elm.Ground().at((x0, y))
    d += elm.Battery().at((x0, y)).right().label("BATTERY", loc="top", fontsize=9
                                                 ).reverse()
    if gauge:   # the gauge's CELL+ joins the cell before the switch
        d += elm.Line().right().length(1.5)
        d += elm.Dot().label("BAT+ (cell)", loc="top", fontsize=9)
    d += elm.Switch().right().label("SW_POWER", fontsize=9)
    d += elm.Line().right().length(1)
    d += elm.Dot().label("BAT+ (switched)", loc="top", fontsize=9)
    d += elm.Schottky().right().label("D1 1N5817", loc="bottom", fontsize=9)
    d += elm.Line().right().length(1)
    d += elm.Dot(open=True).label(vin + " (USB also feeds it)", loc="right", fontsize=9)
    text = ("%s: %s.\nBattery: %s. Displays from 3V3; levers and buttons close to GND."
            % (p.name, p.description, w.chem["description"]))
    if gauge:
        text += ("\nFuel gauge: on the cell before SW_POWER, a few uA while the clock is "
                 "off; the clock warns below %d %% state of charge, and at %d mV."
                 % (gauge["low_pct"], w.chem["low_mv"]))
    d += elm.Label().at((x0, y - 2)).label(text, halign="left", fontsize=10)


def _schematic_gauge(d: Any, w: "Wiring", ic: Any) -> None:
    """The fuel gauge: a labelled box right of the MCU, its pins to net labels (the bus
    pins by name, 3V3, GND, and the cell before the power switch)."""
    import schemdraw.elements as elm
    cfg = w.profile.config
    g = cfg["fuel_gauge"]
    bus = i2c_bus(cfg, g["i2c"])
    lab = w.gpio_label
    # bottom to top, as schemdraw numbers an Ic's pins
    left = [("GND", None), ("VIN", "3V3"),
            ("SCL", "%s (I2C%d SCL)" % (lab(bus["scl"]), bus["id"])),
            ("SDA", "%s (I2C%d SDA)" % (lab(bus["sda"]), bus["id"]))]
    right = [("CELL-", None), ("CELL+", "BAT+ (cell)")]
    pins = [elm.IcPin(name=n, side="left", anchorname="GL%d" % i)
            for i, (n, _t) in enumerate(left)]
    pins += [elm.IcPin(name=n, side="right", anchorname="GR%d" % i)
             for i, (n, _t) in enumerate(right)]
    box = elm.Ic(pins=pins, size=(6, len(left) * 1.2 + 1), pinspacing=1.2,
                 label="%s\n%s\nI2C%d 0x%02X" % (GAUGE, GAUGE_PART[g["type"]][0], bus["id"],
                                                 g["addr"]))
    d += box.at((ic.bbox.xmax + 12, ic.bbox.ymax - len(left) * 1.2 - 2))
    for side, pins_, move in (("GL", left, "left"), ("GR", right, "right")):
        for i, (_n, text) in enumerate(pins_):
            line = elm.Line().at(getattr(box, "%s%d" % (side, i))).length(1.5)
            d += line.left() if move == "left" else line.right()
            if text is None:
                d += elm.Ground()
            else:
                d += elm.Dot(open=True).label(text, loc=move, fontsize=9)
