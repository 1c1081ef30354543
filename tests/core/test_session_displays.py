# What the displays show of the session: the self-test lights everything on
# both builds; the TM1637 build shows, as far as four digits and a colon allow, what the
# SSD1306 build does: which side is White (Black's display says bLAc before the start),
# the delay counting down, the stage, the order of the flags. Runs on CPython and
# MicroPython.

from test_displays import draw, oled, shown, tm_display, view

from clockapp.view import FLAG_FIRST, FLAG_SECOND

B_L_A_C = [0x7C, 0x38, 0x77, 0x39]


def test_tm1637_selftest_lights_every_segment_and_dot():
    bus, d = tm_display()
    assert shown(bus, d, view(b"    4:59", test=True)) == [0xFF, 0xFF, 0xFF, 0xFF]
    assert shown(bus, d, view(b"    4:59")) == [0x00, 0x66 | 0x80, 0x6D, 0x6F]


def test_ssd1306_selftest_lights_every_pixel_then_draws_afresh():
    bus, d = oled()
    draw(bus, d, view(b"    4:59", white=True))
    before = bus.lit(0, 0, 128, 64)
    draw(bus, d, view(b"    4:59", white=True, test=True))
    assert bus.lit(0, 0, 128, 64) == 128 * 64
    draw(bus, d, view(b"    4:59", white=True))
    assert bus.lit(0, 0, 128, 64) == before


def test_tm1637_black_says_so_before_the_start_at_the_moment():
    bus, d = tm_display()
    assert shown(bus, d, view(b"    3:00", idle=True, moment=True)) == B_L_A_C
    # White's display keeps its time: the other one is Black's
    bus, d = tm_display()
    assert shown(bus, d, view(b"    3:00", idle=True, moment=True, white=True)) == [
        0x00, 0x4F | 0x80, 0x3F, 0x3F]
    # once the game started, the time
    bus, d = tm_display()
    assert shown(bus, d, view(b"    3:00", idle=False, moment=True)) == [
        0x00, 0x4F | 0x80, 0x3F, 0x3F]


def test_tm1637_flag_order_and_stage_at_the_moment():
    bus, d = tm_display()
    assert shown(bus, d, view(b"    0:00", idle=False, moment=True, flag=FLAG_FIRST)) == [
        0x71, 0x38, 0x00, 0x06]                               # FL 1
    assert shown(bus, d, view(b"    0:00", idle=False, moment=True, flag=FLAG_SECOND)) == [
        0x71, 0x38, 0x00, 0x5B]                               # FL 2
    assert shown(bus, d, view(b"   12:00", idle=False, moment=True, stage=2)) == [
        0x6D, 0x78, 0x00, 0x5B]                               # St 2
    assert shown(bus, d, view(b"   12:00", idle=False, moment=True, stage=12)) == [
        0x6D, 0x78, 0x06, 0x5B]                               # St12
    # a single-stage control (stage 0: hidden) keeps the time at the moment
    assert shown(bus, d, view(b"   12:00", idle=False, moment=True)) == [
        0x06, 0x5B | 0x80, 0x3F, 0x3F]


def test_tm1637_delay_counts_down_in_place_of_the_frozen_time():
    bus, d = tm_display(dots=True)
    assert shown(bus, d, view(b"   89:59", running=True, delay_ds=49)) == [
        0x5E, 0x00, 0x66 | 0x80, 0x6F]                        # d 4.9
    assert shown(bus, d, view(b"   89:59", running=True, delay_ds=150)) == [
        0x5E, 0x06, 0x6D | 0x80, 0x3F]                        # d15.0
    bus, d = tm_display(dots=False)
    assert shown(bus, d, view(b"   89:59", running=True, delay_ds=41)) == [
        0x5E, 0x00, 0x00, 0x6D]                               # d  5 (rounded up)
    assert shown(bus, d, view(b"   89:59", running=True)) == [
        0x7F, 0x6F, 0x6D, 0x6F]                               # delay used: the time again


def test_the_app_gives_the_moment_only_to_displays_that_ask_for_it():
    from simutil import fresh_dir, until

    from boards.sim import SimBoard
    from clockapp.app import App
    from clockapp.board import BTN_START
    board = SimBoard(fresh_dir())
    board.left.moments = True          # as a TM1637Display has
    app = App(board)
    until(app, board, 1500)
    assert not board.left.view.moment and board.left.view.idle
    until(app, board, 2500)            # 1 s in 3 while no clock runs
    assert board.left.view.moment
    renders = board.right.renders
    board.press_buttons(BTN_START, 3000000)
    until(app, board, 6000)
    v = board.left.view
    assert not v.moment and not v.idle  # a clock runs: never
    assert app.moments
    board2 = SimBoard(fresh_dir())
    app2 = App(board2)
    until(app2, board2, 3000)
    assert not app2.moments and not board2.left.view.moment
    assert renders > 0


def _oled_game(on_data=None):
    """The simulated board with two SSD1306s on recording buses, the app, and a 3+2 game
    started (START at 2 s: White runs). `order` gets every data write as (address,
    window) and every LED switch as ("leds", lever); on_data(addr, window) is called after
    each data write."""
    from simutil import fresh_dir, until
    from test_displays import FakeI2C

    from boards.sim import SimBoard
    from clockapp.app import App
    from clockapp.board import BTN_START
    from clockapp.displays import ssd1306 as S
    order = []

    class Bus(FakeI2C):
        def writeto(self, addr, buf):
            FakeI2C.writeto(self, addr, buf)
            if buf[0] == 0x40:
                order.append((addr, self.windows[-1]))
                if on_data is not None:
                    on_data(addr, self.windows[-1])

    board = SimBoard(fresh_dir())
    buses = (Bus(0x3C), Bus(0x3D))
    board.left = S.SSD1306Display(buses[0], 0x3C)
    board.right = S.SSD1306Display(buses[1], 0x3D)
    app = App(board)
    real_leds = board.set_running
    board.set_running = lambda lever: order.append(("leds", lever)) or real_leds(lever)
    app.ring.switch = board.set_running   # what the lever interrupt calls
    until(app, board, 1500)
    board.press_buttons(BTN_START, 2000000)
    return board, buses, app, order


def _panels_as_fresh_draws(board, buses, app):
    from test_displays import full_redraw
    for lever, d in ((0, board.left), (1, board.right)):
        assert not d.unsent
        assert buses[lever].ram == full_redraw(app.views[lever]).ram == d.oled.buffer


def test_the_app_sends_both_running_bars_with_its_leds_then_the_side_that_pressed():
    """On a press the SSD1306 build's app sends the running bar of both displays with the
    LEDs, before it works out either view (the time formatted, the view compared), then
    the side that pressed whole (its view, its digits), then the other. Each panel ends up
    as a full redraw of its view would leave it."""
    from simutil import until

    from clockapp.board import LEFT
    board, buses, app, order = _oled_game()
    real_time = app._time
    app._time = lambda v, c, lever, side: order.append(("time", lever)) or real_time(
        v, c, lever, side)
    until(app, board, 3000)
    assert app.lever_of_side(0) == LEFT and app.clock.state == 1   # White runs
    del order[:]
    board.press_lever(LEFT, 3500000, hold_us=40000)
    until(app, board, 3600)
    i = order.index(("leds", 1))   # White pressed: Black's lever lit
    bar = (32, 95, 0, 0)
    assert order[i + 1:i + 3] == [(0x3C, bar), (0x3D, bar)], order[i:i + 4]
    rest = order[i + 3:]
    # then White's view and its digits (3:00 + 2 s), before Black's view is worked out
    digits = [k for k, e in enumerate(rest) if e[0] == 0x3C]
    assert rest[0] == ("time", 0) and digits and digits[0] < rest.index(("time", 1)), rest
    _panels_as_fresh_draws(board, buses, app)


def _engine_presses_into(app, order, stamps=None):
    """order gets ("press", side) as the engine is asked to take a press (stamps: the
    instant it is asked to take it at)."""
    real = app.clock.press

    def press(side, now):
        order.append(("press", side))
        if stamps is not None:
            stamps.append(now)
        return real(side, now)
    app.clock.press = press


def test_a_press_the_engine_will_take_shows_its_switch_before_the_engine_takes_it():
    """The LEDs and both running bars go out before the engine's accounting of the press,
    its record and the rest (~3 ms of a Pico's M0+): the switch comes first. The engine
    then takes the press at its stamp, as ever; the panels end as fresh draws."""
    from simutil import until

    from clockapp.board import LEFT
    board, buses, app, order = _oled_game()
    stamps = []
    _engine_presses_into(app, order, stamps)
    until(app, board, 3000)
    assert app.lever_of_side(0) == LEFT and app.clock.state == 1   # White runs
    before = app.clock.main[0] + app.clock.last   # White's time and the instant it is of
    del order[:]
    board.press_lever(LEFT, 3500000, hold_us=40000)
    until(app, board, 3600)
    bar = (32, 95, 0, 0)
    i = order.index(("leds", 1))   # White pressed: Black's lever lit (after 3:00 -> 2:59)
    assert order[i:i + 4] == [("leds", 1), (0x3C, bar), (0x3D, bar), ("press", 0)], order
    assert stamps == [3500] and app.clock.turn == 1 and app.clock.moves[0] == 1
    assert app.clock.main[0] == before - 3500 + 2000   # charged to its stamp, +2 s
    _panels_as_fresh_draws(board, buses, app)


def test_a_press_the_engine_will_not_take_switches_nothing_first():
    """No switch before the engine where it would not switch: the waiting side's lever,
    a paused clock, and the press that ends a play-off (its move limit: the game ends,
    nothing runs, the LEDs go out)."""
    from simutil import until

    from clockapp.board import LEFT, RIGHT
    from clockcore import engine as E
    board, buses, app, order = _oled_game()
    _engine_presses_into(app, order)
    bar = (32, 95, 0, 0)

    def switch():   # the LEDs, the bars and the engine's presses (not the seconds' digits)
        return [e for e in order if e[0] in ("leds", "press") or e[1] == bar]

    until(app, board, 3000)
    del order[:]
    board.press_lever(RIGHT, 3500000, hold_us=40000)    # Black's lever while White runs
    until(app, board, 3700)
    assert switch() == [("press", 1)] and app.clock.turn == 0, order
    app.clock.pause(app.now)
    until(app, board, 3800)
    del order[:]
    board.press_lever(LEFT, 3900000, hold_us=40000)     # White's, the clock paused
    until(app, board, 4000)
    assert switch() == [("press", 0)] and app.clock.state == E.PAUSED, order
    app.clock.resume(app.now)
    app.clock.move_limit = 1     # a play-off of one move each
    until(app, board, 4200)
    board.press_lever(LEFT, 4300000, hold_us=40000)     # White's only move: Black runs
    until(app, board, 4400)
    assert app.clock.turn == 1 and app.led_lever == RIGHT
    del order[:]
    board.press_lever(RIGHT, 4500000, hold_us=40000)    # Black's: the play-off is over
    until(app, board, 4600)
    assert app.clock.state == E.ENDED and app.led_lever == -1
    # the engine first; then the LEDs out and Black's bar off (White's was never lit)
    assert switch() == [("press", 1), ("leds", -1), (0x3D, bar)], order
    _panels_as_fresh_draws(board, buses, app)


def test_a_press_during_a_running_seconds_digits_sends_the_bars_before_the_rest():
    """White's clock runs from 3:00; its display goes to 2:59, three digits (~9 ms of I2C
    on a Pico). White presses while the first of them is on the bus (the press's edge
    comes in from the interrupt). The other two wait: the press's LEDs and both bars go
    out next, then White's time with its increment (3:01), each waiting digit once, then
    Black's. Each panel ends as a full redraw of its view would leave it."""
    from simutil import until

    from clockapp.board import LEFT
    armed = []

    def press_during_a_digit(addr, window):
        if armed and addr == 0x3C and window[2] >= 2:   # a digit of White's display
            del armed[:]
            board.press_lever(LEFT, board.t, hold_us=40000)
            board.advance_to(board.t)   # its interrupt, now

    board, buses, app, order = _oled_game(press_during_a_digit)
    until(app, board, 2100)
    assert app.lever_of_side(0) == LEFT and app.clock.state == 1   # White runs
    assert bytes(app.views[LEFT].time) == b"    3:00"
    cells = bytes(app.displays[LEFT].cell_x)

    def cell(e):   # the time's character a digit's window is in (-1: not a digit)
        if e[0] != 0x3C or e[1][2] < 2:
            return -1
        return [i for i in range(8) if cells[i] <= e[1][0] <= cells[i] + 23][0]

    del order[:]
    armed.append(1)
    until(app, board, 3300)
    assert not armed, "White's display drew no digit"
    bar = (32, 95, 0, 0)
    first = cell(order[0])
    assert first >= 0, order                                 # a digit of 3:00 -> 2:59
    assert order[1] == ("leds", 1), order                    # White pressed: Black's lit
    i = order.index((0x3C, bar))
    # the rest of that digit's rectangles (a digit goes out whole), then both bars
    assert [cell(e) for e in order[2:i]] == [first] * (i - 2), order[:i]
    assert order[i:i + 2] == [(0x3C, bar), (0x3D, bar)], order[:i + 4]
    assert app.clock.main[0] > 180000                        # 2:59.x + 2 s
    assert bytes(app.views[LEFT].time) == b"    3:01"
    after = [cell(e) for e in order[i + 2:] if cell(e) >= 0]
    runs = [c for k, c in enumerate(after) if k == 0 or after[k - 1] != c]
    assert len(runs) == len(set(runs)) <= 2, order           # each waiting cell once
    _panels_as_fresh_draws(board, buses, app)


# ---- the control before the first move (seed item "Setting complaints": RAP 3, ACT 4) ---
I_N = [0x30, 0x54]     # "In"


def test_the_control_line_of_each_kind_of_control():
    from clockapp.timefmt import control_line
    from clockcore import presets
    from clockcore.control import (
        DELAY_BRONSTEIN,
        MODE_HOURGLASS,
        MODE_UPCOUNT,
        SideControl,
        Stage,
    )

    def line(spec, black=False):
        c = presets.resolve(spec)[0]
        side = c.black if black else c.white
        return control_line(side, side.stages)

    assert line("fide-blitz") == b"3M+2S"
    assert line("fide-classical") == b"40/90M 30M +30S"     # one increment for both stages
    assert line("armageddon") == b"60/5M +2S" and line("armageddon", True) == b"60/4M +2S"
    assert line("us-g90-d5") == b"90M D5S"
    assert line("fce-six-hour") == b"40/2H 20/1H"
    assert line("fide-5min-1990") == b"5M"

    def one(*stages, **side):
        sc = SideControl(list(stages), **side)
        return control_line(sc, sc.stages)

    assert one(Stage(150000, inc_ms=1500)) == b"2M30S+1.5S"
    assert one(Stage(45000, delay_ms=3000, delay_kind=DELAY_BRONSTEIN)) == b"45S B3S"
    assert one(Stage(3600000), byo_periods=5, byo_ms=30000) == b"1H BY5X30S"
    assert one(Stage(600000, moves=20, inc_ms=5000), Stage(300000, inc_ms=0)) == \
        b"20/10M+5S 5M"                                     # increments differ: per stage
    assert one(Stage(300000), mode=MODE_HOURGLASS) == b"HG 5M"
    assert one(Stage(0), mode=MODE_UPCOUNT) == b"UP 0S"


def test_tm1637_before_the_start_shows_the_increment_in_turn():
    bus, d = tm_display()
    # Black's display: bLAc at one moment, the increment at the next (every 3 s)
    assert shown(bus, d, view(b"    3:00", idle=True, moment=True, inc_ms=2000)) == B_L_A_C
    assert shown(bus, d, view(b"    3:00", idle=True, moment=True, inc_ms=2000, cycle=1)) == \
        I_N + [0x00, 0x5B]                                  # In 2
    # White's: the increment at every moment (no pairing: nothing else to show)
    for cycle in (0, 1):
        bus, d = tm_display()
        assert shown(bus, d, view(b"    3:00", idle=True, moment=True, white=True,
                                  inc_ms=30000, cycle=cycle)) == I_N + [0x4F, 0x3F]  # In30
    # White's with a pairing: its board number, then the increment
    assert shown(bus, d, view(b"    3:00", idle=True, moment=True, white=True,
                              inc_ms=0, pair=(12, b"A", b"B"))) == [0x7C, 0x5E, 0x06, 0x5B]
    assert shown(bus, d, view(b"    3:00", idle=True, moment=True, white=True,
                              inc_ms=0, cycle=1, pair=(12, b"A", b"B"))) == I_N + [0, 0x3F]
    # delays: simple "d  5", Bronstein "br 5"
    assert shown(bus, d, view(b"   90:00", idle=True, moment=True, white=True,
                              inc_ms=5000, inc_kind=1)) == [0x5E, 0x00, 0x00, 0x6D]
    assert shown(bus, d, view(b"   90:00", idle=True, moment=True, white=True,
                              inc_ms=5000, inc_kind=2)) == [0x7C, 0x50, 0x00, 0x6D]
    # once the game started: never
    assert shown(bus, d, view(b"    3:00", idle=False, moment=True, white=True,
                              inc_ms=2000, cycle=1)) == [0x00, 0x4F | 0x80, 0x3F, 0x3F]


def test_ssd1306_before_the_start_shows_the_control_on_the_status_line():
    from test_displays import read_text
    bus, d = oled()
    draw(bus, d, view(b"   90:00", idle=True, white=True, stage=1,
                      ctl=b"40/90M 30M +30S"))
    assert read_text(bus, 0, 8, 15) == b"40/90M 30M +30S"
    # with a pairing: in turn the board and the control; the names stay below
    draw(bus, d, view(b"   90:00", idle=True, white=True, stage=1, ctl=b"40/90M 30M +30S",
                      pair=(12, b"ANNA", b"BOB")))
    assert read_text(bus, 0, 8, 15) == b"BOARD 12       "
    assert read_text(bus, 0, 56, 10) == b"WHITE ANNA"
    draw(bus, d, view(b"   90:00", idle=True, white=True, stage=1, ctl=b"40/90M 30M +30S",
                      pair=(12, b"ANNA", b"BOB"), cycle=1))
    assert read_text(bus, 0, 8, 15) == b"40/90M 30M +30S"
    # the game started: the status fields again
    draw(bus, d, view(b"   89:59", idle=False, running=True, white=True, stage=1,
                      ctl=b"40/90M 30M +30S"))
    assert read_text(bus, 0, 8, 15) == b"S1             "


def test_the_app_shows_the_control_before_the_first_move_on_both_builds():
    from simutil import until
    from test_displays import read_text
    board, buses, app, order = _oled_game()     # 3+2, START at 2 s: not yet
    assert app.clock.state == 0
    assert read_text(buses[0], 0, 8, 5) == b"3M+2S" == read_text(buses[1], 0, 8, 5)
    # each side its own control (Armageddon: 5 min against 4)
    app2_board, app2 = _setup_board("armageddon")
    assert [v.ctl for v in app2.views] == [b"60/5M +2S", b"60/4M +2S"]
    until(app, board, 3000)                     # started: gone
    assert read_text(buses[0], 0, 8, 5) == b"     "
    # a new control shows at once, before its start
    app.clock.end(app.now)
    app.new_game("fide-classical")
    until(app, board, app.now + 100)
    assert read_text(buses[0], 0, 8, 15) == b"40/90M 30M +30S"
    assert read_text(buses[1], 0, 8, 15) == b"40/90M 30M +30S"


def _setup_board(spec):
    from simutil import fresh_dir, until

    from boards.sim import SimBoard
    from clockapp.app import App
    board = SimBoard(fresh_dir())
    app = App(board)
    app.new_game(spec)
    until(app, board, 500)
    return board, app


# ---- the running bars from the lever interrupt (both panels on one SharedI2C) ------------

def _oled_shared_game(on_write=None, fail_bar=None):
    """As _oled_game, with the board's wiring: both SSD1306s on one bus behind a SharedI2C,
    so the app sends the running bars from the lever interrupt. on_write(addr, buf) runs
    inside each write, while the bus is the loop's (the interrupt can come then);
    fail_bar: a list whose first item (an address) makes that panel's next bar window
    raise OSError."""
    from simutil import fresh_dir, until
    from test_displays import FakeI2C

    from boards.sim import SimBoard
    from clockapp.app import App
    from clockapp.board import BTN_START
    from clockapp.displays import ssd1306 as S
    from drivers.sharedi2c import SharedI2C
    order = []
    panels = {0x3C: FakeI2C(0x3C), 0x3D: FakeI2C(0x3D)}

    class Wire:   # the one I2C bus both panels are on
        def writeto(self, addr, buf):
            if fail_bar and fail_bar[0] == addr and bytes(buf[:3]) == b"\x00\x21\x20":
                del fail_bar[:]
                raise OSError(5)
            p = panels[addr]
            p.writeto(addr, buf)
            if buf[0] == 0x40:
                order.append((addr, p.windows[-1]))
            if on_write is not None:
                on_write(addr, buf)

    board = SimBoard(fresh_dir())
    bus = SharedI2C(Wire())
    board.left = S.SSD1306Display(bus, 0x3C)
    board.right = S.SSD1306Display(bus, 0x3D)
    real_leds = board.set_running
    board.set_running = lambda lever: order.append(("leds", lever)) or real_leds(lever)
    app = App(board)
    assert app.irq_bars == (True, True)
    until(app, board, 1500)
    board.press_buttons(BTN_START, 2000000)
    return board, (panels[0x3C], panels[0x3D]), app, order


def test_the_lever_interrupt_sends_both_running_bars_while_the_loop_is_held():
    """White presses while no loop pass runs (a collection holds the loop ~25 ms on the
    Pico): the interrupt lights Black's LED and puts both running bars on the glass by
    itself. The loop then takes the press and sends no bar again."""
    from simutil import until

    from clockapp.board import LEFT
    board, panels, app, order = _oled_shared_game()
    until(app, board, 3000)
    assert app.lever_of_side(0) == LEFT and app.clock.state == 1   # White runs
    assert panels[0].lit(32, 0, 64, 7) == 64 * 7 and panels[1].lit(32, 0, 64, 7) == 0
    del order[:]
    board.press_lever(LEFT, 3500000, hold_us=40000)
    board.advance_to(3500100)              # the interrupt has run, the loop has not
    bar = (32, 95, 0, 0)
    assert order == [("leds", 1), (0x3C, bar), (0x3D, bar)], order
    assert panels[0].lit(32, 0, 64, 7) == 0 and panels[1].lit(32, 0, 64, 7) == 64 * 7
    assert app.clock.turn == 0 and app.clock.moves[0] == 0   # the engine has not seen it
    until(app, board, 3600)
    assert app.clock.turn == 1 and app.clock.moves[0] == 1
    assert [e for e in order if e[1] == bar or e[0] == "leds"] == order[:3], order
    _panels_as_fresh_draws(board, panels, app)


def test_a_bar_waits_for_the_transfer_in_progress_and_never_cuts_into_it():
    """White presses while White's display sends a digit of its running second, between
    the digit's window command and its data: the LEDs switch at once, the bars go out as
    that digit's data ends,
    not in its window (its columns would get the bar's bytes); each panel ends as a full
    redraw of its view would leave it."""
    from simutil import until

    from clockapp.board import LEFT
    armed = []
    board = None
    seen = []

    def press_in_a_window(addr, buf):
        # a window command of a digit (within pages 2..6) on White's display
        if armed and addr == 0x3C and buf[0] == 0 and 0x22 in bytes(buf) \
                and 2 <= bytes(buf)[-2] <= bytes(buf)[-1] <= 6:
            del armed[:]
            seen.append(len(order))
            board.press_lever(LEFT, board.t, hold_us=40000)
            board.advance_to(board.t)   # its interrupt, now: between window and data

    board, panels, app, order = _oled_shared_game(press_in_a_window)
    until(app, board, 2100)
    assert bytes(app.views[LEFT].time) == b"    3:00"
    del order[:]
    armed.append(1)
    until(app, board, 3300)
    assert seen == [0], "White's display drew no digit"
    bar = (32, 95, 0, 0)
    assert order[0] == ("leds", 1), order           # the LEDs at once (no bus)
    assert order[1][0] == 0x3C and order[1][1][2] >= 2, order     # the digit's data
    assert order[2:4] == [(0x3C, bar), (0x3D, bar)], order[:6]     # then both bars
    assert bytes(app.views[LEFT].time) == b"    3:01"
    _panels_as_fresh_draws(board, panels, app)


def test_a_bus_error_in_the_interrupt_leaves_the_bar_to_the_loop():
    """White's panel fails its bar's window in the interrupt: nothing is raised out of the
    interrupt (MicroPython would disable a handler that raises), Black's bar goes out, and
    the loop's pass sends White's bar; the press is taken."""
    from simutil import until

    from clockapp.board import LEFT
    fail = []
    board, panels, app, order = _oled_shared_game(fail_bar=fail)
    until(app, board, 3000)
    del order[:]
    fail.append(0x3C)
    board.press_lever(LEFT, 3500000, hold_us=40000)
    board.advance_to(3500100)
    bar = (32, 95, 0, 0)
    assert order == [("leds", 1), (0x3D, bar)], order
    until(app, board, 3600)
    assert (0x3C, bar) in order and app.clock.moves[0] == 1
    _panels_as_fresh_draws(board, panels, app)
