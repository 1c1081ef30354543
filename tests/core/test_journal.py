# The pre-erased journal (clockapp/journal.py) and its place in storage (clockapp/storage.py):
# a running game programs pages and never erases; the journal is folded into log.bin and
# the state slots while no clock runs; a full one spills in order. Runs on CPython and on
# the MicroPython unix port. Power cuts through it: test_app_sim.py.


from simutil import fresh_dir

from boards.sim import SimBoard, run_until
from clockapp import gamestate as G
from clockapp import journal as J
from clockapp.app import App
from clockapp.board import BTN_START, LEFT, RIGHT
from clockapp.storage import Store
from clockcore import engine as E
from clockcore.eventlog import seq_of


def _kinds(jr):
    return [k for _p, k, _b in jr.records()]


def _file_records(store):
    return [bytes(p) for p in store._read_file_log()]


def _files(board):
    """The storage folder's files other than the journal, with their bytes."""
    out = {}
    for n in board.fs.listdir(board.root):
        if n != "journal.bin":
            with open(board.root + n, "rb") as f:
                out[n] = f.read()
    return out


def _game(blocks, presses, t0=1000):
    """A board with a journal of `blocks`, a game started and `presses` made 700 ms apart;
    (board, app, the saved payloads)."""
    board = SimBoard(fresh_dir(), journal_blocks=blocks)
    app = App(board)
    saved = []
    real = app.store.save_state

    def save(payload):
        saved.append(bytes(payload))
        return real(payload)

    app.store.save_state = save
    app.store.fold_bytes = 0              # fold whatever it holds, when no clock runs
    run_until(app, board, t0 * 1000)      # set-up: the boot's records folded, erased
    assert not app.store.folding()
    board.erases_at_start = board.flash.erases
    board.files_at_start = _files(board)
    board.press_buttons(BTN_START, t0 * 1000)
    t = t0 + 500
    for i in range(presses):
        t += 700
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000)
    run_until(app, board, (t + 500) * 1000)
    return board, app, saved


def test_frames_are_found_again_and_a_torn_last_one_ends_the_journal():
    board = SimBoard(fresh_dir(), journal_blocks=2)
    jr = board.journal()
    assert jr.clean and jr.end == 0 and jr.size == 2 * (4080 - 32)
    bodies = [bytes([i]) * (40 + 97 * i) for i in range(12)]   # frames across pages, blocks
    for b in bodies:
        assert jr.append(J.KIND_LOG, b)
    end = jr.end
    again = SimBoard(board.root, journal_blocks=2).journal()
    assert [b for _p, _k, b in again.records()] == bodies
    assert again.clean and again.end == end and again.log_bytes == jr.log_bytes
    # a frame torn by a cut: the journal ends before it, and is no longer appendable
    board.fs.cut_after = board.fs.written + 300
    try:
        jr.append(J.KIND_LOG, b"x" * 600)
        raise AssertionError("no cut")
    except Exception as e:
        assert type(e).__name__ == "PowerCut"
    torn = SimBoard(board.root, journal_blocks=2).journal()
    assert [b for _p, _k, b in torn.records()] == bodies
    assert torn.end == end and not torn.clean and not torn.append(J.KIND_LOG, b"y")
    # erased, the first block first, it is clean and empty again
    torn.start_erase()
    assert not torn.erase_step() and torn.erase_step()
    assert torn.empty() and list(torn.records()) == []


def test_a_running_game_programs_pages_and_never_erases():
    board, app, saved = _game(8, 30)
    store = app.store
    assert app.clock.state == E.RUNNING and app.clock.moves == [15, 15]
    assert board.flash.erases == board.erases_at_start and board.flash.programs > 30
    assert _files(board) == board.files_at_start    # nothing through the file system
    kinds = _kinds(store.jr)
    assert kinds.count(J.KIND_FULL) == 1 and kinds.count(J.KIND_DYN) >= 30
    # what a reboot reads is what was saved and logged, to the byte
    records = [bytes(p) for p in store.read_log()]
    again = Store(board.root, board.fs, SimBoard(board.root, journal_blocks=8).journal())
    assert again.load_state() == saved[-1]
    assert [bytes(p) for p in again.read_log()] == records
    seqs = [seq_of(p) for p in records]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))


def test_a_journal_under_half_full_is_not_folded_at_set_up():
    # START is a polled button: pressed during an erase, the clock would start late
    board = SimBoard(fresh_dir(), journal_blocks=8)
    app = App(board)
    run_until(app, board, 2000000)
    assert app.clock.state == E.IDLE and app.store.jr.frames >= 2
    assert not app.store.folding() and board.flash.erases == 0
    app.store.fold_bytes = app.store.jr.end - 1
    assert app.store.folding()


def test_paused_the_journal_is_folded_into_the_files_then_erased():
    board, app, saved = _game(8, 10)
    records = [bytes(p) for p in app.store.read_log()]
    board.press_buttons(BTN_START, board.t + 100000)       # pause
    run_until(app, board, board.t + 3000000)
    store = app.store
    assert app.clock.state == E.PAUSED and not store.folding()
    assert board.flash.erases == board.erases_at_start + 8 and store.jr.empty()
    got = [bytes(p) for p in store.read_log()]
    assert got[:len(records)] == records                     # the pause's own come after
    assert _file_records(store) == got                       # all of it in log.bin, once
    assert G.decode(store.load_state())[0].moves == [5, 5]
    seq, _slot, payload = store._slots_best()
    assert payload == store.load_state() and seq == store._state_seq
    # playing on writes to the journal again
    erases = board.flash.erases
    board.press_buttons(BTN_START, board.t + 100000)
    board.press_lever(LEFT, board.t + 900000)
    run_until(app, board, board.t + 1500000)
    assert app.clock.moves == [6, 5] and board.flash.erases == erases
    assert J.KIND_LOG in _kinds(store.jr)


def _spilled_whole(app):
    """50 moves each, and every log record in log.bin once, in order, the spill done."""
    store = app.store
    assert app.clock.moves == [50, 50]
    records = [bytes(p) for p in store.read_log()]
    seqs = [seq_of(p) for p in records]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))   # none lost, none twice
    assert store.fold_phase == 2 and _file_records(store) == records


def test_a_full_journal_spills_its_records_into_log_bin_in_order():
    board, app, saved = _game(1, 100)          # one block: full after some 40 presses
    store = app.store
    _spilled_whole(app)
    assert G.decode(store.load_state())[0].moves == [50, 50]
    assert store.load_state() == saved[-1]


def test_a_spill_short_of_heap_goes_in_smaller_writes():
    """A heap with no block for a whole chunk (the RP2040 at boot after a power cut: a
    2.6 KB join raised MemoryError and the clock did not come back): the records go in
    smaller writes, none lost, none twice."""
    from clockapp import storefold
    real = storefold.copy_logs
    calls = []

    def copy(st, limit, log):
        calls.append(limit)
        if limit > 300:
            raise MemoryError("memory allocation failed")
        return real(st, limit, log)

    storefold.copy_logs = copy
    try:
        board, app, saved = _game(1, 100)
    finally:
        storefold.copy_logs = real
    _spilled_whole(app)
    assert 4096 in calls and 256 in calls


def test_a_value_past_int32_is_saved_whole_not_as_changed_fields():
    board = SimBoard(fresh_dir(), journal_blocks=2)
    store = Store(board.root, board.fs, board.journal())
    app_board = SimBoard(fresh_dir())
    clock = App(app_board).clock
    p1 = G.encode(clock, {"spec": "x"})
    clock.main[0] = 1 << 33          # 99 days: no int32
    p2 = G.encode(clock, {"spec": "x"})
    clock.main[0] = 5000
    p3 = G.encode(clock, {"spec": "x"})
    for p in (p1, p2, p3):
        assert store.save_state(p)
    assert _kinds(store.jr) == [J.KIND_FULL, J.KIND_FULL, J.KIND_DYN]
    assert store.load_state() == p3
    assert J.apply_dyn(p2, J.dyn_of(p3, p2)) == p3
    assert J.dyn_of(p3, p1) == J.dyn_of(p3, p1) and len(J.dyn_of(p3, p1)) == 7 + 4 + 4
    try:
        J.apply_dyn(p1, J.dyn_of(p3, p1) + b"\x00")
        raise AssertionError("a bad frame was applied")
    except ValueError:
        pass


def test_a_running_clock_s_ten_second_save_is_a_small_frame():
    board, app, saved = _game(8, 4)
    jr = app.store.jr
    end = jr.end
    run_until(app, board, board.t + 10500000)     # no press: the 10 s save only
    assert app.clock.state == E.RUNNING and _kinds(jr)[-1] == J.KIND_DYN
    assert jr.end - end <= 48       # frame 8, kind 1, seq and base 8, head 7, mask 4, 5 ints


def test_clearing_the_log_erases_the_journal_and_keeps_the_state():
    board, app, saved = _game(4, 6)
    store = app.store
    store.fold_bytes = store.jr.size           # not folded in the pause: all in the journal
    board.press_buttons(BTN_START, board.t + 100000)
    run_until(app, board, board.t + 300000)
    assert app.clock.state == E.PAUSED and not store.jr.empty()
    fed = board.watchdog_fed
    assert store.clear_log()
    assert store.jr.empty() and list(store.read_log()) == []
    assert board.watchdog_fed - fed >= 3       # between the 4 erases
    assert G.decode(store.load_state())[0].moves == [3, 3]


def test_a_frame_that_fits_a_page_is_one_page_program():
    # a press waits at most for the one flash program under way when its lever closes:
    # a frame across a page boundary would be two
    board = SimBoard(fresh_dir(), journal_blocks=4)
    jr = board.journal()
    bodies = [bytes([i]) * (20 + (i * 37) % 200) for i in range(60)]   # 20 .. 219 bytes
    for b in bodies:
        programs = board.flash.programs
        assert jr.append(J.KIND_LOG, b)
        assert board.flash.programs == programs + 1, len(b)
    big = b"z" * 400                     # larger than a page: its pages, in order
    assert jr.append(J.KIND_LOG, big)
    again = SimBoard(board.root, journal_blocks=4).journal()
    assert [b for _p, _k, b in again.records()] == bodies + [big]
    assert again.clean and again.end == jr.end and again.log_bytes == jr.log_bytes
    assert again.append(J.KIND_LOG, b"after") and again.end > jr.end


def test_a_pause_shorter_than_the_fold_leaves_the_journal_to_the_presses():
    # START again while the fold erases: the erases wait for the next pause, the presses
    # go on into the journal (the blocks erased so far), never into the files
    board, app, saved = _game(8, 10)
    store = app.store
    board.press_buttons(BTN_START, board.t + 100000)       # pause: the fold starts
    board.press_buttons(BTN_START, board.t + 330000)       # and play on during its erases
    run_until(app, board, board.t + 700000)
    erased = board.flash.erases - board.erases_at_start
    assert app.clock.state == E.RUNNING and 1 <= erased < 8
    files = _files(board)
    t = board.t
    for i in range(12):
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t + 700000 * (i + 1))
    run_until(app, board, t + 700000 * 13)
    assert app.clock.moves == [11, 11]
    assert board.flash.erases - board.erases_at_start == erased and _files(board) == files
    kinds = _kinds(store.jr)
    assert J.KIND_FULL in kinds and kinds.count(J.KIND_LOG) >= 12
    # what a reboot reads: every record once, in order, and the last state
    records = [bytes(p) for p in store.read_log()]
    seqs = [seq_of(p) for p in records]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    again = Store(board.root, board.fs, SimBoard(board.root, journal_blocks=8).journal())
    assert again.load_state() == saved[-1]
    assert [bytes(p) for p in again.read_log()] == records
    # a longer pause folds it all and erases it whole
    board.press_buttons(BTN_START, board.t + 100000)
    run_until(app, board, board.t + 2000000)
    assert app.clock.state == E.PAUSED and not store.folding() and store.jr.empty()
    assert store.jr.limit == store.jr.size
    assert [bytes(p) for p in store.read_log()][:len(records)] == records
    assert G.decode(store.load_state())[0].moves == [11, 11]


def test_a_start_tap_between_two_erases_is_seen():
    # Paused (or powered again after a cut), the journal is erased a block a pass, and an
    # erase holds the CPU 45 ms. A START tap that a pass's reading catches is read again
    # before the next erase: an 80 ms tap starting just after a reading starts the clock.
    board, app, _ = _game(8, 10)
    board.press_buttons(BTN_START, board.t + 100000)       # pause: the fold starts
    erases = board.flash.erases
    while board.flash.erases < erases + 2 or app.buttons:   # erasing, START let go
        app.step()
        board.idle(1000)
    assert app.store.folding()
    t = board.t
    board.press_buttons(BTN_START, t + 500, hold_us=80000)  # after the next pass's reading
    run_until(app, board, t + 300000)
    assert app.clock.state == E.RUNNING
    assert board.flash.erases - erases < 8                   # the fold left for later


def test_a_fold_stopped_before_its_first_erase_leaves_the_journal_as_it_was():
    board = SimBoard(fresh_dir(), journal_blocks=4)
    store = Store(board.root, board.fs, board.journal())
    store.fold_bytes = 0
    jr = store.jr

    def record(seq):
        return bytes((seq & 0xFF, 0, 0, 0)) + b"r" * 20

    def fold_until(erased):
        while not (store.fold_phase == 3 and jr.erase_next == erased):
            assert store.fold_step()

    for s in range(10):
        assert store.append_log(record(s))
    fold_until(1)                    # a block erased: the journal starts anew in it
    store.stop_fold()
    assert jr.clean and jr.empty() and jr.limit < jr.size
    for s in range(10, 20):
        assert store.append_log(record(s))
    limit = jr.limit
    fold_until(0)                    # folded, its erases not begun: as it was
    store.stop_fold()
    assert store.fold_phase == 0 and jr.clean and jr.limit == limit and jr.frames == 10
    assert store.append_log(record(20)) and jr.frames == 11
    assert [p[0] for p in store.read_log()] == list(range(21))
