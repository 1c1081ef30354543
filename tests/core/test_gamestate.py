# A running game as bytes (clockapp/gamestate.py): for every timing mode, a clock decoded
# from encode() and resumed must go on exactly like the original clock played the same way.
# Runs under pytest and under the MicroPython unix port (tests/mp_run.py).

from check import raises

from clockapp import gamestate as G
from clockcore import engine as E
from clockcore.control import (
    DELAY_BRONSTEIN,
    DELAY_SIMPLE,
    MODE_HOURGLASS,
    MODE_UPCOUNT,
    Control,
    SideControl,
    Stage,
    sudden_death,
)
from clockcore.notation import parse

W = E.WHITE
B = E.BLACK
NOBODY = E.NOBODY
META = {"game": 17, "white_left": 1, "levers": "ab", "event": "Caf\u00e9 open"}


class Rec:
    def __init__(self):
        self.events = []

    def __call__(self, ev, side, t, arg):
        self.events.append((ev, side, t, arg))


def fields(c):
    """Everything that decides what the clock does next (not `last` or the listener)."""
    return (c.state, c.turn, list(c.main), list(c.moves), list(c.stage), list(c.stage_moves),
            c.stage_cause, list(c.periods), list(c.period_moves), list(c.flag_at),
            list(c.flag_order), list(c.overrun), c.turn_used, c.delay_left, c.undo_side,
            c.undo_gain, c.undo_moves, c.undo_stage, c.undo_stage_moves, c.undo_period_moves,
            c.undo_opp_gain, list(c.out),
            c.inc_at_turn_start, c.stage_on_flag, c.freeze, repr(c.stages[0]),
            repr(c.stages[1]), repr(c.sides[0]), repr(c.sides[1]))


def act(clock, a):
    name = a[0]
    fn = getattr(clock, name)
    return fn(*a[1:])


def check(control, before, t, after, **options):
    """Play `before`, bring the clock to `t`, save it; pause the original at `t` (the power
    cut); then play `after` on both and compare every field after every action. Returns
    the original clock for further checks."""
    rec = Rec()
    orig = E.Clock(control, rec, **options)
    for a in before:
        act(orig, a)
    orig.tick(t)
    was = orig.state
    payload = G.encode(orig, META)
    if was == E.RUNNING:
        assert orig.pause(t)
    rec2 = Rec()
    copy, meta = G.decode(payload, rec2)
    assert meta == META
    assert copy.state == (E.PAUSED if was == E.RUNNING else was)
    assert fields(copy) == fields(orig)
    # encoding the decoded clock gives the same bytes (but for the state and `last`)
    again = G.decode(G.encode(copy, META))[0]
    assert fields(again) == fields(orig)
    rec.events = []
    for a in after:
        r1 = act(orig, a)
        r2 = act(copy, a)
        assert r1 == r2, a
        assert fields(copy) == fields(orig), a
    assert rec2.events == rec.events
    return orig


def test_sudden_death_running_comes_back_paused_and_goes_on_the_same():
    c = check(sudden_death(300000), [("start", 0), ("press", W, 10000), ("press", B, 25000)],
              31000,
              [("resume", 500000), ("press", W, 505000), ("press", B, 520000),
               ("tick", 900000)])
    # White: 6 s before the cut, 5 s after; Black 15 s; then White runs out at 799 s
    assert c.main == [0, 270000]
    assert c.flag_at == [520000 + 279000, -1]
    assert c.state == E.FROZEN


def test_increment():
    c = check(parse("3m+2s"), [("start", 0), ("press", W, 4000)], 9000,
              [("resume", 20000), ("press", B, 21000), ("press", W, 30000),
               ("press", B, 31000)])
    # Black's turn: 5 s before the cut, 1 s after
    assert c.main == [180000 - 4000 + 2000 - 9000 + 2000, 180000 - 6000 + 2000 - 1000 + 2000]
    assert c.moves == [2, 2]


def test_simple_delay_mid_delay():
    ctl = Control(SideControl([Stage(60000, delay_ms=5000, delay_kind=DELAY_SIMPLE)]))
    c = check(ctl, [("start", 0), ("press", W, 10000)], 12000,
              [("resume", 50000), ("tick", 52000), ("tick", 54000), ("press", B, 60000),
               ("press", W, 63000)])
    # Black: 2 s of delay before the cut, 3 s more after, then 7 s of main time
    assert c.main[B] == 60000 - 7000
    assert c.main[W] == 60000 - 5000


def test_bronstein_mid_turn():
    ctl = Control(SideControl([Stage(60000, delay_ms=5000, delay_kind=DELAY_BRONSTEIN)]))
    c = check(ctl, [("start", 0), ("press", W, 3000)], 5000,
              [("resume", 7000), ("press", B, 10000), ("press", W, 18000)])
    # Black's turn: 2 s before the cut and 3 s after = 5 s used, all given back
    assert c.main[B] == 60000
    assert c.main[W] == 60000 - 3000 + 3000 - 8000 + 5000


def test_japanese_byo_yomi_mid_period():
    ctl = Control(SideControl([Stage(10000)], byo_periods=3, byo_ms=5000))
    c = check(ctl, [("start", 0), ("press", W, 1000), ("press", B, 2000), ("tick", 14000)],
              17000,
              [("resume", 30000), ("press", W, 31000), ("tick", 50000)])
    # White: in overtime at 11 s, a period lost at 16 s, the cut at 17 s, the press with
    # 3 s left keeps the period; Black: out at 40 s, two periods lost by 50 s
    assert c.periods == [2, 1]
    assert c.main == [5000, 5000]
    assert c.flag_at == [-1, -1]


def test_canadian_byo_yomi_mid_period():
    ctl = Control(SideControl([Stage(10000)], byo_periods=2, byo_ms=20000, byo_moves=3))
    c = check(ctl, [("start", 0), ("tick", 12000), ("press", W, 13000), ("press", B, 14000)],
              16000,
              [("resume", 40000), ("press", W, 42000), ("press", B, 43000),
               ("press", W, 44000), ("tick", 100000)])
    assert c.main[W] == 20000  # the period started again after its third move
    assert c.period_moves[W] == 0


def test_multi_stage_after_a_stage_pass():
    ctl = parse("90m/2+30s, 30m+30s")
    c = check(ctl, [("start", 0), ("press", W, 1000), ("press", B, 2000), ("press", W, 3000),
                    ("press", B, 4000)],
              5000,
              [("resume", 9000), ("press", W, 10000), ("undo_press", 11000),
               ("press", W, 12000), ("press", B, 13000)])
    assert c.stage == [1, 1]
    assert c.moves == [3, 3]


def test_multi_stage_on_flag_and_increment_at_turn_start():
    ctl = Control(SideControl([Stage(5000, moves=40, inc_ms=1000), Stage(10000, inc_ms=1000)]))
    c = check(ctl, [("start", 0), ("press", W, 3000), ("tick", 9000)], 9500,
              [("resume", 10000), ("press", B, 12000), ("tick", 30000)],
              inc_at_turn_start=True, stage_on_flag=True)
    assert c.stage[B] == 1
    assert c.stage_cause == E.CAUSE_TIMEOUT


def test_hourglass():
    ctl = Control(SideControl([Stage(60000)], mode=MODE_HOURGLASS))
    c = check(ctl, [("start", 0), ("press", W, 7000)], 10000,
              [("resume", 11000), ("press", B, 20000), ("tick", 30000)])
    assert c.main == [60000 - 7000 + 12000 - 10000, 60000 + 7000 - 12000 + 10000]


def test_upcount():
    ctl = Control(SideControl([Stage(0)], mode=MODE_UPCOUNT))
    c = check(ctl, [("start", 0), ("press", W, 7000)], 10000,
              [("resume", 11000), ("press", B, 20000), ("tick", 30000)])
    assert c.main == [7000 + 10000, 3000 + 9000]


def test_flagged_without_freeze_with_overrun():
    c = check(sudden_death(10000), [("start", 0), ("tick", 14000)], 16000,
              [("resume", 20000), ("press", W, 23000), ("tick", 40000), ("press", B, 41000),
               ("tick", 42000)],
              freeze=False)
    assert c.flag_order == [W, B]
    assert c.overrun[W] == 6000 + 3000 + 1000
    assert c.moves == [1, 1]


def test_after_add_stage():
    ctl = parse("90m/40+30s, 30m+30s")
    c = check(ctl, [("start", 0), ("press", W, 1000),
                    ("add_stage", NOBODY, Stage(900000, inc_ms=5000), 1500)],
              2000,
              [("resume", 3000), ("press", B, 4000), ("press", W, 5000)])
    assert len(c.stages[W]) == 3
    assert c.stage == [2, 2]
    assert c.sides[W].stages == ctl.white.stages


def test_armageddon_different_controls():
    ctl = parse("5m/60, 0m+2s vs 4m/60, 0m+2s")
    check(ctl, [("start", 0), ("press", W, 1000), ("press", B, 2000)], 2500,
          [("resume", 3000), ("press", W, 4000), ("press", B, 5000)])


def test_idle_paused_frozen_and_ended_are_kept():
    check(sudden_death(60000), [], 0,
          [("press", B, 100), ("press", W, 1000)])
    check(sudden_death(60000), [("start", 0), ("press", W, 1000), ("pause", 2000)], 3000,
          [("resume", 4000, W), ("press", W, 5000)])
    frozen = check(sudden_death(1000), [("start", 0), ("tick", 5000)], 6000,
                   [("adjust", W, 60000, 7000), ("resume", 8000), ("press", W, 9000)])
    assert frozen.flag_at == [-1, -1]
    check(sudden_death(60000), [("start", 0), ("end", 1000)], 2000,
          [("resume", 3000), ("press", W, 4000)])


def test_undo_fields_survive_the_cut():
    ctl = parse("90m/2+30s, 30m+30s")
    c = check(ctl, [("start", 0), ("press", W, 1000), ("press", B, 2000), ("press", W, 3000)],
              4000,
              [("undo_press", 5000), ("resume", 6000), ("press", B, 6500),
               ("press", W, 7000)])
    assert c.moves == [2, 1]   # the undo gave White its turn back: Black's press ignored
    assert c.stage[W] == 1     # White's second move passes the stage again


# ---- format and errors ----------------------------------------------------------------

def _game():
    clock = E.Clock(parse("90m/40+30s, 30m+30s"))
    clock.start(0)
    clock.press(W, 5000)
    return clock


def test_format_header():
    payload = G.encode(_game(), {})
    assert payload[:2] == b"GS"
    assert payload[2] == G.VERSION
    assert payload[-4:] == b"\x02\x00{}"
    clock, meta = G.decode(payload)
    assert meta == {}
    assert G.decode(G.encode(_game()))[1] == {}


def test_every_truncation_and_extra_bytes_raise_value_error():
    payload = G.encode(_game(), META)
    for n in range(len(payload)):
        raises(ValueError, G.decode, payload[:n])
    raises(ValueError, G.decode, payload + b"\x00")
    raises(ValueError, G.decode, "not bytes")


def test_other_versions_and_bad_values_raise_value_error():
    payload = G.encode(_game(), META)

    def with_byte(i, v):
        b = bytearray(payload)
        b[i] = v
        return bytes(b)

    assert "version" in raises(ValueError, G.decode, with_byte(2, 3)).args[0]
    raises(ValueError, G.decode, with_byte(2, 0))
    raises(ValueError, G.decode, with_byte(0, ord("X")))
    raises(ValueError, G.decode, with_byte(3, 0x80))   # unknown flag
    raises(ValueError, G.decode, with_byte(4, 7))      # state
    raises(ValueError, G.decode, with_byte(5, 2))      # turn
    raises(ValueError, G.decode, with_byte(6, 9))      # stage cause
    raises(ValueError, G.decode, with_byte(7, 5))      # undo side
    head = G.encode(_game(), {})[:-4]  # up to the meta's length
    assert G.decode(head + b"\x08\x00{\"a\": 1}")[1] == {"a": 1}
    raises(ValueError, G.decode, head + b"\x07\x00[1,2,3]")  # meta not a dict
    raises(ValueError, G.decode, head + b"\x07\x00{bad: 1")
    raises(ValueError, G.decode, head + b"\x02\x00\xff\xfe")
    # whatever a flipped byte does, decode either gives a clock or raises ValueError
    for i in range(len(payload)):
        for mask in (0x01, 0x80):
            try:
                G.decode(with_byte(i, payload[i] ^ mask))
            except ValueError:
                pass


def test_meta_must_be_a_dict():
    raises(ValueError, G.encode, _game(), [1, 2])


def _as_version_1(payload):
    """The same game in format 1: no undo_opp_gain after the turn fields, no out per side."""
    b = bytes(payload)
    head = 3 + 7  # magic, version, the head
    turn = b[head:head + 72]
    pos = head + 72
    w = b[pos:pos + 72]
    bl = b[pos + 72:pos + 144]
    rest = b[pos + 144:]
    return b"GS\x01" + b[3:head] + turn[:64] + w[:64] + bl[:64] + rest


def test_a_game_saved_in_format_1_is_still_read():
    # A flag in stage 1 without freeze: White is out of time (main 0, flag down).
    c = E.Clock(parse("10m/2, 5m"), freeze=False)
    c.start(0)
    c.tick(700000)
    assert c.out == [True, False]
    old = _as_version_1(G.encode(c, META))
    assert old[2] == 1
    back, meta = G.decode(old)
    assert meta == META
    assert back.out == [True, False] and back.undo_opp_gain == 0
    assert back.main == c.main and back.flag_at == c.flag_at
