# The whole firmware app on the simulator board: levers, menus, displays, storage and
# power cuts. Runs on CPython and on the MicroPython unix port.

import os

from simutil import boot, fresh_dir, text, until

from boards.sim import PowerCut, SimBoard
from clockapp import app as A
from clockapp.board import BTN_MENU, BTN_MINUS, BTN_PLUS, BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import events as EV


def start(board, app, t_ms):
    board.press_buttons(BTN_START, t_ms * 1000)
    until(app, board, t_ms + 200)
    assert app.clock.state == E.RUNNING


def test_boots_set_up_with_the_default_control_on_both_displays():
    board, app = boot()
    assert app.clock.state == E.IDLE
    assert text(board.left) == "3:00" and text(board.right) == "3:00"
    assert board.left.view.white and not board.right.view.white


def test_nothing_is_drawn_before_the_clock_takes_its_levers():
    """A time on the displays means a press is taken: by the first draw the lever
    interrupts are attached and the boot is on flash (the game set up, its log written).
    On the RP2040 the time showed ~250 ms before the first loop pass, and a start press
    then was lost (tests/rp2040/test_board_host.py)."""
    root = fresh_dir()
    board = SimBoard(root)
    seen = []
    for d in board.displays():
        def render(view, d=d, orig=d.render):
            try:
                logged = os.stat(root + "log.bin")[6] > 0
            except OSError:
                logged = False
            seen.append((board.on_lever is not None, logged))
            orig(view)
        d.render = render
    A.App(board)
    assert seen and seen[0] == (True, True), seen


def started_at(app):
    return [r[2] for r in read_log(app) if r[0] == E.EV_START][0]


def test_press_is_charged_at_the_lever_instant_and_the_display_switches():
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 5000321)  # White's lever, in the middle of a loop pass
    until(app, board, 5100)
    c = app.clock
    assert c.turn == E.BLACK and c.moves == [1, 0]
    # fide-blitz 3+2: White used 5000 ms (the stamp, floored to the ms) minus the start
    assert c.main[E.WHITE] == 180000 - (5000 - started_at(app)) + 2000
    assert board.right.view.running and not board.left.view.running
    # the display showed the switch within one loop pass of the lever closing
    assert board.right.drawn_at - 5000321 <= 1000


def test_the_side_that_pressed_is_drawn_first():
    # Its time with the increment is what the player who pressed looks at; the other
    # display (whose clock now runs) follows in the same pass.
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(RIGHT, 5000321)   # Black's lever while White runs: ignored, no pass
    board.press_lever(LEFT, 6000321)    # White presses
    until(app, board, 6002)             # the pass that takes it
    assert app.clock.turn == E.BLACK
    assert board.left.drawn_at == board.right.drawn_at       # one pass
    assert board.left.order < board.right.order
    board.press_lever(RIGHT, 7000321)   # Black presses
    until(app, board, 7002)
    assert app.clock.turn == E.WHITE
    assert board.left.drawn_at == board.right.drawn_at
    assert board.right.order < board.left.order


def test_bounce_train_makes_one_press_at_the_first_edge():
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 3000000, bounce=(400, 900, 2100, 3000, 4500))
    until(app, board, 3500)
    c = app.clock
    assert c.moves == [1, 0] and c.turn == E.BLACK
    assert c.main[E.WHITE] == 180000 - (3000 - started_at(app)) + 2000
    assert c.main[E.BLACK] == 180000 - (3500 - 3000) + 1  # Black runs from the first edge


def slow_flash_game(rp2040):
    # A 60 ms flash operation (a sector erase) after each press; Black presses 40 ms
    # after White, while the write that followed White's press is still going on.
    board, app = boot(rp2040_flash=rp2040)
    board.fs.close_us = 60000
    start(board, app, 1000)
    board.press_lever(LEFT, 4000000, hold_us=20000)
    board.press_lever(RIGHT, 4040000, hold_us=20000)
    until(app, board, 4500)
    assert app.clock.moves == [1, 1]
    return 180000 + 2000 - app.clock.main[E.BLACK]  # what Black was charged


def test_a_lever_during_a_flash_write_keeps_its_exact_instant():
    # ESP32-like: the interrupt runs during the write and stamps the edge exactly.
    assert slow_flash_game(False) == 40


def test_rp2040_flash_delays_an_edge_by_at_most_the_write():
    # RP2040: interrupts wait for the flash operation; the stamp is late by at most its
    # length (docs/FIRMWARE.md says why the schedule keeps this rare).
    used = slow_flash_game(True)
    assert 40 < used <= 40 + 60


def test_a_press_inside_a_flash_write_is_shown_before_the_next_write():
    # RP2040, 45 ms a write (a sector erase). White's press makes two writes (its log
    # record, then the game state); Black presses 10 ms into the first. The loop writes
    # once a pass and not while an edge waits: Black's press is on the displays when the
    # write it fell in ends, not after the state save too.
    board, app = boot(rp2040_flash=True)
    board.fs.close_us = 45000
    start(board, app, 1000)
    until(app, board, 3000)                  # the start's writes are done
    board.press_lever(LEFT, 4000000, hold_us=5000)
    board.press_lever(RIGHT, 4010000, hold_us=20000)
    until(app, board, 4000 + 45 + 3)         # one write and two passes after White's press
    assert app.clock.moves == [1, 1]
    assert board.left.view.running and not board.right.view.running
    until(app, board, 4500)
    assert app.store.load_state() is not None and not app.dirty


def test_an_edge_while_the_state_is_made_puts_its_save_after_the_press():
    """The state is made (~2 ms of a Pico's M0+) and Black's lever closes meanwhile: the
    save waits (the journal's Python and its page program would come before Black's
    switch). The next pass takes Black's press and shows it; the state is saved after
    it, with both moves."""
    board, app = boot()
    start(board, app, 1000)
    until(app, board, 2000)
    saves, shown = [], []
    real_save = app.store.save_state
    app.store.save_state = lambda payload: saves.append(
        (board.t, app.clock.moves[E.BLACK], board.right.view.running)) or real_save(payload)
    real_meta = app.game_meta
    armed = []

    def game_meta():   # called while the state is made
        if armed:
            del armed[:]
            board.press_lever(RIGHT, board.t + 10, hold_us=40000)
            board.advance_to(board.t + 20)   # its interrupt, in the middle of the save
            shown.append(board.t)
        return real_meta()
    app.game_meta = game_meta
    board.press_lever(LEFT, 2500000, hold_us=1000)     # White's press: a save follows
    until(app, board, 2501)
    assert app.clock.turn == E.BLACK and app.dirty
    armed.append(1)
    until(app, board, 2600)
    assert not armed and shown, "no state save came"
    assert app.clock.moves == [1, 1] and board.left.view.running
    assert saves and saves[0][1] == 1, saves    # the first save after the edge: both moves
    assert saves[0][0] > shown[0]
    assert not app.dirty and app.store.load_state() is not None


def test_a_release_and_the_next_press_latched_in_one_flash_write_make_a_press():
    # RP2040: Black taps (30 ms) at 4 s; its release and White's press 40 ms later both
    # fall inside the 45 ms write after Black's press. When the interrupts come back the
    # GPIO interrupt serves the pins in number order: White's close (left, GP2) before
    # Black's release (right, GP3). That once read as both levers down, and the press
    # was lost (bench/rp2040_bench.py's "not switched" presses).
    board, app = boot(rp2040_flash=True)
    board.fs.close_us = 45000
    start(board, app, 1000)
    board.press_lever(LEFT, 2000000, hold_us=30000)
    until(app, board, 3000)
    board.press_lever(RIGHT, 4000000, hold_us=30000)
    board.press_lever(LEFT, 4040000, hold_us=30000)
    until(app, board, 4500)
    assert app.clock.moves == [2, 1]
    assert board.right.view.running
    assert EV.EV_LEVER_BOTH not in [r[0] for r in read_log(app)]


def test_a_tap_inside_a_flash_write_leaves_its_lever_open_for_the_next_press():
    # White's whole tap (30 ms) falls inside the 45 ms write after Black's press: both
    # its edges come at one stamp when the interrupts are back. Black presses 5 ms
    # later, inside the next write. The tap's lever must be open by then, or Black's press
    # reads as both levers and is lost.
    board, app = boot(rp2040_flash=True)
    board.fs.close_us = 45000
    start(board, app, 1000)
    board.press_lever(LEFT, 2000000, hold_us=30000)
    until(app, board, 3000)
    board.press_lever(RIGHT, 4000000, hold_us=30000)
    board.press_lever(LEFT, 4005000, hold_us=30000)
    board.press_lever(RIGHT, 4051000, hold_us=30000)
    until(app, board, 4500)
    assert app.clock.moves == [2, 2]
    assert EV.EV_LEVER_BOTH not in [r[0] for r in read_log(app)]


def test_a_release_taken_for_bounce_after_a_late_close_does_not_make_both_levers():
    # 10 ms writes. Black's close falls inside the write after White's press and is
    # stamped when it ends; Black's real release 10 ms after its close is stamped at the end
    # of the next write, within 15 ms of that late stamp: taken for bounce, Black's lever
    # stayed "held". White's press 7 ms after that release then read as both levers and was
    # lost.
    board, app = boot(rp2040_flash=True)
    board.fs.close_us = 10000
    start(board, app, 1000)
    until(app, board, 3000)
    board.press_lever(LEFT, 4000000, hold_us=5000)
    board.press_lever(RIGHT, 4008000, hold_us=10000)
    board.press_lever(LEFT, 4025000, hold_us=30000)
    until(app, board, 4500)
    assert app.clock.moves == [2, 1]
    assert EV.EV_LEVER_BOTH not in [r[0] for r in read_log(app)]


def test_a_lever_held_while_the_other_closes_is_still_both_levers():
    board, app = boot(rp2040_flash=True)
    board.fs.close_us = 45000
    start(board, app, 1000)
    board.press_lever(LEFT, 2000000, hold_us=30000)
    until(app, board, 3000)
    board.press_lever(RIGHT, 4000000, hold_us=300000)   # Black keeps the lever down
    board.press_lever(LEFT, 4040000, hold_us=30000)     # White closes meanwhile
    until(app, board, 4500)
    assert app.clock.moves == [1, 1]
    assert EV.EV_LEVER_BOTH in [r[0] for r in read_log(app)]


def test_the_press_record_is_on_flash_when_its_pass_ends():
    # Durability: the pass that takes a press shows it, then appends its log record;
    # the game state follows in the next pass.
    board, app = boot()
    start(board, app, 1000)
    until(app, board, 3000)
    board.press_lever(LEFT, 4000000)
    until(app, board, 4001)                  # the pass at 4000 ms took it
    presses = [r for r in read_log(app) if r[0] == E.EV_PRESS]
    assert [r[2] for r in presses] == [4000]
    assert app.dirty                         # the state's turn is the next pass
    until(app, board, 4010)
    assert not app.dirty


def test_both_levers_and_levers_during_pause_change_nothing_and_are_logged():
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 2000000, hold_us=500000)
    board.press_lever(RIGHT, 2200000, hold_us=100000)  # while White's is still held
    until(app, board, 3000)
    assert app.clock.moves == [1, 0] and app.clock.turn == E.BLACK
    board.press_buttons(BTN_START, 4000000)            # pause
    until(app, board, 4200)
    assert app.clock.state == E.PAUSED
    board.press_lever(RIGHT, 5000000)
    until(app, board, 5200)
    assert app.clock.moves == [1, 0]
    events = [r[0] for r in read_log(app)]
    assert EV.EV_LEVER_BOTH in events
    assert E.EV_IGNORED in events


def read_log(app):
    """(event, side, t_ms, arg, white_ms, black_ms) of each record (clockcore.eventlog)."""
    from clockcore.logread import Reader
    r = Reader()
    return [r.decode(rec).tuple() for rec in app.store.read_log()]


def nav(board, app, t_ms, *buttons):
    """Press buttons one after the other, 300 ms apart; returns the time after."""
    for b in buttons:
        board.press_buttons(b, t_ms * 1000)
        t_ms += 300
        until(app, board, t_ms)
    return t_ms


def test_menu_pick_a_preset():
    board, app = boot()
    # MENU opens the set-up menu on "PrSt"; START edits; PLUS: the second preset
    t = nav(board, app, 500, BTN_MENU)
    assert text(board.left) == "PrSt"
    t = nav(board, app, t, BTN_START, BTN_PLUS)
    assert text(board.right) == "fide-rapid"[-8:]
    t = nav(board, app, t, BTN_START)
    assert app.settings.spec == "fide-rapid"
    assert text(board.left) == "15:00" and text(board.right) == "15:00"


def test_menu_enter_a_control_by_hand_and_recall_it_as_favourite():
    board, app = boot()
    t = nav(board, app, 500, BTN_MENU, BTN_PLUS, BTN_PLUS)  # "SEt"
    assert text(board.left) == "SEt"
    t = nav(board, app, t, BTN_START, BTN_PLUS, BTN_PLUS)   # 5 -> 7 minutes
    assert text(board.right) == "7m"
    t = nav(board, app, t, BTN_START, BTN_PLUS, BTN_PLUS, BTN_PLUS)  # +3 s
    assert text(board.right) == "+3s"
    t = nav(board, app, t, BTN_START)
    assert app.settings.spec == "7m+3s"
    assert text(board.left) == "7:00"
    t = nav(board, app, t, BTN_MENU, BTN_PLUS, BTN_PLUS, BTN_PLUS, BTN_START)  # "SAvE"
    assert app.settings.favourites == ["7m+3s"]
    t = nav(board, app, t, BTN_MENU)  # close
    t = nav(board, app, t, BTN_MENU, BTN_START, BTN_START)  # choose fide-classical
    assert app.settings.spec == "fide-classical"
    t = nav(board, app, t, BTN_MENU, BTN_PLUS, BTN_START, BTN_START)  # FAv, first one
    assert app.settings.spec == "7m+3s"
    # the favourite survives a power cycle
    board2, app2 = boot(board.root)
    assert app2.settings.favourites == ["7m+3s"] and text(board2.left) == "7:00"


def test_menu_swap_levers():
    board, app = boot()
    t = nav(board, app, 500, BTN_MENU, BTN_MINUS, BTN_MINUS, BTN_MINUS, BTN_MINUS)
    assert text(board.left) == "SWAP"
    t = nav(board, app, t, BTN_START, BTN_MENU)
    assert not app.settings.white_left
    assert board.right.view.white
    start(board, app, t)
    assert board.running_led == RIGHT            # White's LED is on White's side
    board.press_lever(RIGHT, (t + 1000) * 1000)  # now White's lever
    until(app, board, t + 1200)
    assert app.clock.moves == [1, 0]
    assert board.running_led == LEFT


def test_arbiter_menu_penalty_time_moves_and_resume_the_other_side():
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 3000000)
    until(app, board, 3100)
    t = nav(board, app, 4000, BTN_START)       # pause (Black's turn)
    board.press_buttons(BTN_MENU, t * 1000, hold_us=100000)   # a tap: nothing
    until(app, board, t + 300)
    assert not app.menu.active()
    board.press_buttons(BTN_MENU, (t + 300) * 1000, hold_us=2500000)
    until(app, board, t + 3000)
    assert app.menu.active() and text(board.left) == "SIdE"
    black_before = app.clock.main[E.BLACK]
    t = nav(board, app, t + 3000, BTN_START)  # side: Black
    assert text(board.right) == "bLAc"
    t = nav(board, app, t, BTN_PLUS, BTN_START)  # "+2" to Black
    assert app.clock.main[E.BLACK] == black_before + 120000
    t = nav(board, app, t, BTN_PLUS, BTN_START, BTN_MINUS, BTN_MINUS, BTN_START)  # tImE -20 s
    assert app.clock.main[E.BLACK] == black_before + 100000
    t = nav(board, app, t, BTN_PLUS, BTN_START, BTN_PLUS, BTN_START)  # MovE +1
    assert app.clock.moves[E.BLACK] == 1
    t = nav(board, app, t, BTN_MINUS, BTN_MINUS, BTN_MINUS, BTN_START)  # back to SIdE: White
    assert text(board.right) == "WHIt"
    t = nav(board, app, t, BTN_MINUS, BTN_MINUS, BTN_MINUS, BTN_START)  # rES: White runs
    assert not app.menu.active()
    assert app.clock.state == E.RUNNING and app.clock.turn == E.WHITE
    events = [r[0] for r in read_log(app)]
    assert E.EV_ADJUST in events and E.EV_SET_MOVES in events


def test_arbiter_menu_undo_gives_the_turn_back_to_the_side_that_pressed():
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 3000000)           # White presses without a move
    until(app, board, 3100)
    assert board.running_led == RIGHT
    t = nav(board, app, 4000, BTN_START)       # pause (Black's turn)
    board.press_buttons(BTN_MENU, t * 1000, hold_us=2500000)
    until(app, board, t + 3000)
    assert app.menu.active() and text(board.left) == "SIdE"
    t = nav(board, app, t + 3000, BTN_PLUS, BTN_PLUS, BTN_PLUS, BTN_PLUS, BTN_PLUS)
    assert text(board.left) == "Undo"
    t = nav(board, app, t, BTN_START)
    assert text(board.right) == "donE"
    assert app.clock.turn == E.WHITE and app.clock.moves == [0, 0]
    t = nav(board, app, t, BTN_MENU)            # closed; START resumes (fide-blitz)
    white = app.clock.main[E.WHITE]
    black = app.clock.main[E.BLACK]
    t = nav(board, app, t, BTN_START)
    assert app.clock.state == E.RUNNING and board.running_led == LEFT   # White's runs
    until(app, board, t + 1000)
    assert app.clock.main[E.BLACK] == black and app.clock.main[E.WHITE] < white - 900
    board.press_lever(LEFT, (t + 1200) * 1000)  # White's move, made now: counted
    until(app, board, t + 1400)
    assert app.clock.moves == [1, 0] and board.running_led == RIGHT


def test_arbiter_menu_increment_for_both_from_now_on():
    # FIDE Guidelines III, "+5 s a move from now on": one item, one START, both sides
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 3000000)
    until(app, board, 3100)
    t = nav(board, app, 4000, BTN_START)       # pause (Black's turn)
    board.press_buttons(BTN_MENU, t * 1000, hold_us=2500000)
    until(app, board, t + 3000)
    times = list(app.clock.main)
    t = nav(board, app, t + 3000, BTN_PLUS, BTN_PLUS, BTN_PLUS, BTN_PLUS, BTN_PLUS,
            BTN_PLUS)
    assert text(board.left) == "InC" and text(board.right) == "+2s"  # blitz: +2 s now
    t = nav(board, app, t, BTN_START, BTN_PLUS)  # edit: 5 s, then 6 s
    assert text(board.right) == "+6s"
    t = nav(board, app, t, BTN_START)
    assert text(board.right) == "donE"
    c = app.clock
    assert c.main == times and c.stage == [1, 1]
    assert c.current_stage(E.WHITE).inc_ms == c.current_stage(E.BLACK).inc_ms == 6000
    seen = []
    listener = c.listener

    def spy(ev, side, t_ms, arg):
        seen.append((ev, side, arg))
        listener(ev, side, t_ms, arg)

    c.listener = spy
    t = nav(board, app, t, BTN_MENU, BTN_START)  # close, resume: Black runs
    board.press_lever(RIGHT, (t + 1000) * 1000)
    until(app, board, t + 1200)
    assert (E.EV_PRESS, E.BLACK, 6000) in seen  # the press credits the new increment
    from clockcore.logread import Reader
    r = Reader()
    added = [r.decode(p) for p in app.store.read_log()]
    added = [(x.side, x.arg, x.fields["inc_ms"], x.fields["reason"]) for x in added
             if x.code == E.EV_ADD_STAGE]
    assert added == [(E.WHITE, 0, 6000, 4), (E.BLACK, 0, 6000, 4)]


def test_link_adds_an_increment_alone_in_one_request():
    from clockcore import protocol as P
    board, app = boot()
    key = bytes(range(32))
    app.link.handle(P.encode_request(1, "keyset", [key.hex()])[:-1])
    app.clock.start(app.now)
    for rid, op, args in ((10, "addstage", ("both", "0m+5s")), (20, "addinc", ("white", "2000")),
                          (30, "addinc", ("both", "0"))):
        nonce = P.decode_reply(app.link.handle(P.encode_request(rid, "auth")[:-1])[:-1])
        line = P.encode_request(rid + 1, op, args, key, nonce[2]["nonce"].encode())
        ok = P.decode_reply(app.link.handle(line[:-1])[:-1])[1]
        assert ok == (rid != 30), (op, args)
    c = app.clock
    assert c.stage == [2, 1] and c.main == [180000, 180000]  # no time of their own
    assert c.current_stage(E.WHITE).inc_ms == 2000 and c.current_stage(E.BLACK).inc_ms == 5000


def test_flag_shows_on_the_display_and_no_buzzer_in_competition():
    board, app = boot()
    start(board, app, 1000)
    tones = board.tones
    until(app, board, 1000 + 180000 + 500)
    assert app.clock.flag_at[E.WHITE] >= 0
    assert board.left.view.flag == 1 and text(board.left) == "0.0"
    assert board.tones == tones  # silent flag (FIDE: a sound is a signal)


def test_running_led_follows_start_presses_pause_and_a_flag():
    # One LED a side (the TM1637 builds have no other sign an arbiter sees from 10 m): lit
    # while that side's clock runs, both out when none runs; the board is told on a change
    # only, not on every loop pass.
    board, app = boot()
    assert board.running_led == -1 and board.led_calls == 1   # boot: both out, once
    until(app, board, 900)
    assert board.led_calls == 1
    start(board, app, 1000)
    assert board.running_led == LEFT                 # White (left) runs
    board.press_lever(LEFT, 3000000)
    until(app, board, 3200)
    assert board.running_led == RIGHT
    board.press_lever(RIGHT, 4000000)
    until(app, board, 4200)
    assert board.running_led == LEFT
    assert board.led_calls == 4
    board.press_buttons(BTN_START, 5000000)          # pause: both out
    until(app, board, 5200)
    assert app.clock.state == E.PAUSED and board.running_led == -1
    board.press_lever(LEFT, 5500000)                 # ignored while paused: no change
    until(app, board, 5700)
    assert board.running_led == -1 and board.led_calls == 5
    board.press_buttons(BTN_START, 6000000)          # resume: White's again
    until(app, board, 6200)
    assert app.clock.state == E.RUNNING and board.running_led == LEFT
    assert board.led_calls == 6
    # White's flag falls (fide-blitz freezes both clocks): both out, and they stay out
    until(app, board, 6200 + 185000)
    assert app.clock.state == E.FROZEN and app.clock.flag_at[E.WHITE] >= 0
    assert board.running_led == -1 and board.led_calls == 7
    board.press_lever(LEFT, 192000000)
    until(app, board, 192500)
    assert board.running_led == -1 and board.led_calls == 7


def test_low_battery_is_shown_and_logged():
    board, app = boot()
    board.mv = 3400
    until(app, board, 12000)
    assert board.left.view.battery_low and board.right.view.battery_low
    assert EV.EV_LOW_BATTERY in [r[0] for r in read_log(app)]


def alerts(board, app, t_ms, n):
    """The left view's alert flag at each of the next n whole seconds (+0.5 s)."""
    out = []
    for i in range(n):
        until(app, board, t_ms + 1000 * i + 500)
        out.append(board.left.view.alert)
    return out


def test_low_battery_alert_moment_only_while_no_clock_runs():
    board, app = boot()
    board.mv = 3400
    until(app, board, 12000)
    # set up: 1 s in 3 (the TM1637 shows "bAtt" then), on both views alike
    seen = alerts(board, app, 13000, 6)
    assert seen.count(True) == 2 and seen.count(False) == 4, seen
    assert board.right.view.alert == board.left.view.alert
    start(board, app, 20000)
    assert alerts(board, app, 20000, 6) == [False] * 6   # a running game is never hidden
    board.press_buttons(BTN_START, 27000000)             # pause
    seen = alerts(board, app, 27000, 6)
    assert seen.count(True) == 2, seen
    board.mv = 4000                                      # a fresh pack: no more alert
    assert alerts(board, app, 40000, 15)[-4:] == [False] * 4


def test_low_charge_from_a_fuel_gauge_is_shown_and_logged_once():
    board, app = boot()
    board.battery_low_pct = 45
    board.pct = 46
    until(app, board, 12000)
    assert not board.left.view.battery_low
    board.pct = 44                       # the voltage is still fine (a LiPo's flat middle)
    until(app, board, 32000)
    assert board.left.view.battery_low and board.right.view.battery_low
    events = [r for r in read_log(app) if r[0] == EV.EV_LOW_CHARGE]
    assert [r[3] for r in events] == [44]     # logged once, with the percent
    assert EV.EV_LOW_BATTERY not in [r[0] for r in read_log(app)]
    board.pct = -1                       # the gauge stops answering: the voltage decides
    until(app, board, 42000)
    assert not board.left.view.battery_low
    board.mv = 3400
    until(app, board, 52000)
    assert board.left.view.battery_low


def test_critical_battery_saves_once_then_stops_writing_flash():
    board, app = boot()
    start(board, app, 1000)
    board.mv = 3200
    until(app, board, 12000)
    assert app.flash_off
    written = board.fs.written
    board.press_lever(LEFT, 13000000)
    until(app, board, 15000)
    assert app.clock.moves == [1, 0]     # the clock keeps running
    assert board.fs.written == written   # but nothing more goes to flash


def test_the_garbage_is_collected_as_soon_as_a_press_is_shown():
    """The clock collects in the pass that shows a press, right after its displays and
    before its record goes to flash (the same pass) and its state (the pass after): when
    the opponent cannot have moved yet. Not for the 10 s saves. A collection left to a full
    heap held a press that fell in it."""
    board, app = boot()
    start(board, app, 1000)
    until(app, board, 12500)                 # a periodic save, no press: no collection
    assert board.collected == 0 and app.saved_at > 10000
    board.press_lever(LEFT, 13000000)
    seen = []
    while board.t < 13100000:
        before = board.fs.written
        app.step()
        seen.append((app.clock.moves == [1, 0], board.collected, board.fs.written > before))
        board.idle(1000)
    shown = [s[0] for s in seen].index(True)
    assert seen[shown][1:] == (1, True), seen[:shown + 3]    # collected, its record written
    assert seen[shown + 1][1:] == (1, True), seen[:shown + 3]    # then the state
    assert board.collected == 1 and not app.dirty


def test_power_cut_comes_back_paused_with_the_saved_times():
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 3000000)
    until(app, board, 20000)
    saved = list(app.clock.main)  # saved after the press and every 10 s
    board2, app2 = boot(board.root)
    c = app2.clock
    assert c.state == E.PAUSED and c.turn == E.BLACK
    assert c.moves == [1, 0]
    assert c.main[E.WHITE] == saved[E.WHITE]
    assert saved[E.BLACK] <= c.main[E.BLACK] <= saved[E.BLACK] + 10000
    assert board2.left.view.paused
    log = read_log(app2)
    assert log[-1][0] == EV.EV_BOOT and log[-1][3] == 1  # the outage is logged


def test_a_saved_game_that_cannot_be_restored_is_logged_shown_and_kept():
    # a snapshot this firmware cannot read (here a mode from a newer firmware)
    # never boots into a bad state, nor into a new game in silence
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 3000000)
    until(app, board, 4000)
    good = app.store.load_state()
    at = 2 + 1 + 7 + 9 * 8 + 2 * 9 * 8   # the first side's mode (gamestate's layout)
    bad = good[:at] + bytes([7]) + good[at + 1:]
    assert app.store.save_state(bad)
    board2, app2 = boot(board.root)
    assert app2.clock.state == E.IDLE and app2.restore_failed
    log = read_log(app2)
    assert log[-1][0] == EV.EV_BOOT and log[-1][3] == EV.BOOT_RESTORE_FAILED
    assert app2.store.load(A.BAD_STATE) == bad   # the bytes are kept for the arbiter
    assert "Err" in text(board2.left) and "rESt" in text(board2.right)
    # saving the new game twice (both slots) leaves the kept copy alone
    app2.save_state()
    app2.save_state()
    assert app2.store.load(A.BAD_STATE) == bad
    # the first button press acknowledges the message, and does nothing else
    board2.press_buttons(BTN_MENU, 6000000)
    until(app2, board2, 6300)
    assert not app2.restore_failed and not app2.menu.active()
    assert "Err" not in text(board2.left) and text(board2.right) == "3:00"
    # the host's export says so too
    from clockcore.logread import Reader
    r = Reader()
    recs = [r.decode(p) for p in app2.store.read_log()]
    assert recs[-1].name() == "boot" and recs[-1].arg == EV.BOOT_RESTORE_FAILED
    assert recs[-1].snapshot is None


def run_with_errors(board, fail_on):
    """clockapp.app.run on the simulator: each App is started with a pass; the ones whose
    number (from 1) is in fail_on start the game (if new), press White's lever 1 s on,
    run 1.5 s more, and raise. The apps, and what run reported, in order."""
    apps, reported = [], []

    def start_app(app):
        apps.append(app)
        app.step()
        if len(apps) in fail_on:
            if app.clock.state == E.IDLE and not app.restore_failed:
                start(board, app, board.t // 1000 + 100)
                board.press_lever(LEFT, board.t + 1000000)
                until(app, board, board.t // 1000 + 1000)
            until(app, board, board.t // 1000 + 1500)
            raise RuntimeError("bug %d" % len(apps))
    A.run(board, reported.append, start_app)
    return apps, reported


def test_an_error_starts_the_clock_again_paused_where_it_was():
    """An error in a game (a bug, a MemoryError) does not leave a dead clock at the REPL
    (the emulated Pico's 100-cut runs met a MemoryError at boot): the game and its log
    are saved as they are and the clock comes back paused on those times, not those of
    the last save; the log says it restarted."""
    board = SimBoard(fresh_dir())
    (first, second), reported = run_with_errors(board, (1,))
    assert [str(e) for e in reported] == ["bug 1"]
    before, c = first.clock, second.clock
    assert c.state == E.PAUSED and c.turn == E.BLACK and c.moves == [1, 0]
    # Black ran 1.5 s past White's press: charged, not the 10 s save's time
    assert c.main == before.main and c.main[E.BLACK] <= 180000 - 1400, (c.main, before.main)
    assert board.left.view.paused and not second.restore_failed
    log = read_log(second)
    assert [r[0] for r in log[-2:]] == [EV.EV_BOOT, EV.EV_RESTARTED], log[-3:]
    assert log[-2][3] == EV.BOOT_RESTORED and log[-1][3] == 1
    assert [r[0] for r in log].count(EV.EV_PRESS) == 1      # the press before the error kept


def test_an_error_inside_a_flash_write_writes_nothing_more():
    """An error in the middle of a write (here the press's save) leaves the store busy:
    what is in RAM may not match the flash, so nothing more is written before the
    restart, which restores what the flash holds (the save before), paused."""
    board = SimBoard(fresh_dir())
    apps, calls = [], []

    def boom(*args):
        calls.append(args)
        raise MemoryError("in a save")

    def start_app(app):
        apps.append(app)
        app.step()
        if len(apps) == 1:
            start(board, app, 100)
            app.store._write_slot = boom
            board.press_lever(LEFT, board.t + 1000)
            until(app, board, board.t // 1000 + 500)
    A.run(board, [].append, start_app)
    first, second = apps
    assert len(calls) == 1 and first.store.busy == 1       # not tried again
    c = second.clock
    assert c.state == E.PAUSED and c.moves == [0, 0]        # the save before the press
    codes = [r[0] for r in read_log(second)]
    # (then the lever, still down at the restart: re-synced, a press ignored while paused)
    last_boot = len(codes) - 1 - codes[::-1].index(EV.EV_BOOT)
    assert codes[last_boot + 1] == EV.EV_RESTARTED, codes


def test_errors_that_persist_set_the_game_aside_then_reach_the_repl():
    """The last restart sets the saved game aside (it may be what fails: kept as state.bad,
    "Err rESt" shown); an error after that goes to main.py, which leaves the REPL
    without the key (tests/host/test_main_repl.py)."""
    board = SimBoard(fresh_dir())
    (a, b, c), reported = run_with_errors(board, (1, 2))
    assert len(reported) == 2 and not b.restore_failed and b.clock.state == E.PAUSED
    assert c.restore_failed and c.clock.state == E.IDLE
    assert c.store.load(A.BAD_STATE) is not None
    assert "Err" in text(board.left) and "rESt" in text(board.right)
    assert read_log(c)[-1][0] == EV.EV_RESTARTED and read_log(c)[-1][3] == A.RESTARTS
    try:
        run_with_errors(SimBoard(fresh_dir()), (1, 2, 3))
    except RuntimeError as e:
        assert str(e) == "bug 3"
    else:
        raise AssertionError("the third error did not reach main.py")


def test_power_cut_at_every_point_of_a_game_restores_a_consistent_state():
    # One game, replayed with the power cut after 0, 37, 74, ... bytes of flash writes:
    # mid-file, between files, mid-log. Each restart must come back paused with exactly a
    # state the clock saved, and with its log readable (a torn record dropped).
    _power_cuts_in_a_game(0, 37)


def test_power_cut_at_every_point_of_a_game_with_the_journal():
    # The same with the raw journal (clockapp/journal.py): the cuts fall inside its page
    # programs, in the fold into log.bin and the slots after the game is paused, and in
    # its erases; every record whose write completed is still read, in order, once.
    _power_cuts_in_a_game(1, 53)


def test_power_cut_at_every_point_of_a_game_on_the_esp32_storage():
    # The same on the ESP32's storage model (boards/sim.py esp32_flash: littlefs on the
    # vfs partition, the journal's blocks reserved in it as the board reserves them),
    # with a pause shorter than the fold: the cuts fall in its erases, and in the journal
    # it hands back to the presses after them (the erased blocks, old frames behind).
    pages = _power_cuts_in_a_game(4, 251, esp32_flash=True, resume=True)
    assert pages > 20    # journal pages programmed in the game: the cuts went through them


def _power_cuts_in_a_game(journal_blocks, step, esp32_flash=False, resume=False):
    n = 0
    cuts = 0
    pages = 0
    end = 14000000 if not journal_blocks else 16000000
    if resume:
        end = 19000000
    kw = {"journal_blocks": journal_blocks}
    if esp32_flash:
        kw["esp32_flash"] = True
    while True:
        root = fresh_dir()
        if esp32_flash:    # the first boot reserves the journal's blocks (seconds)
            A.App(SimBoard(root, **kw))
        board = SimBoard(root, **kw)
        app = A.App(board)
        saved = []
        real_save = app.store.save_state

        def save(payload, app=app, saved=saved, real_save=real_save):
            # noted before the write: one cut inside it may still leave it whole (a page
            # programmed past the frame's last byte)
            saved.append((list(app.clock.main), list(app.clock.moves), app.clock.state))
            return real_save(payload)

        app.store.save_state = save
        real_append = app.store.append_log
        written = []   # log records whose write returned

        def append(record, written=written, real_append=real_append):
            ok = real_append(record)
            written.append(bytes(record))
            return ok

        app.store.append_log = append
        if journal_blocks:
            app.store.fold_bytes = 0    # fold at set-up and at the pause, whatever it holds
        board.press_buttons(BTN_START, 500000)
        for i in range(6):
            board.press_lever(LEFT if i % 2 == 0 else RIGHT, (2000 + 1500 * i) * 1000)
        if journal_blocks:   # paused: the journal is folded into the files and erased
            board.press_buttons(BTN_START, 12500000)
        if resume:           # on again before the erases are done, and four more moves
            board.press_buttons(BTN_START, 12700000)
            for i in range(4):
                board.press_lever(LEFT if i % 2 == 0 else RIGHT, (13500000 + 1200000 * i))
            board.press_buttons(BTN_START, 18000000)
        programs = board.flash.programs if board.flash is not None else 0
        board.cut_power_after(n)
        try:
            while board.t < end:
                app.step()
                board.idle(1000)
        except PowerCut:
            cuts += 1
        else:
            assert not journal_blocks or (not app.store.folding()    # folded in the pause
                                          and board.flash.erases >= 2)
            if board.flash is not None:
                pages = board.flash.programs - programs
            break  # the game wrote fewer bytes than n: every point was tried
        app2 = A.App(SimBoard(board.root, **kw))
        c = app2.clock
        got = (list(c.main), list(c.moves))
        if c.state == E.IDLE:
            assert c.moves == [0, 0] and c.main == [180000, 180000], n
        else:
            assert c.state == E.PAUSED, (n, c.state)
            assert any(got == (m, mv) for m, mv, st in saved if st != E.IDLE), (n, got)
        records = read_log(app2)
        assert records[-1][0] == EV.EV_BOOT, n
        got = [bytes(p) for p in app2.store.read_log()]
        k = got.index(written[0]) if written and written[0] in got else 0
        assert got[k:k + len(written)] == written, n   # none lost, none twice, in order
        n += step
    assert cuts > 10
    return pages


def test_arbiter_new_game_asks_before_throwing_the_game_away():
    # nEW: START shows SurE; any other button keeps the game; START twice starts anew
    board, app = boot()
    start(board, app, 1000)
    board.press_lever(LEFT, 3000000)
    until(app, board, 3100)
    t = nav(board, app, 4000, BTN_START)       # pause
    board.press_buttons(BTN_MENU, t * 1000, hold_us=2500000)
    until(app, board, t + 3000)
    t = nav(board, app, t + 3000, BTN_MINUS)   # the last item: nEW
    assert text(board.left) == "nEW"
    t = nav(board, app, t, BTN_START)
    assert text(board.right) == "SurE" and app.clock.moves == [1, 0]
    t = nav(board, app, t, BTN_PLUS, BTN_MINUS, BTN_START)   # moved away and back: asks again
    assert text(board.right) == "SurE" and app.clock.state == E.PAUSED
    t = nav(board, app, t, BTN_MENU)           # MENU keeps the game (and closes the menu)
    assert app.clock.state == E.PAUSED and app.clock.moves == [1, 0]
    board.press_buttons(BTN_MENU, t * 1000, hold_us=2500000)
    until(app, board, t + 3000)
    t = nav(board, app, t + 3000, BTN_MINUS, BTN_START, BTN_START)
    assert app.clock.state == E.IDLE and app.clock.moves == [0, 0]
    assert not app.menu.active()


def test_the_loop_rest_ends_at_a_lever_edge():
    """Between two passes the loop sleeps LOOP_US in quarters and wakes at an edge the
    interrupt left to it: that edge waits a quarter of the sleep for its pass at most, not
    the whole of it. (The running side's press is taken in the interrupt: test_parked.py.)"""
    board, app = boot()
    start(board, app, 1000)
    t0 = board.t
    app.rest()
    assert board.t - t0 == A.LOOP_US        # nothing came: the whole rest
    t0 = board.t
    board.press_lever(RIGHT, t0 + 300)      # Black's lever inside the second quarter
    app.rest()
    assert board.t - t0 == A.LOOP_US // 2 and app.ring.pending()
    app.step()
    assert app.clock.turn == E.WHITE and not app.ring.pending()


def _edge_during_the_first_display(waits, edge="close"):
    """White presses; while the pass that takes it draws White's display (drawn first: the
    side that pressed), White's release's interrupt fires (on a board: a collection held
    the pass and the edge came in it), and with edge="close" Black's lever closes after it.
    What that pass drew and did after that display."""
    board, app = boot()
    start(board, app, 1000)
    left, right = board.displays()
    assert app.lever_of_side(E.WHITE) == LEFT
    real_render = left.render
    seen = []

    def render(view):
        real_render(view)
        if app.clock.turn == E.BLACK and not seen:
            seen.append(right.renders)
            board.advance_to(board.t + 3000)   # the release's interrupt, in this pass
            if edge == "close":   # then Black's close: it waits behind the release
                board.press_lever(RIGHT, board.t + 50)
                board.advance_to(board.t + 100)
            seen.append(app.ring.pending())

    levels = []
    real_levels = app._lever_levels

    def lever_levels():
        levels.append(board.t)
        real_levels()

    left.render = render
    app._lever_levels = lever_levels
    until(app, board, 2000)
    board.press_lever(LEFT, board.t + 100, hold_us=2500)
    board.advance_to(board.t + 200)
    levels.clear()
    app.flash_waits = waits
    app.step()
    assert app.clock.turn == E.BLACK and seen[1], seen
    return board, app, right, seen[0], levels


def test_an_edge_during_the_first_display_ends_the_pass_there():
    """The edge is the next pass's first work: neither the other display nor the levels'
    check (nor the host, nor flash) is done before it; the pass after draws Black's display
    and goes on as usual."""
    board, app, right, renders, levels = _edge_during_the_first_display(0)
    assert right.renders == renders and levels == [] and app.ring.pending()
    assert app.flash_waits == 1
    app.step()
    assert right.renders == renders + 1 and len(levels) == 1
    assert app.clock.moves == [1, 1] and not right.view.running   # Black's press taken


def test_a_release_during_the_first_display_does_not_end_the_pass():
    """A release shows nothing: the other display is drawn in the same pass (the release
    is drained the pass after, and flash waits for it as for any edge)."""
    board, app, right, renders, levels = _edge_during_the_first_display(0, "release")
    assert right.renders == renders + 1 and right.view.running and app.ring.pending()
    assert app.flash_waits == 1
    app.step()
    assert not app.ring.pending() and app.flash_waits == 0 and app.clock.moves == [1, 0]


def test_a_lever_chattering_without_end_cannot_keep_the_other_display_back():
    """Capped as flash is (_FLASH_WAITS_MAX passes in a row; a private const, folded away
    on MicroPython: here passes past any cap): then the pass draws both."""
    board, app, right, renders, levels = _edge_during_the_first_display(1 << 20)
    assert right.renders == renders + 1 and len(levels) == 1


def test_an_edge_whose_interrupt_comes_as_the_levels_are_read_is_not_a_missed_edge():
    """The pass looks at the levers' levels after the displays. On a board a collection can
    come between two bytecodes there, and a lever edge inside it: its interrupt stamps it
    into the ring. The level is read first, then the ring, so the press is the ring's, at
    its stamp; read the other way round, the level showed the edge with the ring looked at
    already, and the press was taken as a missed edge at the pass's start, up to a
    collection before the lever closed (the emulated Pico's bench: 29 in 1,000 presses)."""
    board, app = boot()
    start(board, app, 1000)
    real = board.read_levers
    armed = []
    stamp = []

    def read_levers():
        if armed and not armed[-1]:
            armed[-1] = True
            edge = board.t + 400
            stamp.append(app.timebase.at(edge))
            board.press_lever(LEFT, edge)   # White's lever, in a collection
            board.advance_to(edge)          # its interrupt fires now
        return real()

    board.read_levers = read_levers
    until(app, board, 3000)
    armed.append(False)
    until(app, board, 3100)
    assert armed == [True]
    c = app.clock
    assert c.turn == E.BLACK and c.moves == [1, 0]
    log = read_log(app)
    assert not [r for r in log if r[0] == EV.EV_MISSED_EDGE], log
    press = [r for r in log if r[0] == E.EV_PRESS][-1]
    assert press[2] == stamp[0]   # the interrupt's stamp


def test_the_running_side_lever_switches_the_leds_in_its_interrupt():
    """The running side's close lights the other side's LED in the lever interrupt itself,
    before the loop takes the press (a loop held by a collection or a flash write no longer
    holds the switch up); the waiting side's lever does nothing there."""
    board, app = boot()
    start(board, app, 1000)
    assert board.running_led == LEFT
    board.press_lever(RIGHT, 2000000)     # the waiting side: not armed
    board.advance_to(2000500)             # the edge delivered, no loop pass since
    assert board.running_led == LEFT
    until(app, board, 2200)
    board.press_lever(LEFT, 3000000)
    board.advance_to(3000100)             # the interrupt has run, the loop has not
    assert board.running_led == RIGHT and app.clock.turn == E.WHITE
    until(app, board, 3200)
    assert app.clock.turn == E.BLACK and board.running_led == RIGHT
    assert app.clock.moves[E.WHITE] == 1


def test_no_lever_switches_the_leds_in_its_interrupt_in_a_pause():
    board, app = boot()
    start(board, app, 1000)
    board.press_buttons(BTN_START, 2000000)      # pause
    until(app, board, 2200)
    assert app.clock.state == E.PAUSED and board.running_led == -1
    board.press_lever(LEFT, 2500000)
    board.advance_to(2500100)
    assert board.running_led == -1
    until(app, board, 2700)
    assert board.running_led == -1 and app.clock.moves[E.WHITE] == 0


def test_a_press_the_interrupt_showed_but_the_engine_refused_is_put_right():
    """White's flag fell a moment before the press and no loop pass has seen it yet: the
    interrupt lights Black's LED at the edge, and the loop's first pass puts the LEDs out
    (the flag freezes both clocks in fide-blitz), as the engine says."""
    board, app = boot()
    start(board, app, 1000)
    board.advance_to((1000 + 180000 + 300) * 1000)   # past White's 3 min, no pass
    board.press_lever(LEFT, board.t + 1000)
    board.advance_to(board.t + 1100)
    assert board.running_led == RIGHT                # shown at the edge
    until(app, board, board.t // 1000 + 5)
    assert app.clock.flag_at[E.WHITE] >= 0 and app.clock.moves[E.WHITE] == 0
    assert board.running_led == -1


def test_a_boot_writes_no_settings_it_would_only_rewrite():
    # the boot's game takes the stored control as it is: no flash write for it (and no
    # buffers of one on the boot's heap); a control set later is kept
    board, app = boot()
    assert "settings.json" not in os.listdir(board.root)
    assert app.settings.spec == "fide-blitz"
    app.new_game("fide-rapid")
    with open(board.root + "settings.json", "rb") as f:
        kept = f.read()
    board2, app2 = boot(board.root)
    assert app2.settings.spec == "fide-rapid" and app2.clock.main == [900000, 900000]
    with open(board.root + "settings.json", "rb") as f:
        assert f.read() == kept
    app2.new_game("fide-rapid")     # set again, not at boot: written again
    assert app2.store.load_json("settings.json")["spec"] == "fide-rapid"


def test_the_heap_is_locked_only_around_the_levers_and_displays_of_a_running_game():
    # App._locked: a board that can lock the heap gets it locked
    # around the lever edges and both displays while a lever is armed (a clock running, no
    # menu), always unlocked again; never before the start or in a menu.
    board = SimBoard(fresh_dir())
    depth = []
    locked = [0]

    def lock():
        depth.append(1)
        locked[0] += 1
    board.heap_lock = lock
    board.heap_unlock = lambda: depth.pop()
    board.locks_heap = True
    seen = []
    for d in board.displays():
        def render(view, d=d, orig=d.render):
            seen.append(len(depth))
            orig(view)
        d.render = render
    app = A.App(board)
    until(app, board, 1000)
    assert locked[0] == 0 and set(seen) == {0}     # set-up: nothing locked
    start(board, app, 1500)
    del seen[:]
    board.press_lever(LEFT, 3000321)
    until(app, board, 4000)
    assert locked[0] > 100 and not depth           # every pass of the running game
    assert app.clock.turn == E.BLACK and set(seen) == {1}, seen   # drawn locked
    board.press_buttons(BTN_START, 4100000)        # paused: no lever armed
    until(app, board, 4400)
    assert app.clock.state == E.PAUSED
    n = locked[0]
    until(app, board, 5000)
    assert locked[0] == n and not depth and board.locks_heap


def test_a_memory_error_with_the_heap_locked_unlocks_it_for_good_and_redraws():
    # Something allocating with the heap locked (a bug: what runs there is what the lever
    # interrupt runs) raises MemoryError: the pass goes on, the heap is unlocked and never
    # locked again (board.locks_heap), both displays drawn again; the game runs on.
    board = SimBoard(fresh_dir())
    depth = []
    board.heap_lock = lambda: depth.append(1)
    board.heap_unlock = lambda: depth.pop()
    board.locks_heap = True
    fail = [0]
    d = board.left
    orig = d.render

    def render(view):
        if depth and fail[0]:
            fail[0] -= 1
            raise MemoryError("memory allocation failed, heap is locked")
        orig(view)
    d.render = render
    app = A.App(board)
    start(board, app, 1000)
    until(app, board, 2000)
    fail[0] = 1
    board.press_lever(LEFT, 2500321)
    until(app, board, 3500)
    assert not board.locks_heap and not depth and not fail[0]
    assert app.clock.turn == E.BLACK and app.clock.state == E.RUNNING
    assert d.drawn_at > 2500321 and not d.view.running   # the press's view, drawn again
    n = d.renders
    board.press_lever(RIGHT, 4000321)
    until(app, board, 5000)
    assert app.clock.turn == E.WHITE and d.renders > n and not board.locks_heap
    assert not app.lockable and not depth
