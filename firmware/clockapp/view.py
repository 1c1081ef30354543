# What one side's display shows, as plain fields updated in place by the app. Displays
# (drivers/*.py adapters, the simulator's terminal) draw a SideView; they redraw only when
# `version` changed since they last drew. No allocation: text lives in fixed bytearrays.

TEXT_LEN = 8  # characters in `time` and `text`; right-aligned, padded with spaces

FLAG_NONE = 0
FLAG_FIRST = 1   # this side's flag fell first
FLAG_SECOND = 2  # this side's flag fell, after the other's


class SideView:
    def __init__(self):
        self.time = bytearray(b" " * TEXT_LEN)  # e.g. b" 1:29:59", b"    4:59", b"    19.9"
        self.text = bytearray(b" " * TEXT_LEN)  # menu or message text; shown when text_on
        self.text_on = False
        self.running = False     # this side's clock runs (visible from 10 m)
        self.flag = FLAG_NONE
        self.delay_ds = -1       # simple delay left, tenths of a second; -1: none shown
        self.periods = -1        # byo-yomi periods left; -1: not in byo-yomi
        self.moves = -1          # move counter; -1: hidden
        self.stage = 0           # stage number from 1; 0: hidden
        self.stage_passed = False
        self.paused = False
        self.battery_low = False
        self.alert = False       # battery low, no clock running, and the moment (1 s in 3) for
                                 # displays without room for a mark to show it instead
        self.white = False       # this display is White's (shown before the start)
        self.test = False        # self-test: light every segment / pixel
        self.moment = False      # 1 s in 3 while no clock runs, for displays that show in
                                 # turn what they have no room for (TM1637: `moments`)
        self.idle = True         # no game started yet (before the start)
        self.pair = None         # the round's pairing: (board, White's, Black's name as
                                 # ASCII bytes), or None
        # Before the start (idle), so that the players can check the control they play:
        self.ctl = None          # this side's control in capitals (timefmt.control_line)
        self.inc_ms = -1         # its first stage's increment or delay, ms (-1: not set)
        self.inc_kind = 0        # 0 increment (or none), 1 simple delay, 2 Bronstein delay
        self.cycle = 0           # 0/1, every 3 s at set-up: what a display shows in turn
        self.ctl_of = None       # (the app's) the clock whose control ctl is, and how many
        self.ctl_n = 0           # stages it had (an arbiter may add one before the start)
        self.version = 0         # bumped by the app after any change

    def forget(self):
        """What this view holds may not be on the glass (a draw that failed): the app's
        next refresh finds it changed and draws it again (no state has this delay)."""
        self.delay_ds = -2

    def touch(self):
        self.version = (self.version + 1) & 0x3FFFFFFF
