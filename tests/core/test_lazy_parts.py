# What a clock loads only when it is first needed, off the heap of a game that never needs
# it (docs/FIRMWARE.md, "Modules"): the menus (clockapp/menu.py), the adjournment
# (clockapp/seal.py), the notation parser (clockcore/notation.py) for the plainest typed
# controls, the presets' titles (clockcore/presetinfo.py: the host's), the saved game's
# reader (clockapp/gameread.py: at boot, then dropped), the log read back
# (clockapp/storelog.py), the log's budget (clockapp/logprune.py), the engine's rarer
# corrections (clockcore/corrections.py), the journal's fold (clockapp/storefold.py), the
# rarer log records' bodies (clockcore/logbody.py); and on the simulator board, its flash
# models (boards/simflash.py), off the heap benchmarks' stand-in board. And what a boot
# reads only when first asked for: the host's pulled mark (EventLog.pulled).
# Each is checked absent after a boot and a game, then present (or, dropped, its work
# done) after its first use. CPython and the MicroPython unix port (tests/mp_run.py).

import sys

from simutil import boot, text, until

import clockapp
import clockcore
from clockapp import gamestate
from clockapp.board import BTN_MENU, BTN_MINUS, BTN_PLUS, BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import notation, presets

LAZY = ("clockapp.menu", "clockapp.seal", "clockcore.notation", "clockcore.plausible",
        "clockcore.presetinfo", "clockapp.gameread", "clockapp.storelog",
        "clockapp.logprune", "clockcore.corrections", "clockapp.storefold",
        "clockcore.logbody")


def _forget():
    """As on a clock just powered on: none of the lazy modules imported yet."""
    for name in LAZY:
        sys.modules.pop(name, None)
        pkg = clockapp if name.startswith("clockapp.") else clockcore
        leaf = name[name.find(".") + 1:]
        if leaf in pkg.__dict__:
            delattr(pkg, leaf)


def _loaded():
    return [name for name in LAZY if name in sys.modules]


def _start_and_four_moves(board, app):
    """START, then two moves each 1.5 s apart; the last press's instant (ms)."""
    board.press_buttons(BTN_START, 1000000)
    t = 1200
    until(app, board, t)
    for i in range(4):
        t += 1500
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000)
        until(app, board, t + 100)
    return t


def _blitz(spec="3m+2s"):
    """A clock set to `spec` (as settings.json keeps it) booted, started, four moves."""
    board, app = boot()
    app.new_game(spec)
    root = board.root
    _forget()
    board, app = boot(root)   # the next power-on: the control read back from flash
    assert app.settings.spec == spec
    t = _start_and_four_moves(board, app)
    assert app.clock.state == E.RUNNING and app.clock.moves == [2, 2]
    return board, app, t


def test_a_blitz_game_loads_none_of_them():
    board, app, t = _blitz()
    assert _loaded() == []
    board.press_buttons(BTN_START, (t + 100) * 1000)   # START pauses, without the menu
    until(app, board, t + 300)
    assert app.clock.state == E.PAUSED and not app.menu.active()
    board.press_buttons(BTN_START, (t + 400) * 1000)   # and resumes
    until(app, board, t + 600)
    assert app.clock.state == E.RUNNING
    assert _loaded() == []


def test_the_set_up_menu_loads_with_its_first_press_and_works():
    _forget()
    board, app = boot()
    assert "clockapp.menu" not in sys.modules
    board.press_buttons(BTN_MENU, 1000000)
    until(app, board, 1200)
    assert "clockapp.menu" in sys.modules and app.menu.active()
    assert text(board.left) == "PrSt"
    board.press_buttons(BTN_START, 1300000)    # edit the preset: the first one
    until(app, board, 1500)
    board.press_buttons(BTN_PLUS, 1600000)     # the second one
    until(app, board, 1800)
    board.press_buttons(BTN_START, 1900000)    # taken: the menu closes
    until(app, board, 2100)
    assert not app.menu.active() and app.settings.spec == presets.PRESETS[1].key


def test_the_arbiter_menu_loads_with_its_hold_and_works():
    board, app, t = _blitz()
    board.press_buttons(BTN_START, (t + 100) * 1000)   # paused
    until(app, board, t + 300)
    board.press_buttons(BTN_MENU, (t + 400) * 1000, hold_us=2300000)
    until(app, board, t + 2800)
    assert "clockapp.menu" in sys.modules and app.menu.active()
    assert app.menu.items()[app.menu.item] == "SIdE"
    assert "clockapp.seal" not in sys.modules   # a hold on a paused clock is no seal
    board.press_buttons(BTN_PLUS, (t + 2900) * 1000)    # +2
    until(app, board, t + 3000)
    before = app.clock.main[E.WHITE]
    board.press_buttons(BTN_START, (t + 3100) * 1000)
    until(app, board, t + 3200)
    assert app.clock.main[E.WHITE] == before + 120000
    board.press_buttons(BTN_MINUS, (t + 3300) * 1000, hold_us=50000)
    board.press_buttons(BTN_MENU, (t + 3500) * 1000)    # closes
    until(app, board, t + 3700)
    assert not app.menu.active()


def test_seal_mode_loads_the_adjournment_and_a_saved_seal_comes_back_with_it():
    board, app, t = _blitz()
    board.press_buttons(BTN_MENU, (t + 100) * 1000, hold_us=2300000)   # a running game
    until(app, board, t + 2500)
    assert "clockapp.seal" in sys.modules and app.seal.phase == 1    # SEALING
    other = app.lever_of_side(1 - app.seal.sealer)
    assert text(board.left if other == LEFT else board.right) == "SEAL"
    app.save_state()
    root = board.root
    _forget()
    board, app = boot(root)                    # a power cut in seal mode
    assert "clockapp.seal" in sys.modules and app.seal.phase == 1
    assert app.seal.session == 1


def test_seal_start_over_the_link_on_a_clock_that_never_sealed_answers_sealing():
    from clockapp import ops_adjourn  # the link's seal (its key check passed)
    board, app, t = _blitz()
    assert "clockapp.seal" not in sys.modules
    fields = dict(ops_adjourn.op_seal(app.link, [b"start"]))
    assert (fields["seal"], fields["sealer"]) == ("sealing", "white")
    assert app.seal.phase == 1 and "clockapp.seal" in sys.modules


def test_a_plain_typed_control_needs_no_parser():
    _forget()
    board, app = boot()
    app.new_game("5m+3s")
    assert _loaded() == []
    assert app.clock.main == [300000, 300000]
    assert app.clock.stages[E.WHITE][0].inc_ms == 3000
    app.new_game("90m/40+30m")                 # anything else: the parser
    assert "clockcore.notation" in sys.modules


def test_the_plain_forms_read_as_the_parser_reads_them():
    # every control the set-up menu's SEt writes (1-600 min, +0-120 s), and a margin
    for m in range(1, 1000):
        for s in (0, 1, 2, 30, 120, 999):
            spec = "%dm+%ds" % (m, s)
            assert presets.quick(spec) == notation.parse(spec), spec
    for s in range(0, 1000):
        spec = "3m+%ds" % s
        assert presets.quick(spec) == notation.parse(spec), spec
    assert presets.quick("7m") == notation.parse("7m")
    for spec in ("3", "3+2", "03m+2s", "3m+02s", "3M+2s", "3m+2S", " 3m+2s", "3m+2s ",
                 "3m+", "3m+s", "m+2s", "1000m", "0m+2s", "3m2s", "3m+2", "fide-blitz", 3):
        assert presets.quick(spec) is None, spec


def test_a_preset_game_builds_its_preset_only_and_no_titles():
    _forget()
    presets._BUILT.clear()
    board, app = boot()
    app.new_game("rapid")
    assert app.preset.key == "fide-rapid" and app.clock.main == [900000, 900000]
    # the boot's default and the one set; the others stay rows of the table
    assert sorted(presets._BUILT) == ["fide-blitz", "fide-rapid"]
    assert "clockcore.presetinfo" not in sys.modules
    assert app.preset.title == "FIDE rapid: 15 min + 10 s"   # the host's lists load it
    assert "clockcore.presetinfo" in sys.modules


def test_a_power_cut_restores_the_game_and_drops_the_reader():
    board, app, t = _blitz()
    main = list(app.clock.main)
    app.save_state()
    _forget()
    board, app = boot(board.root)               # the power comes back
    assert app.clock.state == E.PAUSED and app.clock.moves == [2, 2]
    assert app.clock.main == main
    assert "clockapp.gameread" not in sys.modules   # read, then dropped
    assert "clockcore.logbody" in sys.modules       # the boot record's snapshot
    clock, meta = gamestate.decode(app.store.load_state())    # another reading loads it
    assert "clockapp.gameread" in sys.modules and clock.main == main


def test_the_log_read_back_loads_its_module_and_reads_the_game():
    board, app, t = _blitz()
    app.flush()
    assert "clockapp.storelog" not in sys.modules
    records = list(app.store.read_log())
    assert "clockapp.storelog" in sys.modules
    assert len(records) > 4 and app.store.log_size() > 0


def test_an_adjourned_game_loads_on_a_clock_that_never_sealed():
    board, app, t = _blitz()
    board.press_buttons(BTN_MENU, (t + 100) * 1000, hold_us=2300000)   # seal mode
    until(app, board, t + 2500)
    board.press_buttons(BTN_START, (t + 2600) * 1000)                  # handed in
    until(app, board, t + 2800)
    assert app.seal.phase == 2 and app.clock.state == E.PAUSED        # SEALED
    data = app.store.load("sealed.bin")
    _forget()
    board2, app2 = boot()
    assert "clockapp.seal" not in sys.modules
    digest = app2.load_adjourned(data)
    assert digest == app.seal.digest and app2.seal.phase == 2
    assert app2.clock.main == app.clock.main and app2.clock.state == E.PAUSED


def test_the_budget_loads_with_the_first_log_over_it():
    board, app, t = _blitz()
    app.clock.end(app.now)
    until(app, board, t + 300)
    assert "clockapp.logprune" not in sys.modules    # under its budget
    app.logw.budget = 200
    app.log(E.EV_PAUSE, E.NOBODY, app.now, 0)
    until(app, board, t + 600)                       # flushed: over it, no clock running
    assert "clockapp.logprune" in sys.modules and app.logw.warn   # nothing pulled: kept


def test_the_checked_files_listing_loads_with_the_log_reader():
    _forget()
    board, app = boot()
    app.new_game("fide-rapid")      # a control set: settings.json written
    assert "clockapp.storelog" not in sys.modules
    assert "settings.json" in app.store.names()
    assert "clockapp.storelog" in sys.modules


def test_clearing_the_state_loads_the_log_reader_and_clears_it():
    _forget()
    board, app = boot()
    app.save_state()
    assert app.store.load_state() is not None
    assert "clockapp.storelog" not in sys.modules
    assert app.store.clear_state()
    assert "clockapp.storelog" in sys.modules
    assert app.store.load_state() is None
    assert app.store.save_json("fav", [1]) and app.store.delete("fav")
    assert app.store.load_json("fav") is None


def test_the_pulled_mark_is_read_when_first_asked_for():
    board, app, t = _blitz()
    lg = app.logw
    assert lg._pulled is None                        # a game never asked for it
    assert lg.pulled == -1 and lg.mark_pulled(3) and lg.pulled == 3
    board2, app2 = boot(board.root)
    assert app2.logw._pulled is None and app2.logw.pulled == 3


def test_the_journal_s_fold_loads_with_the_first_pause_past_its_limit_and_folds():
    _forget()
    board, app = boot(journal_blocks=8)
    store = app.store
    store.fold_bytes = 1 << 20                   # a journal with room: no fold
    t = _start_and_four_moves(board, app)
    board.press_buttons(BTN_START, (t + 200) * 1000)   # paused: still room
    until(app, board, t + 400)
    assert app.clock.state == E.PAUSED and not store.jr.empty()
    assert "clockapp.storefold" not in sys.modules
    store.fold_bytes = 0                         # past the limit: the pause folds it
    until(app, board, t + 3000)
    assert "clockapp.storefold" in sys.modules
    assert store.fold_phase == 0 and store.jr.empty()
    assert [p[0] for p in store.read_log()] != [] and store.load_state() is not None
    assert gamestate.decode(store.load_state())[0].moves == [2, 2]


def test_a_running_game_drops_the_links_operations_until_used_again():
    from clockcore import protocol as P

    def ask(app, rid, op, *args):
        line = P.encode_request(rid, op, list(args), None, None)
        return P.decode_reply(app.link.handle(line[:-1])[:-1])

    board, app = boot()
    assert ask(app, 1, "set", "3m+2s")[1]
    assert "clockapp.ops_game" in sys.modules
    until(app, board, 500)                        # no game: kept
    assert "clockapp.ops_game" in sys.modules
    assert ask(app, 2, "start")[2]["state"] == "running"
    until(app, board, 700)                        # a game on, a quiet pass: dropped
    assert "clockapp.ops_game" not in sys.modules and "ops_game" not in clockapp.__dict__
    ok, fields = ask(app, 3, "log", "0")[1:]      # an area in the game: imported again
    assert ok and int(fields["n"]) > 0 and "clockapp.ops_log" in sys.modules
    until(app, board, 900)
    assert "clockapp.ops_log" in sys.modules      # kept: a host pulls again and again
    app.clock.end(app.now)                        # over: a keyless clock's changes again
    until(app, board, 1100)
    assert ask(app, 4, "set", "5m")[2]["spec"] == "5m"
    assert "clockapp.ops_game" in sys.modules and app.clock.main == [300000, 300000]


def test_setting_a_control_over_the_link_loads_no_corrections():
    from clockcore import protocol as P
    for name in ("clockapp.ops_game", "clockapp.ops_fix"):
        sys.modules.pop(name, None)
        if name[9:] in clockapp.__dict__:
            delattr(clockapp, name[9:])
    board, app = boot()
    line = P.encode_request(1, "set", ["3m+2s"], None, None)
    assert P.decode_reply(app.link.handle(line[:-1])[:-1])[1]
    assert "clockapp.ops_game" in sys.modules and "clockapp.ops_fix" not in sys.modules
    line = P.encode_request(2, "addinc", ["both", "5000"], None, None)
    assert P.decode_reply(app.link.handle(line[:-1])[:-1])[1]   # no game yet: taken
    assert "clockapp.ops_fix" in sys.modules
    assert app.clock.stages[E.WHITE][-1].inc_ms == 5000


def test_the_engines_corrections_load_with_the_first_one():
    board, app, t = _blitz()
    assert "clockcore.corrections" not in sys.modules
    c = app.clock
    moves = list(c.moves)
    assert c.undo_press(app.now)                 # the last press was not a move
    assert "clockcore.corrections" in sys.modules
    assert c.moves[1 - c.turn] == moves[1 - c.turn] and sum(c.moves) == sum(moves) - 1


def test_the_simulators_flash_models_load_only_for_a_board_with_a_journal():
    import boards
    sys.modules.pop("boards.simflash", None)
    if "simflash" in boards.__dict__:
        delattr(boards, "simflash")
    board, app, t = _blitz()
    assert "boards.simflash" not in sys.modules and board.flash is None
    board, app = boot(journal_blocks=4)
    assert "boards.simflash" in sys.modules and board.flash is not None
    _start_and_four_moves(board, app)
    assert app.clock.moves == [2, 2] and board.flash.programs >= 4
    assert app.store.jr is not None
