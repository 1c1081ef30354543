"""`chessclock sim --script`: the real firmware on the simulator board, headless."""

import json

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
