# The power-on self-test (RGC 5.3.1: the delegate checks that the clock works before the
# session; seed 2.9). Loaded only while it runs (from the set-up menu's tESt, PLUS held at
# power-on, or the host's `selftest`), and freed after:
#   1. lamp, 2 s: every segment and pixel lit (view.test), the buzzer sounds (even with
#      the sound set off): a person looks and listens;
#   2. levers, up to 15 s: each display asks for its lever ("LEFt" / "rIGt", then "Good");
#   3. result, 3 s: "tESt PASS" or "tESt F n" (n: the failure bits), logged (EV_SELF_TEST
#      with the battery's mV and %) and kept for `status`.
# No game runs during it: the host's `start` is refused meanwhile (clockapp/ops_game.py), and
# a start that cannot wait (the scheduled start) or any resume ends it first, logged with
# ST_CUT. A lever press the test does not take is logged as an ignored press.
# What the clock cannot see itself (a dead segment, a mute buzzer) the person running the
# test sees and hears; what it can (a lever, the battery, a display that does not
# acknowledge its bytes) it checks.

from clockapp.menu import _put  # the menu's right-aligned display writer (always loaded)
from clockcore import const
from clockcore import engine as E
from clockcore import events as EV

# The phases, kept in Session.phase (status `testing`; 0, none, is the session's own).
T_OFF = const(0)
T_LAMP = const(1)
T_LEVERS = const(2)
T_SHOW = const(3)

_LAMP_MS = const(2000)        # every segment and pixel lit, the buzzer on
_LEVERS_MS = const(15000)     # time to press both levers
_SHOW_MS = const(3000)        # the result on the displays
TONE = (2000, 300)


class SelfTest:
    def __init__(self, session):
        self.session = session
        self.app = session.app
        self.seen = 0            # bits: levers pressed (1 << LEFT, 1 << RIGHT)
        self.nacks0 = 0
        self.version = 1
        self.drawn = [0, 0]

    def start(self, now):
        app = self.app
        if app.menu.active():
            app.menu.close()
        self._phase(T_LAMP, now + _LAMP_MS)
        self.nacks0 = self._nacks()
        b = app.buzzer
        on = b.enabled
        b.enabled = True       # the buzzer is tested even with the sound off
        b.play(TONE, now)
        b.enabled = on

    def checking(self):
        """Its lamp or its levers: the clock is being checked (not just showing the result)."""
        ph = self.session.phase
        return ph == T_LAMP or ph == T_LEVERS

    def _phase(self, phase, until):
        self.session.phase = phase
        self.session.until = until
        self.version += 1

    def _nacks(self):
        n = 0
        for d in self.app.displays:
            tm = getattr(d, "tm", None)   # TM1637Display: bytes the module did not ACK
            n += getattr(tm, "nacks", 0) if tm is not None else getattr(d, "errors", 0)
        return n

    def lever(self, lever, t):
        """A lever closed at t (ms): the test's when it asks for that lever, otherwise
        logged as an ignored press (no game runs during the test)."""
        bit = 1 << lever
        if self.session.phase == T_LEVERS and not self.seen & bit:
            self.seen |= bit
            self.version += 1
            if self.seen == 3:
                self.next_phase(self.app.now)
            return
        app = self.app
        app.log(E.EV_IGNORED, app.side_of_lever(lever), t, app.clock.state)

    def cut(self, now):
        """A game starts before the test's end (the scheduled start): what was checked is
        logged with ST_CUT (the levers not asked for yet are not failures), then the test
        ends at once, so that the game's levers are the game's."""
        if self.session.phase != T_SHOW:
            self._finish(now, True)
        self._end()

    def next_phase(self, now):
        ph = self.session.phase
        if ph == T_LAMP:
            self._phase(T_LEVERS, now + _LEVERS_MS)
        elif ph == T_LEVERS:
            self._finish(now)
            self._phase(T_SHOW, now + _SHOW_MS)
        else:
            self._end()
            self.app.refresh(True)

    def _end(self):
        self.session.phase = T_OFF
        self.session.test = None
        for v in self.app.views:
            v.test = False

    def _finish(self, now, cut=False):
        app = self.app
        b = app.board
        bits = 0
        if cut:
            bits = EV.ST_CUT
        else:
            if not self.seen & 1:
                bits |= EV.ST_LEFT
            if not self.seen & 2:
                bits |= EV.ST_RIGHT
        mv = b.battery_mv()
        pct = b.battery_pct()
        if mv < 0 and pct < 0:
            bits |= EV.ST_NO_BATTERY
        if (0 <= mv < b.battery_low_mv) or (0 <= pct < b.battery_low_pct):
            bits |= EV.ST_BATTERY
        if self._nacks() != self.nacks0:
            bits |= EV.ST_DISPLAY
        self.session.result = bits
        app.log(EV.EV_SELF_TEST, E.NOBODY, now, bits, mv, pct)

    def render(self, lever, v):
        """The self-test on a display's text; True when it changed."""
        if self.drawn[lever] == self.version and v.text_on:
            return False
        self.drawn[lever] = self.version
        ph = self.session.phase
        v.test = ph == T_LAMP
        if ph == T_LAMP:
            _put(v.text, "88888888")
        elif ph == T_LEVERS:
            if self.seen & (1 << lever):
                _put(v.text, "Good")
            else:
                _put(v.text, "LEFt" if lever == 0 else "rIGt")
        elif lever == 0:
            _put(v.text, "tESt")
        elif self.session.result == 0:
            _put(v.text, "PASS")
        else:
            _put(v.text, "F %d" % self.session.result)
        v.text_on = True
        return True
