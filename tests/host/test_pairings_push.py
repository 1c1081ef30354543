"""A round's pairings onto the clocks and the names through to the ruling:
pairings file -> `chessclock pairings push` -> `status` shows board and players -> a game
with a flag -> `log-pull` -> `log export --format pgn` has White, Black, Round, Board, Event
-> `ruling` names them. Against the simulator board over a real pty (the firmware under
CPython, and under the MicroPython unix port when it is installed). Plus the command's
bad input and the ruling's --pairings for a log that names nobody."""

import io
import json
import time

import chess.pgn
import pytest
from test_link_e2e import cc, clock, status  # noqa: F401 (fixture)

from chessclock.link import transport as L
from chessclock.link.pairing import request_args
from clockcore import protocol as P

CSV = """board,white,black,clock,round,event
1,Anna Müller,Bob Li,clock-a,3,Spring Open
2,Carla Diaz,Dan Ek,clock-e2e,3,Spring Open
"""


def keyed(tmp, port):
    keyfile = str(tmp / "arbiter.key")
    assert cc("key", "new", keyfile)[0] == 0 and cc("key", "use", keyfile)[0] == 0
    assert cc("key", "set", "--port", port)[0] == 0


def test_push_status_pull_pgn_and_ruling_carry_the_names(clock, tmp_path):  # noqa: F811
    server, storage, tmp = clock
    port = server.path
    keyed(tmp, port)
    csv = tmp_path / "round3.csv"
    csv.write_text(CSV.replace("clock-e2e", port))      # the clock named by its port
    code, out, err = cc("pairings", "show", str(csv))
    assert code == 0 and "board   2  Carla Diaz - Dan Ek" in out, out + err
    code, out, err = cc("pairings", "show", str(csv), "--json")
    shown = json.loads(out)
    assert (shown["event"], shown["round"]) == ("Spring Open", "3")
    assert shown["boards"][1] == {"board": 2, "white": "Carla Diaz", "black": "Dan Ek",
                                  "clock": port}
    assert cc("set", "3s", "--yes", "--port", port)[0] == 0
    code, out, err = cc("pairings", "push", str(csv), "--port", port)
    assert code == 0, err
    assert "board 2, round 3: Carla Diaz - Dan Ek" in out
    s = status(port)
    assert (s["board"], s["round"], s["white"], s["black"]) == (2, 3, "Carla Diaz", "Dan Ek")
    assert s["players"] == "Carla Diaz - Dan Ek"
    code, out, err = cc("status", "--port", port)        # the table has the board column
    assert code == 0 and "Board" in out
    # a game: White's flag falls
    assert cc("start", "--port", port)[0] == 0
    with L.Link(port) as lk:
        lk.request("sim", "press", "left")
    deadline = time.monotonic() + 15
    while status(port)["white_flag_ms"] < 0 and time.monotonic() < deadline:
        time.sleep(0.3)
    archive = str(tmp / "archive")
    code, out, err = cc("log-pull", "--port", port, "--archive", archive, "--game", "r3",
                        "--json")
    assert code == 0, err
    path = json.loads(out)[0]["result"]["file"]
    code, out, err = cc("log", "show", path)
    assert code == 0 and "pairing" in out and "Carla Diaz" in out, out + err
    code, out, err = cc("log", "export", path, "--format", "pgn")
    assert code == 0, err
    g = chess.pgn.read_game(io.StringIO(out))
    h = g.headers
    assert (h["White"], h["Black"], h["Round"], h["Board"], h["Event"]) == (
        "Carla Diaz", "Dan Ek", "3", "2", "Spring Open")
    code, out, err = cc("ruling", path)
    assert code == 0, err
    assert "board 2, round 3 (Spring Open): White Carla Diaz - Black Dan Ek" in out
    assert "from the clock's log" in out
    html = tmp / "r.html"
    code, out, err = cc("ruling", path, "--json", "--html", str(html))
    assert code == 0, err
    assert json.loads(out)["pairing"]["white"] == "Carla Diaz"
    page = html.read_text()
    assert "Carla Diaz - Dan Ek" in page and "<th>Board</th><td>2</td>" in page
    # the next round: the ended game makes room, the log's new game names the new players
    csv.write_text(CSV.replace("clock-e2e", port).replace(",3,", ",4,")
                   .replace("Carla Diaz", "Eva Fox"))
    code, out, err = cc("pairings", "push", str(csv), "--port", port)
    assert code == 0 and "its game is frozen" in out, err   # the flag's game: not reset
    assert status(port)["state"] == "frozen"
    assert cc("end", "--port", port)[0] == 0
    code, out, err = cc("pairings", "push", str(csv), "--port", port)
    assert code == 0 and "its game" not in out, err
    s = status(port)
    assert s["state"] == "idle" and s["round"] == 4 and s["white"] == "Eva Fox"
    code, out, err = cc("pairings", "clear", "--port", port)
    assert code == 0 and "removed" in out, err
    assert "board" not in status(port)


def test_push_refuses_what_it_cannot_place(clock, tmp_path):  # noqa: F811
    server, storage, tmp = clock
    port = server.path
    csv = tmp_path / "r.csv"
    csv.write_text(CSV)                                   # this clock is on no board
    code, out, err = cc("pairings", "push", str(csv), "--port", port)
    assert code == L.EXIT_INPUT and "is on no board" in err and "--assign" in err
    assert "Traceback" not in err
    code, out, err = cc("pairings", "push", str(csv), "--port", port, "--assign", "7=" + port)
    assert code == L.EXIT_INPUT and "board 7 is not paired" in err
    code, out, err = cc("pairings", "push", str(csv), "--port", port, "--assign", "1=" + port)
    assert code == 0, err                          # a clock without a key, no game: taken
    assert status(port)["white"] == "Anna Müller"


@pytest.mark.parametrize("argv,msg", [
    (["push"], "needs the pairings FILE"),
    (["show", "/no/such.csv"], "cannot read"),
    (["clear", "x.csv"], "clear takes no FILE"),
    (["push", "{csv}", "--assign", "0=x"], "boards count from 1"),
    (["push", "{csv}", "--assign", "x"], "BOARD=CLOCK"),
    (["show", "{bad}"], "no 'white' column"),
    (["show", "{big}"], "a clock keeps boards 1 to 9999"),
    (["show", "{rnd}"], "not a number from 1 to 999"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, argv, msg):
    files = {"csv": "board,white,black\n1,A,B\n", "bad": "board,name\n1,A\n",
             "big": "board,white,black\n10000,A,B\n",
             "rnd": "board,white,black,round\n1,A,B,3.1\n"}
    paths = {}
    for k, text in files.items():
        paths[k] = str(tmp_path / (k + ".csv"))
        with open(paths[k], "w") as f:
            f.write(text)
    code, out, err = cc("pairings", *[a.format(**paths) for a in argv])
    assert code == 2 and msg in err and "Traceback" not in err, (code, err)
    assert len(err.strip().splitlines()) == 1


def test_long_names_are_shortened_to_one_signed_line():
    long = "Ж" * 40                                  # 80 bytes of UTF-8, 240 escaped
    args, short = request_args(12, 3, long, long, "Чемпионат " * 5)
    assert short
    line = P.encode_request(999999999, "pairing", args, b"\0" * 32, b"0" * 32)
    assert len(line) <= P.LINE_MAX
    assert all(len(a.encode()) <= 40 for a in args[2:])
    assert args[2].startswith("ЖЖЖ") and args[3].startswith("ЖЖЖ")
    args, short = request_args(1, 1, "Anna", "Bob", "Open")
    assert not short and args == [1, 1, "Anna", "Bob", "Open"]


def flag_log():
    """A clock's log (the real firmware on the simulator board) with a flag, no pairing."""
    import sys
    sys.path.insert(0, "tests/core")
    from simutil import boot, until

    from clockapp.board import BTN_START, LEFT, RIGHT
    board, app = boot()
    board.press_buttons(BTN_START, 500000)          # fide-blitz 3+2
    t = 2000
    for i in range(4):
        board.press_lever(LEFT if i % 2 == 0 else RIGHT, t * 1000)
        t += 1500
    until(app, board, t + 200000)                    # White runs out
    assert app.clock.flag_at[0] >= 0
    return board.root + "log.bin"


def test_ruling_takes_the_names_from_a_pairings_file_when_the_log_has_none(tmp_path):
    log = flag_log()
    trf = tmp_path / "r.csv"
    trf.write_text(CSV)
    code, out, err = cc("ruling", log, "--unverified")
    assert code == 0 and "GAME" not in out, err
    code, out, err = cc("ruling", log, "--unverified", "--pairings", str(trf), "--board", "1")
    assert code == 0, err
    assert "White Anna Müller - Black Bob Li" in out and "not from the clock" in out
    code, out, err = cc("ruling", log, "--unverified", "--pairings", str(trf))
    assert code == 2 and "--board N" in err
    code, out, err = cc("ruling", log, "--unverified", "--board", "1")
    assert code == 2 and "--pairings" in err
    code, out, err = cc("ruling", log, "--unverified", "--pairings", str(trf), "--board", "5")
    assert code == 2 and "board 5 is not paired" in err


def test_push_a_trf_round_from_swiss_manager(clock, tmp_path):  # noqa: F811
    from test_hall import TRF

    server, storage, tmp = clock
    port = server.path
    trf = tmp_path / "open.trf"
    trf.write_text(TRF)
    code, out, err = cc("pairings", "push", str(trf), "--port", port, "--assign", "1=" + port)
    assert code == 0, err
    assert "board 1, round 2: Beta, Bo - Alpha, Anna" in out
    s = status(port)
    assert (s["board"], s["round"], s["white"], s["black"]) == (1, 2, "Beta, Bo", "Alpha, Anna")
    code, out, err = cc("pairings", "push", str(trf), "--round", "1", "--port", port,
                        "--assign", "2=" + port)
    assert code == 0, err
    assert status(port)["round"] == 1
