# The session at the board (docs/SESSION.md) on the simulator board: the
# self-test, result entry, incident marks, who resumed, the arbiter menu's log, the
# scheduled start with its default time and arrivals, the low-time mark. Runs on CPython
# and on the MicroPython unix port.

from simutil import boot, text, until

from clockapp import session as S
from clockapp import sessionops
from clockapp.board import BTN_MENU, BTN_MINUS, BTN_PLUS, BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import events as EV
from clockcore import logread as LR
from clockcore import protocol as P


def records(app):
    app.flush()
    r = LR.Reader()
    return [r.decode(p) for p in app.store.read_log()]


def of(app, code):
    return [r for r in records(app) if r.code == code]


def nav(board, app, t_ms, *buttons):
    for b in buttons:
        board.press_buttons(b, t_ms * 1000)
        t_ms += 300
        until(app, board, t_ms)
    return t_ms


def reply(app, op, *args):
    line = P.encode_request(app.link.requests + 1, op, args, None, None)
    return P.decode_reply(app.link.handle(line[:-1])[:-1])


def start(board, app, t_ms):
    board.press_buttons(BTN_START, t_ms * 1000)
    until(app, board, t_ms + 200)
    assert app.clock.state == E.RUNNING


def pause_and_open_arbiter(board, app, t):
    t = nav(board, app, t, BTN_START)
    assert app.clock.state == E.PAUSED
    board.press_buttons(BTN_MENU, t * 1000, hold_us=2500000)
    until(app, board, t + 3000)
    assert app.menu.active() and text(board.left) == "SIdE"
    return t + 3000


# ---- self-test (seed 2.9) -------------------------------------------------------------
def test_selftest_from_the_menu_lights_everything_sounds_and_wants_both_levers():
    board, app = boot()
    app.settings.sound = False
    app.save_settings()
    tones = board.tones
    t = nav(board, app, 500, BTN_MENU, BTN_PLUS, BTN_PLUS, BTN_PLUS, BTN_PLUS)
    assert text(board.left) == "tESt"
    t = nav(board, app, t, BTN_START)
    assert app.session.testing and not app.menu.active()
    assert board.left.view.test and board.right.view.test       # every segment lit
    assert text(board.left) == "88888888"
    assert board.tones == tones + 1        # the buzzer is tested even with the sound off
    until(app, board, t + 2200)            # lamp over: press each lever
    assert not board.left.view.test
    assert text(board.left) == "LEFt" and text(board.right) == "rIGt"
    board.press_lever(LEFT, (t + 2500) * 1000)
    until(app, board, t + 2700)
    assert text(board.left) == "Good" and text(board.right) == "rIGt"
    board.press_lever(RIGHT, (t + 3000) * 1000)
    until(app, board, t + 3200)
    assert text(board.left) == "tESt" and text(board.right) == "PASS"
    assert app.clock.state == E.IDLE      # the levers did not start the game
    st = of(app, EV.EV_SELF_TEST)
    assert len(st) == 1 and st[0].arg == 0 and st[0].fields["mv"] == 4000
    assert app.session.result == 0
    until(app, board, t + 6500)           # back to the clock
    assert not app.session.testing and text(board.left) == "3:00"
    assert app.session.test is None        # the self-test's code is freed after
    assert reply(app, "status")[2]["selftest"] == "0"


def test_selftest_held_plus_at_power_on_reports_a_missing_lever_and_low_battery():
    from simutil import fresh_dir

    from boards.sim import SimBoard
    from clockapp.app import App
    board = SimBoard(fresh_dir(), battery_mv=3500)
    board.buttons = BTN_PLUS               # held while the clock powers on
    app = App(board)
    assert app.session.testing
    board.at(300000, 1, 0)                 # PLUS let go: no menu opens
    until(app, board, 2500)
    assert not app.menu.active()
    board.press_lever(LEFT, 3000000)       # only the left lever
    until(app, board, 18000)
    st = of(app, EV.EV_SELF_TEST)
    assert len(st) == 1
    assert st[0].arg == EV.ST_RIGHT | EV.ST_BATTERY
    assert text(board.right) == "F %d" % (EV.ST_RIGHT | EV.ST_BATTERY)
    assert reply(app, "status")[2]["selftest"] == str(EV.ST_RIGHT | EV.ST_BATTERY)


def test_selftest_is_refused_during_a_game():
    board, app = boot()
    start(board, app, 500)
    ok, fields = reply(app, "selftest")[1:]
    assert not ok and fields["code"] == P.E_AUTH_REQUIRED    # no key: not in a game
    assert not app.session.selftest(app.now)
    assert not app.session.testing


def test_start_is_refused_while_the_self_test_runs_and_no_lever_is_lost():
    board, app = boot()
    assert reply(app, "selftest")[1]
    ok, f = reply(app, "start")[1:]
    assert not ok and f["code"] == P.E_STATE and "self-test" in f["detail"], f
    assert app.clock.state == E.IDLE and app.session.testing
    t = app.now
    # three presses during the test: each is the test's, or logged as ignored
    for i, lever in enumerate((LEFT, RIGHT, LEFT)):
        board.press_lever(lever, (t + 2500 + 400 * i) * 1000)
    until(app, board, t + 4000)
    ign = of(app, E.EV_IGNORED)
    assert [r.side for r in ign] == [app.side_of_lever(LEFT)]   # the third: seen already
    until(app, board, t + 8000)                  # the result shown, then the clock
    assert not app.session.testing and app.session.result == 0
    assert reply(app, "start")[1]
    board.press_lever(LEFT, (t + 8500) * 1000)
    until(app, board, t + 8800)
    assert app.clock.moves[E.WHITE] == 1 and app.clock.turn == E.BLACK


def test_presses_during_the_lamp_are_logged_as_ignored():
    board, app = boot()
    assert reply(app, "selftest")[1]
    t = app.now
    board.press_lever(RIGHT, (t + 500) * 1000)   # Black's lever would start a game
    until(app, board, t + 800)
    assert app.clock.state == E.IDLE
    ign = of(app, E.EV_IGNORED)
    assert [(r.side, r.arg) for r in ign] == [(app.side_of_lever(RIGHT), E.IDLE)]


def test_a_scheduled_start_during_the_self_test_ends_it_first_and_the_levers_count():
    board, app = boot()
    assert reply(app, "wallclock", str(WALL))[1]
    sched_t = app.now + 3000
    assert reply(app, "schedule", str(WALL + 3))[1]
    assert reply(app, "selftest")[1]
    until(app, board, sched_t + 200)
    assert app.clock.state == E.RUNNING and not app.session.testing
    codes = [r.code for r in records(app)]
    assert codes.index(EV.EV_SELF_TEST) < codes.index(E.EV_START)
    st = of(app, EV.EV_SELF_TEST)[-1]
    assert st.t == sched_t and st.arg & EV.ST_CUT
    assert app.session.result & EV.ST_CUT
    for i in range(3):
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, (sched_t + 500 + 400 * i) * 1000)
    until(app, board, sched_t + 2000)
    assert [r.side for r in of(app, E.EV_PRESS)] == [E.WHITE, E.BLACK, E.WHITE]
    assert app.clock.moves == [2, 1]


# ---- result, incident, resume, arbiter menu (seed 5.1, 5.3-5.5) ------------------------
def test_result_entered_in_the_arbiter_menu_ends_the_game_and_is_logged():
    board, app = boot()
    start(board, app, 500)
    board.press_lever(LEFT, 1500000)
    until(app, board, 1700)
    t = pause_and_open_arbiter(board, app, 2000)
    assert of(app, EV.EV_ARBITER)[-1].arg == 1
    t = nav(board, app, t, BTN_MINUS, BTN_MINUS)       # End
    assert text(board.left) == "End"
    t = nav(board, app, t, BTN_START)
    assert text(board.right) == "nonE"
    t = nav(board, app, t, BTN_PLUS, BTN_PLUS, BTN_PLUS)
    assert text(board.right) == "1/2"
    t = nav(board, app, t, BTN_START)
    assert app.clock.state == E.ENDED
    res = of(app, EV.EV_RESULT)
    assert [(r.arg, r.fields["by"]) for r in res] == [(3, 0)]
    assert EV.RESULTS[res[0].arg] == "1/2-1/2"
    nav(board, app, t, BTN_MENU)                        # close: logged
    assert [r.arg for r in of(app, EV.EV_ARBITER)] == [1, 0]


def test_incident_mark_while_running_changes_nothing_and_is_logged_once_per_hold():
    board, app = boot()
    start(board, app, 500)
    board.press_lever(LEFT, 1500000)
    until(app, board, 1700)
    board.press_buttons(BTN_PLUS, 2000000, hold_us=4000000)
    until(app, board, 6500)
    assert app.clock.state == E.RUNNING and app.clock.turn == E.BLACK
    inc = of(app, EV.EV_INCIDENT)
    assert len(inc) == 1 and inc[0].arg == 1
    assert inc[0].fields["wmoves"] == 1 and inc[0].fields["bmoves"] == 0
    assert inc[0].w == app.clock.main[0]
    assert 4000 <= inc[0].t <= 4100                     # 2 s into the hold
    board.press_buttons(BTN_PLUS, 7000000, hold_us=100000)   # a tap: no mark
    until(app, board, 7500)
    assert len(of(app, EV.EV_INCIDENT)) == 1


def test_who_resumed_and_resume_reserved_to_the_arbiter_by_the_rules():
    # fide-blitz: a player's START resumes
    board, app = boot()
    start(board, app, 500)
    t = nav(board, app, 1000, BTN_START, BTN_START)
    assert app.clock.state == E.RUNNING
    assert [(r.arg, r.side) for r in of(app, EV.EV_RESUMED_BY)] == [(EV.BY_PLAYER, E.WHITE)]
    # fide-classical (S1 6.13): START is refused and logged; the arbiter's rES resumes
    board, app = boot()
    app.new_game("fide-classical")
    start(board, app, 500)
    t = nav(board, app, 1000, BTN_START, BTN_START)
    assert app.clock.state == E.PAUSED
    assert [r.arg for r in of(app, EV.EV_RESUMED_BY)] == [EV.BY_REFUSED]
    board.press_buttons(BTN_MENU, t * 1000, hold_us=2500000)
    until(app, board, t + 3000)
    t = nav(board, app, t + 3000, BTN_MINUS, BTN_MINUS, BTN_MINUS, BTN_START)   # rES
    assert app.clock.state == E.RUNNING
    assert [r.arg for r in of(app, EV.EV_RESUMED_BY)] == [EV.BY_REFUSED, EV.BY_ARBITER]


# ---- scheduled start, default time, arrivals (seed 2.1, 2.3, 2.4) -----------------------
WALL = 1796000000


def test_scheduled_start_runs_white_from_the_set_instant_and_counts_the_default_time():
    board, app = boot()
    ok, f = reply(app, "schedule", str(WALL + 10))[1:]
    assert not ok and "time of day" in f["detail"]        # no wall clock yet
    assert reply(app, "wallclock", str(WALL))[1]
    wall_at = app.now
    ok, f = reply(app, "schedule", str(WALL - 5))[1:]
    assert not ok and "past" in f["detail"]
    ok, f = reply(app, "schedule", str(WALL + 5), "20")[1:]
    assert ok, f
    sched_t = wall_at + 5000
    until(app, board, sched_t - 100)
    assert app.clock.state == E.IDLE
    until(app, board, sched_t + 300)
    assert app.clock.state == E.RUNNING and app.clock.turn == E.WHITE
    starts = [r for r in records(app) if r.code == E.EV_START]
    assert starts[-1].t == sched_t                        # the set instant, not the pass
    board.press_lever(LEFT, (sched_t + 8000) * 1000)      # White arrived and moved
    until(app, board, sched_t + 21000)
    arr = of(app, EV.EV_ARRIVAL)
    assert [(r.side, r.arg // 1000) for r in arr] == [(E.WHITE, 8)]
    dflt = of(app, EV.EV_DEFAULT_TIME)
    assert [(r.side, r.arg, r.t) for r in dflt] == [(E.BLACK, 20, sched_t + 20000)]
    st = reply(app, "status")[2]
    assert st["default"] == "2" and st["arrived"] == "1"
    assert board.tones == 0                               # for the arbiter only: no sound
    ok, f = reply(app, "arrive", "black")[1:]
    assert not ok   # no key and a game in progress: refused (the arbiter's key needed)
    assert sessionops.arrive(app.session, E.BLACK, app.now)
    assert of(app, EV.EV_ARRIVAL)[-1].arg > 20000          # after the default time
    sched = of(app, EV.EV_SCHEDULE)
    assert [(r.arg, r.fields["default_s"]) for r in sched] == [(WALL + 5, 20)]


def test_the_scheduled_start_closes_the_set_up_menu_so_levers_work():
    board, app = boot()
    assert reply(app, "wallclock", str(WALL))[1]
    assert reply(app, "schedule", str(WALL + 3))[1]
    t = nav(board, app, 500, BTN_MENU)
    assert app.menu.active()
    until(app, board, 3500)
    assert app.clock.state == E.RUNNING and not app.menu.active()
    board.press_lever(LEFT, 4000000)
    until(app, board, 4200)
    assert app.clock.moves[E.WHITE] == 1 and t
    # a new control after the scheduled start waits for the arbiter: no second start
    app.new_game("fide-rapid")
    until(app, board, 5500)
    assert app.clock.state == E.IDLE


def test_a_default_time_of_zero_is_reached_at_the_start():
    board, app = boot()
    assert reply(app, "wallclock", str(WALL))[1]
    assert reply(app, "arrive", "white")[1]
    assert reply(app, "schedule", str(WALL + 2), "0")[1]
    until(app, board, app.now + 2500)
    assert app.clock.state == E.RUNNING
    # arrivals are counted from the schedule set (an earlier mark is cleared by it)
    assert sorted(r.side for r in of(app, EV.EV_DEFAULT_TIME)) == [E.WHITE, E.BLACK]


def _defaulted_game(board, app):
    """A scheduled game whose 1 s default time passed with both players absent."""
    assert reply(app, "wallclock", str(WALL))[1]
    assert reply(app, "schedule", str(WALL + 1), "1")[1]
    until(app, board, app.now + 2500)
    assert app.clock.state == E.RUNNING
    assert reply(app, "status")[2]["default"] == "3"


def _games(app):
    """Per game header, the codes of its records."""
    games = []
    for r in records(app):
        if r.code == EV.EV_HEADER:
            games.append([])
        elif games:
            games[-1].append(r.code)
    return games


def test_the_default_time_alert_clears_when_its_game_ends_and_stays_in_its_log():
    board, app = boot()
    _defaulted_game(board, app)
    app.clock.end(app.now)               # what `end` and the arbiter menu's End do
    until(app, board, app.now + 300)
    assert reply(app, "status")[2]["default"] == "0"
    assert app.session.defaulted == 0
    app.new_game("fide-rapid")           # the next game: no alert, none logged
    until(app, board, app.now + 3000)
    assert reply(app, "status")[2]["default"] == "0"
    games = _games(app)
    assert EV.EV_DEFAULT_TIME in games[-2]   # the game it happened in
    assert games[-2].index(EV.EV_DEFAULT_TIME) < games[-2].index(E.EV_END)
    assert EV.EV_DEFAULT_TIME not in games[-1]


def test_the_default_time_alert_clears_when_a_new_game_is_set_up():
    board, app = boot()
    _defaulted_game(board, app)
    app.new_game("fide-blitz")            # a new control over the running game
    assert reply(app, "status")[2]["default"] == "0"
    assert reply(app, "schedule", "0")[1]  # schedule off: still nothing
    until(app, board, app.now + 2000)
    assert reply(app, "status")[2]["default"] == "0"
    assert EV.EV_DEFAULT_TIME in _games(app)[-2]


def test_a_default_time_not_reached_when_its_game_is_over_is_not_logged_in_the_next():
    board, app = boot()
    assert reply(app, "wallclock", str(WALL))[1]
    assert reply(app, "schedule", str(WALL + 1), "5")[1]
    until(app, board, app.now + 1500)
    assert app.clock.state == E.RUNNING
    app.clock.end(app.now)                # over before its default time ran out
    app.new_game("fide-rapid")
    until(app, board, app.now + 6000)
    assert of(app, EV.EV_DEFAULT_TIME) == []
    assert reply(app, "status")[2]["default"] == "0"


# ---- low-time mark and stage sounds (seed 7.1, 4.8) ------------------------------------
def test_low_time_mark_is_logged_silent_in_competition_and_beeps_in_casual_play():
    for spec, competition in (("fide-active-1987", True), ("31m", False)):
        board, app = boot()
        app.new_game(spec)
        app.clock.set_time(E.WHITE, S.LOW_TIME_MS + 1000, app.now)
        start(board, app, 500)
        tones = board.tones
        until(app, board, 2000)
        low = of(app, EV.EV_LOW_TIME)
        assert [(r.side, r.arg) for r in low] == [(E.WHITE, S.LOW_TIME_MS)], spec
        assert 1400 <= low[0].t <= 1600
        assert (board.tones == tones) == competition, spec
        assert reply(app, "status")[2]["lowtime"] == "1"
        until(app, board, 3000)
        assert len(of(app, EV.EV_LOW_TIME)) == 1                # once per crossing


def test_stage_passes_are_silent_in_competition_presets():
    for spec, competition in (("fce-six-hour", True), ("2m/2+1m", False)):
        board, app = boot()
        app.new_game(spec)
        start(board, app, 500)
        tones = board.tones
        t = 1000
        for i in range(4):
            board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000)
            t += 400
        until(app, board, t)
        n_stage = len([r for r in records(app) if r.code == E.EV_STAGE])
        if not competition:
            assert n_stage == 2 and board.tones > tones, spec
        else:
            assert n_stage == 0 and board.tones == tones, spec
            # the six-hour session passes after 40 moves: make it pass now
            app.clock.set_moves(E.WHITE, 39, app.now)
            board.press_lever(LEFT, t * 1000)
            until(app, board, t + 300)
            assert [r.code for r in records(app)].count(E.EV_STAGE) == 1
            assert board.tones == tones, spec


def test_the_link_operations_refuse_bad_arguments_with_a_clear_error():
    board, app = boot()
    bad = [("selftest", ("x",)), ("result", ()), ("result", ("2-0",)), ("result", ("1-0",)),
           ("incident", ()), ("incident", ("x",)), ("schedule", ()),
           ("schedule", ("abc",)), ("schedule", ("-1",)), ("schedule", ("9" * 40,)),
           ("schedule", ("1796000000", "-5")), ("schedule", ("1796000000",)),
           ("arrive", ()), ("arrive", ("green",)), ("arrive", ("white", "black"))]
    for op, args in bad:
        ok, f = reply(app, op, *args)[1:]
        assert not ok, (op, args)
        assert f["code"] in (P.E_ARGS, P.E_STATE), (op, args, f)
        assert f["detail"], (op, args)
    # nothing changed and nothing was logged for them but what the clock did before
    assert app.clock.state == E.IDLE and app.session.sched_t < 0
    assert of(app, EV.EV_RESULT) == [] and of(app, EV.EV_INCIDENT) == []
