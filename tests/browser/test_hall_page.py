"""The hall page in a real headless browser (Debian's chromium driven by Playwright)
against simulated clocks (`chessclock sim-serve`'s SimServer: the firmware app on a pty),
the station polling them through chessclock.link.transport as `chessclock hall` does.

Run by `make test-hall` (not `make test`: it needs chromium). HALL_SHOTS=DIR keeps the
screenshots there (`make hall-shots` writes docs/).
"""

import os
import shutil
import time

import pytest

from chessclock.hall.hub import Hub, LocalSink
from chessclock.hall.pairings import Round
from chessclock.hall.station import Station
from chessclock.hall.web import ServerThread, create_app
from chessclock.link import transport as L
from chessclock.sim.serve import SimServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no chromium: "
                                "make test-hall installs it")
KEY = bytes(range(32))


def wait_ready(path):
    deadline = time.monotonic() + 10
    while True:
        try:
            with L.Link(path, timeout=0.5) as lk:
                return lk.request("hello")
        except L.ClockError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def setup_clock(path, control="300+2"):
    """Key and control on a fresh simulated clock, then the game started."""
    with L.Link(path, timeout=1.0) as lk:
        lk.request("keyset", KEY.hex(), change=True)
    with L.Link(path, key=KEY, timeout=1.0) as lk:
        lk.request("set", control, change=True)
        lk.request("start", change=True)


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hall")
    clocks = [SimServer(str(tmp / ("flash%d" % i)), "sim-%d" % i) for i in (1, 2, 3)]
    try:
        for c in clocks:
            wait_ready(c.path)
            setup_clock(c.path)
        rnd = Round("Hall Test Open", 3)
        for i, (w, b) in enumerate((("Alice Anders", "Bruno Braga"),
                                    ("Chen Cong", "Dana Dvorak"),
                                    ("Emil Eriksen", "Fatima Fares")), start=1):
            rnd.add(i, w, b, clock="sim-%d" % i)
        hub = Hub(rnd, stale_s=3.0)
        station = Station("table", [c.path for c in clocks], LocalSink(hub), interval=0.1,
                          timeout=0.5, archive=str(tmp / "logs"))
        station.start()
        server = ServerThread(create_app(hub, [station], title="Hall A")).start()
        yield {"hub": hub, "station": station, "url": server.url, "clocks": clocks}
        server.stop()
        station.stop()
    finally:
        for c in clocks:
            c.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def shot(page, name):
    folder = os.environ.get("HALL_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def worker(hall, n):
    w = hall["station"].workers[n - 1]
    deadline = time.monotonic() + 5
    while w.link is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return w


def card(page, board):
    return page.locator('section.card[data-board="%d"]' % board)


def open_page(browser, hall, **kw):
    page = browser.new_page(**kw)
    page.goto(hall["url"] + "/")
    for n in (1, 2, 3):
        card(page, n).wait_for()
    return page


def test_press_shows_on_the_page(hall, browser):
    # How fast is a figure of `make bench` (hall_press_to_page_p99_ms), not a timed test:
    # here the press must show, pushed by the server (no reload), within a generous bound.
    page = open_page(browser, hall, viewport={"width": 1280, "height": 800})
    c = card(page, 1)
    assert "Alice Anders" in c.inner_text() and "Bruno Braga" in c.inner_text()
    white = c.locator('.side[data-side="w"]')
    assert "running" in white.get_attribute("class")       # White's clock runs
    t0 = time.monotonic()
    worker(hall, 1).call("sim", "press", "left")            # White's lever
    page.wait_for_function("""() => {
        const c = document.querySelector('section.card[data-board="1"]');
        return c.querySelector('.side[data-side="b"]').classList.contains('running') &&
               c.querySelector('.side[data-side="w"] .mv').textContent.startsWith('1 ');
    }""", timeout=15000)
    assert time.monotonic() - t0 < 15
    shot(page, "hall-page.png")
    page.close()


def test_flag_shows_and_is_listed(hall, browser):
    page = open_page(browser, hall, viewport={"width": 1280, "height": 800})
    w = worker(hall, 2)
    w.act("settime", ["white", "1500"], KEY)   # White (running) has 1.5 s left
    c = card(page, 2)
    c.locator('.side[data-side="w"].flagged').wait_for(timeout=5000)
    assert "flag fell" in c.locator('.side[data-side="w"] .fl').inner_text()
    page.locator("#flags", has_text="board 2 White").wait_for(timeout=2000)
    assert hall["hub"].by_board()[2]["fo"] == "w"
    shot(page, "hall-flag.png")
    page.close()


def test_action_needs_the_key(hall, browser):
    page = open_page(browser, hall, viewport={"width": 1280, "height": 800})
    c = card(page, 1)
    before = hall["hub"].by_board()[1]["s"]
    page.on("dialog", lambda d: d.dismiss())
    c.locator('button[data-op="pause"]').click()
    page.locator("#keydlg[open]").wait_for()               # the page asks for the key
    page.locator("#keydlg button[value=cancel]").click()
    page.locator("#msg", has_text="key is needed").wait_for()
    time.sleep(0.5)
    assert hall["hub"].by_board()[1]["s"] == before == "running"  # nothing happened
    # a wrong key: the clock refuses, nothing happens
    c.locator('button[data-op="pause"]').click()
    page.fill("#keyinput", "00" * 32)
    page.click("#keyok")
    page.locator("#msg", has_text="auth-failed").wait_for(timeout=5000)
    assert hall["hub"].by_board()[1]["s"] == "running"
    shot(page, "hall-refused.png")
    # the right key: paused
    c.locator('button[data-op="pause"]').click()
    page.fill("#keyinput", KEY.hex())
    page.click("#keyok")
    page.locator("#msg", has_text="pause done").wait_for(timeout=5000)
    c.locator(".state", has_text="paused").wait_for(timeout=2000)
    # +2 min for Black, with the key kept in the page
    b_before = hall["hub"].by_board()[1]["b"]
    c.locator('button:has-text("+2 min Black")').click()
    page.locator("#msg", has_text="adjust done").wait_for(timeout=5000)
    deadline = time.monotonic() + 2
    while hall["hub"].by_board()[1]["b"] != b_before + 120000:
        assert time.monotonic() < deadline, "no +2 min on the page's clock"
        time.sleep(0.05)
    page.close()


def test_unplugged_clock_shows(hall, browser):
    page = open_page(browser, hall, viewport={"width": 390, "height": 844},
                     is_mobile=True, device_scale_factor=2)    # a phone
    hall["clocks"][2].stop()                                    # board 3's cable pulled
    c = card(page, 3)
    c.locator(".badge.gone").wait_for(timeout=5000)
    assert "NOT ANSWERING" in c.inner_text()
    shot(page, "hall-phone.png")
    page.close()


def test_broadcast_pgn_reads_back(hall):
    import io
    import urllib.request

    import chess.pgn
    with urllib.request.urlopen(hall["url"] + "/broadcast/round.pgn") as r:
        text = r.read().decode()
    games = []
    f = io.StringIO(text)
    while (g := chess.pgn.read_game(f)) is not None:
        games.append(g)
    assert [g.headers["Board"] for g in games] == ["1", "2", "3"]
    g1 = games[0]
    assert (g1.headers["White"], g1.headers["Black"], g1.headers["Round"]) == \
        ("Alice Anders", "Bruno Braga", "3")
    plies = list(g1.mainline())
    # 300+2: what White has left after one move, its increment included
    assert len(plies) >= 1 and plies[0].clock() is not None and 0 < plies[0].clock() <= 302


def test_a_pushed_pairing_names_the_board_without_a_pairings_file(tmp_path, browser):
    # `chessclock pairings push` told the clock its board and players; the hall
    # runs with no --pairings and still shows them (the station reads them from status)
    c = SimServer(str(tmp_path / "flash"), "sim-pushed")
    station = server = None
    try:
        wait_ready(c.path)
        with L.Link(c.path, timeout=1.0) as lk:
            lk.request("pairing", 7, 4, "Greta Gómez", "Hugo Holm", "Hall Test Open",
                       change=True)
        hub = Hub(None, stale_s=3.0)
        station = Station("table", [c.path], LocalSink(hub), interval=0.1, timeout=0.5,
                          archive=None)
        station.start()
        server = ServerThread(create_app(hub, [station], title="Hall B")).start()
        page = browser.new_page()
        page.goto(server.url + "/")
        cd = card(page, 7)
        cd.wait_for(timeout=5000)
        assert "7" in cd.locator(".bd").inner_text()
        names = cd.inner_text()
        assert "Greta Gómez" in names and "Hugo Holm" in names, names
        page.close()
    finally:
        if server is not None:
            server.stop()
        if station is not None:
            station.stop()
        c.stop()


def test_another_site_cannot_act_through_the_browser(hall, browser):
    """A page of another origin (here: another port) posts an action with the right key
    (as a script would if it had it): the hall refuses the cross-origin write."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    from chessclock.hall.web import ServerThread

    target = hall["url"] + "/api/action"
    before = hall["hub"].by_board()[1]["s"]
    op = "resume" if before == "paused" else "pause"
    html = ("<script>window.done = fetch(%r, {method: 'POST', mode: 'no-cors', "
            "headers: {'Content-Type': 'text/plain'}, body: JSON.stringify({clock: "
            "'table/sim-1', op: %r, key: %r})}).then(() => 'sent', e => 'err');"
            "</script>" % (target, op, KEY.hex()))

    async def evil(request):
        return HTMLResponse(html)
    other = ServerThread(Starlette(routes=[Route("/", evil)])).start()
    try:
        page = browser.new_page()
        page.goto(other.url + "/")
        assert page.evaluate("window.done") in ("sent", "err")
        time.sleep(0.5)
        assert hall["hub"].by_board()[1]["s"] == before        # nothing happened
        page.close()
    finally:
        other.stop()
