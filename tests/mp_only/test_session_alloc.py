# The session's work in the loop (clockapp/session.py: scheduled start and default time
# pending, low-time mark armed, arrivals) allocates nothing in a pass while a clock runs
# and nobody touches it. MicroPython only (gc.mem_alloc counts the heap).

import gc

from simutil import boot

from clockapp import sessionops
from clockapp.board import BTN_START


def passes(app, board, n):
    i = 0
    while i < n:
        app.step()
        board.idle(1000)
        i += 1


def window(app, board, n):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    passes(app, board, n)
    d = gc.mem_alloc() - a
    gc.enable()
    return d


def test_no_allocation_in_the_loop_with_the_session_armed():
    board, app = boot()
    app.new_game("fide-rapid")
    app.wall_s = 1796000000
    app.wall_at = app.now
    sessionops.schedule(app.session, 1796000000 + 600, 3600)   # pending: checked each pass
    board.press_buttons(BTN_START, 500000)
    passes(app, board, 1500)
    assert app.session.armed[0] and app.session.sched_t >= 0
    sizes = [window(app, board, 300) for _ in range(6)]
    sizes.sort()
    assert sizes[len(sizes) // 2] == 0, sizes
