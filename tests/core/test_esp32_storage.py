# The ESP32's storage (boards/sim.py's esp32_flash model: littlefs on the "vfs" partition
# of its SPI flash, the journal reserved in it by boards/rawflash.py as on the board):
# a press waits for no erase and for at most one small page program, and a power cut
# anywhere in a game loses nothing written. Runs on CPython and the MicroPython unix port.

from simutil import fresh_dir

from boards.sim import SimBoard, run_until
from clockapp import journal as J
from clockapp.app import App
from clockapp.board import BTN_START, LEFT, RIGHT
from clockcore import engine as E

PAGE = 256


def _watch_presses(board, app):
    """[edge us, moves before, redraw us, its path] for each close of the running side's
    lever: the edge when the lever closes (not when the app hears of it), the redraw when
    a display is drawn with the move counted, and the path: the flash operations between
    the two (one under way at the edge included). Operations no press can meet any more
    are let go (the unix port's heap)."""
    presses = []
    ops = board.flash.ops
    real_edge = board._edge

    def edge(lever, closed):
        c = app.clock
        if closed and c.state == E.RUNNING:
            side = E.WHITE if (lever == LEFT) == app.settings.white_left else E.BLACK
            if side == c.turn:
                presses.append([board.t, c.moves[0] + c.moves[1], -1, None])
        real_edge(lever, closed)

    board._edge = edge
    for d in board.displays():
        def render(view, orig=d.render):
            orig(view)
            moves = app.clock.moves[0] + app.clock.moves[1]
            cutoff = board.t
            for p in presses:
                if p[2] < 0 and moves > p[1]:
                    p[2] = board.t
                    p[3] = [o for o in ops if o[1] > p[0] and o[0] < p[2]]
                elif p[2] < 0 and p[0] < cutoff:
                    cutoff = p[0]
            k = 0
            while k < len(ops) and ops[k][1] <= cutoff:
                k += 1
            del ops[:k]
        d.render = render
    return presses


def _saves(app, board):
    at = []
    real = app.store.save_state

    def save(payload):
        at.append(board.t)
        return real(payload)

    app.store.save_state = save
    return at


def _esp32_game(journal_blocks):
    """A game on the ESP32 model whose presses fall into the flash writes: replies 30 ..
    80 ms after the opponent's press (its log record and state are written then), and
    presses after a long think swept in 37 us steps across the running clock's 10-second
    save; a pause (the journal folded and erased) and more of the same after it.
    (board, app, the presses watched, the partition's operations before the start)."""
    root = fresh_dir()
    # the first boot reserves the journal (~3 s of erases), and the control is set
    App(SimBoard(root, journal_blocks=journal_blocks, esp32_flash=True)).new_game(
        "fide-rapid")                  # time enough for 70 thinks of 10 s
    board = SimBoard(root, journal_blocks=journal_blocks, esp32_flash=True)
    app = App(board)
    assert board.t < 500000, board.t
    board.flash.ops = []               # noted from here on
    app.store.fold_bytes = 0           # fold whatever the journal holds, when no clock runs
    run_until(app, board, 1000000)
    while app.store.folding():         # the first boot's records folded, erased
        run_until(app, board, board.t + 100000)
    erases_before = board.flash.erases   # the boot's fold's
    presses = _watch_presses(board, app)
    saves = _saves(app, board)
    board.press_buttons(BTN_START, board.t + 100000)
    t = board.t + 1000000
    lever = LEFT
    for k in range(50):
        board.press_lever(lever, t, hold_us=30000)      # a quick reply to it
        lever = 1 - lever
        t += 30000 + 1000 * k
        board.press_lever(lever, t, hold_us=30000)
        lever = 1 - lever
        t += 600000
    for k in range(70):
        if k == 35:                    # a pause: the fold's erases, then play on
            board.press_buttons(BTN_START, t)
            t += 600000
            board.press_buttons(BTN_START, t)
            t += 300000
        run_until(app, board, t)
        board.press_lever(lever, t, hold_us=80000)
        lever = 1 - lever
        run_until(app, board, t + 100000)
        t = saves[-1] + 10000000 + 37 * k   # the next press: this one's think, its save
        run_until(app, board, t - 5000)
        board.press_lever(lever, t, hold_us=80000)
        lever = 1 - lever
        t += 300000
    run_until(app, board, t + 1000000)
    return board, app, presses, erases_before


def test_an_esp32_press_waits_for_no_erase_and_one_page_program_at_most():
    board, app, presses, erases_before = _esp32_game(24)
    assert app.clock.state == E.RUNNING
    assert all(p[2] >= 0 for p in presses)                       # every press shown
    assert app.clock.moves[0] + app.clock.moves[1] == len(presses) == 240, len(presses)
    for p in presses:
        ops = p[3]
        assert not [o for o in ops if o[2] == "erase"], p
        assert len(ops) <= 1 and all(o[3] <= PAGE for o in ops), p
    # the sweep did put presses into the writes
    assert len([p for p in presses if p[3]]) >= 5
    # the pause was shorter than the fold's erases: the journal took the writes again
    store = app.store
    assert 5 <= board.flash.erases - erases_before < 24
    assert store.jr.limit < store.jr.size and J.KIND_LOG in [k for _p, k, _b in
                                                              store.jr.records()]
    # a longer pause folds it and erases it whole
    records = [bytes(p) for p in store.read_log()]
    board.press_buttons(BTN_START, board.t + 100000)
    run_until(app, board, board.t + 4000000)
    assert app.clock.state == E.PAUSED and not store.folding() and store.jr.empty()
    assert store.jr.limit == store.jr.size
    assert [bytes(p) for p in store.read_log()][:len(records)] == records


def _ends(board, blocks):
    """Each block's bytes outside the journal's: littlefs's pointers and the tag."""
    part = board.flash
    out = []
    for b in blocks:
        head = bytearray(32)
        tail = bytearray(16)
        part.readblocks(b, head, 0)
        part.readblocks(b, tail, 4080)
        out.append(bytes(head) + bytes(tail))
    return out


def test_the_journal_s_erases_keep_littlefs_s_pointers_and_the_tags():
    # littlefs walks the file's blocks by those pointers (its allocator does, on every
    # boot's first write), and the clock finds the blocks at boot by the tags: an erase
    # is of the whole 4 KB block, so they are programmed back after it
    root = fresh_dir()
    App(SimBoard(root, journal_blocks=4, esp32_flash=True))
    board = SimBoard(root, journal_blocks=4, esp32_flash=True)
    app = App(board)
    blocks = list(app.store.jr.dev.map)
    ends = _ends(board, blocks)
    assert [e[32:36] for e in ends] == [b"CKJ1"] * 4 and ends[1][:4] != b"\xff" * 4
    app.store.fold_bytes = 0
    run_until(app, board, board.t + 1000000)       # folded and erased, set up
    assert app.store.jr.empty() and board.flash.erases >= 4
    assert _ends(board, blocks) == ends
    board.press_buttons(BTN_START, board.t + 100000)
    t = board.t + 500000
    for i in range(6):
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t + 700000 * i)
    run_until(app, board, t + 5000000)
    records = [bytes(p) for p in app.store.read_log()]
    state = app.store.load_state()
    # the next boot finds the same blocks, with what the presses wrote into them
    again = SimBoard(root, journal_blocks=4, esp32_flash=True)
    jr = again.journal()
    assert jr.dev.map == blocks and jr.frames >= 12
    from clockapp.storage import Store
    store = Store(again.storage_root(), again.fs, jr)
    assert [bytes(p) for p in store.read_log()] == records and store.load_state() == state


def test_a_power_cut_while_the_first_boot_reserves_the_journal():
    # the cut falls in littlefs's writes of /journal.bin (its erases, its pages) or in
    # the boot's own writes after it: the next boot finds the blocks or reserves them anew
    from boards.sim import PowerCut
    n = 0
    cuts = 0
    while True:
        root = fresh_dir()
        board = SimBoard(root, journal_blocks=4, esp32_flash=True)
        board.cut_power_after(n)
        try:
            App(board)
        except PowerCut:
            cuts += 1
        else:
            break
        again = SimBoard(root, journal_blocks=4, esp32_flash=True)
        app = App(again)
        jr = app.store.jr
        assert jr is not None and len(set(jr.dev.map)) == 4, n
        assert [e[32:36] for e in _ends(again, jr.dev.map)] == [b"CKJ1"] * 4, n
        run_until(app, again, again.t + 2000000)     # a torn frame: folded, erased
        assert jr.clean and not app.store.folding(), n
        assert app.store.append_log(b"\x00" * 12) and not jr.empty(), n
        n += 1499
    assert cuts > 15
