# Event codes: the one table. The engine emits 0-17, the app 32 and up; the log records
# each as its code (clockcore/eventlog.py), the host reads them (clockcore/logread.py,
# chessclock.log) and docs/EVENT-LOG.md describes them. Portable: MicroPython, CPython.
#
# A code's name is its constant's, without EV_, lower case, "_" as "-" (EV_SET_MOVES is
# "set-moves"): logread.NAMES derives them from this module, so no second list exists
# to forget. Codes are 6 bits (0-63). Code 47 was never given; nothing ever logged it.
# tests/core/test_events.py fails when a module outside this one defines an EV_ name,
# when two names share a code, or when a code does not round-trip through the log.

from clockcore import const

# ---- the engine's (clockcore/engine.py; the listener's ev) ----------------------------
EV_START = const(0)      # side that runs; arg 0
EV_PRESS = const(1)      # side that completed a move; arg = time credited (increment + Bronstein)
EV_IGNORED = const(2)    # side whose lever was pressed; arg = the clock state then
EV_STAGE = const(3)      # side; arg = time added; cause in clock.stage_cause
EV_FLAG = const(4)       # side; arg = presses made in the stage when it fell
EV_PAUSE = const(5)      # side whose turn it is; arg 0
EV_RESUME = const(6)     # side that runs; arg 0
EV_ADJUST = const(7)     # side; arg = ms added (negative: taken)
EV_SET_MOVES = const(8)  # side; arg = new move count
EV_END = const(9)        # NOBODY; arg 0
EV_OVERTIME = const(10)  # side entered byo-yomi; arg = periods
EV_PERIOD = const(11)    # side lost a byo-yomi period; arg = periods left
EV_UNDO = const(12)      # side whose last press no longer counts as a move; arg = time taken back
EV_SET_STAGE = const(13)  # side; arg = new stage index
EV_ADD_STAGE = const(14)  # side; arg = time added with the new stage
EV_SET_TIME = const(15)   # side; arg = new time
EV_UNFLAG = const(16)     # side whose flag an arbiter correction took away; arg 0
EV_LIMIT = const(17)      # side whose press reached the move limit for both; arg = the limit

# ---- the app's (clockapp/) ---------------------------------------------------------------
FIRST_APP_CODE = const(32)   # below: the engine's codes (a replay recomputes them)
EV_BOOT = const(32)          # arg: BOOT_* (1: restored, a snapshot follows); key record
EV_LEVER_BOTH = const(33)    # side whose lever closed while the other was held
EV_LEVER_DROPPED = const(34)  # arg: edges lost (ring full)
EV_LEVER_HELD = const(35)    # side holding its lever down (Art. 6.2.5 hovering)
EV_HEADER = const(36)        # control set: a game header; key record
EV_LOW_BATTERY = const(37)   # arg mV
EV_MISSED_EDGE = const(38)   # a lever's level differed from its filtered state: re-synced
EV_STORAGE_FULL = const(39)  # a state or log write failed for lack of space
EV_POWER_OFF = const(40)     # critical battery: last writes, then no more flash; arg mV
EV_LOG_FULL = const(41)      # log over its budget, unpulled games kept; arg: bytes in the log
EV_AUTH_FAIL = const(42)     # the serial link refused a request; arg: the protocol error code
EV_LOG_LOST = const(43)      # arg: events lost while the RAM ring was full
EV_WALL_CLOCK = const(44)    # the clock was given the wall-clock time; arg: unix seconds
EV_LOG_PRUNED = const(45)    # old pulled games removed; arg: the first sequence number kept
EV_LOW_CHARGE = const(46)    # the fuel gauge's state of charge fell below the warning; arg %
EV_RESTARTED = const(47)     # after the boot record: the clock started again after an error
                             # (clockapp/app.py run), not a power-on; arg: restarts so far
# Adjournment (clockapp/seal.py, docs/ADJOURNMENT.md): codes 48-52.
EV_SEAL_START = const(48)    # seal mode: the sealer's clock runs; arg: session closed (from 1)
EV_SEAL_ALERT = const(49)    # 15 minutes of sealing (P6); arg: ms of sealing so far
EV_SEALED = const(50)        # handed in, clocks stopped; arg: ms of sealing; body: SHA-256
EV_ADJOURNED_LOADED = const(51)  # adjourned game loaded; arg: session; key; body: SHA-256, snapshot
EV_SEAL_CANCEL = const(52)   # seal mode left without a seal; arg: ms of sealing
# The session at the board (docs/SESSION.md), codes 53-61:
EV_SELF_TEST = const(53)     # power-on self-test done; arg: failure bits (ST_*), 0 = pass
EV_RESULT = const(54)        # result entered; arg: RESULTS index; by: 0 clock, 8 host (R_HOST)
EV_INCIDENT = const(55)      # incident mark (play goes on); arg: its number in this game
EV_RESUMED_BY = const(56)    # who resumed after a pause; arg: BY_*; side: the side now running
EV_ARBITER = const(57)       # the arbiter menu; arg 1 opened, 0 closed
EV_SCHEDULE = const(58)      # scheduled start set; arg: unix seconds (0: cleared)
EV_DEFAULT_TIME = const(59)  # default time reached with side absent; arg: default time, s
EV_ARRIVAL = const(60)       # side arrived; arg: ms after the scheduled start
EV_LOW_TIME = const(61)      # side's time fell under the low-time mark; arg: the mark, ms
# The round's pairing (clockapp/pairing.py, docs/HALL.md): codes 62-63.
EV_PAIRING = const(62)       # the round's pairing; arg: board; body: round, White, Black, event
EV_PAIRING_CLEARED = const(63)  # the pairing removed; arg: the board it was

# ---- how a record of each code is laid out (eventlog.Writer, logread.Reader) ---------------
# Fields after dt, dw, db, per code; "arg" first when present. Codes not listed: ("arg",).
FIELDS = {EV_START: (), EV_PRESS: ("moves", "stage"), EV_IGNORED: ("arg",),
          EV_STAGE: ("arg", "stage", "cause"), EV_FLAG: ("arg", "stage", "moves"),
          EV_PAUSE: (), EV_RESUME: (), EV_ADJUST: ("arg", "reason"),
          EV_SET_MOVES: ("arg", "reason"), EV_END: (), EV_OVERTIME: ("arg",),
          EV_PERIOD: ("arg",), EV_UNDO: ("arg", "reason"), EV_SET_STAGE: ("arg", "reason"),
          EV_ADD_STAGE: ("arg", "reason", "moves", "inc_ms", "delay_ms", "delay_kind"),
          EV_SET_TIME: ("arg", "reason"), EV_UNFLAG: (), EV_HEADER: (),
          EV_AUTH_FAIL: ("arg", "count"), EV_SELF_TEST: ("arg", "mv", "pct"),
          EV_RESULT: ("arg", "by"), EV_INCIDENT: ("arg", "wmoves", "bmoves"),
          EV_SCHEDULE: ("arg", "default_s")}
ARG_ONLY = ("arg",)
# Key records: encoded against zeros, so decoding can start at any of them.
KEY_CODES = (EV_BOOT, EV_HEADER, EV_ADJOURNED_LOADED)
# Records that carry a body after their fields without being key records (50: a digest,
# 62: the pairing's round and names).
BODY_CODES = (EV_SEALED, EV_PAIRING)
# Arbiter corrections: their record carries the reason (R_*).
CORRECTIONS = (EV_ADJUST, EV_SET_MOVES, EV_UNDO, EV_SET_STAGE, EV_ADD_STAGE, EV_SET_TIME)


def fields(code):
    f = FIELDS.get(code)
    return ARG_ONLY if f is None else f


# ---- what some codes' args mean ----------------------------------------------------------
# EV_BOOT arg.
BOOT_NEW = const(0)          # no saved game: a new one was set up
BOOT_RESTORED = const(1)     # the saved game was restored (a snapshot follows)
BOOT_RESTORE_FAILED = const(2)  # a saved game could not be read: kept on flash, new game set

# Self-test failure bits (EV_SELF_TEST arg; their names: chessclock/log/records.py ST_NAMES).
ST_LEFT = const(1)       # the left lever was not pressed in time
ST_RIGHT = const(2)      # the right lever was not pressed in time
ST_BATTERY = const(4)    # the battery is low
ST_NO_BATTERY = const(8)  # no battery reading (not wired, no fuel gauge answering)
ST_DISPLAY = const(16)   # a display did not acknowledge (TM1637 ACK, SSD1306 I2C)
ST_CUT = const(32)       # cut short: a game started (the scheduled start) before its end
RESULTS = ("*", "1-0", "0-1", "1/2-1/2")   # EV_RESULT arg: index
# EV_RESUMED_BY arg (their names: chessclock/log/records.py BY_NAMES, host only)
BY_PLAYER = const(0)     # START on the clock (where the rules let players resume)
BY_ARBITER = const(1)    # the arbiter menu's rES
BY_HOST = const(2)       # over the serial link (the arbiter's key)
BY_REFUSED = const(3)    # a player's START refused: the rules reserve it to the arbiter

# Why an arbiter corrected the clock (the `reason` field of a correction; their names:
# logread.REASONS).
R_OTHER = const(0)
R_PENALTY = const(1)    # +2 minutes to the opponent (Art. 7.5.5, 11.3, 12.9)
R_TIME = const(2)       # a time corrected (Art. 6.10, 6.14)
R_MOVES = const(3)      # a move counter corrected
R_STAGE = const(4)      # a stage corrected
R_UNDO = const(5)       # the last press was not a move
R_RESUME = const(6)     # the other side's clock started
R_END = const(7)
R_HOST = const(8)       # by the host over the serial link
R_GROUND = const(9)     # by the host, with the arbiter's ground: the record's body holds it,
                        # two strings (the reason, the rule's article; eventlog.ground_body)
GROUND_MAX = const(40)  # bytes of UTF-8 a ground's reason or article may have
