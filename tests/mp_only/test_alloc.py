# No heap allocation on a press or a tick once a game runs (MicroPython only: CPython has
# no gc.mem_alloc). Deterministic byte counts, not timings; `make bench` reports the same.

import gc

from clockcore import engine as E
from clockcore.control import DELAY_BRONSTEIN, DELAY_SIMPLE, Control, SideControl, Stage


def allocated(fn):
    gc.collect()
    gc.disable()
    try:
        a0 = gc.mem_alloc()
        fn()
        return gc.mem_alloc() - a0
    finally:
        gc.enable()


def game(stages, **side):
    c = E.Clock(Control(SideControl(stages, **side)))
    c.start(0)
    return c


def play(c, t, n, step):
    i = 0
    while i < n:
        t += step
        c.tick(t - 3)
        c.press(c.turn, t)
        i += 1
    return t


def check_mode(c, step):
    t = play(c, 0, 50, step)  # warm-up: first stage passes, first period
    n = allocated(lambda: play(c, t, 1000, step))
    assert n == 0, "%d bytes allocated in 1000 presses and ticks" % n


def test_counter_detects_allocation():
    # The measure itself must see an allocation, or a 0 below would prove nothing.
    assert allocated(lambda: [1, 2, 3]) > 0


def test_no_allocation_fischer_with_stages():
    check_mode(game([Stage(10**8, moves=40, inc_ms=30000), Stage(10**8, inc_ms=30000)]), 1500)


def test_no_allocation_delays():
    check_mode(game([Stage(10**8, delay_ms=5000, delay_kind=DELAY_SIMPLE)]), 7000)
    check_mode(game([Stage(10**8, delay_ms=5000, delay_kind=DELAY_BRONSTEIN)]), 7000)


def test_no_allocation_in_byo_yomi():
    c = game([Stage(1000)], byo_periods=5, byo_ms=10000, byo_moves=2)
    check_mode(c, 4000)
    assert c.periods == [5, 5]


def test_no_allocation_when_flags_fall_without_freeze():
    c = E.Clock(Control(SideControl([Stage(60000, inc_ms=10)])), freeze=False)
    c.start(0)
    t = play(c, 0, 10, 100000)
    n = allocated(lambda: play(c, t, 1000, 1500))
    assert c.flag_at[0] >= 0 and c.flag_at[1] >= 0
    assert n == 0


def test_no_allocation_playing_on_after_flags_in_stages_with_moves():
    # freeze off: out of time each stage, the next stage's time on every 2nd press
    c = E.Clock(Control(SideControl([Stage(1000, moves=2)])), freeze=False)
    c.start(0)
    t = play(c, 0, 50, 1500)
    n = allocated(lambda: play(c, t, 1000, 1500))
    assert c.flag_at[0] >= 0 and c.stage_moves[0] < 2
    assert n == 0


def test_no_allocation_time_mode_flags_and_stages():
    c = E.Clock(Control(SideControl([Stage(1000, moves=40), Stage(1000, moves=3)],
                                    )), stage_on_flag=True, inc_at_turn_start=True)
    c.start(0)
    check_mode(c, 1700)


def test_no_allocation_in_a_play_off_up_to_and_at_its_move_limit():
    # the move-limit mode (br-playoff): presses before the limit and the press ending it
    c = E.Clock(Control(SideControl([Stage(10**8)])), move_limit=600)
    c.start(0)
    t = play(c, 0, 50, 1500)
    n = allocated(lambda: play(c, t, 1150, 1500))
    assert c.state == E.ENDED and c.moves == [600, 600]
    assert n == 0, "%d bytes allocated in a play-off" % n


def test_no_allocation_when_the_oled_shows_presses_and_seconds():
    # The SSD1306 build: a press (bars, digits) and the seconds, drawn and sent in halves as
    # the app does (draw, finish); warm first (the driver keeps the send buffers it used).
    from clockapp.displays.ssd1306 import SSD1306Display
    from clockapp.view import SideView

    class Bus:
        def writeto(self, addr, buf):
            pass

    d = SSD1306Display(Bus())
    v = SideView()
    times = (b"    2:58", b"    3:00", b"    2:59", b"    1:01", b"    0:59", b"    19.9")

    def show(n):
        i = 0
        while i < n:
            v.time[:] = times[i % 6]
            v.running = i % 4 < 2
            v.touch()
            d.draw(v)
            d.finish()
            i += 1

    show(100)
    show(100)   # also the step from the last state back to the first
    n = allocated(lambda: show(1000))
    assert n == 0, (n, len(d.oled._views))


def test_the_lever_interrupts_switch_allocates_nothing():
    # The SSD1306 build's switch from the lever interrupt (LEDs, both running bars), with
    # the heap locked as in a hard interrupt on a board: on a free bus at once, and on a
    # bus the loop holds, as that transfer ends (SharedI2C.release).
    import micropython
    from simutil import fresh_dir, until

    from boards.sim import SimBoard
    from clockapp.app import App
    from clockapp.board import BTN_START, LEFT, RIGHT
    from clockapp.displays.ssd1306 import SSD1306Display
    from drivers.sharedi2c import SharedI2C

    class Wire:
        def __init__(self):
            self.bars = 0

        def writeto(self, addr, buf):
            if buf[0] == 0x40 and len(buf) == 65:
                self.bars += 1

    wire = Wire()
    bus = SharedI2C(wire)
    board = SimBoard(fresh_dir())
    board.left = SSD1306Display(bus, 0x3C)
    board.right = SSD1306Display(bus, 0x3D)
    app = App(board)
    until(app, board, 1500)
    board.press_buttons(BTN_START, 2000000)
    until(app, board, 3000)
    assert app.ring.armed[LEFT] == 1    # White runs on the left

    def edge(lever, held):
        # the close as the board's interrupt delivers it; its release 40 ms later
        board.levers |= 1 << lever
        board.at(board.t + 40000, 0, lever, False)   # (boards/sim.py LEVER = 0)
        if held:
            bus.hold()
        micropython.heap_lock()
        try:
            app.ring.push(lever, board.ticks_us(), True)
            if held:
                bus.release()
        finally:
            micropython.heap_unlock()

    n = wire.bars
    edge(LEFT, False)
    assert wire.bars == n + 2 and board.running_led == RIGHT, (wire.bars, board.running_led)
    until(app, board, 3200)   # the loop takes the press: Black runs
    assert app.clock.turn == 1 and app.ring.armed[RIGHT] == 1
    n = wire.bars
    edge(RIGHT, True)
    assert wire.bars == n + 2 and board.running_led == LEFT


def _parked_game(parked, display="ssd1306", lock=False):
    """A 2-stage game (40 moves in 2 min, +1 s; then 1 min) on the SSD1306 or TM1637
    build: 90 presses, each a close and its release 40 ms later, 1.1-1.9 s apart. parked:
    every close comes while the loop is parked, with the heap locked as in a hard
    interrupt on a board, so the interrupt takes the press; else the loop does. The app."""
    import micropython
    from simutil import fresh_dir, until

    from boards.sim import SimBoard
    from clockapp.app import App
    from clockapp.board import BTN_START, LEFT, RIGHT

    sent = [0]

    class Wire:     # an I2C bus, or a TM1637's pin, that counts what goes out
        IN = 0
        OUT = 1

        def writeto(self, addr, buf):
            sent[0] += len(buf)

        def init(self, mode):
            pass

        def value(self, v=None):
            if v is None:
                return 0    # DIO low: the chip's acknowledgement
            sent[0] += 1

    wire = Wire()
    board = SimBoard(fresh_dir())
    if lock:
        # the heap locked by the app as on a board (boards/mcu.py); the simulator's board
        # does not, as tests that watch the app through hooks of their own allocate in them
        board.locks_heap = True
        board.heap_lock = micropython.heap_lock
        board.heap_unlock = micropython.heap_unlock
    if display == "ssd1306":
        from clockapp.displays.ssd1306 import SSD1306Display
        from drivers.sharedi2c import SharedI2C
        bus = SharedI2C(wire)
        board.left = SSD1306Display(bus, 0x3C)
        board.right = SSD1306Display(bus, 0x3D)
    else:
        from clockapp.displays.tm1637 import TM1637Display
        board.left = TM1637Display(wire, wire)
        board.right = TM1637Display(wire, wire)
    app = App(board)
    app.new_game("40/2m+1s, 1m")
    until(app, board, 1500)
    board.press_buttons(BTN_START, 2000000)
    until(app, board, 3000)
    t_ms = 3000
    for k in range(90):
        t_ms += 1100 + (k * 37) % 800
        until(app, board, t_ms)
        lever = LEFT if app.ring.armed[LEFT] else RIGHT
        assert app.ring.armed[lever], k
        board.levers |= 1 << lever
        board.at(board.t + 40000, 0, lever, False)   # its release (boards/sim.py LEVER = 0)
        turn, before = app.clock.turn, sent[0]
        if parked:
            app.parked = True
            micropython.heap_lock()
            try:
                app.ring.push(lever, board.ticks_us(), True)
            finally:
                micropython.heap_unlock()
                app.parked = False
            # taken before the loop runs again, and drawn (the SSD1306's running bars at
            # least; a TM1637's digits may happen to read the same after the increment)
            assert app.clock.turn == 1 - turn, k
            assert sent[0] > before or display == "tm1637", k
        else:
            app.ring.push(lever, board.ticks_us(), True)
    until(app, board, t_ms + 2000)
    return app


def _check_parked(display):
    app = _parked_game(True, display)
    assert app.parked_errors == 0 and app.parked_presses == 90, \
        (app.parked_errors, app.parked_presses)
    twin = _parked_game(False, display)   # the same presses through the loop: the same game
    assert twin.parked_presses == 0
    c, t = app.clock, twin.clock
    assert c.moves == t.moves and c.main == t.main and c.stage == t.stage, \
        (c.moves, t.moves, c.main, t.main)
    assert c.stage != [0, 0]   # the presses crossed into the second stage
    assert app.store.load_state() == twin.store.load_state()


def test_a_press_while_the_loop_is_parked_is_taken_in_the_interrupt_allocating_nothing():
    _check_parked("ssd1306")


def test_the_same_on_the_tm1637_build():
    _check_parked("tm1637")


def test_the_loop_takes_presses_with_the_heap_locked_as_the_interrupt_does():
    # A board that locks the heap (micropython.heap_lock): the loop's lever edges and
    # displays run locked while a lever is armed (App._locked), a
    # call's frame then on the C stack. Nothing there allocates: no MemoryError was caught,
    # and the game is the one the unlocked loop plays.
    for display in ("ssd1306", "tm1637"):
        app = _parked_game(False, display, lock=True)
        assert app.board.locks_heap and app.lockable, display   # no MemoryError locked
        twin = _parked_game(False, display)
        c, t = app.clock, twin.clock
        assert c.moves == t.moves and c.main == t.main and c.stage == t.stage, display
        assert app.store.load_state() == twin.store.load_state()
