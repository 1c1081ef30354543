"""`ruling replace`: the state at a record or an instant is the engine's.

state_at replays the log's events through clockcore.engine.Clock (chessclock.log.replay).
Property: for random games written by `simulate` (increment, simple and Bronstein delay,
stages by moves, byo-yomi, hourglass; increment at turn start, next stage on the flag, no
freeze), the state at any instant equals a Clock run on the script up to that instant and
brought to it, and the state at any record equals that record; the replay never reports a
disagreement with a log the engine wrote.
"""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from chessclock.log import replay as logreplay
from chessclock.ruling.events import RulingError
from chessclock.ruling.facts import state_at
from chessclock.ruling.replace import rule_replace
from chessclock.ruling.rules import FIDE2023
from chessclock.sim import script as simulate
from clockcore import engine as E
from clockcore import presets

CONTROLS = ["300+2", "300+5d", "300+5b", "2/60+1:60", "2/1m, 1m", "hourglass 1m",
            "1m, byo 3x10s", "1m, canadian 2x3/30s", "60"]
OPTIONS = [{}, {"inc_at_turn_start": True}, {"stage_on_flag": True}, {"freeze": False},
           {"inc_at_turn_start": True, "stage_on_flag": True, "freeze": False}]


@st.composite
def games(draw):
    spec = draw(st.sampled_from(CONTROLS))
    options = dict(logreplay.DEFAULT_OPTIONS, **draw(st.sampled_from(OPTIONS)))
    t = draw(st.integers(0, 3000))
    lines = ["%d start" % t]
    side = "white"
    for _ in range(draw(st.integers(0, 14))):
        t += draw(st.integers(0, 40000))
        what = draw(st.sampled_from(["press"] * 6 + ["wrong", "pause", "resume", "adjust",
                                                     "set-moves", "undo", "add-increment",
                                                     "set-time"]))
        if what == "press":
            lines.append("%d press %s" % (t, side))
            side = "black" if side == "white" else "white"
        elif what == "wrong":
            lines.append("%d press %s" % (t, "black" if side == "white" else "white"))
        elif what == "adjust":
            lines.append("%d adjust %s +%d" % (t, draw(st.sampled_from(["white", "black"])),
                                               draw(st.integers(0, 60000))))
        elif what == "set-moves":
            lines.append("%d set-moves %s %d" % (t, draw(st.sampled_from(["white", "black"])),
                                                 draw(st.integers(0, 4))))
        elif what == "add-increment":
            lines.append("%d add-increment both %d" % (t, draw(st.integers(1, 5000))))
        elif what == "set-time":
            lines.append("%d set-time %s %d" % (t, draw(st.sampled_from(["white", "black"])),
                                                draw(st.integers(0, 90000))))
        else:
            lines.append("%d %s" % (t, what))
    if draw(st.booleans()):
        lines.append("%d end" % (t + draw(st.integers(0, 20000))))
    return spec, options, "\n".join(lines) + "\n"


def _logged_by(events, at_ms):
    return sum(1 for e in events if e["type"] in logreplay.ENGINE_TYPES and e["t_ms"] <= at_ms)


def _engine_at(control, options, script, at_ms, events=None):
    """A Clock run on the script's steps up to at_ms, then brought to at_ms. With `events`
    (the whole game's log): None when the log has an event at at_ms that this engine gives
    only later (a time-out at the very instant a correction left 0:00: the engine's tick
    finds it once time passes at_ms; the log has it at at_ms)."""
    r = simulate.Replay(control, **options)
    for _, t, act in simulate.parse_script(script):
        if t > at_ms:
            break
        r.step(t, act)
    c = r.clock
    c.tick(at_ms)
    if events is not None and _logged_by(r.out, at_ms) < _logged_by(events, at_ms):
        return None
    run = c.running()
    return {"times": {"white": c.main[0], "black": c.main[1]},
            "moves": {"white": c.moves[0], "black": c.moves[1]},
            "stage": {"white": c.stage[0] + 1, "black": c.stage[1] + 1},
            "running": None if run == E.NOBODY else E.SIDE_NAMES[run]}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 700000))
def test_state_at_an_instant_is_the_engines(game, after_start):
    spec, options, script = game
    control, _ = presets.resolve(spec)
    events = simulate.replay(control, script, **options)
    at_ms = events[0]["t_ms"] + after_start   # before the first record there is no state
    st_ = state_at(events, at_ms=at_ms, control=control, options=options)
    want = _engine_at(control, options, script, at_ms, events)
    assume(want is not None)
    assert st_["notes"] == []
    assert {k: st_[k] for k in want} == want


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_state_at_each_record_is_that_record(game):
    spec, options, script = game
    control, _ = presets.resolve(spec)
    events = simulate.replay(control, script, **options)
    for seq, e in enumerate(events, 1):
        if e["type"] == "final":
            continue
        st_ = state_at(events, at_seq=seq, control=control, options=options)
        assert st_["notes"] == [] and st_["seq"] == seq
        assert st_["times"] == {"white": e["white_ms"], "black": e["black_ms"]}
        if e["type"] == "press":
            assert st_["moves"][e["side"]] == e["moves"]
        if e["type"] == "stage":
            assert st_["stage"][e["side"]] == e["stage"]


BOTH = """\
0 start
1000 press white
40000 press black
70000 press white
"""


@pytest.mark.parametrize("spec,opts,at_ms", [
    ("2/60+1:60", {"stage_on_flag": True}, 140000),  # Black's next stage comes on its flag
    ("1m, byo 3x10s", {}, 95000),                     # Black in its first byo-yomi period
    ("1m, canadian 2x3/30s", {}, 100000),             # Black in Canadian overtime
    ("60", {}, 100000),                               # Black's flag fell: the clock froze
    ("300+5b", {}, 72000),                            # Bronstein: charged, credited on press
    ("hourglass 1m", {}, 80000),                      # Black's time goes to White
])
def test_what_own_arithmetic_got_wrong_the_engine_gets_right(spec, opts, at_ms):
    """Instants between records that the old carry-forward (the last record's time minus
    the delay) got wrong: a stage, a byo-yomi period or a frozen flag reached between
    records (it gave 0:00, or a clock still running)."""
    control, _ = presets.resolve(spec)
    options = dict(logreplay.DEFAULT_OPTIONS, **opts)
    events = simulate.replay(control, BOTH, **options)
    st_ = state_at(events, at_ms=at_ms, control=control, options=options)
    want = _engine_at(control, options, BOTH, at_ms)
    assert st_["notes"] == [] and {k: st_[k] for k in want} == want


def test_options_come_from_the_log_header():
    """A log export's header carries the game's options: they win over the defaults."""
    control, _ = presets.resolve("300+2")
    events = simulate.replay(control, BOTH, inc_at_turn_start=True, freeze=True,
                             stage_on_flag=False)
    header = {"type": "header", "t_ms": 0, "inc_at_turn_start": True, "freeze": True,
              "stage_on_flag": False}
    st_ = state_at([header] + events, at_ms=90000, control=control)
    assert st_["notes"] == []
    no_header = state_at(events, at_ms=90000, control=control)
    assert no_header["notes"]   # the defaults do not reproduce this log: said so
    assert st_["times"] == _engine_at(control, dict(logreplay.DEFAULT_OPTIONS,
                                                    inc_at_turn_start=True),
                                      BOTH, 90000)["times"]


def test_a_log_the_engine_does_not_reproduce_is_reported_and_its_times_kept():
    control, _ = presets.resolve("300+2")
    events = simulate.replay(control, BOTH)
    events[2] = dict(events[2], white_ms=events[2]["white_ms"] - 7000)   # tampered
    st_ = state_at(events, at_seq=3, control=control)
    assert st_["times"]["white"] == events[2]["white_ms"]
    assert any("record #3" in n for n in st_["notes"])
    r = rule_replace(events, FIDE2023, at_seq=3, control=control)
    assert any("disagrees" in f for f in r.facts)


def test_an_instant_needs_the_control():
    control, _ = presets.resolve("300+2")
    events = simulate.replay(control, BOTH)
    with pytest.raises(RulingError, match="--control"):
        state_at(events, at_ms=5000)
    assert state_at(events, at_seq=2)["times"] == {"white": events[1]["white_ms"],
                                                      "black": events[1]["black_ms"]}


def test_each_game_of_an_export_is_replayed_from_its_own_header():
    """`log export` of a log with two games: each header starts a fresh engine with its own
    control and options; the second game's records are the engine's too."""
    first, _ = presets.resolve("300+2")
    second, _ = presets.resolve("60")
    g1 = simulate.replay(first, BOTH)[:-1]
    g2 = simulate.replay(second, BOTH, freeze=False)[:-1]
    h1 = {"type": "header", "t_ms": 0, "spec": "300+2", "white_ms": 300000,
          "black_ms": 300000, "freeze": True, "stage_on_flag": False,
          "inc_at_turn_start": False}
    h2 = dict(h1, spec="60", white_ms=60000, black_ms=60000, freeze=False)
    events = [h1] + g1 + [h2] + g2
    for seq in range(1, len(events) + 1):
        st_ = state_at(events, at_seq=seq, control=second)
        e = events[seq - 1]
        assert st_["notes"] == [], (seq, st_["notes"])
        assert st_["times"] == {"white": e["white_ms"], "black": e["black_ms"]}
    last = state_at(events, at_ms=100000, control=second)
    assert last["notes"] == [] and last["moves"] == {"white": 2, "black": 1}
    assert last["running"] == "black"    # no freeze: Black's clock runs on past its flag
