"""What an arbiter sees: the ruling's picture (times as m:ss, whole moves, both
lines through every stage, the flag marker inside, the legend off the lines) and the HTML
report (event, clock, log file, its verification, times of day from the clock's log)."""

import json
import re

from inproc import KEY, WALL, flagged_game, pulled

from chessclock import cli
from chessclock.ruling import report as RR

STAGED = """0 start
5000 press white
9000 press black
15000 press white
20000 press black
30000 press white
40000 press black
50000 press white
58000 press black
80000 press white
95000 press black
200000 end
"""


def simulated(control, script, tmp_path, capsys):
    p = tmp_path / "s.txt"
    p.write_text(script)
    assert cli.main(["simulate", "--control", control, str(p)]) == 0
    return [json.loads(x) for x in capsys.readouterr().out.splitlines()]


def drawn(events):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig, ax, summary = RR.figure(events)
    FigureCanvasAgg(fig).draw()
    return fig, ax, summary, fig.canvas.get_renderer()


def test_picture_axes_lines_flag_and_legend(tmp_path, capsys):
    # 3 moves in 1 min, then 1 min: both pass stage 2 at move 3; White flags on move 6
    events = simulated("3/60:60", STAGED, tmp_path, capsys)
    fig, ax, summary, renderer = drawn(events)
    # times as m:ss, never minutes as decimals
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert labels and all(re.fullmatch(r"-?\d+:\d\d", x) for x in labels), labels
    assert "1:00" in labels and "0:00" in labels
    # whole moves only
    assert all(float(t).is_integer() for t in ax.get_xticks())
    # both lines go through the stage: what was left (39 s / 41 s), then the stage's time
    white, black = ax.lines[0], ax.lines[1]
    assert [3, 39000] in white.get_xydata().tolist()
    assert [3, 99000] in white.get_xydata().tolist()
    assert [3, 41000] in black.get_xydata().tolist()
    assert [3, 101000] in black.get_xydata().tolist()
    # White's line ends at 0 where the flag fell (thinking about move 6)
    assert white.get_xydata().tolist()[-1] == [6, 0]
    assert summary["points"] == {"white": 6, "black": 6} and summary["stages"] == 2
    # the flag's marker is inside the picture, whole
    flag = [ln for ln in ax.lines if ln.get_marker() == "v"]
    assert len(flag) == 1
    box, inner = flag[0].get_window_extent(renderer), ax.get_window_extent(renderer)
    assert inner.x0 <= box.x0 and box.x1 <= inner.x1 and inner.y0 <= box.y0, (box, inner)
    # the legend is outside the axes: on no line
    legend = fig.legends[0].get_window_extent(renderer)
    assert legend.y1 <= inner.y0 or legend.x0 >= inner.x1, (legend, inner)
    assert not ax.get_legend()


def test_clock_text():
    assert RR.clock_text(0) == "0:00" and RR.clock_text(59999) == "0:59"
    assert RR.clock_text(754000) == "12:34" and RR.clock_text(3723000) == "1:02:03"


def test_picture_of_an_hour_game_ticks_hours(tmp_path, capsys):
    events = simulated("5400", "0 start\n60000 press white\n120000 press black\n200000 end\n",
                       tmp_path, capsys)
    _, ax, _, _ = drawn(events)
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert "1:30:00" in labels and "1:00:00" in labels
    assert len(labels) <= 10


def test_html_names_event_clock_log_verification_and_times_of_day(tmp_path, capsys):
    board, app = flagged_game()
    r, _ = pulled(tmp_path, app)
    keyfile = tmp_path / "arbiter.key"
    keyfile.write_text(KEY.hex() + "\n")
    sheet = tmp_path / "sheet.pgn"
    sheet.write_text('[Event "Open de Sitges"]\n[Round "3"]\n[White "Ana"]\n'
                     '[Black "Bruno"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n')
    page = tmp_path / "r.html"
    incident = tmp_path / "i.txt"
    assert cli.main(["ruling", r["file"], "--key", str(keyfile), "--pgn", str(sheet),
                     "--html", str(page), "--incident", str(incident),
                     "--nodes", "300"]) == 0   # a short mate search: the report is tested
    capsys.readouterr()
    text = page.read_text()
    assert "<th>Event</th><td>Open de Sitges 3</td>" in text
    assert re.search(r"<th>Clock</th><td>%s \(game \d+ of its log\)" % app.board.clock_id(), text)
    assert "<th>Log file</th><td>%s</td>" % r["file"] in text
    assert "authentic: the clock&#x27;s own log" in text
    assert "<th>Players</th><td>Ana - Bruno</td>" in text
    # the flag's row: game time (from the start, not the clock's time since power-on) and
    # time of day from the wall clock the host gave
    import datetime

    events = RR_events(r["file"])
    flag = [e for e in events if e["type"] == "flag"][0]
    ref = [e for e in events if e.get("utc") and e["t_ms"] <= flag["t_ms"]][-1]
    assert ref["utc"].startswith(datetime.datetime.fromtimestamp(
        WALL, datetime.timezone.utc).strftime("%Y-%m-%d"))
    tod = RR.time_of_day(events, flag["t_ms"])
    assert re.fullmatch(r"\d\d:\d\d:\d\d", tod)
    start = [e for e in events if e["type"] == "start"][0]
    assert start["t_ms"] > 0
    game_t = RR.fmt(flag["t_ms"] - start["t_ms"])
    assert re.search(r"<td>%s</td><td>%s</td><td>flag</td>" % (re.escape(game_t), tod),
                     text), text[-2000:]
    assert "- game time %s (%s UTC)  flag: white's flag fell" % (game_t, tod) \
        in incident.read_text()


def RR_events(path):
    from chessclock.ruling.events import load_source

    return load_source(path, KEY)[0]


def test_time_of_day_counts_on_from_the_last_wall_clock():
    events = [{"t_ms": 1000, "utc": "2026-11-30T10:00:00Z"}, {"t_ms": 5000},
              {"t_ms": 61000, "utc": "2026-11-30T11:00:00Z"}]
    assert RR.time_of_day(events, 500) is None
    assert RR.time_of_day(events, 31500) == "10:00:30"
    assert RR.time_of_day(events, 62000) == "11:00:01"
    assert RR.time_of_day([{"t_ms": 0}], 10) is None
