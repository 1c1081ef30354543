# The saved game's byte format (clockapp/gamestate.py describes it): what its writer,
# gamestate.py, and its reader, gameread.py (loaded only to restore a game), share.
# Portable: MicroPython and CPython.

MAGIC = b"GS"
VERSION = 2

F_INC_AT_TURN_START = 1
F_STAGE_ON_FLAG = 2
F_FREEZE = 4
META_LIMIT = "move_limit"   # Clock.move_limit, when not 0 (older states have none)

VERSION_FMT = "<B"
HEAD = "<BBBBbbb"        # flags, state, turn, stage_cause, undo_side, flag_order x2
TURN = "<9q"
SIDE = "<9q"
TURN_V1 = "<8q"
SIDE_V1 = "<8q"
CONTROL_SIDE = "<Bqqq"   # mode, byo_periods, byo_ms, byo_moves (then the stages)
STAGE = "<qqqqB"
COUNT = "<H"
