# Menus on four buttons (start/pause, menu, plus, minus).
#
# Set-up menu (clock set up, not started; MENU): pick a preset, recall a favourite, enter a
# control by hand (minutes + increment), save it as a favourite, swap which lever is
# White's, sound, tenths, move counter, the self-test (tESt).
# Arbiter menu (paused, flag down or game over; hold MENU 2 s, so that a player cannot
# change a game with a tap): pick a side, +2 min, adjust its time, its move counter and
# stage, undo the last press, an increment for both from now on (FIDE Guidelines III:
# "+5 s a move", one action), resume either side, end the game with its result (End:
# START, PLUS/MINUS to 1-0 / 0-1 / 1/2, START), new game; opening and closing the menu
# is logged (seed 5.3). FIDE Handbook:
# corrections within 60 s; every one of them is two or three presses away.
#
# In a menu PLUS/MINUS move between items, START acts on the item (or starts editing it,
# PLUS/MINUS then change the value and START ends the edit), MENU goes back or closes.
# The left display shows the item, the right one its value.
# A question (ask(); the erasure of the log of a clock without an arbiter key, asked over
# the cable): the left display shows it ("CLr?"), the right one "HoLd": holding MENU 2 s
# within CONFIRM_MS says yes; any other button, CONFIRM_MS passing or the menu closed
# otherwise (the scheduled start) says no. Levers do nothing meanwhile (logged).

import clockcore.corrections  # noqa: F401  (loaded parked, with the menus)
from clockapp.board import BTN_MENU, BTN_MINUS, BTN_PLUS, BTN_START, LEFT
from clockcore import const, presets
from clockcore import engine as E
from clockcore import events as EV

_CLOSED = const(0)
SETUP = const(1)
ARBITER = const(2)
CONFIRM = const(3)
CONFIRM_MS = const(30000)         # a question's time to hold MENU

_ARBITER_HOLD_MS = const(2000)
_TIME_STEP_MS = const(10000)      # one PLUS/MINUS press on a time: 10 s
_MAX_FAVOURITES = const(5)

SETUP_ITEMS = ("PrSt", "FAv", "SEt", "SAvE", "tESt", "SWAP", "Snd", "SEcS", "MovS")
ARBITER_ITEMS = ("SIdE", "+2", "tImE", "MovE", "StAG", "Undo", "InC", "rES", "End", "nEW")
EDITABLE = ("PrSt", "FAv", "SEt", "tImE", "MovE", "StAG", "InC", "End")
# End: the result, then START ends the game and logs it (ACT 12, RAP 11; seed 5.4)
RESULT_TEXT = ("nonE", "1-0", "0-1", "1/2")   # events.RESULTS by index
_INC_DEFAULT_S = const(5)         # FIDE Guidelines III: 5 s a move
_INC_MAX_S = const(60)
# Arbiter menu item -> reason code of the correction it makes (events.R_*), for its log.
LOG_REASONS = {"+2": EV.R_PENALTY, "tImE": EV.R_TIME, "MovE": EV.R_MOVES, "StAG": EV.R_STAGE,
               "Undo": EV.R_UNDO, "InC": EV.R_STAGE, "rES": EV.R_RESUME, "End": EV.R_END}
# Set-up items that flip one setting.
TOGGLES = {"SWAP": "white_left", "Snd": "sound", "SEcS": "seconds_always",
           "MovS": "show_moves"}


def _put(buf, text):
    """Write text into an 8-byte display buffer, right-aligned."""
    n = len(buf)
    t = text[-n:]
    pad = n - len(t)
    for i in range(pad):
        buf[i] = 32
    for i in range(len(t)):
        buf[pad + i] = ord(t[i])


class Menu:
    def __init__(self, app):
        self.app = app
        self.mode = _CLOSED
        self.item = 0
        self.editing = False
        self.value = 0           # the value being edited (preset index, minutes, ...)
        self.value2 = -1         # second field of the hand-entered control (increment)
        self.side = E.WHITE      # the side the arbiter corrects
        self.version = 1
        self.drawn = [0, 0]
        self.message = ""        # a short answer shown on the right, e.g. "Err"
        self.hold_used = False   # this hold of MENU acted already (seal mode)
        self.armed = False       # nEW asked once: a second START throws the game away
        self.until = -1          # CONFIRM: when the question lapses (app time, ms)
        self.asker = None        # CONFIRM: its yes(now) and no() are called with the answer
        self.question = ""       # CONFIRM: what the left display asks

    def active(self):
        return self.mode != _CLOSED

    def reason(self):
        """Why the correction made now is made: the item's reason code (events.R_*)."""
        return LOG_REASONS.get(self.items()[self.item], 0)

    def items(self):
        if self.mode == CONFIRM:
            return (self.question,)
        return SETUP_ITEMS if self.mode == SETUP else ARBITER_ITEMS

    def ask(self, question, asker, now):
        """Ask the person at the clock (CONFIRM); False when a menu is open already."""
        if self.mode != _CLOSED:
            return False
        self.question = question
        self.asker = asker
        self.until = now + CONFIRM_MS
        self.open(CONFIRM)
        return True

    def lapse(self, now):
        """Once a pass while a question is asked: no answer in time is a no."""
        if self.until >= 0 and now >= self.until:
            self.close()

    def _answered(self, yes, now):
        asker = self.asker
        self.asker = None
        self.until = -1
        self.mode = _CLOSED
        self.editing = False
        self.changed()
        if asker is not None:
            if yes:
                asker.yes(now)
            else:
                asker.no()

    def changed(self):
        self.version += 1

    def open(self, mode):
        if mode == ARBITER:  # every arbiter session is logged (ACT 16, RAP 16; seed 5.3)
            self.app.log(EV.EV_ARBITER, E.NOBODY, self.app.now, 1)
        self.mode = mode
        self.item = 0
        self.editing = False
        self.message = ""
        self.changed()

    def close(self):
        if self.mode == CONFIRM:
            self._answered(False, self.app.now)
            return
        if self.mode == ARBITER:
            self.app.log(EV.EV_ARBITER, E.NOBODY, self.app.now, 0)
        self.mode = _CLOSED
        self.editing = False
        self.changed()

    # ---- buttons ---------------------------------------------------------------------
    def held(self, buttons, ms):
        c = self.app.clock
        if ms < _ARBITER_HOLD_MS:
            self.hold_used = False
        elif self.mode == CONFIRM:
            if buttons == BTN_MENU:   # the arbiter at the clock says yes
                self.hold_used = True   # the rest of this hold opens nothing
                self._answered(True, self.app.now)
        elif (buttons == BTN_MENU and self.mode == _CLOSED and not self.hold_used
                and c.state in (E.PAUSED, E.FROZEN, E.ENDED)):
            self.open(ARBITER)
        elif (buttons == BTN_MENU and self.mode == _CLOSED and c.state == E.RUNNING
              and not self.hold_used):
            # A running game: the 2 s hold is the arbiter's seal mode (the player to move
            # seals; clockapp/seal.py), and holding again leaves it.
            self.hold_used = True
            sl = self.app.seal
            if sl.phase == 0:
                sl.begin(self.app.now)
            else:
                sl.cancel(self.app.now)

    def button(self, pressed, now):
        app = self.app
        c = app.clock
        if self.mode == _CLOSED:
            if pressed & BTN_START:
                app.start_pause()
            elif pressed & BTN_MENU and c.state == E.IDLE:
                self.open(SETUP)
            return
        if self.mode == CONFIRM:
            if pressed & ~BTN_MENU:   # MENU's press begins the hold that says yes
                self.close()
            return
        self.message = ""
        armed = self.armed       # any button but START on nEW again keeps the game
        self.armed = False
        if pressed & BTN_MENU:
            if self.editing:
                self.editing = False
            else:
                self.close()
        elif pressed & (BTN_PLUS | BTN_MINUS):
            step = 1 if pressed & BTN_PLUS else -1
            if self.editing:
                self.edit(step)
            else:
                self.item = (self.item + step) % len(self.items())
        elif pressed & BTN_START:
            self.armed = armed
            self.act()
        self.changed()

    def act(self):
        name = self.items()[self.item]
        if name in EDITABLE and not self.editing:
            self.begin_edit(name)
            return
        if name in ("tImE", "MovE", "StAG"):  # the clock changed as the value moved: done
            self.editing = False
            return
        if self.mode == SETUP:
            self.act_setup(name)
        else:
            self.act_arbiter(name)

    def begin_edit(self, name):
        app = self.app
        self.editing = True
        self.value2 = -1
        if name == "PrSt":
            self.value = 0
        elif name == "FAv":
            self.value = 0
            if not app.settings.favourites:
                self.editing = False
                self.message = "nonE"
        elif name == "SEt":
            self.value = 5  # minutes
        elif name == "InC":
            self.value = _INC_DEFAULT_S  # seconds a move, for both
        elif name == "End":
            self.value = 0  # no result given: START START ends the game as before
        # tImE, MovE, StAG change the clock directly as the value moves

    def edit(self, step):
        app = self.app
        c = app.clock
        name = self.items()[self.item]
        now = app.now
        if name == "PrSt":
            self.value = (self.value + step) % presets.COUNT
        elif name == "FAv":
            self.value = (self.value + step) % len(app.settings.favourites)
        elif name == "SEt":
            if self.value2 < 0:
                self.value = min(600, max(1, self.value + step))
            else:
                self.value2 = min(120, max(0, self.value2 + step))
        elif name == "InC":
            self.value = min(_INC_MAX_S, max(1, self.value + step))
        elif name == "End":
            self.value = (self.value + step) % len(RESULT_TEXT)
        elif name == "tImE":
            if c.main[self.side] + step * _TIME_STEP_MS >= 0:
                c.adjust(self.side, step * _TIME_STEP_MS, now)
        elif name == "MovE":
            if c.moves[self.side] + step >= 0:
                c.set_moves(self.side, c.moves[self.side] + step, now)
        elif name == "StAG":
            i = c.stage[self.side] + step
            if 0 <= i < len(c.stages[self.side]):
                c.set_stage(self.side, i, now)

    def act_setup(self, name):
        app = self.app
        s = app.settings
        if name == "PrSt":
            self.choose(presets.key_at(self.value))
        elif name == "FAv":
            self.choose(s.favourites[self.value])
        elif name == "SEt":
            if self.value2 < 0:
                self.value2 = 0  # minutes done; now the increment
                return
            self.choose("%dm+%ds" % (self.value, self.value2))
        elif name == "SAvE":
            if s.spec not in s.favourites:
                s.favourites = (s.favourites + [s.spec])[-_MAX_FAVOURITES:]
                app.save_settings()
            self.message = "SAvd"
        elif name == "tESt":
            self.app.session.selftest(self.app.now)
        elif name in TOGGLES:
            attr = TOGGLES[name]
            setattr(s, attr, not getattr(s, attr))
            app.save_settings()

    def choose(self, spec):
        try:
            self.app.new_game(spec)
        except ValueError:
            self.message = "Err"
            self.editing = False
            return
        self.close()

    def act_arbiter(self, name):
        app = self.app
        c = app.clock
        now = app.now
        if name == "SIdE":
            self.side = 1 - self.side
        elif name == "+2":
            c.adjust(self.side, 120000, now)
        elif name == "Undo":
            self.message = "donE" if c.undo_press(now) else "no"
        elif name == "InC":  # one action: both sides, a stage of that increment from now on
            self.editing = False
            try:
                c.add_increment(E.NOBODY, self.value * 1000, now)
                self.message = "donE"
            except ValueError:
                self.message = "Err"
        elif name == "rES":
            if c.resume(now, self.side):
                app.log(EV.EV_RESUMED_BY, c.turn, now, EV.BY_ARBITER)
                self.close()
            else:
                self.message = "no"
        elif name == "End":
            self.editing = False
            from clockapp.sessionops import enter_result
            enter_result(app.session, self.value, now, 0)
        elif name == "nEW":   # the game is thrown away (its log stays): ask first
            if self.armed:
                self.armed = False
                self.choose(app.settings.spec)
            else:
                self.armed = True
                self.message = "SurE"

    # ---- drawing ---------------------------------------------------------------------
    def value_text(self):
        app = self.app
        c = app.clock
        s = app.settings
        name = self.items()[self.item]
        if self.mode == CONFIRM:
            return "HoLd"
        if self.message:
            return self.message
        if name == "PrSt":
            return presets.key_at(self.value) if self.editing else s.spec
        if name == "FAv":
            if self.editing:
                return s.favourites[self.value]
            return "%d" % len(s.favourites)
        if name == "SEt":
            if not self.editing:
                return ""
            return ("%dm" % self.value) if self.value2 < 0 else ("+%ds" % self.value2)
        if name == "SAvE":
            return "%d" % len(s.favourites)
        if name == "SWAP":  # which lever is White's
            return "LEFt" if s.white_left else "rIGt"
        if name in TOGGLES:
            return "on" if getattr(s, TOGGLES[name]) else "oFF"
        if name == "SIdE":
            return "WHIt" if self.side == E.WHITE else "bLAc"
        if name == "End" and self.editing:
            return RESULT_TEXT[self.value]
        if name == "tImE":
            ms = c.main[self.side]
            return "%d:%02d" % (ms // 60000, ms // 1000 % 60)
        if name == "MovE":
            return "%d" % c.moves[self.side]
        if name == "StAG":
            return "%d" % (c.stage[self.side] + 1)
        if name == "InC":  # editing: what will be given; else the side's increment now
            secs = self.value if self.editing else c.current_stage(self.side).inc_ms // 1000
            return "+%ds" % secs
        return ""

    def render(self, lever, view):
        """Put the menu into a display's text; True when it changed."""
        if self.drawn[lever] == self.version and view.text_on:
            return False
        self.drawn[lever] = self.version
        if lever == LEFT:
            name = self.items()[self.item]
            _put(view.text, ("*" + name) if self.editing else name)
        else:
            _put(view.text, self.value_text())
        view.text_on = True
        return True
