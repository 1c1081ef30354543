"""`chessclock sim --script`: the real firmware on the simulator board, headless."""

import json

import pytest
from cliutil import run_cli


def run_sim(tmp_path, script):
    path = tmp_path / "script.txt"
    path.write_text(script)
    code, out, err = run_cli(["sim", "--storage", str(tmp_path / "flash"), "--script",
                              str(path)])
    return code, [json.loads(x) for x in out.splitlines()], err


def test_start_press_and_show(tmp_path):
    code, shows, err = run_sim(tmp_path, """\
100 show
500 button start
2000 lever left      # White's lever: Black's clock starts
2100 show
""")
    assert code == 0, err
    before, after = shows
    assert before["left"]["time"] == "3:00" and not before["left"]["running"]
    assert after["right"]["running"] and not after["left"]["running"]
    assert before["led"] is None and after["led"] == "right"   # the running-side LED
    # fide-blitz 3+2: White used 1.47 s (started 30 ms after the button), +2 s
    assert after["left"]["time"] == "3:01"


def test_power_cut_in_a_script_comes_back_paused(tmp_path):
    code, shows, err = run_sim(tmp_path, """\
500 button start
2000 lever left
5000 power-cut
5100 show
""")
    assert code == 0, err
    assert shows[0]["right"]["paused"] and shows[0]["left"]["paused"]
    assert shows[0]["led"] is None      # back paused: no LED lit


def test_bad_script_line_is_named(tmp_path):
    code, shows, err = run_sim(tmp_path, "100 jump\n")
    assert code == 2 and "line 1" in err


def test_sim_serial_prints_a_port_the_other_commands_can_use(tmp_path):
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "chessclock.cli", "sim", "--serial",
                             "--storage", str(tmp_path / "flash"), "--clock-id", "board-7"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = proc.stdout.readline().strip()
        assert port.startswith("/dev/")
        code, out, err = run_cli(["info", "--port", port, "--json"])
        assert code == 0, err
        assert json.loads(out)[0]["result"]["clock"] == "board-7"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# ---- the terminal simulator (`make sim`), driven without a terminal -------------------
def session(tmp_path):
    from chessclock.sim import terminal as sim
    return sim.Session(str(tmp_path / "flash"))


def test_menu_keys_and_whole_preset_names_are_on_screen(tmp_path):
    from clockcore import presets
    s = session(tmp_path)
    s.run_to(100000)
    assert "m set-up menu" in s.picture() and "q stop and save" in s.picture()
    s.key("m", 200000)
    s.run_to(500000)
    pic = s.picture()
    assert "SET-UP MENU: [PrSt] FAv SEt SAvE tESt SWAP Snd SEcS MovS" in pic
    assert "PrSt: a preset" in pic
    assert "keys: +/- next/previous item, space edits it, m closes the menu" in pic
    # a preset with a long name, shown whole (the display keeps only 8 letters)
    n = next(i for i, p in enumerate(presets.PRESETS) if len(p.key) > 8)
    s.key(" ", 600000)
    for _ in range(n):
        s.key("+", 600000)       # typed at once: queued, every one counted
    s.run_to(600000 + (n + 2) * 200000)
    pic = s.picture()
    assert "editing PrSt" in pic and "= %s" % presets.PRESETS[n].key in pic, pic
    assert "keys: +/- change it, space takes it, m back" in pic


def test_quick_repeated_keys_all_count(tmp_path):
    s = session(tmp_path)
    s.run_to(100000)
    s.key("m", 200000)
    s.run_to(500000)
    for _ in range(3):
        s.key("+", 500000)       # three at the same instant
    s.run_to(2000000)
    assert s.app.menu.item == 3 and "[SAvE]" in s.picture()


def play(s):
    s.key(" ", 100000)           # start
    s.key("a", 1000000)          # White's move
    s.key("l", 2000000)          # Black's move
    s.run_to(2500000)
    assert s.app.clock.moves == [1, 1]


def test_new_game_asks_first_in_the_simulator(tmp_path):
    s = session(tmp_path)
    play(s)
    s.key(" ", 2600000)          # pause
    s.key("M", 2800000)          # hold MENU: the arbiter menu
    s.key("-", 5500000)          # the last item: nEW
    s.key(" ", 5500000)
    s.run_to(6500000)
    assert "space again: throw this game away" in s.picture()
    s.key("m", 6600000)          # any other key keeps the game
    s.run_to(7000000)
    assert s.app.clock.moves == [1, 1]


def test_q_stops_cleanly_and_saves_and_P_is_a_power_cut(tmp_path):
    from clockcore import engine as E
    s = session(tmp_path)
    play(s)
    s.run_to(9000000)                  # White thinks 7 s: not saved yet (every 10 s)
    white = s.app.clock.main[E.WHITE]
    assert s.key("q", 9000000) == "quit"
    assert "stopped: saved in" in s.picture()
    again = session(tmp_path)          # `make sim` again on the same flash
    again.run_to(100000)
    c = again.app.clock
    assert c.moves == [1, 1] and c.state == E.PAUSED   # the game comes back, paused,
    assert c.main[E.WHITE] == white                     # with the time White had at q
    presses = [p for p in again.app.store.read_log() if p[4] & 0x3F == E.EV_PRESS]
    assert len(presses) == 2                            # both presses on the flash
    # P: the power fails; the board boots from its flash, without what was not saved
    again.key(" ", 200000)                              # resume: White runs
    again.run_to(5000000)
    assert again.app.clock.main[E.WHITE] < white - 4000
    again.key("P", 5000000)
    again.run_to(100000)
    assert "power cut: the clock booted again" in again.picture()
    c = again.app.clock
    assert c.state == E.PAUSED and c.moves == [1, 1]
    assert c.main[E.WHITE] > white - 4000              # the last 5 s were never saved


def test_make_sim_in_a_terminal_shows_the_menu_and_q_saves(tmp_path):
    """`chessclock sim` on a pty: keys in, the picture out, q ends it with exit 0."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "chessclock.cli", "sim", "--storage",
                          str(tmp_path / "flash")], stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    out = b""

    def read_until(what, timeout=15):
        nonlocal out
        end = time.monotonic() + timeout
        while what not in out and time.monotonic() < end:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    return
        assert what in out, out[-1500:]

    try:
        read_until(b"q stop and save")
        os.write(master, b"m")
        read_until(b"SET-UP MENU: [PrSt]")
        os.write(master, b"++")                  # two at once: both count
        read_until(b"[SEt]")
        os.write(master, b"q")
        read_until(b"stopped: saved in")
        assert p.wait(10) == 0
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    assert b"Traceback" not in out


def test_a_paired_clock_shows_its_board_in_the_simulator(tmp_path):
    # what `chessclock pairings push` left in the clock's settings
    from chessclock.sim import terminal as sim
    board, app = sim._make(str(tmp_path / "flash"))
    app.store.save_json("settings.json", {"spec": "fide-blitz",
                                          "pairing": [12, 3, "Anna Müller", "Bob Li", "O"]})
    s = session(tmp_path)
    s.run_to(100000)
    pic = s.picture()
    assert "BOARD 12  Anna M?ller" in pic and "BOARD 12  Bob Li" in pic, pic
    code, shows, err = run_sim(tmp_path, "100 show\n600 button start\n900 show\n")
    assert code == 0, err
    assert shows[0]["left"]["board"] == 12 == shows[1]["left"]["board"]


def test_the_simulator_shows_the_control_before_the_start_and_a_clocks_question(tmp_path):
    from clockcore import protocol as P
    s = session(tmp_path)
    s.run_to(100000)
    pic = s.picture()
    assert pic.count("3M+2S") == 2, pic          # under each display, before the start
    app = s.app
    app.store.clear_log()
    for seq in range(3):
        app.store.append_log(seq.to_bytes(4, "little") + b"r")
    link = app.link
    line = P.encode_request(1, "log", (0, 4096), None, None)
    assert P.decode_reply(link.handle(line[:-1])[:-1])[1]
    line = P.encode_request(2, "logclear", (2,), None, None)
    assert P.decode_reply(link.handle(line[:-1])[:-1])[2]["confirm"] == "30"
    s.run_to(300000)
    pic = s.picture()
    assert "QUESTION: CLr? erase the clock's log?" in pic, pic
    assert "M (hold menu 2 s) says yes; any other key says no" in pic


def test_sim_serve_stopped_by_sigterm_stops_its_clock_quietly(tmp_path):
    """`kill PID` (SIGTERM, what a service manager or a test sends) stops `chessclock
    sim-serve` as Ctrl-C does: its clock process is ended first and removed from the
    registry, and nothing prints a traceback (a clock process left behind would crash on
    its closed pty)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = dict(os.environ, CHESSCLOCK_HOME=str(tmp_path / "home"))
    proc = subprocess.Popen([sys.executable, "-m", "chessclock.cli", "sim-serve", "--storage",
                             str(tmp_path / "flash"), "--clock-id", "term"], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("/dev/")
        registry = tmp_path / "home" / "sim-serve"
        deadline = time.monotonic() + 10
        while not any(registry.glob("*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)                         # the clock's process is up and serving
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    time.sleep(0.5)                             # an orphaned clock would crash by now
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Error" not in err, err
    assert not any(registry.glob("*"))


@pytest.mark.parametrize("argv, says, lines", [
    (["--storage", "/dev/null/flash"], "cannot use /dev/null/flash as the clock's flash", 1),
    (["--storage", "FILE"], "as the clock's flash: File exists", 1),
    (["--storage"], "expected one argument", 0),        # argparse: usage, then the error
    (["--clock-id"], "expected one argument", 0),
    (["--bogus"], "unrecognized arguments: --bogus", 0),
])
def test_sim_serve_bad_input_is_refused_in_a_line(argv, says, lines, tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "afile").write_text("")
    argv = [str(tmp_path / "afile") if a == "FILE" else a for a in argv]
    r = subprocess.run([sys.executable, "-m", "chessclock.cli", "sim-serve"] + argv,
                       cwd=tmp_path, env=dict(os.environ, CHESSCLOCK_HOME=str(tmp_path)),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == "", r.stderr
    if lines:
        assert says in r.stderr and r.stderr.count("\n") == lines, r.stderr
    else:
        last = r.stderr.splitlines()[-1]
        assert last.startswith(("chessclock sim-serve: error:", "chessclock: error:"))
        assert says in last and r.stderr.startswith("usage: chessclock"), r.stderr
    assert "Traceback" not in r.stderr and "a bug" not in r.stderr
