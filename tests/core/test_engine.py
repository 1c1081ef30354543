# Worked examples for the engine, numbers computed by hand from shared/CLOCK-RULES.md.
# Runs under pytest and under the MicroPython unix port (tests/mp_run.py).

from check import raises

from clockcore import engine as E
from clockcore import logread as LR
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

W = E.WHITE
B = E.BLACK


class Rec:
    """Collects events as (name, side, t, arg, white_ms, black_ms)."""

    def __init__(self):
        self.events = []
        self.clock = None

    def __call__(self, ev, side, t, arg):
        m = self.clock.main
        self.events.append((LR.NAMES[ev], side, t, arg, m[0], m[1]))

    def names(self):
        return [e[0] for e in self.events]

    def of(self, name):
        return [e for e in self.events if e[0] == name]


def make(control, **options):
    rec = Rec()
    clock = E.Clock(control, rec, **options)
    rec.clock = clock
    return clock, rec


def one(stages, **side):
    return Control(SideControl(stages, **side))


# ---- sudden death, flags --------------------------------------------------------------

def test_sudden_death_charges_each_side_its_own_time():
    c, rec = make(sudden_death(300000))
    c.start(0)
    assert c.press(W, 10000)
    assert c.main == [290000, 300000]
    assert c.press(B, 25000)
    assert c.main == [290000, 285000]
    assert c.moves == [1, 1]


def test_flag_falls_at_exact_instant_even_when_noticed_late():
    c, rec = make(sudden_death(300000))
    c.start(0)
    c.press(W, 10000)
    c.press(B, 25000)
    c.tick(400000)  # the loop looks long after: the flag is dated when time ran out
    assert rec.of("flag") == [("flag", W, 315000, 1, 0, 285000)]
    assert c.flag_at == [315000, -1]
    assert c.state == E.FROZEN
    assert c.running() == E.NOBODY


def test_press_at_the_instant_time_runs_out_is_too_late():
    c, rec = make(sudden_death(1000))
    c.start(0)
    assert not c.press(W, 1000)
    assert c.flag_at[W] == 1000
    assert rec.names() == ["start", "flag", "ignored"]
    c2, _ = make(sudden_death(1000))
    c2.start(0)
    assert c2.press(W, 999)
    assert c2.main[W] == 1


def test_freeze_keeps_values_and_ignores_levers():
    c, rec = make(sudden_death(5000))
    c.start(0)
    c.tick(6000)
    assert c.state == E.FROZEN
    c.tick(60000)
    assert c.main == [0, 5000]
    assert not c.press(W, 61000)
    assert not c.press(B, 62000)
    assert c.main == [0, 5000]
    assert c.moves == [0, 0]


def test_no_freeze_lets_second_flag_fall_and_records_order():
    # Older Active rules: a claim needs one's own flag up, so both flags can fall.
    c, rec = make(sudden_death(10000), freeze=False)
    c.start(0)
    c.press(W, 4000)   # W 6000
    c.tick(30000)      # B runs out at 4000 + 10000
    assert c.flag_at == [-1, 14000]
    assert c.state == E.RUNNING
    c.press(B, 31000)  # flagged side's press: counted, no time added
    assert c.main == [6000, 0]
    assert c.overrun[B] == 17000
    c.tick(40000)      # W runs out at 31000 + 6000
    assert c.flag_at == [37000, 14000]
    assert c.flag_order == [B, W]
    assert [e[1] for e in rec.of("flag")] == [B, W]


def test_no_time_added_after_last_control_passed():
    # Handbook (i): no increment, no Bronstein credit for the flagged move.
    for ctl in (sudden_death(3000, inc_ms=2000),
                one([Stage(3000, delay_ms=2000, delay_kind=DELAY_BRONSTEIN)])):
        c, rec = make(ctl, freeze=False)
        c.start(0)
        c.tick(10000)  # W's time: 3000 (+ nothing while the clock runs)
        assert c.flag_at[W] == 3000
        assert c.press(W, 10500)
        assert c.main[W] == 0
        assert rec.of("press")[0][3] == 0  # credit
        assert c.overrun[W] == 7500


def test_presses_by_the_side_not_running_change_nothing():
    c, rec = make(sudden_death(60000, inc_ms=1000))
    c.start(0)
    assert not c.press(B, 500)   # Black presses during White's turn
    assert c.press(W, 1000)
    assert not c.press(W, 1500)  # double press
    c.tick(2000)
    assert c.main == [60000, 59000]
    assert c.moves == [1, 0]
    assert [e[:3] for e in rec.of("ignored")] == [("ignored", B, 500), ("ignored", W, 1500)]


def test_black_lever_starts_white_clock_white_lever_does_not():
    c, rec = make(sudden_death(60000))
    assert not c.press(W, 0)
    assert c.state == E.IDLE
    assert c.press(B, 100)
    assert c.state == E.RUNNING and c.turn == W
    c.tick(1100)
    assert c.main == [59000, 60000]
    assert c.moves == [0, 0]


# ---- increment and delays -------------------------------------------------------------

def test_fischer_on_press():
    c, rec = make(sudden_death(180000, inc_ms=2000))
    c.start(0)
    c.press(W, 5000)
    assert c.main == [177000, 180000]
    c.press(B, 8000)
    assert c.main == [177000, 179000]
    assert [e[3] for e in rec.of("press")] == [2000, 2000]


def test_fischer_at_turn_start_white_sees_base_plus_increment():
    c, rec = make(sudden_death(180000, inc_ms=2000), inc_at_turn_start=True)
    c.start(0)
    assert c.main == [182000, 180000]
    c.press(W, 5000)
    assert c.main == [177000, 182000]
    c.press(B, 8000)
    assert c.main == [179000, 179000]


def test_bronstein_gives_back_time_used_up_to_the_delay():
    c, rec = make(one([Stage(300000, delay_ms=5000, delay_kind=DELAY_BRONSTEIN)]))
    c.start(0)
    c.press(W, 3000)   # used 3 s < 5 s: all of it back
    assert c.main[W] == 300000
    c.press(B, 11000)  # used 8 s: 5 s back
    assert c.main[B] == 297000
    assert [e[3] for e in rec.of("press")] == [3000, 5000]


def test_simple_delay_first_seconds_not_counted_and_shown_running_down():
    c, rec = make(one([Stage(5400000, delay_ms=5000, delay_kind=DELAY_SIMPLE)]))
    c.start(0)
    c.tick(2000)
    assert c.delay_left == 3000 and c.main[W] == 5400000
    c.press(W, 4000)   # inside the delay: main time untouched
    assert c.main[W] == 5400000
    assert c.delay_left == 5000  # Black's delay starts
    c.press(B, 16000)  # 12 s used, 5 s of them delay
    assert c.main[B] == 5393000
    assert [e[3] for e in rec.of("press")] == [0, 0]


def test_simple_delay_kept_across_pause():
    c, rec = make(one([Stage(60000, delay_ms=5000, delay_kind=DELAY_SIMPLE)]))
    c.start(0)
    c.tick(2000)
    c.pause(2000)
    c.press(W, 30000)  # lever moved during a pause: nothing
    assert c.resume(60000)
    c.tick(63000)
    assert c.delay_left == 0 and c.main[W] == 60000
    c.tick(64000)
    assert c.main[W] == 59000
    assert rec.of("ignored")[0][:3] == ("ignored", W, 30000)


def test_simple_delay_flag_falls_after_delay_and_main_time():
    c, rec = make(one([Stage(10000, delay_ms=5000, delay_kind=DELAY_SIMPLE)]))
    c.start(1000)
    c.tick(100000)
    assert c.flag_at[W] == 16000


# ---- hourglass, upcount ------------------------------------------------------------------

def test_hourglass_moves_time_to_the_opponent():
    c, rec = make(one([Stage(60000)], mode=MODE_HOURGLASS))
    c.start(0)
    c.press(W, 10000)
    assert c.main == [50000, 70000]
    c.press(B, 40000)
    assert c.main == [80000, 40000]
    c.tick(200000)
    assert c.flag_at[W] == 120000
    assert c.main == [0, 120000]


def test_upcount_counts_up_and_never_flags():
    c, rec = make(one([Stage(0)], mode=MODE_UPCOUNT))
    c.start(0)
    c.press(W, 36000000)
    c.tick(72000000)
    assert c.main == [36000000, 36000000]
    assert c.flag_at == [-1, -1]
    assert c.moves == [1, 0]


# ---- byo-yomi ------------------------------------------------------------------------------

def test_japanese_byo_yomi_keeps_a_period_on_a_move_and_loses_expired_ones():
    c, rec = make(one([Stage(60000)], byo_periods=3, byo_ms=10000))
    c.start(0)
    c.tick(61000)
    assert rec.of("overtime")[0][:4] == ("overtime", W, 60000, 3)
    assert c.main[W] == 9000
    c.press(W, 65000)  # inside the period: kept, restarts at 10 s
    assert c.main[W] == 10000 and c.periods[W] == 3
    c.press(B, 66000)
    assert c.main[B] == 59000
    c.tick(200000)
    assert [(e[2], e[3]) for e in rec.of("period")] == [(76000, 2), (86000, 1)]
    assert c.flag_at[W] == 96000


def test_canadian_byo_yomi_restarts_after_its_moves():
    c, rec = make(one([Stage(60000)], byo_periods=1, byo_ms=20000, byo_moves=3))
    c.start(0)
    c.tick(60000)
    assert c.in_overtime(W) and c.main[W] == 20000
    c.press(W, 65000)
    c.press(B, 65000)
    assert c.main[W] == 15000 and c.period_moves[W] == 1
    c.press(W, 70000)
    c.press(B, 70000)
    assert c.main[W] == 10000
    c.press(W, 72000)  # third move in the period: T starts again
    assert c.main[W] == 20000 and c.period_moves[W] == 0
    c.press(B, 72000)
    c.tick(100000)
    assert c.flag_at[W] == 92000


# ---- stages -------------------------------------------------------------------------------

def test_stage_passes_on_the_press_completing_its_moves_with_carry_over():
    c, rec = make(one([Stage(10000, moves=2), Stage(5000)]))
    c.start(0)
    c.press(W, 1000)
    c.press(B, 2000)
    c.press(W, 4000)   # W's 2nd move: 7000 saved + 5000
    assert c.main == [12000, 9000]
    assert c.stage == [1, 0]
    assert rec.names()[-2:] == ["press", "stage"]
    assert rec.events[-2][4] == 7000   # the press event shows time before the stage
    assert rec.events[-1][:5] == ("stage", W, 4000, 5000, 12000)
    assert c.stage_cause == E.CAUSE_MOVES


def test_fide_classical_carry_over_and_increment_from_move_one():
    # 90 min / 40 moves + 30 min, 30 s increment from move 1 (Art. 6.3.1, FIDE classical).
    st = [Stage(5400000, moves=40, inc_ms=30000), Stage(1800000, inc_ms=30000)]
    c, rec = make(one(st))
    c.start(0)
    t = 0
    for _ in range(40):  # each side uses 2 min a move
        t += 120000
        c.press(W, t)
        t += 120000
        c.press(B, t)
    # 90 min - 40 * 2 min + 40 * 30 s = 30 min, then + 30 min
    assert c.main == [3600000, 3600000]
    assert c.stage == [1, 1] and c.moves == [40, 40]


def test_stage_on_time_out_dgt_time_mode():
    c, rec = make(one([Stage(10000, moves=2), Stage(5000)]), stage_on_flag=True)
    c.start(0)
    c.press(W, 1000)
    c.press(B, 2000)
    c.press(W, 4000)   # 2 moves made: nothing added in this mode
    assert c.main[W] == 7000 and c.stage[W] == 0
    c.press(B, 5000)
    c.tick(100000)
    st = rec.of("stage")
    assert st == [("stage", W, 12000, 5000, 5000, 8000)]
    # the time-out of stage 1 is its flag event, with the 2 presses made (all it asks:
    # not a fall); the flag of the last stage is the fall
    assert rec.of("flag") == [("flag", W, 12000, 2, 0, 8000), ("flag", W, 17000, 0, 0, 8000)]
    assert rec.names()[-3:] == ["flag", "stage", "flag"]
    assert c.flag_at[W] == 17000 and c.flag_order == [W, E.NOBODY]


def test_stage_on_time_out_logs_presses_made_in_the_stage():
    c, rec = make(one([Stage(10000, moves=40), Stage(5000)]), stage_on_flag=True)
    c.start(0)
    c.press(W, 1000)
    c.press(B, 2000)
    c.tick(100000)
    assert c.stage_moves[W] == 0 and c.stage[W] == 1
    assert rec.of("stage")[0][2] == 11000


def test_last_stage_with_moves_repeats():
    # "20 moves per hour", repeated: every 2 moves 10 s here.
    c, rec = make(one([Stage(10000, moves=2)]))
    c.start(0)
    t = 0
    for _ in range(4):
        t += 1000
        c.press(W, t)
        t += 1000
        c.press(B, t)
    assert c.main == [10000 - 4000 + 20000, 10000 - 4000 + 20000]
    assert len(rec.of("stage")) == 4


def test_flag_in_first_stage_by_move_counter_freezes():
    c, rec = make(one([Stage(10000, moves=40), Stage(5000)]))
    c.start(0)
    c.tick(20000)
    assert c.flag_at[W] == 10000 and c.state == E.FROZEN
    assert rec.of("stage") == []


def test_different_controls_per_side_armageddon():
    white = SideControl([Stage(300000, moves=60), Stage(0, inc_ms=2000)])
    black = SideControl([Stage(240000, moves=60), Stage(0, inc_ms=2000)])
    c, rec = make(Control(white, black))
    assert c.main == [300000, 240000]
    c.start(0)
    t = 0
    for _ in range(61):
        t += 1000
        c.press(W, t)
        t += 1000
        c.press(B, t)
    # 61 moves of 1 s each; only move 61 gets +2 s
    assert c.main == [300000 - 61000 + 2000, 240000 - 61000 + 2000]


# ---- pause and arbiter ---------------------------------------------------------------------

def test_pause_stops_both_and_resume_continues_the_running_side():
    c, rec = make(sudden_death(60000))
    c.start(0)
    c.press(W, 1000)
    c.pause(3000)
    c.tick(50000)
    assert c.main == [59000, 58000]
    c.resume(50000)
    c.tick(51000)
    assert c.main == [59000, 57000]
    assert rec.names() == ["start", "press", "pause", "resume"]


def test_arbiter_resumes_the_other_side():
    c, rec = make(sudden_death(60000))
    c.start(0)
    c.pause(1000)
    assert c.resume(2000, B)
    c.tick(3000)
    assert c.main == [59000, 59000] and c.turn == B


def test_penalty_two_minutes_and_set_time():
    c, rec = make(sudden_death(300000))
    c.start(0)
    c.pause(1000)
    c.adjust(B, 120000, 1000)
    assert c.main == [299000, 420000]
    c.set_time(W, 100000, 1000)
    assert c.main == [100000, 420000]
    assert raises(ValueError, c.adjust, W, -100001, 1000)
    assert c.main[W] == 100000


def test_set_moves_corrects_counter_and_passes_stage():
    c, rec = make(one([Stage(10000, moves=3), Stage(5000)]))
    c.start(0)
    c.press(W, 1000)
    c.pause(1500)
    c.set_moves(W, 3, 1500)  # the arbiter finds 3 moves on the scoresheet
    assert c.moves[W] == 3 and c.stage[W] == 1
    assert c.main[W] == 9000 + 5000
    assert c.stage_cause == E.CAUSE_ARBITER


def test_set_moves_takes_back_a_flag_when_the_moves_were_made():
    # Art. 6.3/6.4: the counter is advisory. W missed a press: flag fell at move 2 of 3.
    c, rec = make(one([Stage(10000, moves=3), Stage(5000)]))
    c.start(0)
    c.press(W, 1000)
    c.press(B, 1000)
    c.press(W, 2000)
    c.press(B, 2000)
    c.tick(20000)
    assert c.flag_at[W] == 10000 and c.state == E.FROZEN
    c.set_moves(W, 3, 20000)
    assert c.flag_at[W] == -1 and c.state == E.PAUSED
    assert c.main[W] == 5000
    assert c.resume(21000)
    c.tick(22000)
    assert c.main[W] == 4000


def test_set_stage():
    c, rec = make(one([Stage(10000, moves=3), Stage(5000, inc_ms=1000)]))
    c.start(0)
    c.set_stage(W, 1, 0)
    c.press(W, 500)
    assert c.main[W] == 10500  # stage 2's increment now
    assert raises(ValueError, c.set_stage, W, 2, 600)


def test_undo_press_restores_counter_increment_and_stage():
    c, rec = make(one([Stage(10000, moves=1, inc_ms=1000), Stage(5000, inc_ms=1000)]))
    c.start(0)
    c.press(W, 2000)    # 8000 + 1000 inc + 5000 stage
    assert c.main[W] == 14000 and c.stage[W] == 1
    assert c.undo_press(2500)
    assert c.main[W] == 8000 and c.stage[W] == 0 and c.moves[W] == 0
    assert c.turn == W  # the turn is White's again: its clock runs
    assert not c.undo_press(2600)  # only once


def test_undo_gives_the_turn_back_and_the_pressers_clock_runs_again():
    c, rec = make(sudden_death(60000, inc_ms=2000))
    c.start(0)
    c.press(W, 10000)           # 50000 + 2000
    c.tick(13000)               # Black's clock ran 3 s
    assert c.undo_press(13000)
    assert c.turn == W and c.state == E.RUNNING and c.moves == [0, 0]
    assert c.main == [50000, 57000]   # the 3 s Black's clock ran stay on it
    c.tick(15000)
    assert c.main == [48000, 57000]   # White's clock runs, Black's stands
    assert not c.press(B, 15500)      # not Black's turn: ignored
    assert c.press(W, 16000)          # the move, made now
    assert c.moves == [1, 0] and c.turn == B and c.main == [49000, 57000]
    assert rec.names()[-3:] == ["undo", "ignored", "press"]


def test_undo_while_paused_gives_the_turn_back_and_resume_runs_the_presser():
    c, rec = make(sudden_death(60000))
    c.start(0)
    c.press(W, 5000)
    c.pause(6000)
    assert c.undo_press(7000)
    assert c.state == E.PAUSED and c.turn == W
    assert c.resume(8000)
    c.tick(9000)
    assert c.main == [54000, 59000]


def test_undo_gives_no_fresh_delay_and_no_second_turn_start_increment():
    # simple delay: the turn continues, its delay is not given again
    c, rec = make(one([Stage(60000, delay_ms=5000, delay_kind=DELAY_SIMPLE)]))
    c.start(0)
    c.press(W, 8000)            # 3 s of main time used
    assert c.main[W] == 57000 and c.delay_left == 5000   # Black's delay
    assert c.undo_press(9000)
    assert c.turn == W and c.delay_left == 0
    c.tick(10000)
    assert c.main[W] == 56000
    # increment at turn start: Black's goes with the undo, White gets none again
    c, rec = make(sudden_death(60000, inc_ms=1000), inc_at_turn_start=True)
    c.start(0)                  # White 61000
    c.press(W, 4000)            # White 57000, Black 61000 at its turn's start
    assert c.undo_press(4000)
    assert c.main == [57000, 60000] and c.turn == W


def test_undo_press_after_byo_yomi_period_restart():
    c, rec = make(one([Stage(1000)], byo_periods=2, byo_ms=10000))
    c.start(0)
    c.press(W, 4000)  # 3 s into the period: kept, back to 10 s
    assert c.main[W] == 10000
    c.undo_press(4000)
    assert c.main[W] == 7000


def test_undo_of_a_press_out_of_time_that_began_byo_yomi_takes_the_periods_back():
    # White's flag falls in stage 1 (1 move in 1 s); its move then passes it into the
    # rest of the game with no time of its own, so byo-yomi begins at the press. The undo
    # puts it back in stage 1, out of time: not in byo-yomi, and its next move begins it
    # afresh with all its periods (a hypothesis run found the periods kept: the next
    # move then took one).
    c, rec = make(one([Stage(1000, moves=1), Stage(0)], byo_periods=2, byo_ms=3000),
                  freeze=False)
    c.start(0)
    c.tick(1000)            # White's flag (the clocks run on: no freeze)
    c.press(W, 1500)
    assert c.periods[W] == 2 and c.main[W] == 3000 and c.stage[W] == 1
    assert c.undo_press(1500)
    assert c.periods[W] == 0 and c.main[W] == 0 and c.stage[W] == 0
    c.press(B, 2000)        # Black's 1 s stage passed: 1000 - 500 + 0
    c.press(W, 2500)        # the move again: byo-yomi begins with both periods
    assert c.periods[W] == 2 and c.main[W] == 3000 and c.stage[W] == 1
    assert [e[0] for e in rec.of("overtime")] == ["overtime", "overtime"]
    assert rec.of("period") == []


def test_add_stage_finish_with_fifteen_minutes_each():
    c, rec = make(sudden_death(60000), freeze=True)
    c.start(0)
    c.tick(61000)
    assert c.state == E.FROZEN
    c.add_stage(E.NOBODY, Stage(900000), 61000)
    assert c.main == [900000, 960000]
    assert c.flag_at == [-1, -1] and c.state == E.PAUSED
    assert c.stage == [1, 1]
    assert [e[0] for e in rec.events[-3:]] == ["add-stage", "unflag", "add-stage"]


def test_split_late_arrival_sixty_forty():
    # RGC 12.1: E = 75 min, visitor (White here) -45 min, home -30 min.
    c, rec = make(sudden_death(7200000))
    c.split(4500000, 60, 0)
    assert c.main == [7200000 - 2700000, 7200000 - 1800000]
    raises(ValueError, c.split, 100000000, 60, 0)


def test_end_stops_everything():
    c, rec = make(sudden_death(60000))
    c.start(0)
    c.end(5000)
    c.tick(10000)
    assert c.main == [55000, 60000]
    assert not c.press(W, 11000)
    assert rec.names()[-2:] == ["end", "ignored"]


def test_control_errors_are_refused_at_construction():
    bad = one([Stage(1000), Stage(1000)])  # sudden death not last
    raises(ValueError, E.Clock, bad)
    raises(ValueError, E.Clock, one([Stage(0)]))


# ---- byo-yomi after a multi-stage control (Art. 6.9) -------------------------------

def _multi_byo(**options):
    # `1m/2, 30s, byo 3x10s`: 1 min for 2 moves, then 30 s, then 3 periods of 10 s
    return make(one([Stage(60000, moves=2), Stage(30000)], byo_periods=3, byo_ms=10000),
                **options)


def test_running_out_in_an_earlier_stage_is_a_flag_not_overtime():
    c, rec = _multi_byo()
    c.start(0)
    c.press(W, 20000)   # W 40000, 1 of 2 moves
    c.press(B, 25000)   # B 55000
    c.tick(100000)      # W runs out at 25000 + 40000
    assert rec.names() == ["start", "press", "press", "flag"]
    assert rec.of("flag") == [("flag", W, 65000, 1, 0, 55000)]
    assert c.periods == [0, 0] and c.state == E.FROZEN


def test_flag_in_earlier_stage_without_freeze_gets_next_stage_then_byo_yomi():
    c, rec = _multi_byo(freeze=False)
    c.start(0)
    c.press(W, 20000)
    c.press(B, 25000)
    c.tick(68000)
    assert c.flag_at[W] == 65000 and c.state == E.RUNNING and c.overrun[W] == 3000
    # W's 2nd press completes stage 1: nothing for the move, stage 2's 30 s in full
    c.press(W, 70000)
    assert rec.events[-2:] == [("press", W, 70000, 0, 0, 55000),
                               ("stage", W, 70000, 30000, 30000, 55000)]
    assert c.flag_at[W] == 65000 and c.flag_order == [W, E.NOBODY]  # the flag stays
    assert c.overrun[W] == 5000 and c.out == [False, False]
    c.press(B, 80000)   # B 45000, its 2nd move: + 30000
    assert c.main == [30000, 75000]
    c.tick(112000)      # W's 30 s run out at 110000: overtime, now (last stage)
    assert rec.of("overtime") == [("overtime", W, 110000, 3, 10000, 75000)]
    c.press(W, 114000)  # a move inside the period keeps it and counts
    assert c.main[W] == 10000 and c.moves[W] == 3 and c.stage_moves[W] == 1
    c.press(B, 115000)  # B 74000
    c.tick(150000)
    assert [e[:4] for e in rec.of("period")] == [("period", W, 125000, 2),
                                                ("period", W, 135000, 1)]
    assert rec.of("flag")[-1] == ("flag", W, 145000, 1, 0, 74000)
    assert c.flag_at[W] == 65000  # a side's first flag is the one kept


def test_time_mode_flag_of_stage_then_next_stage_then_byo_yomi():
    c, rec = _multi_byo(stage_on_flag=True)
    c.start(0)
    c.press(W, 20000)
    c.press(B, 25000)
    c.tick(100000)
    # 1 press of 2: a fall, recorded; TIME mode adds stage 2 at once and does not freeze
    assert rec.events[-3:] == [("flag", W, 65000, 1, 0, 55000),
                               ("stage", W, 65000, 30000, 30000, 55000),
                               ("overtime", W, 95000, 3, 10000, 55000)]
    assert c.stage_cause == E.CAUSE_TIMEOUT
    assert c.flag_at[W] == 65000 and c.state == E.RUNNING and c.main[W] == 5000


def test_time_mode_repeating_last_stage_repeats_on_time_out():
    # "10 s for every 2 moves", TIME mode: the next 10 s come when time runs out
    c, rec = make(one([Stage(10000, moves=2)]), stage_on_flag=True)
    c.start(0)
    c.tick(15000)
    assert rec.events[-2:] == [("flag", W, 10000, 0, 0, 10000),
                               ("stage", W, 10000, 10000, 10000, 10000)]
    assert c.main[W] == 5000 and c.stage[W] == 0 and c.state == E.RUNNING


def test_flag_in_earlier_stage_next_stage_with_no_time_flags_again():
    # Armageddon-like `5s/2, 0m+2s`, no freeze: the 2nd press brings 0 s: out of stage 2
    c, rec = make(one([Stage(5000, moves=2), Stage(0, inc_ms=2000)]), freeze=False)
    c.start(0)
    c.tick(6000)        # W flag at 5000 after 0 presses
    c.press(W, 7000)
    c.press(B, 8000)
    c.press(W, 9000)    # W's 2nd press: stage 2 with 0 s: the flag of stage 2 at once
    assert rec.names()[-3:] == ["press", "stage", "flag"]
    assert rec.events[-1] == ("flag", W, 9000, 0, 0, 4000)
    c.press(B, 10000)
    c.press(W, 11000)   # out of time: no increment
    assert c.main[W] == 0 and rec.events[-1][3] == 0


def test_arbiter_time_to_a_side_past_its_flag_keeps_the_flag():
    c, rec = make(one([Stage(10000, moves=1), Stage(5000)]), freeze=False)
    c.start(0)
    c.tick(12000)
    c.press(W, 12000)   # its 1st move: stage 2's 5 s
    c.adjust(W, 1000, 12500)
    assert c.flag_at[W] == 10000 and "unflag" not in rec.names()
    c2, rec2 = make(sudden_death(10000), freeze=False)
    c2.start(0)
    c2.tick(12000)
    c2.adjust(W, 1000, 12000)  # out of time: the correction takes the flag back
    assert c2.flag_at[W] == -1 and rec2.names()[-1] == "unflag"


# ---- an increment alone, from now on (FIDE Guidelines III) --------------------

def test_add_increment_for_both_from_now_on():
    c, rec = make(sudden_death(300000))
    c.start(0)
    c.press(W, 10000)   # W 290000
    c.pause(20000)      # B 290000
    c.add_increment(E.NOBODY, 5000, 20000)
    assert rec.events[-2:] == [("add-stage", W, 20000, 0, 290000, 290000),
                               ("add-stage", B, 20000, 0, 290000, 290000)]
    assert c.stage == [1, 1] and c.current_stage(B).inc_ms == 5000
    c.resume(21000)
    c.press(B, 25000)   # 4 s used, + 5 s
    c.press(W, 30000)   # 5 s used, + 5 s
    assert c.main == [290000, 291000]
    assert [e[3] for e in rec.of("press")] == [0, 5000, 5000]


def test_add_stage_zero_time_with_increment_is_the_same_action():
    a, _ = make(sudden_death(300000))
    b, _ = make(sudden_death(300000))
    for c in (a, b):
        c.start(0)
        c.press(W, 10000)
    a.add_increment(E.NOBODY, 5000, 12000)
    b.add_stage(E.NOBODY, Stage(0, inc_ms=5000), 12000)
    for c in (a, b):
        c.press(B, 15000)
    assert a.main == b.main == [290000, 300000]  # B: 5 s used, + 5 s


def test_add_stage_refuses_what_adds_nothing_or_cannot_run():
    c, rec = make(sudden_death(300000))
    c.start(0)
    raises(ValueError, c.add_stage, E.NOBODY, Stage(0), 1000)
    raises(ValueError, c.add_stage, E.NOBODY, Stage(0, moves=10, inc_ms=1000), 1000)
    raises(ValueError, c.add_stage, E.NOBODY, Stage(0, inc_ms=1000, delay_ms=1000,
                                                    delay_kind=DELAY_BRONSTEIN), 1000)
    raises(ValueError, c.add_increment, W, 0, 1000)
    assert len(c.stages[W]) == 1 and rec.names() == ["start"]


def test_add_increment_gives_nothing_to_a_side_out_of_time():
    c, rec = make(sudden_death(5000), freeze=False)
    c.start(0)
    c.tick(6000)        # W flag at 5000
    c.add_increment(E.NOBODY, 5000, 6000)
    assert c.flag_at[W] == 5000 and "unflag" not in rec.names()
    c.press(W, 7000)
    assert c.main[W] == 0 and rec.events[-1][3] == 0
    c.press(B, 8000)    # 1 s used, + 5 s
    assert c.main[B] == 9000


def test_add_increment_with_increment_at_turn_start():
    c, rec = make(sudden_death(60000), inc_at_turn_start=True)
    c.start(0)
    c.press(W, 1000)    # W 59000
    c.add_increment(E.NOBODY, 5000, 2000)  # B's turn has started: from its next turn
    c.press(B, 3000)    # B 58000; W's turn starts: + 5 s
    assert c.main == [64000, 58000]


# ---- undo reverses what the press credited, to whichever side ------------------

def test_undo_takes_back_the_opponents_increment_at_turn_start():
    c, rec = make(sudden_death(180000, inc_ms=2000), inc_at_turn_start=True)
    c.start(0)          # W 182000
    c.press(W, 5000)    # W 177000; B's turn starts: 182000
    c.pause(6000)       # B 181000
    assert c.undo_press(6000)
    assert c.main == [177000, 179000] and c.moves == [0, 0] and c.turn == W
    assert rec.events[-1] == ("undo", W, 6000, 0, 177000, 179000)
    assert not c.undo_press(6000)


def test_undo_with_increment_on_the_press_takes_the_movers():
    c, rec = make(sudden_death(180000, inc_ms=2000))
    c.start(0)
    c.press(W, 5000)    # W 177000
    assert c.undo_press(6000)
    assert c.main == [175000, 179000]
    assert rec.events[-1] == ("undo", W, 6000, 2000, 175000, 179000)


def test_undo_never_takes_a_side_below_zero_its_flag_falls_then():
    c, rec = make(sudden_death(10000, inc_ms=2000), inc_at_turn_start=True)
    c.start(0)          # W 12000
    c.press(W, 1000)    # W 11000, B 12000
    c.tick(11500)       # B 1500 left
    assert c.undo_press(11500)
    assert c.main == [11000, 0] and c.turn == W
    c.press(W, 12000)   # the move: Black's turn starts with its increment only
    assert c.main == [10500, 2000]
    c.tick(15000)
    assert rec.of("flag") == [("flag", B, 14000, 0, 10500, 0)]


def test_arbiter_puts_a_side_in_overtime_back_in_a_stage_with_moves():
    # byo-yomi belongs to the stage for the rest of the game: set_stage to a stage with a
    # move count leaves it, and the press completing that stage passes it
    c, rec = make(one([Stage(10000, moves=1), Stage(5000)], byo_periods=2, byo_ms=3000))
    c.start(0)
    c.press(W, 1000)    # W 9000 + 5000
    c.press(B, 2000)    # B 9000 + 5000
    c.tick(17000)       # W's 14 s run out at 16000: overtime, 2 s left of the period
    assert c.periods[W] == 2 and c.main[W] == 2000
    c.pause(17000)
    c.set_stage(W, 0, 17000)
    assert c.periods[W] == 0 and c.stage[W] == 0
    c.resume(17000)
    c.press(W, 17500)   # 1 move of 1: stage 2's 5 s on what is left
    assert c.main[W] == 1500 + 5000 and c.stage[W] == 1 and c.periods[W] == 0
