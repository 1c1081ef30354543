"""A running game as bytes, so that a power cut can be recovered.

Portable: runs on MicroPython and CPython. encode(clock, meta) -> bytes;
decode(payload, listener=None) -> (clock, meta). The bytes go into Store.save_state()
(clockapp/storage.py), whose CRC catches corruption; decode() raises ValueError on what the
CRC cannot: another format version, truncated or extra data, values out of range.

Call clock.tick(now) before encode() so that the times are those of `now`. The clock comes
back PAUSED if it was RUNNING (the arbiter or the players resume it: resume() sets `last`
on the new time line), IDLE, PAUSED, FROZEN and ENDED as they were. The turn in progress
(time used, simple delay left), the last press (for undo_press) and every counter are kept,
so resuming and playing on gives exactly the times the clock would have given.

Format version 2, little-endian, every time and count an int64 ('q'):
    b"GS", version u8 (2)
    flags u8         bit 0 inc_at_turn_start, bit 1 stage_on_flag, bit 2 freeze
    state u8, turn u8, stage_cause u8, undo_side i8, flag_order i8 i8
    9 x q            last, turn_used, delay_left, undo_gain, undo_moves, undo_stage,
                     undo_stage_moves, undo_period_moves, undo_opp_gain
    per side (White, Black), 9 x q:
                     main, moves, stage, stage_moves, periods, period_moves, flag_at, overrun,
                     out (1: out of time)
    the control, per side (White, Black):
                     mode u8, byo_periods q, byo_ms q, byo_moves q, stage count u16, stages
    the clock's own stage lists (the control's, plus what add_stage() appended), per side:
                     stage count u16, stages
    a stage          time_ms q, moves q, inc_ms q, delay_ms q, delay_kind u8 (33 bytes)
    meta             length u16, JSON text (UTF-8) of a dict of small ints and strings
                     (game id, lever mapping, which side is White on the left, ...); its
                     key "move_limit" is the clock's move limit when it has one
Version 1 (8 x q in both places: no undo_opp_gain, no out) is still read: a game saved
before the update is not lost; out is then what it was then (flag down and no time).
"""

import json
import struct

from clockcore import engine as E
from clockcore.control import Control, SideControl, Stage, check_stage

MAGIC = b"GS"
VERSION = 2

_F_INC_AT_TURN_START = 1
_F_STAGE_ON_FLAG = 2
_F_FREEZE = 4
_META_LIMIT = "move_limit"   # Clock.move_limit, when not 0 (older states have none)

_VERSION = "<B"
_HEAD = "<BBBBbbb"       # flags, state, turn, stage_cause, undo_side, flag_order x2
_TURN = "<9q"
_SIDE = "<9q"
_TURN_V1 = "<8q"
_SIDE_V1 = "<8q"
_CONTROL_SIDE = "<Bqqq"  # mode, byo_periods, byo_ms, byo_moves (then the stages)
_STAGE = "<qqqqB"
_COUNT = "<H"


# Written in the order of control.stage_ints()/side_ints() (the log's header writes the
# same), spelt out here because a save runs after every press: no tuple to build.
def _stage_bytes(st):
    return struct.pack(_STAGE, st.time_ms, st.moves, st.inc_ms, st.delay_ms, st.delay_kind)


def _stages_bytes(stages):
    if len(stages) > 0xFFFF:
        raise ValueError("too many stages")
    return struct.pack(_COUNT, len(stages)) + b"".join([_stage_bytes(s) for s in stages])


def encode(clock, meta=None):
    """The game as bytes (clock.tick(now) first). meta: a dict of small ints and strings."""
    c = clock
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise ValueError("meta must be a dict")
    flags = ((_F_INC_AT_TURN_START if c.inc_at_turn_start else 0)
             | (_F_STAGE_ON_FLAG if c.stage_on_flag else 0)
             | (_F_FREEZE if c.freeze else 0))
    parts = [MAGIC, struct.pack(_VERSION, VERSION),
             struct.pack(_HEAD, flags, c.state, c.turn, c.stage_cause, c.undo_side,
                         c.flag_order[0], c.flag_order[1]),
             struct.pack(_TURN, c.last, c.turn_used, c.delay_left, c.undo_gain, c.undo_moves,
                         c.undo_stage, c.undo_stage_moves, c.undo_period_moves,
                         c.undo_opp_gain)]
    for s in (E.WHITE, E.BLACK):
        parts.append(struct.pack(_SIDE, c.main[s], c.moves[s], c.stage[s], c.stage_moves[s],
                                 c.periods[s], c.period_moves[s], c.flag_at[s],
                                 c.overrun[s], 1 if c.out[s] else 0))
    for side in c.sides:
        parts.append(struct.pack(_CONTROL_SIDE, side.mode, side.byo_periods, side.byo_ms,
                                 side.byo_moves))
        parts.append(_stages_bytes(side.stages))
    for s in (E.WHITE, E.BLACK):
        parts.append(_stages_bytes(c.stages[s]))
    if c.move_limit:  # the play-off's move limit rides in meta: the layout is unchanged
        meta = dict(meta)
        meta[_META_LIMIT] = c.move_limit
    m = json.dumps(meta).encode()
    if len(m) > 0xFFFF:
        raise ValueError("meta too long")
    parts.append(struct.pack(_COUNT, len(m)))
    parts.append(m)
    return b"".join(parts)


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, fmt):
        n = struct.calcsize(fmt)
        if self.pos + n > len(self.data):
            raise ValueError("game state truncated at byte %d" % self.pos)
        v = struct.unpack(fmt, self.data[self.pos:self.pos + n])
        self.pos += n
        return v

    def raw(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("game state truncated at byte %d" % self.pos)
        v = self.data[self.pos:self.pos + n]
        self.pos += n
        return v

    def stages(self):
        n = self.take(_COUNT)[0]
        out = []
        for i in range(n):
            st = Stage(*self.take(_STAGE))
            check_stage(st, "game state, stage %d" % (i + 1))  # a new game's checks
            out.append(st)
        return out


def _check(ok, what):
    if not ok:
        raise ValueError("game state: bad " + what)


def decode(payload, listener=None):
    """(clock, meta) from encode()'s bytes; a RUNNING clock comes back PAUSED. Raises
    ValueError on another version, truncated or extra bytes, or values out of range."""
    if not isinstance(payload, (bytes, bytearray)):
        raise ValueError("game state must be bytes")
    r = _Reader(bytes(payload))
    if r.raw(2) != MAGIC:
        raise ValueError("not a game state")
    version = r.take(_VERSION)[0]
    if version not in (1, VERSION):
        raise ValueError("game state format version %d, this firmware reads %d"
                         % (version, VERSION))
    flags, state, turn, cause, undo_side, fo0, fo1 = r.take(_HEAD)
    _check(flags & ~(_F_INC_AT_TURN_START | _F_STAGE_ON_FLAG | _F_FREEZE) == 0, "flags")
    _check(E.IDLE <= state <= E.ENDED, "state")
    _check(turn in (E.WHITE, E.BLACK), "turn")
    _check(E.CAUSE_MOVES <= cause <= E.CAUSE_ARBITER, "stage cause")
    _check(undo_side in (E.NOBODY, E.WHITE, E.BLACK), "undo side")
    _check(fo0 in (E.NOBODY, E.WHITE, E.BLACK) and fo1 in (E.NOBODY, E.WHITE, E.BLACK),
           "flag order")
    if version == 1:
        turn_fields = r.take(_TURN_V1) + (0,)
        sides = [r.take(_SIDE_V1) + (-1,), r.take(_SIDE_V1) + (-1,)]
    else:
        turn_fields = r.take(_TURN)
        sides = [r.take(_SIDE), r.take(_SIDE)]
    controls = []
    for _ in (0, 1):
        side = r.take(_CONTROL_SIDE)
        controls.append(SideControl(r.stages(), *side))
    stage_lists = [r.stages(), r.stages()]
    n = r.take(_COUNT)[0]
    text = r.raw(n)
    if r.pos != len(r.data):
        raise ValueError("game state: %d bytes too many" % (len(r.data) - r.pos))
    try:
        meta = json.loads(text.decode())
    except ValueError:  # JSON and UTF-8 errors alike, on both interpreters
        raise ValueError("game state: bad meta") from None
    _check(isinstance(meta, dict), "meta")
    limit = meta.pop(_META_LIMIT, 0)
    _check(isinstance(limit, int) and 0 <= limit <= E.MAX_MOVE_LIMIT, "move limit")

    control = Control(controls[0], controls[1])
    try:  # the control passes the checks a new game's does (Clock validates it), or no game
        clock = E.Clock(control, listener, inc_at_turn_start=bool(flags & _F_INC_AT_TURN_START),
                        stage_on_flag=bool(flags & _F_STAGE_ON_FLAG),
                        freeze=bool(flags & _F_FREEZE), move_limit=limit)
    except ValueError as e:
        raise ValueError("game state: %s" % e) from None
    (last, turn_used, delay_left, undo_gain, undo_moves, undo_stage, undo_stage_moves,
     undo_period_moves, undo_opp_gain) = turn_fields
    _check(turn_used >= 0 and delay_left >= 0, "turn")
    for s in (E.WHITE, E.BLACK):
        main, moves, stage, stage_moves, periods, period_moves, flag_at, overrun, out = sides[s]
        if out < 0:  # version 1
            out = 1 if flag_at >= 0 and main == 0 else 0
        _check(len(stage_lists[s]) > 0 and 0 <= stage < len(stage_lists[s]), "stage")
        _check(main >= 0 and moves >= 0 and stage_moves >= 0 and period_moves >= 0
               and flag_at >= -1 and overrun >= 0 and out in (0, 1)
               and (not out or (flag_at >= 0 and main == 0)), "counters")
        _check(0 <= periods <= controls[s].byo_periods, "periods")
        clock.main[s] = main
        clock.moves[s] = moves
        clock.stage[s] = stage
        clock.stage_moves[s] = stage_moves
        clock.periods[s] = periods
        clock.period_moves[s] = period_moves
        clock.flag_at[s] = flag_at
        clock.overrun[s] = overrun
        clock.out[s] = out == 1
    if undo_side != E.NOBODY:
        _check(0 <= undo_stage < len(stage_lists[undo_side]) and undo_moves >= 0
               and undo_stage_moves >= 0 and undo_period_moves >= 0, "undo")
    clock.stages = stage_lists
    clock.state = E.PAUSED if state == E.RUNNING else state
    clock.turn = turn
    clock.last = last
    clock.stage_cause = cause
    clock.flag_order[0] = fo0
    clock.flag_order[1] = fo1
    clock.turn_used = turn_used
    clock.delay_left = delay_left
    clock.undo_side = undo_side
    clock.undo_gain = undo_gain
    clock.undo_moves = undo_moves
    clock.undo_stage = undo_stage
    clock.undo_stage_moves = undo_stage_moves
    clock.undo_period_moves = undo_period_moves
    clock.undo_opp_gain = undo_opp_gain
    return clock, meta
