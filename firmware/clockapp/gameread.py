"""Reading a game state back: clockapp/gamestate.py's decode(), loaded only when a game is
restored (at boot after a power cut, an adjourned game loaded), so that a running game's
heap carries only the writing half. The format is gamestate.py's (gameformat.py).

Portable: runs on MicroPython and CPython.
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
    SIDE_V1,
    STAGE,
    TURN,
    TURN_V1,
    VERSION,
    VERSION_FMT,
)
from clockcore import engine as E
from clockcore.control import Control, SideControl, Stage, check_stage


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
        n = self.take(COUNT)[0]
        out = []
        for i in range(n):
            st = Stage(*self.take(STAGE))
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
    version = r.take(VERSION_FMT)[0]
    if version not in (1, VERSION):
        raise ValueError("game state format version %d, this firmware reads %d"
                         % (version, VERSION))
    flags, state, turn, cause, undo_side, fo0, fo1 = r.take(HEAD)
    _check(flags & ~(F_INC_AT_TURN_START | F_STAGE_ON_FLAG | F_FREEZE) == 0, "flags")
    _check(E.IDLE <= state <= E.ENDED, "state")
    _check(turn in (E.WHITE, E.BLACK), "turn")
    _check(E.CAUSE_MOVES <= cause <= E.CAUSE_ARBITER, "stage cause")
    _check(undo_side in (E.NOBODY, E.WHITE, E.BLACK), "undo side")
    _check(fo0 in (E.NOBODY, E.WHITE, E.BLACK) and fo1 in (E.NOBODY, E.WHITE, E.BLACK),
           "flag order")
    if version == 1:
        turn_fields = r.take(TURN_V1) + (0,)
        sides = [r.take(SIDE_V1) + (-1,), r.take(SIDE_V1) + (-1,)]
    else:
        turn_fields = r.take(TURN)
        sides = [r.take(SIDE), r.take(SIDE)]
    controls = []
    for _ in (0, 1):
        side = r.take(CONTROL_SIDE)
        controls.append(SideControl(r.stages(), *side))
    stage_lists = [r.stages(), r.stages()]
    n = r.take(COUNT)[0]
    text = r.raw(n)
    if r.pos != len(r.data):
        raise ValueError("game state: %d bytes too many" % (len(r.data) - r.pos))
    try:
        meta = json.loads(text.decode())
    except ValueError:  # JSON and UTF-8 errors alike, on both interpreters
        raise ValueError("game state: bad meta") from None
    _check(isinstance(meta, dict), "meta")
    limit = meta.pop(META_LIMIT, 0)
    _check(isinstance(limit, int) and 0 <= limit <= E.MAX_MOVE_LIMIT, "move limit")

    control = Control(controls[0], controls[1])
    try:  # the control passes the checks a new game's does (Clock validates it), or no game
        clock = E.Clock(control, listener, inc_at_turn_start=bool(flags & F_INC_AT_TURN_START),
                        stage_on_flag=bool(flags & F_STAGE_ON_FLAG),
                        freeze=bool(flags & F_FREEZE), move_limit=limit)
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
