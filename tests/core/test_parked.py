# A press while the loop is parked (its own collection after a press, a module loading) is
# taken in the lever interrupt (App._take_parked), not after the loop is back. On the
# simulator board a collection takes board time as on a board, and an edge inside it is
# delivered then, as the hard interrupt does. (tests/mp_only/test_alloc.py: the same with
# the heap locked.)

from simutil import boot, until

from clockapp.board import BTN_START, LEFT, RIGHT
from clockcore import engine as E
from clockcore import protocol as P


def game(collect_us=25000):
    """A running 3+2 game whose collections take collect_us of board time."""
    board, app = boot()

    def collect():
        board.collected += 1
        board.advance_to(board.t + collect_us)   # edges in it reach the interrupt

    board.collect = collect
    board.press_buttons(BTN_START, 1000000)
    until(app, board, 1200)
    assert app.clock.state == E.RUNNING and app.clock.turn == E.WHITE
    return board, app


def test_a_press_in_the_collection_after_a_press_is_shown_from_the_interrupt():
    board, app = game()
    board.press_lever(LEFT, 3000000, hold_us=4000)     # White's press: a collection follows
    board.press_lever(RIGHT, 3008000, hold_us=40000)   # Black's, 8 ms later, inside it
    n = board.collected
    until(app, board, 3003)
    assert board.collected == n + 1 and app.parked_presses == 1
    c = app.clock
    assert c.moves == [1, 1] and c.turn == E.WHITE
    # charged at its edge, and drawn there: not when the collection ended (3,028 ms on)
    assert board.right.drawn_at == 3008000 and not board.right.view.running
    assert board.left.view.running and board.running_led == LEFT
    assert app.parked_errors == 0 and not app.parked


def test_the_same_press_through_the_loop_gives_the_same_game():
    played = []
    for collect_us in (40000, 0):   # in the collection; after it (no collection time)
        board, app = game(collect_us)
        t = 3000000
        for k in range(30):   # each as soon as the other lever is up again, as in blitz
            board.press_lever(LEFT if k % 2 == 0 else RIGHT, t, hold_us=30000)
            t += 31000 + (k % 4) * 3000
        until(app, board, t // 1000 + 100)
        played.append((app.clock.moves[:], app.clock.main[:], app.parked_presses))
    assert played[0][:2] == played[1][:2]
    assert played[0][0] == [15, 15]
    assert played[0][2] > 10 and played[1][2] == 0


def test_an_error_in_the_interrupts_press_leaves_the_displays_to_the_loop():
    board, app = game()
    render = board.right.render
    failed = []

    def flaky(view):
        if app.parked and not failed:
            failed.append(board.t)
            raise OSError(5)   # a bus error, say
        render(view)

    board.right.render = flaky
    board.press_lever(LEFT, 3000000, hold_us=4000)
    board.press_lever(RIGHT, 3008000, hold_us=40000)
    until(app, board, 3100)
    assert failed == [3008000] and app.parked_errors == 1
    c = app.clock
    assert c.moves == [1, 1] and c.turn == E.WHITE   # taken once
    assert not board.right.view.running and board.right.drawn_at > 3008000   # by the loop


def test_no_press_is_taken_in_the_interrupt_while_the_loop_is_not_parked():
    board, app = game(0)
    board.press_lever(LEFT, 3000000, hold_us=40000)
    until(app, board, 3100)
    assert app.clock.moves == [1, 0] and app.parked_presses == 0


def test_a_link_area_is_loaded_parked():
    board, app = game()
    seen = []
    load = app.load

    def spy(name):
        seen.append(name)
        return load(name)

    link = app.link    # the link itself: loaded parked too, at a host's first byte
    app.load = spy
    reply = link.handle(P.encode_request(7, "moves", ["white", "3"]).rstrip(b"\n"))
    assert b" err " in reply and seen == []   # unsigned, refused: nothing loaded
    reply = link.handle(P.encode_request(8, "log", ["0", "64"]).rstrip(b"\n"))
    assert b" ok " in reply and seen == ["ops_log"], reply
    assert not app.parked


def test_load_parks_the_loop_while_it_imports():
    board, app = game()
    try:
        import builtins
        real = builtins.__import__
    except (ImportError, AttributeError):
        return   # a port whose __import__ cannot be wrapped (MicroPython): the link test
    seen = []

    def spy(name, *a, **k):
        if name.startswith("clockapp."):
            seen.append((name, app.parked))
        return real(name, *a, **k)

    builtins.__import__ = spy
    try:
        mod = app.load("ops_admin")
    finally:
        builtins.__import__ = real
    assert seen and seen[0] == ("clockapp.ops_admin", True) and all(p for _, p in seen)
    assert mod.__name__ == "clockapp.ops_admin"
    assert not app.parked
    try:
        app.load("no_such_module")
    except ImportError:
        pass
    assert not app.parked


def test_a_log_reply_is_made_in_a_heap_collected_parked():
    # A log reply's kilobytes go into a heap just collected, the loop parked, twice: before
    # its base64, and before it is framed and queued. A press in such a collection is taken
    # in the interrupt (a collection MicroPython started inside the allocations would not
    # be parked: ~25 ms on a Pico, and the press waited).
    board, app = game()
    board.press_lever(LEFT, 3000000, hold_us=4000)
    until(app, board, 3100)                 # White's press: a record to pull, Black runs
    parked = []
    collect = board.collect

    def spy():
        parked.append(app.parked)
        collect()

    board.collect = spy
    board.press_lever(RIGHT, board.t + 5000, hold_us=4000)   # inside the collection
    reply = app.link.handle(P.encode_request(9, "log", ["0", "1024"]).rstrip(b"\n"))
    assert b" ok " in reply and parked == [True, True]
    assert app.clock.moves == [1, 1] and app.parked_presses == 1
    n = int(P.decode_reply(bytes(reply).rstrip(b"\n"))[2]["n"])
    assert n >= 3   # the header, the start, the press at least



def test_a_press_while_the_loop_rests_between_passes_is_taken_in_the_interrupt():
    board, app = game(0)
    app.step()
    t = board.t
    board.press_lever(LEFT, t + 300, hold_us=5000)   # in the rest's second quarter
    app.rest()
    assert app.parked_presses == 1 and app.clock.moves == [1, 0] and not app.parked
    assert board.left.drawn_at == t + 300 and not board.left.view.running
    assert board.right.view.running and board.running_led == RIGHT
    assert board.t == t + 1000    # the rest went on: nothing left for the loop
    until(app, board, board.t // 1000 + 20)
    t = board.t
    board.press_lever(LEFT, t + 300, hold_us=5000)   # the waiting side's: not armed
    app.rest()
    assert board.t < t + 1000 and app.ring.pending()  # the rest ends: the loop's edge
    assert app.parked_presses == 1
    app.step()
    assert app.clock.moves == [1, 0] and app.clock.turn == E.BLACK



def _game_with_collections_seen():
    """A game whose host takes 16 bytes a pass; each collection of the board is seen as
    (parked, reply bytes still queued, reply bytes out)."""
    from test_serialport import FakePort
    port = FakePort(room=16)            # the host takes 16 bytes a pass
    board, app = game(0)
    board.port = port
    app.serial_port = port
    seen = []
    collect = board.collect

    def spy():
        seen.append((app.parked, port.queued, len(port.out)))
        collect()

    board.collect = spy
    return board, app, port, seen


def test_a_requests_garbage_is_collected_parked_once_its_reply_is_out():
    # A request leaves garbage (a refusal: its exception, its record, its reply): collected
    # the pass after its reply's last byte went out, the loop parked, not left for
    # MicroPython to collect where the heap runs out, inside a later request (not parked:
    # a press there waited for the whole collection).
    board, app, port, seen = _game_with_collections_seen()
    until(app, board, 1300)
    assert seen == []                   # nothing asked: nothing to collect
    port.inbox += P.encode_request(5, "set", ["5m"])   # keyless, in a game: refused
    until(app, board, 1400)
    out = bytes(port.out)
    rid, ok, fields = P.decode_reply(out.rstrip(b"\n"))
    assert (rid, ok, fields["code"]) == (5, False, P.E_AUTH_REQUIRED)
    assert len(out) > 48                # drained over several passes
    assert seen == [(True, 0, len(out))]   # once, parked, after the last byte


def test_a_long_reply_made_in_a_collected_heap_is_not_collected_again():
    # A status reply (over 256 bytes) is framed in a heap the link has just collected,
    # parked: that collection is the request's one, none follows its last byte.
    board, app, port, seen = _game_with_collections_seen()
    port.inbox += P.encode_request(6, "status", [])
    until(app, board, 1400)
    out = bytes(port.out)
    assert P.decode_reply(out.rstrip(b"\n"))[:2] == (6, True) and len(out) > 256
    assert seen == [(True, 0, 0)]       # before the reply was framed, and only then
