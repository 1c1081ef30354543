"""The hall without a browser or a broker: the signed message, a clock's tracker, the hub,
pairings in (CSV, TRF-16) and results out, the broadcast PGN (read back with
python-chess), the page's server with in-process simulated clocks, and the command's
errors. The browser and broker tiers are tests/browser and tests/hall (`make test-hall`).
"""

import io
import json
import time
import urllib.error
import urllib.request

import chess.pgn
import pytest
from cliutil import wait_ready

from chessclock import cli
from chessclock.hall import broadcast, pairings
from chessclock.hall.fakeclock import FakeClock, opener
from chessclock.hall.hub import Hub, LocalSink
from chessclock.hall.station import Station
from chessclock.hall.tracker import Tracker
from chessclock.hall.web import ServerThread, create_app
from clockcore import engine as E
from clockcore import hallmsg

KEY = bytes(range(32))


# ---- the message -------------------------------------------------------------------------
def test_message_signed_bound_to_its_topic():
    t = hallmsg.clock_topic("open", "hall-a", "clock7")
    p = hallmsg.encode(KEY, t, {"clk": "clock7", "w": 1000})
    assert hallmsg.decode(KEY, t, p) == {"v": 1, "clk": "clock7", "w": 1000}
    with pytest.raises(ValueError, match="wrong mac"):
        hallmsg.decode(b"\x02" * 32, t, p)                # another key
    with pytest.raises(ValueError, match="wrong mac"):
        hallmsg.decode(KEY, hallmsg.clock_topic("open", "hall-a", "clock8"), p)  # moved
    with pytest.raises(ValueError, match="wrong mac"):
        hallmsg.decode(KEY, t, p.replace(b"1000", b"9000"))  # changed
    with pytest.raises(ValueError, match="not signed"):
        hallmsg.decode(KEY, t, b'{"v": 1}')
    with pytest.raises(ValueError, match="over"):
        hallmsg.decode(KEY, t, b"x" * 2000)
    assert hallmsg.safe_name("/dev/pts/3") == "dev_pts_3"
    assert not hallmsg.name_ok("a/b") and not hallmsg.name_ok("#") and hallmsg.name_ok("b-7")


# ---- a clock's tracker -----------------------------------------------------------------------
def status(**kw):
    s = {"state": "running", "run": "white", "t": "1000", "w": "300000", "b": "300000",
         "wmoves": "0", "bmoves": "0", "wflag": "-1", "bflag": "-1", "batlow": "0",
         "bat": "4000", "soc": "-1", "refused": "0", "spec": "300+2"}
    s.update({k: str(v) for k, v in kw.items()})
    return s


def test_tracker_plies_flags_and_news():
    tr = Tracker("c1", "st")
    assert tr.update(status(), 0)
    assert not tr.update(status(w=299000, t=2000), 1)       # only the runner's time: no news
    assert tr.update(status(run="black", w=295000, wmoves=1, t=6000), 2)   # White pressed
    assert tr.update(status(run="white", w=295000, b=290000, wmoves=1, bmoves=1, t=16000),
                     3)                                       # Black pressed
    assert [p[2] for p in tr.plies] == [295000, 290000]      # each exact: side waiting
    # two presses between polls: White's ply takes its last time seen
    tr.update(status(run="black", w=280000, b=288000, wmoves=2, bmoves=1, t=30000), 4)
    tr.update(status(run="black", w=270000, b=287000, wmoves=3, bmoves=2, t=50000), 5)
    assert [n for n, _, _ in tr.plies] == [1, 2, 3, 4, 5]
    tr.update(status(run="white", w=270000, b=287000, wmoves=3, bmoves=1, t=51000), 6)  # undo
    assert [(n, s) for n, s, _ in tr.plies] == [(1, "w"), (2, "b"), (3, "w"), (4, "w")]
    assert tr.update(status(bflag=61000, wflag=60000, wmoves=3, bmoves=1, t=62000), 7)
    assert tr.body["fo"] == "wb"                             # White's fell first
    assert tr.fail("no reply", 8) and tr.body["up"] == 0 and tr.body["wm"] == 3
    m1, m2 = tr.message(), tr.message()
    assert m2["seq"] == m1["seq"] + 1 and m1["sid"] == m2["sid"]
    tr.update(status(state="idle", run="-"), 9)
    assert tr.plies == []                                    # a new game


def test_a_clock_pushed_its_pairing_names_its_board_without_a_pairings_file():
    # `chessclock pairings push`: the clock's status has board and names
    tr = Tracker("c1", "st")
    tr.update(status(board="12", round="3", white="Anna Müller", black="B" * 40), 0)
    assert (tr.body["bd"], tr.body["wn"], tr.body["bn"]) == (12, "Anna Müller", "B" * 20)
    hub = Hub(None)
    hub.put(dict(tr.message(), at=10000))
    row = hub.view()[1][0]
    assert (row["bd"], row["white"], row["black"]) == (12, "Anna Müller", "B" * 20)
    assert list(hub.by_board()) == [12]
    rows = pairings.results(None, hub.by_board())       # results.csv without a file
    assert (rows[0]["board"], rows[0]["white"]) == (12, "Anna Müller")
    from chessclock.hall.web import _game
    pgn = chess.pgn.read_game(io.StringIO(_game(hub, 12, hub.by_board()[12])))
    assert (pgn.headers["Board"], pgn.headers["White"]) == ("12", "Anna Müller")
    tr.update(status(), 1)                                   # cleared: no board any more
    assert "bd" not in tr.body and "wn" not in tr.body



def test_tracker_and_results_carry_the_session_marks():
    # docs/SESSION.md: the default time passed, a failed self-test, the result entered
    tr = Tracker("c1", "st")
    tr.update(status(default=2, selftest=4, result=3), 0)
    assert (tr.body["dft"], tr.body["stf"], tr.body["res"]) == (2, 4, "1/2-1/2")
    tr.update(status(), 1)                                   # an older firmware: none
    assert (tr.body["dft"], tr.body["stf"], tr.body["res"]) == (0, -1, "")
    hub = Hub(None)
    hub.put(body("c1", 1, dft=1, stf=0, res="1-0", fo="b", bf=4000))
    row = hub.view()[1][0]
    assert (row["dft"], row["stf"], row["res"]) == (1, 0, "1-0")
    # an entered result wins over what a flag implies (the arbiter's word)
    assert pairings.decided(list(hub.bodies().values())[0])[0] == "1-0"
    assert pairings.decided(body("c2", 1, fo="b", bf=4000))[0] == "1-0"
    assert pairings.decided(body("c2", 1, fo="w", wf=4000, res="1/2-1/2"))[0] == "1/2-1/2"


# ---- the hub ------------------------------------------------------------------------------------
def body(clk, seq, **kw):
    b = {"st": "s", "clk": clk, "sid": "x", "seq": seq, "at": 10000, "t": 5000, "s": "running",
         "wm": 0, "bm": 0, "fo": "", "wf": -1, "bf": -1, "pl": []}
    b.update(kw)
    return b


def test_hub_order_of_flags_replays_plies_and_boards():
    rnd = pairings.Round("Open", 1)
    rnd.add(1, "A", "B", clock="c1")
    rnd.add(2, "C", "D", clock="s/c2")
    hub = Hub(rnd)
    assert hub.put(body("c1", 1, wm=1, bm=1, pl=[[1, 299000], [2, 298000]]))
    assert not hub.put(body("c1", 1))                      # the same message again: refused
    assert hub.refused == 1
    # c2's black flag fell at 4000 ms (seen at 10000 wall, clock t 5000: fell at 9000),
    # c1's white flag at 4500 of its line seen at 12000 with t 5000: fell at 11500
    hub.put(body("c2", 1, fo="b", bf=4000))
    hub.put(body("c1", 2, wm=1, bm=1, fo="w", wf=4500, at=12000, pl=[[2, 298000]]))
    _, rows, flags, _ = hub.view()
    assert [(f["board"], f["side"]) for f in flags] == [(2, "b"), (1, "w")]
    assert {r["bd"]: (r["white"], r["black"]) for r in rows} == {1: ("A", "B"), 2: ("C", "D")}
    assert hub.by_board()[1]["plies"] == [(1, 299000), (2, 298000)]   # kept across messages
    hub.put(body("c1", 3, wm=1, bm=0, fo="w", wf=4500))     # an undo: ply 2 goes
    assert hub.by_board()[1]["plies"] == [(1, 299000)]
    hub.put(body("wifi", 1, at=0))                          # a clock without wall time
    assert [r["age"] for r in hub.view()[1] if r["clk"] == "wifi"][0] < 1000
    hub.stale_s = 0.05
    time.sleep(0.1)
    assert hub.check_stale() and all(r["stale"] for r in hub.view()[1])
    res = pairings.results(rnd, hub.by_board())
    assert [(r["board"], r["result"]) for r in res] == [(1, "0-1"), (2, "1-0")]


def test_hub_refuses_replays_after_a_removal_and_from_long_before():
    from chessclock.hall.hub import REPLAY_WINDOW_S
    hub = Hub()
    flag = body("c1", 5, fo="w", wf=4000, at=100000)
    assert hub.put(flag) and [f["side"] for f in hub.view()[2]] == ["w"]
    assert hub.put(body("c1", 6, gone=1, at=101000))           # a signed removal
    assert "s/c1" not in hub.bodies() and hub.view()[2] == []   # its flag goes too
    assert not hub.put(flag)                                    # replayed: refused
    assert "s/c1" not in hub.bodies() and hub.view()[2] == []
    # a message of an earlier session, from long before the station's newest: refused
    assert hub.put(body("c2", 1, sid="new", at=10 ** 7))
    old = body("c3", 9, sid="old", fo="b", bf=10, at=10 ** 7 - REPLAY_WINDOW_S * 1000 - 1)
    assert not hub.put(old) and "s/c3" not in hub.bodies()
    # a flag from a replay is dropped when the clock's next message does not show it
    assert hub.put(body("c2", 2, sid="new", fo="w", wf=5, at=10 ** 7 + 10))
    assert hub.put(body("c2", 3, sid="new", at=10 ** 7 + 20))
    assert hub.view()[2] == []
    # presence messages: the same session needs a higher seq
    assert hub.put_station("s", {"st": "s", "up": 1, "sid": "p", "seq": 4, "at": 10 ** 7})
    assert not hub.put_station("s", {"st": "s", "up": 1, "sid": "p", "seq": 3})
    # an earlier session's "gone", from long before: refused
    assert not hub.put_station("s", {"st": "s", "up": 0, "sid": "q", "seq": 9, "at": 1000})
    assert hub.stations["s"]["up"] == 1
    # the broker's will of this session (signed at connect: a lower seq, an old time)
    assert hub.put_station("s", {"st": "s", "up": 0, "sid": "p", "seq": 1, "at": 1000})
    assert hub.stations["s"]["up"] == 0


def test_subscriber_ignores_empty_and_refuses_unsigned_removals():
    import types

    from chessclock.hall.mqtt import Subscriber
    hub = Hub()
    err = io.StringIO()
    sub = Subscriber(("127.0.0.1", 1), "open", KEY, hub, err=err)
    topic = hallmsg.clock_topic("open", "s", "c1")

    def deliver(payload, t=topic):
        sub._on_message(None, None, types.SimpleNamespace(topic=t, payload=payload))
    deliver(hallmsg.encode(KEY, topic, body("c1", 1)))
    assert "s/c1" in hub.bodies()
    deliver(b"")                                                # a cleared retained message
    assert "s/c1" in hub.bodies()
    deliver(hallmsg.encode(b"\x02" * 32, topic, body("c1", 2, gone=1)))   # not the hall's
    assert "s/c1" in hub.bodies() and hub.refused == 1
    deliver(hallmsg.encode(KEY, topic, body("c1", 2, gone=1)))
    assert "s/c1" not in hub.bodies()
    deliver(hallmsg.encode(KEY, topic, body("c1", 1)))         # replayed after the removal
    assert "s/c1" not in hub.bodies() and hub.refused == 2
    st_topic = hallmsg.station_topic("open", "s")
    deliver(hallmsg.encode(KEY, st_topic, {"st": "other", "up": 0}), st_topic)
    assert hub.refused == 3 and "other" not in hub.stations
    assert len(err.getvalue().splitlines()) == 2               # said once a topic


# ---- pairings in, results out ------------------------------------------------------------
def trf_player(rank, name, rating, points, rounds):
    line = "001 %4d %1s%3s %-33s %4d %3s %11s %10s %4.1f %4d" % (
        rank, "m", "", name, rating, "NOR", "", "", points, rank)
    for opp, colour, res in rounds:
        line += "  %4s %1s %1s" % (opp, colour, res)
    return line


TRF = "\n".join([
    "012 Hall Open 2026",
    "042 2026/12/01",
    trf_player(1, "Alpha, Anna", 2400, 1.0, [("3", "w", "1"), ("2", "b", "")]),
    trf_player(2, "Beta, Bo", 2300, 1.0, [("4", "b", "1"), ("1", "w", "")]),
    trf_player(3, "Gamma, Cy", 2200, 0.0, [("1", "b", "0"), ("4", "w", "")]),
    trf_player(4, "Delta, Di", 2100, 0.0, [("2", "w", "0"), ("3", "b", "")]),
]) + "\n"


def test_trf_round_in_board_order_and_results_out():
    r = pairings.read_trf(TRF)
    assert (r.event, r.round) == ("Hall Open 2026", "2")
    # board 1: the leaders (1 point each), White is player 2; board 2: players 4 and 3
    assert r.boards[1]["white"] == "Beta, Bo" and r.boards[1]["black"] == "Alpha, Anna"
    assert (r.boards[2]["white"], r.boards[2]["black"]) == ("Gamma, Cy", "Delta, Di")
    assert r.headers(1)["Date"] == "2026.12.01"
    rows = pairings.results(r, {1: {"fo": "b", "bf": 3600000, "clk": "c1"}})
    assert rows[0]["result"] == "1-0" and "Black's flag fell first" in rows[0]["reason"]
    assert rows[1]["result"] == "*"
    out = pairings.results_trf(r, rows).splitlines()
    assert len(out) == 2
    blocks = {int(line[4:8]): line[101:109] for line in out}    # round 2: columns 102-109
    assert blocks == {2: "   1 w 1", 1: "   2 b 0"}
    mine = {int(line[4:8]): line for line in out}
    assert mine[1][:101] == TRF.splitlines()[2][:101]          # the player's line, round 1 kept
    assert "Black's flag" in pairings.results_csv(rows)


def test_csv_pairings_and_errors(tmp_path):
    p = tmp_path / "r1.csv"
    p.write_text("Board,White,Black,Clock,Round\n1,Ann,Bob,sim-1,4\n2,Cy,Di,/dev/ttyACM1,4\n")
    r = pairings.load(str(p), event="Club")
    assert r.board_for("sim-1") == 1 and r.board_for("x", "/dev/ttyACM1") == 2
    assert r.headers(2) == {"Event": "Club", "Round": "4", "Board": "2", "White": "Cy",
                            "Black": "Di", "Date": "????.??.??"}
    p.write_text("board,white\n1,Ann\n")
    with pytest.raises(pairings.PairingError, match="no 'black' column"):
        pairings.load(str(p))
    p.write_text("board,white,black\n1,A,B\n1,C,D\n")
    with pytest.raises(pairings.PairingError, match="board 1 is paired twice"):
        pairings.load(str(p))


def test_trf_results_carry_the_new_points():
    r = pairings.read_trf(TRF)
    rows = pairings.results(r, {1: {"fo": "b", "bf": 3600000, "clk": "c1"},
                                2: {"res": "1/2-1/2", "clk": "c2"}})
    out = {int(line[4:8]): line for line in pairings.results_trf(r, rows).splitlines()}
    # before the round: 1, 1, 0, 0; board 1 White (2) wins, board 2 drawn
    assert {rank: line[80:84] for rank, line in out.items()} == {
        2: " 2.0", 1: " 1.0", 3: " 0.5", 4: " 0.5"}
    assert out[2][86:89] == TRF.splitlines()[3][86:89]    # the rest of the line kept


def test_swiss_manager_pairing_csv(tmp_path):
    p = tmp_path / "sm.csv"
    p.write_bytes("Bo.;White;Black\r\n1.;M\u00fcller, Jan;Ek, Dan\r\n2;Cy;Di\r\n;;\r\n"
                  .encode("cp1252"))
    r = pairings.load(str(p), event="Club", round_no="3")
    assert {n: (b["white"], b["black"]) for n, b in r.boards.items()} == {
        1: ("M\u00fcller, Jan", "Ek, Dan"), 2: ("Cy", "Di")}
    p.write_text("Bo.;White;Black\n1;A;B\n", encoding="utf-8-sig")
    assert pairings.load(str(p)).boards[1]["white"] == "A"


@pytest.mark.parametrize("text, says", [
    ("Bo.;White\n1;Ann\n", "no 'black' column"),
    ("Bo.;White;Black\nx;A;B\n", "board 'x' is not a number"),
    ("Bo.;White;Black\n0;A;B\n", "boards count from 1"),
    ("Bo.;White;Black\n;;\n", "no pairing in the CSV"),
    ("", "no pairing in the CSV"),
    pytest.param(b"Bo.;White;Black\n1;\"" + b"\xff" * 140000 + b"\n", "not a pairing CSV",
                 id="a-field-over-csv-limit"),
])
def test_pairing_csv_bad_input(tmp_path, text, says):
    p = tmp_path / "bad.csv"
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    with pytest.raises(pairings.PairingError, match=says):
        pairings.load(str(p))


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example","x")', "+1+2", "-2+3",
                                  "@SUM(A1)", "\t=1", "\r=1"])
def test_results_csv_neutralises_formulas(name):
    rnd = pairings.Round("Open", 1)
    rnd.add(1, name, "Bob")
    text = pairings.results_csv(pairings.results(rnd, {1: {"fo": "w", "wf": 10, "clk": name}}))
    import csv
    row = list(csv.DictReader(io.StringIO(text, newline="")))[0]
    for col in ("white", "clock"):
        assert row[col] == "'" + name.replace("\r", " ")
    assert (row["black"], row["result"], row["board"]) == ("Bob", "0-1", "1")


# ---- broadcast -------------------------------------------------------------------------------
def test_pgn_reads_back_with_clocks():
    rnd = pairings.Round("Open", 2)
    rnd.add(5, "Ann", "Bob")
    text = broadcast.game_pgn(rnd.headers(5), {"tc": "40/5400+30:1800+30", "fo": "w",
                                               "plies": [(1, 5425500), (2, 5430000)]})
    g = chess.pgn.read_game(io.StringIO(text))
    assert (g.headers["White"], g.headers["Board"], g.headers["Round"]) == ("Ann", "5", "2")
    assert g.headers["TimeControl"] == "40/5400+30:1800+30"
    assert [n.clock() for n in g.mainline()] == [5425.5, 5430.0]
    assert "White's flag fell" in list(g.mainline())[-1].comment


# ---- the page's server, with simulated clocks in-process -----------------------------------
def post(url, data):
    req = urllib.request.Request(url, json.dumps(data).encode(),
                                 {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_server_actions_need_the_key_and_results_flow():
    clocks = {"p1": FakeClock("fake1", key=KEY), "p2": FakeClock("fake2", key=KEY)}
    rnd = pairings.Round("Open", 1)
    rnd.add(1, "Ann", "Bob", clock="fake1")
    rnd.add(2, "Cy", "Di", clock="fake2")
    hub = Hub(rnd)
    st = Station("here", list(clocks), LocalSink(hub), interval=0.05,
                 open_link=opener(clocks))
    st.start()
    server = ServerThread(create_app(hub, [st])).start()
    try:
        deadline = time.monotonic() + 3
        while len(hub.bodies()) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        act = server.url + "/api/action"
        assert post(act, {"clock": "here/fake1", "op": "pause"})[0] == 401
        code, r = post(act, {"clock": "here/fake1", "op": "pause", "key": "ab" * 32})
        assert code == 403 and "auth" in r["error"]
        assert clocks["p1"].clock.state == E.RUNNING         # nothing happened
        assert post(act, {"clock": "here/nope", "op": "pause", "key": KEY.hex()})[0] == 404
        assert post(act, {"clock": "here/fake1", "op": "settime", "args": ["white", "x"],
                          "key": KEY.hex()})[0] == 400
        code, r = post(act, {"clock": "here/fake1", "op": "pause", "key": KEY.hex()})
        assert code == 200 and clocks["p1"].clock.state == E.PAUSED
        code, r = post(act, {"clock": "here/fake2", "op": "settime",
                             "args": ["white", "300ms"], "key": KEY.hex()})
        assert code == 200
        time.sleep(0.6)                                      # White's flag on board 2
        with urllib.request.urlopen(server.url + "/results.csv") as resp:
            text = resp.read().decode()
        assert "1,2,Cy,Di,,,0-1,White's flag fell first" in text
        with urllib.request.urlopen(server.url + "/broadcast/board/2.pgn") as resp:
            g = chess.pgn.read_game(io.StringIO(resp.read().decode()))
        assert g.headers["White"] == "Cy"
        with urllib.request.urlopen(server.url + "/api/boards") as resp:
            boards = json.loads(resp.read())
        assert {b["bd"]: b["fo"] for b in boards["boards"]} == {1: "", 2: "w"}
    finally:
        server.stop()
        st.stop()


# ---- the page's server under attack (127.0.0.1 only, bounded in count and time) -----------
class Hall:
    """A hall of two fake clocks and its server (arbiter_key: the hall's --key)."""

    def __init__(self, **app_kw):
        self.clocks = {"p1": FakeClock("fake1", key=KEY), "p2": FakeClock("fake2", key=KEY)}
        self.hub = Hub()
        self.st = Station("here", list(self.clocks), LocalSink(self.hub), interval=0.05,
                          open_link=opener(self.clocks))
        self.st.start()
        self.server = ServerThread(create_app(self.hub, [self.st], **app_kw)).start()
        self.host, self.port = self.server.url[len("http://"):].split(":")
        deadline = time.monotonic() + 3
        while len(self.hub.bodies()) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.02)

    def request(self, method, path, body=None, headers=None, timeout=5):
        import http.client
        c = http.client.HTTPConnection(self.host, int(self.port), timeout=timeout)
        try:
            data = json.dumps(body).encode() if isinstance(body, dict) else body
            c.request(method, path, data, dict({"Content-Type": "application/json"},
                                                **(headers or {})))
            r = c.getresponse()
            return r.status, r.read().decode()
        finally:
            c.close()

    def stop(self):
        self.server.stop()
        self.st.stop()


@pytest.fixture
def hall():
    h = Hall(arbiter_key=KEY)
    yield h
    h.stop()


def raw_post(h, head_extra, body_parts, timeout=3.0):
    """An action POST written by hand: the status line the server answers, read within
    `timeout` (a server that waits for the whole body does not answer)."""
    import socket
    s = socket.create_connection((h.host, int(h.port)), timeout=timeout)
    try:
        s.sendall(("POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   "Content-Type: application/json\r\n%s\r\n" % head_extra).encode())
        for part in body_parts:
            try:
                s.sendall(part)
            except OSError:   # the server answered and closed: fine
                break
        return s.recv(200).split(b"\r\n")[0].decode()
    finally:
        s.close()


def test_a_huge_body_is_refused_before_it_is_read(hall):
    # 200 MB announced, 64 KB sent: the answer comes at once, the rest is never read
    assert " 413 " in raw_post(hall, "Content-Length: 200000000\r\n", [b"x" * 65536])
    # no length given (chunked): refused once it passes the limit
    chunks = [b"400\r\n" + b"x" * 1024 + b"\r\n"] * 64
    assert " 413 " in raw_post(hall, "Transfer-Encoding: chunked\r\n", chunks)
    assert " 400 " in raw_post(hall, "Content-Length: nope\r\n", [b"{}"])   # uvicorn
    assert hall.clocks["p1"].refused == 0


def test_wrong_keys_never_reach_the_clock_and_wait(hall):
    import threading
    codes = []

    def attack():
        for _ in range(25):
            codes.append(hall.request("POST", "/api/action", {
                "clock": "here/fake1", "op": "pause", "key": "ab" * 32})[0])
    threads = [threading.Thread(target=attack) for _ in range(8)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(codes) == 200 and time.monotonic() - t0 < 30
    assert set(codes) == {403, 429} and codes.count(403) <= 8   # 5 free, then waits
    assert hall.clocks["p1"].refused == 0 and hall.clocks["p1"].clock.state == E.RUNNING
    time.sleep(0.3)
    _, rows, _, _ = hall.hub.view()
    assert not any(r["stale"] for r in rows) and all(r["age"] < 1000 for r in rows)
    # the same client waits even with the right key; the clock is untouched
    code, text = hall.request("POST", "/api/action", {"clock": "here/fake1", "op": "pause",
                                                      "key": KEY.hex()})
    assert code == 429 and "wait" in json.loads(text)["error"]


def test_without_the_halls_key_the_first_accepted_key_is_checked_here():
    from chessclock.hall.web import Throttle
    h = Hall(throttle=Throttle(free=3, wait_max=0.2))
    try:
        act = {"clock": "here/fake1", "op": "pause", "key": "ab" * 32}
        assert h.request("POST", "/api/action", act)[0] == 403       # the clock refused it
        first = h.clocks["p1"].refused
        assert first >= 1
        assert h.request("POST", "/api/action", dict(act, key=KEY.hex()))[0] == 200
        for _ in range(3):                                            # now the hall knows
            assert h.request("POST", "/api/action", act)[0] == 403
        assert h.clocks["p1"].refused == first
        assert h.request("POST", "/api/action", act)[0] == 429
        time.sleep(0.3)
        assert h.request("POST", "/api/action", dict(act, op="resume",
                                                     key=KEY.hex()))[0] == 200
    finally:
        h.stop()


def test_throttle_is_per_client_and_bounded():
    from chessclock.hall.web import Throttle
    t = Throttle(free=2, wait_max=8, forget=100, size=10)
    for _ in range(4):
        t.failed("a", 0.0)
    assert t.wait("a", 0.0) == 4.0 and t.wait("b", 0.0) == 0.0   # 2 free, then 1, 2, 4
    t.ok("a")
    assert t.wait("a", 0.0) == 0.0
    for i in range(50):
        t.failed("c%d" % i, 1.0)
    assert len(t.clients) <= 10


@pytest.mark.parametrize("method, path, headers, code", [
    ("POST", "/api/action", {"Origin": "http://evil.example"}, 403),
    ("POST", "/api/action", {"Origin": "null"}, 403),
    ("POST", "/api/action", {"Sec-Fetch-Site": "cross-site"}, 403),
    ("POST", "/api/action", {"Host": "evil.example"}, 421),
    ("GET", "/", {"Host": "evil.example"}, 421),
    ("GET", "/api/boards", {"Host": "evil.example:8000"}, 421),
    ("GET", "/results.csv", {"Host": ""}, 421),
    ("GET", "/", {"Host": "hall.example"}, 200),                 # --allow-host
    ("GET", "/", {"Host": "localhost:8000"}, 200),
    ("GET", "/", {"Host": "[::1]:8000"}, 200),
    ("GET", "/", {"Host": "10.0.0.2:8000"}, 200),                # an address: no rebinding
])
def test_host_and_origin(method, path, headers, code):
    h = Hall(arbiter_key=KEY, hosts=["hall.example"])
    try:
        act = {"clock": "here/fake1", "op": "pause", "key": KEY.hex()}
        got, text = h.request(method, path, act if method == "POST" else None, headers)
        assert got == code, text
        if code != 200:
            assert "error" in json.loads(text)
        assert h.clocks["p1"].clock.state == E.RUNNING
    finally:
        h.stop()


def test_same_origin_post_is_served(hall):
    origin = "http://%s:%s" % (hall.host, hall.port)
    code, _ = hall.request("POST", "/api/action", {"clock": "here/fake1", "op": "pause",
                                                   "key": KEY.hex()},
                           {"Origin": origin, "Sec-Fetch-Site": "same-origin"})
    assert code == 200 and hall.clocks["p1"].clock.state == E.PAUSED


@pytest.mark.parametrize("body, code, says", [
    (b"not json", 400, "not a JSON request"),
    (b"[1, 2]", 400, "not a JSON object"),
    (b'{"clock": "here/fake1", "op": "pause"}', 401, "key is needed"),
    (b'{"clock": "here/fake1", "op": "pause", "key": "zz"}', 401, "key is needed"),
    (('{"clock": "here/fake1", "op": "explode", "key": "%s"}' % KEY.hex()).encode(), 400,
     "no such action"),
    (('{"clock": "here/fake1", "op": "pause", "args": [1, 2, 3], "key": "%s"}'
      % KEY.hex()).encode(), 400, "at most two"),
    (('{"clock": "here/fake1", "op": "adjust", "args": ["red", "1m"], "key": "%s"}'
      % KEY.hex()).encode(), 400, "a side"),
    (('{"clock": "elsewhere/x", "op": "pause", "key": "%s"}' % KEY.hex()).encode(), 404,
     "not at this station"),
    pytest.param(b"x" * 5000, 413, "at most", id="5000-bytes"),
])
def test_action_bad_input(hall, body, code, says):
    got, text = hall.request("POST", "/api/action", body)
    assert got == code and says in json.loads(text)["error"]
    assert hall.clocks["p1"].clock.state == E.RUNNING


# ---- the command's errors: one line, exit 2 ------------------------------------------------
def run_cli(*argv):
    import sys
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        return cli.main(list(argv)), out.getvalue(), err.getvalue()
    finally:
        sys.stdout, sys.stderr = old


KEYFILE, LOGINFILE = "k.key", "l.login"   # written by the test in its folder


@pytest.mark.parametrize("argv, says", [
    ((), "no clock given"),
    (("--broker", "127.0.0.1:1883"), "--broker needs --hall-key"),
    (("--broker", "127.0.0.1:1883", "--hall-key", KEYFILE), "--broker needs --broker-login"),
    (("--broker", "127.0.0.1:1883", "--hall-key", KEYFILE, "--broker-login", "/nonexistent"),
     "cannot read /nonexistent"),
    (("--broker", "127.0.0.1:1883", "--hall-key", KEYFILE, "--broker-login", KEYFILE),
     "is not a broker login"),
    (("--broker", "127.0.0.1:1883", "--hall-key", KEYFILE, "--broker-login", LOGINFILE,
      "--broker-ca", "/nonexistent.pem"), "cannot read /nonexistent.pem"),
    (("--write-broker", "/tmp/x"), "--write-broker needs --stations"),
    (("--write-broker", "/tmp/x", "--stations", "a/b"), "hall and station names"),
    (("--write-broker", "/tmp/x", "--stations", "a", "--broker", "h:x"), "not a port"),
    (("--write-broker", "/tmp/x", "--stations", "a", "--broker-cert", KEYFILE),
     "TLS needs both"),
    (("--write-broker", "/proc/no/such", "--stations", "a"), "cannot write"),
    (("--port", "/dev/nope", "--key", "/nonexistent.key"), "cannot read the key file"),
    (("--port", "/dev/nope", "--allow-host", "evil.example/x"), "--allow-host"),
    (("--port", "/dev/nope", "--allow-host", ""), "--allow-host"),
    (("--port", "/dev/nope", "--pairings", "/nonexistent.csv"), "cannot read"),
    (("--port", "/dev/nope", "--listen", "nowhere"), "--listen"),
    (("--port", "/dev/nope", "--no-page"), "--no-page is for a station"),
    (("--port", "/dev/nope", "--assign", "x=c1"), "board 'x' is not a number"),
])
def test_hall_command_errors(argv, says, monkeypatch, tmp_path):
    monkeypatch.delenv("CHESSCLOCK_PORTS", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.key").write_text(KEY.hex() + "\n")
    (tmp_path / "l.login").write_text('{"user": "page", "password": "x"}\n')
    code, out, err = run_cli("hall", *argv)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1


# ---- the station's own log pulls: with the arbiter's key, or not acknowledged --------------
@pytest.mark.parametrize("arbiter_key", [None, KEY])
def test_station_pulls_without_key_refusals(tmp_path, monkeypatch, arbiter_key):
    from chessclock.link import transport as L
    from chessclock.log import pull as log_pull
    from chessclock.sim.serve import SimServer

    pulls = []
    real_pull = log_pull.pull

    def pull(*a, **kw):
        r = real_pull(*a, **kw)
        pulls.append(r)
        return r
    monkeypatch.setattr(log_pull, "pull", pull)
    sim = SimServer(str(tmp_path / "flash"), "sim-pull")
    try:
        wait_ready(sim.path, 10)
        with L.Link(sim.path, timeout=1.0) as lk:
            lk.request("keyset", KEY.hex(), change=True)
        with L.Link(sim.path, key=KEY, timeout=1.0) as lk:
            lk.request("set", "300+2", change=True)
            lk.request("start", change=True)
        hub = Hub()
        st = Station("t", [sim.path], LocalSink(hub), interval=0.1, timeout=1.0,
                     archive=str(tmp_path / "logs"), arbiter_key=arbiter_key)
        st.start()
        try:
            deadline = time.monotonic() + 10
            while not any(b.get("log") for b in hub.bodies().values()):
                assert time.monotonic() < deadline, "no log verified"
                time.sleep(0.05)
            body = list(hub.bodies().values())[0]
            assert body["log"] == "ok"
            status = st.workers[0].call("status")
        finally:
            st.stop()
        assert status["refused"] == "0"                      # no refusal: no KEY REFUSALS
        assert pulls and pulls[0]["acked"] == (None if arbiter_key is None
                                               else pulls[0]["next"] - 1)
        assert "ack_error" not in pulls[0]
    finally:
        sim.stop()
