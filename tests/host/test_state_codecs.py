# The engine's state is written down twice on purpose: the saved game (clockapp/gamestate.py,
# fixed-width, read back at boot) and the restoring boot's snapshot in the log
# (eventlog.snapshot_body, varints, read by the host's replay). A field added to the
# engine without its place in both codecs must fail here, not lose itself at a power cut.

from clockapp import gamestate as G
from clockcore import engine as E
from clockcore import logread as LR
from clockcore.control import Control, SideControl, Stage

# Set from the control and the options: gamestate writes the control and the flags, the log
# its header; compared through the round trip below, not field by field.
CONFIG = {"sides", "stages", "listener", "inc_at_turn_start", "stage_on_flag", "freeze",
          "move_limit"}
# Not state: what the last undo took from the opponent, for that undo's listener only.
TRANSIENT = {"undo_taken_opp"}
# The log carries both times in every record: its snapshot needs no `main`.
LOG_NEEDS_NOT = {"main"}


def state_fields(clock):
    return set(vars(clock)) - CONFIG - TRANSIENT


def log_names(field, value):
    """The names the log's snapshot gives an engine field (a per-side list is two)."""
    if field == "flag_order":
        return {"flag_order0", "flag_order1"}
    if isinstance(value, list):
        return {"white_" + field, "black_" + field}
    return {field}


def uncoded_in_log(clock):
    snap = set(LR.SNAPSHOT) | set(LR.SNAPSHOT_TAIL)
    snap |= {s + n for s in ("white_", "black_") for n in LR.SNAPSHOT_SIDE}
    return sorted(f for f in state_fields(clock) - LOG_NEEDS_NOT
                  if not log_names(f, getattr(clock, f)) <= snap)


def lost_by_save(clock):
    """The state fields a save and a restore do not bring back as they were."""
    back, _ = G.decode(G.encode(clock))
    missing = object()
    return sorted(f for f in state_fields(clock) if getattr(back, f, missing) != getattr(clock, f))


def played():
    """A paused game with something in most fields: presses, a stage passed, an undo ready."""
    ctl = Control(SideControl([Stage(60000, moves=2, inc_ms=2000), Stage(30000, inc_ms=1000)]))
    c = E.Clock(ctl, inc_at_turn_start=True)
    c.start(0)
    t = 0
    for side in (E.WHITE, E.BLACK, E.WHITE, E.BLACK, E.WHITE):
        t += 1500
        c.press(side, t)
    c.pause(t + 200)
    return c


def test_every_engine_field_has_its_place_in_the_log_snapshot():
    assert uncoded_in_log(played()) == []


def test_a_paused_game_comes_back_from_a_save_field_for_field():
    c = played()
    assert c.undo_side != E.NOBODY and c.moves != [0, 0] and c.stage != [0, 0]
    assert lost_by_save(c) == []
    back, _ = G.decode(G.encode(c))
    for f in CONFIG - {"listener"}:
        assert repr(getattr(back, f)) == repr(getattr(c, f)), f


def test_a_field_added_to_the_engine_without_its_codec_is_found():
    c = played()
    c.new_field = 7          # as if Clock.__init__ had grown one
    c.per_side_thing = [1, 2]
    assert uncoded_in_log(c) == ["new_field", "per_side_thing"]
    assert lost_by_save(c) == ["new_field", "per_side_thing"]
