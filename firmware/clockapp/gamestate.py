"""A running game as bytes, so that a power cut can be recovered.

Portable: runs on MicroPython and CPython. encode(clock, meta) -> bytearray;
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

from clockapp.gameformat import (
    CONTROL_SIDE,
    COUNT,
    F_FREEZE,
    F_INC_AT_TURN_START,
    F_STAGE_ON_FLAG,
    HEAD,
    MAGIC,
    META_LIMIT,
    SIDE,
    STAGE,
    TURN,
    VERSION,
    VERSION_FMT,
)
from clockcore import engine as E

# Written in the order of control.stage_ints()/side_ints() (the log's header writes the
# same), spelt out here because a save runs after every press: no tuple to build, and the
# fields packed into one buffer of the state's size (packed apart and joined, a save left
# ~2 KB of garbage on a 32-bit heap for ~450 bytes of state).
_N_HEAD = struct.calcsize(HEAD)
_N_TURN = struct.calcsize(TURN)
_N_SIDE = struct.calcsize(SIDE)
_N_CONTROL = struct.calcsize(CONTROL_SIDE)
_N_STAGE = struct.calcsize(STAGE)
_N_COUNT = struct.calcsize(COUNT)


def _put_stages(buf, pos, stages):
    struct.pack_into(COUNT, buf, pos, len(stages))
    pos += _N_COUNT
    for st in stages:
        struct.pack_into(STAGE, buf, pos, st.time_ms, st.moves, st.inc_ms, st.delay_ms,
                         st.delay_kind)
        pos += _N_STAGE
    return pos


def encode(clock, meta=None):
    """The game as a bytearray (clock.tick(now) first). meta: a dict of small ints and
    strings."""
    c = clock
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise ValueError("meta must be a dict")
    flags = ((F_INC_AT_TURN_START if c.inc_at_turn_start else 0)
             | (F_STAGE_ON_FLAG if c.stage_on_flag else 0)
             | (F_FREEZE if c.freeze else 0))
    sides = c.sides
    lists = (sides[0].stages, sides[1].stages, c.stages[E.WHITE], c.stages[E.BLACK])
    n = 0
    for stages in lists:
        if len(stages) > 0xFFFF:
            raise ValueError("too many stages")
        n += len(stages)
    if c.move_limit:  # the play-off's move limit rides in meta: the layout is unchanged
        meta = dict(meta)
        meta[META_LIMIT] = c.move_limit
    m = json.dumps(meta).encode()
    if len(m) > 0xFFFF:
        raise ValueError("meta too long")
    buf = bytearray(len(MAGIC) + 1 + _N_HEAD + _N_TURN + 2 * _N_SIDE + 2 * _N_CONTROL
                    + 5 * _N_COUNT + n * _N_STAGE + len(m))
    buf[0:len(MAGIC)] = MAGIC
    pos = len(MAGIC)
    struct.pack_into(VERSION_FMT, buf, pos, VERSION)
    pos += 1
    struct.pack_into(HEAD, buf, pos, flags, c.state, c.turn, c.stage_cause, c.undo_side,
                     c.flag_order[0], c.flag_order[1])
    pos += _N_HEAD
    struct.pack_into(TURN, buf, pos, c.last, c.turn_used, c.delay_left, c.undo_gain,
                     c.undo_moves, c.undo_stage, c.undo_stage_moves, c.undo_period_moves,
                     c.undo_opp_gain)
    pos += _N_TURN
    for s in (E.WHITE, E.BLACK):
        struct.pack_into(SIDE, buf, pos, c.main[s], c.moves[s], c.stage[s], c.stage_moves[s],
                         c.periods[s], c.period_moves[s], c.flag_at[s], c.overrun[s],
                         1 if c.out[s] else 0)
        pos += _N_SIDE
    for side in sides:
        struct.pack_into(CONTROL_SIDE, buf, pos, side.mode, side.byo_periods, side.byo_ms,
                         side.byo_moves)
        pos += _N_CONTROL
        pos = _put_stages(buf, pos, side.stages)
    for s in (E.WHITE, E.BLACK):
        pos = _put_stages(buf, pos, c.stages[s])
    struct.pack_into(COUNT, buf, pos, len(m))
    pos += _N_COUNT
    buf[pos:] = m
    return buf   # not copied into bytes: a save's garbage is a state less


def decode(payload, listener=None):
    """(clock, meta) from encode()'s bytes; a RUNNING clock comes back PAUSED. Raises
    ValueError on another version, truncated or extra bytes, or values out of range. The
    reader is clockapp/gameread.py, loaded only to restore a game (at boot after a power
    cut, an adjourned game loaded): a running game only writes."""
    from clockapp.gameread import decode as read
    return read(payload, listener)
