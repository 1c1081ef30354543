# The clock application: the same code on a board, in the simulator and in tests.
#
# One loop pass (step):
#   1. read the time (ticks -> the engine's millisecond line);
#   2. drain the lever edges the interrupt stamped; each real press is charged at its stamp,
#      and one the engine will take shows its switch (LEDs, running bars) before that;
#   3. buttons -> menus (menu.py), unless an edge was waiting (the next pass: a press first);
#   4. tick the engine (flags fall at their exact instants, whenever we look), and drain
#      an edge that came in meanwhile;
#   5. refresh both displays (only what changed), then check the levers' levels (an edge
#      the interrupt never delivered, a lever held); an edge that came in during the
#      displays (a collection held the pass) ends the pass there: its press goes first;
#   6. buzzer, battery, and last one flash write (the log, else the game state), none
#      while a lever edge waits, so that a write never delays a display.
# Nothing in a pass allocates while a clock runs and nobody touches it (make bench).


from clockapp import gamestate, storage, timefmt
from clockapp.board import BTN_MENU, BTN_PLUS, BTN_START, LEFT, RIGHT
from clockapp.levers import BOTH, NONE_LIT, PRESS, RELEASE, RING, LeverFilter, LeverRing
from clockapp.session import ARBITER_RESUME, Session, competition
from clockapp.view import FLAG_FIRST, FLAG_NONE, FLAG_SECOND, SideView
from clockcore import const, presets, unload
from clockcore import engine as E
from clockcore import events as EV
from clockcore.control import MODE_UPCOUNT
from clockcore.ticks import Timebase
from clockcore.version import VERSION as LOG_FIRMWARE  # in every game header

LOOP_US = const(1000)           # one pass a millisecond
SEALING = const(1)              # clockapp/seal.py SEALING: the sealer's clock runs
_ARBITER_HOLD_MS = const(2000)  # clockapp/menu.py: MENU held this long opens or seals
_REST_US = const(250)           # LOOP_US in quarters (rest)
_BUTTON_DEBOUNCE_MS = const(30)
SAVE_EVERY_MS = const(10000)    # a running game is saved at least this often
_FLASH_WAITS_MAX = const(50)    # a lever chattering without end puts flash off no longer
_BATTERY_EVERY_MS = const(10000)
RESTARTS = const(2)   # run(): restarts after errors a power-on (the last: no saved game)
_HOLD_LOG_US = const(2000000)    # a lever held this long is logged once (Art. 6.2.5 hovering)

BAD_STATE = "state.bad"  # a saved game that could not be restored, kept for the arbiter
_RESTORE_TEXT = (b"     Err", b"    rESt")  # left, right: the saved game was not restored
LEVERS = (LEFT, RIGHT)  # built once: a tuple written in a loop is built on every pass
# The log: clockcore/eventlog.py records (docs/EVENT-LOG.md), kept in the Writer's RAM ring
# (eventlog.SLOTS) until flush(); clockapp/logstore.py creates it at the first log().
_LOG_BUDGET = const(1000000)  # bytes of log before pulled games are removed (board.log_budget)


def _irq_bar(display):
    return hasattr(display, "irq_bar") and display.shares_bus()


class Settings:
    """What the clock remembers between games (settings.json)."""

    def __init__(self):
        self.spec = "fide-blitz"      # the control: preset name or notation
        self.white_left = True        # White's lever (and display) is the left one
        self.sound = True
        self.seconds_always = False   # no tenths under 20 s
        self.show_moves = False
        self.favourites = []          # control specs, at most 5
        self.pairing = None           # [board, round, white, black, event] (clockapp/pairing.py)

    def to_dict(self):
        return {"spec": self.spec, "white_left": self.white_left, "sound": self.sound,
                "seconds_always": self.seconds_always, "show_moves": self.show_moves,
                "favourites": self.favourites, "pairing": self.pairing}

    def load(self, d):
        for k in ("spec", "white_left", "sound", "seconds_always", "show_moves", "favourites",
                  "pairing"):
            if k in d:
                setattr(self, k, d[k])


class Buzzer:
    """Short patterns, (frequency, ms) pairs, played without blocking the loop."""

    CLICK = (2000, 30)
    STAGE = (1500, 120, 0, 80, 1500, 120)
    LOW_TIME = (1000, 60)
    FLAG = (800, 600)  # casual presets only: never at a flag in competition

    def __init__(self, board):
        self.board = board
        self.pattern = None
        self.i = 0
        self.until = 0
        self.enabled = True

    def play(self, pattern, now):
        if not self.enabled:
            return
        self.pattern = pattern
        self.i = 0
        self.board.buzz(pattern[0])
        self.until = now + pattern[1]

    def update(self, now):
        p = self.pattern
        if p is None or now < self.until:
            return
        self.i += 2
        if self.i >= len(p):
            self.pattern = None
            self.board.buzz(0)
            return
        self.board.buzz(p[self.i])
        self.until = now + p[self.i + 1]


class _MenuClosed:
    """menu.py's Menu until a menu is first opened (a blitz game never opens one): closed,
    START starts and pauses; what opens a menu (MENU, MENU held 2 s, a question asked)
    loads menu.py and hands the button to its Menu, which stays."""
    mode = 0   # menu.py _CLOSED
    item = 0

    def __init__(self, app):
        self.app = app

    def _real(self):
        m = self.app.menu = self.app.part("menu").Menu(self.app)
        return m

    def active(self):
        return False

    def items(self):
        return ()

    def reason(self):
        return 0

    def render(self, lever, view):
        return False

    def lapse(self, now):
        pass

    def close(self):
        pass

    def held(self, buttons, ms):
        if ms >= _ARBITER_HOLD_MS and buttons == BTN_MENU and self.app.clock.state != E.IDLE:
            self._real().held(buttons, ms)

    def button(self, pressed, now):
        if pressed & BTN_START:
            self.app.start_pause()
        elif pressed & BTN_MENU and self.app.clock.state == E.IDLE:
            self._real().button(pressed, now)

    def open(self, mode):
        self._real().open(mode)

    def ask(self, question, asker, now):
        return self._real().ask(question, asker, now)


class _NoSeal:
    """seal.py's Seal until an adjournment first comes up (a blitz game has none): no seal,
    session 1, which a saved game keeps nothing of. What starts or restores one loads
    seal.py and hands over to its Seal, which stays."""
    phase = 0   # seal.py NONE
    sealer = E.NOBODY
    since = 0
    alerted = False
    session = 1
    move = ""
    digest = b""
    fresh = False

    def __init__(self, app):
        self.app = app

    def _real(self):
        s = self.app.seal = self.app.part("seal").Seal(self.app)
        return s

    def reset(self):
        pass

    def meta_into(self, meta, now):
        pass

    def tick(self, now):
        pass

    def pressed(self, side, now):
        pass

    def render(self, side, view, now):
        return False

    def restore(self, meta):
        if meta and "seal" in meta:
            self._real().restore(meta)

    def begin(self, now):
        self._real().begin(now)

    def cancel(self, now):
        self._real().cancel(now)

    def hand_in(self, now, move=""):
        self._real().hand_in(now, move)

    def loaded(self, meta, now):
        self._real().loaded(meta, now)


class App:
    def __init__(self, board, restarts=0):
        self.board = board
        # Nothing is drawn until the clock takes its buttons (the end of __init__): a time
        # shown while the game was still set up and saved lost a start press pressed at once.
        self.booting = True
        self.store = storage.Store(board.storage_root(), board.storage_fs(), board.journal())
        self.store.feed = board.feed_watchdog
        self.settings = Settings()
        self.settings.load(self.store.load_json("settings.json", {}))
        self.ring = LeverRing()
        self.filter = LeverFilter(board.ticks_diff)
        self.timebase = Timebase(board.ticks_us(), board.ticks_diff)
        # The host's serial link (clockapp/link.py): loaded now where the board says the
        # heap has room (importing it later holds one pass, and a press in it, for the
        # import), otherwise at the first byte from the host: a clock with no cable
        # attached then does not carry its ~16 KB of code (link.py and the protocol on the
        # wasm32 heap bench; the operations' modules load when first used). Before anything
        # is drawn: once the displays show a time, the clock takes its buttons (the import
        # is ~250 ms on a Pico; a start press in it was lost, found on the emulated Pico).
        self.serial_port = board.serial()
        if self.serial_port is not None and hasattr(self.serial_port, "edges"):
            self.serial_port.edges = self.ring   # its byte loops stop for a lever edge
        self._link = None
        if self.serial_port is not None and board.link_at_boot():
            self._load_link()
        # Lever edges are stamped from now on; the first loop pass takes them in order. An
        # armed lever's close switches the LEDs in the interrupt itself (levers.py).
        self.ring.switch = board.set_running
        # True while the loop waits where no game work is half done (its own collection,
        # a module loading): the interrupt then takes the armed press itself (_take_parked).
        self.parked = False
        self.parked_presses = 0   # presses taken so (the tests and the bench read them)
        self.parked_errors = 0    # an exception there: the loop took the rest (a bug)
        board.attach_levers(self.ring.push)
        self.now = 0
        self.views = (SideView(), SideView())      # indexed by lever: LEFT, RIGHT
        self.scratch = bytearray(b" " * 8)
        # _time swaps these three buffers between scratch and the views. This tuple holds
        # each of them all along: a swap in the lever interrupt (_take_parked) while a
        # collection is marking could otherwise hide one from it, and it would be freed.
        self._time_bufs = (self.scratch, self.views[0].time, self.views[1].time)
        self._formatted = [-1, -1, -1, -1]   # _time: per lever the ms, then the key, drawn
        if self.settings.pairing:   # the round's pairing at set-up (clockapp/pairing.py)
            from clockapp.pairing import show
            show(self, False)
        self.led_lever = -2     # the running-side LED last set (-2: not yet, so boot sets it)
        self.displays = board.displays()
        # Displays with a running mark of their own (SSD1306Display's bar) get it with the
        # LEDs, before either view is worked out (see refresh).
        self.bars = (hasattr(self.displays[LEFT], "running_bar"),
                     hasattr(self.displays[RIGHT], "running_bar"))
        # Those on a bus the interrupt may share (SSD1306Display.irq_bar, SharedI2C) get
        # their bar from the lever interrupt too, right after the LEDs: the switch shows
        # in ~3.5 ms even while a collection (~25 ms) or a host's request holds the loop.
        self.irq_bars = (self.bars[LEFT] and _irq_bar(self.displays[LEFT]),
                         self.bars[RIGHT] and _irq_bar(self.displays[RIGHT]))
        self._irq_lit = -1
        self._irq_later = self._bars_irq   # bound once: the interrupt allocates nothing
        self._irq_any_bar = self.irq_bars[LEFT] or self.irq_bars[RIGHT]
        self.ring.switch = self._switch_irq
        # Displays that stop sending when a lever closes (SSD1306Display.finish: a running
        # second's digits are ~3 ms of I2C each) and send the rest in a later pass.
        self.deferrable = (hasattr(self.displays[LEFT], "unsent"),
                           hasattr(self.displays[RIGHT], "unsent"))
        for k in LEVERS:
            if self.deferrable[k]:
                self.displays[k].stop = self.close_first
        # The heap locked around what the lever interrupt runs too (the levers' edges, both
        # displays), in the state it runs them in (a lever armed: refresh). MicroPython
        # gives a call's frame of more than 11 words a heap block when it can get one
        # (py/objfun.c), and on a heap in pieces finding it is most of the call, a collection
        # at worst: a 4-argument function with 8 locals took 240 us a call on the emulated
        # Pico's fresh heap, 26 ms on one in 16-byte pieces, 27 us locked (its frame then
        # on the C stack). That code allocates nothing (tests/mp_only/test_alloc.py); after
        # a MemoryError there (a bug) the heap is no longer locked (board.locks_heap).
        self.lockable = False    # refresh: a lever is armed (and the board can lock)
        # Displays that show in turn what has no room (TM1637: flag order, stage, which side
        # is Black) get view.moment; the others are not redrawn for it.
        self.moments = (getattr(self.displays[LEFT], "moments", False)
                        or getattr(self.displays[RIGHT], "moments", False))
        self.buzzer = Buzzer(board)
        self.buzzer.enabled = self.settings.sound
        # The event log (clockapp/logstore.py), created at the first event; the wall-clock
        # time the host gave, for game headers; why the next correction is made (the link).
        self.logw = None
        self.wall_s = 0         # Unix seconds the host gave (0: never) at app time wall_at
        self.wall_at = 0
        self.log_reason = 0
        self.log_ground = None  # the ground of the host's next correction (ground_body)
        self.dirty = False      # game state changed since the last save
        self.flushed = False    # this pass's flash write was the log's (step)
        self.flash_waits = 0    # passes in a row that put off flash (an edge, a button)
        self.collect_due = False  # a press shown since the last collection (step)
        self.saved_at = 0
        self.battery_at = -_BATTERY_EVERY_MS
        self.battery_low = False    # shown: the voltage or the charge is low
        self.battery_mv = -1
        self.volt_low = False       # below the chemistry's low_mv
        self.battery_pct = -1
        self.charge_low = False     # below the fuel gauge's low_pct
        self.flash_off = False  # critical battery: no more flash writes
        self.buttons = 0        # debounced buttons
        self.buttons_raw = 0
        self.buttons_since = 0
        self.dropped_seen = 0
        self.held_logged = [False, False]
        self.preset = None
        self.clock = None
        self.menu = _MenuClosed(self)   # menu.py's Menu from the first menu opened
        self.seal = _NoSeal(self)  # adjournment (seal.py's Seal from the first one)
        self.session = Session(self)   # self-test, scheduled start, marks (session.py)
        self.restore_failed = False  # a saved game could not be read: shown until a button
        restored = self._restore() if restarts < RESTARTS else self._set_aside()
        if not restored:
            try:
                self.new_game(self.settings.spec)
            except ValueError:  # stored under an older notation (15+10 was 15 min): default
                self.new_game(Settings().spec)
        self.log(EV.EV_BOOT, E.NOBODY, self.now,
                 EV.BOOT_RESTORED if restored else
                 EV.BOOT_RESTORE_FAILED if self.restore_failed else EV.BOOT_NEW)
        if restarts:   # run(): this boot follows an error, not a power-on
            self.log(EV.EV_RESTARTED, E.NOBODY, self.now, restarts)
        self.session.new_game()
        # PLUS held at power-on: the self-test (RGC 5.3.1: the delegate checks the clock)
        if board.read_buttons() == BTN_PLUS and not restored:
            self.session.selftest(self.now)
            self.buttons = self.buttons_raw = BTN_PLUS   # its release is no menu press
        self.flush()
        self.booting = False
        self.refresh(True)

    @property
    def link(self):
        """The serial link, created when first needed."""
        return self._link if self._link is not None else self._load_link()

    def _load_link(self):
        # at boot at once; at a host's first byte, in a game maybe (~23 KB of code), parked
        self._link = self.part("link").Link(self, self.serial_port)
        return self._link

    def part(self, name):
        """clockapp module `name`, loaded when first needed: at boot at once, later parked
        (load); never in a press's path (a button, a host's request, a saved game)."""
        if self.booting:
            return __import__("clockapp." + name, None, None, (name,))
        return self.load(name)

    # ---- game setup ----------------------------------------------------------------
    def new_game(self, spec):
        """Set up a game with a control (preset name or notation); raises ValueError."""
        control, preset = presets.resolve(spec)
        if preset is None and presets.quick(spec) is None:
            # typed by a person: a PGN reading no event plays is refused
            from clockcore import notation  # loaded already: resolve parsed the spec
            if notation.pgn_shaped(spec):  # only then is plausible.py (3 KB) loaded
                from clockcore.plausible import check
                check(spec, control)
        if preset is not None and preset.ledger:
            raise ValueError("%s is a correspondence ledger" % preset.key)
        options = {}
        if preset is not None:
            options = {"freeze": preset.freeze, "stage_on_flag": preset.stage_on_flag,
                       "inc_at_turn_start": preset.inc_at_turn_start,
                       "move_limit": preset.move_limit}
        clock = E.Clock(control, self.on_event, **options)  # validates
        self.clock = clock
        self.preset = preset
        self.seal.reset()   # a new game: no seal, session 1
        if spec != self.settings.spec or not self.booting:
            # at boot the file holds this spec already (absent, it reads as the default):
            # rewriting it would only add a write, and its buffers to the boot's heap peak
            self.settings.spec = spec
            self.store.save_json("settings.json", self.settings.to_dict())
        self.log(EV.EV_HEADER, E.NOBODY, self.now, 0)
        if self.settings.pairing:  # each game's records name its players (code 62)
            from clockapp.pairing import log_pairing
            log_pairing(self)
        if hasattr(self, "session"):
            self.session.new_game()
        self.dirty = True
        self.refresh(True)

    def _restore(self):
        payload = self.store.load_state()
        if payload is None:
            return False
        try:
            clock, meta = gamestate.decode(payload, self.on_event)
        except ValueError:
            # Never boot into a bad state, never lose it in silence: the bytes are kept
            # (BAD_STATE, which no later save overwrites), the boot record says so and the
            # displays show "Err rESt" until a button is pressed.
            self.store.save(BAD_STATE, payload)
            self.restore_failed = True
            return False
        finally:
            unload("clockapp.gameread")   # the reader's one use at boot: its code goes
        if clock.state == E.IDLE:
            return False
        self.clock = clock
        self.preset = presets.find(meta.get("spec", "")) if meta else None
        self.seal.restore(meta)
        return True

    def _set_aside(self):
        """run()'s last restart: the saved game is kept as BAD_STATE, not restored."""
        payload = self.store.load_state()
        if payload is not None:
            self.store.save(BAD_STATE, payload)
            self.restore_failed = True
        return False

    def game_meta(self):
        """What a saved game (and a sealed snapshot) carries beside the clock."""
        meta = {"spec": self.settings.spec, "white_left": self.settings.white_left}
        self.seal.meta_into(meta, self.now)
        return meta

    def save_state(self, edge_first=False):
        payload = gamestate.encode(self.clock, self.game_meta())
        if edge_first and self.edge_first():
            # A lever edge came in while the state was made (step's save): its press goes
            # first, the state the pass after it (still dirty). The journal's Python and
            # its page program (~3 ms of the emulated M0+) came before the press's switch.
            self.flash_waits += 1
            return
        ok = self.store.save_state(payload)
        if not ok:
            self.log(EV.EV_STORAGE_FULL, E.NOBODY, self.now, 0)
        self.dirty = False
        self.saved_at = self.now

    # ---- mapping levers and sides ----------------------------------------------------
    def side_of_lever(self, lever):
        return E.WHITE if (lever == LEFT) == self.settings.white_left else E.BLACK

    def lever_of_side(self, side):
        return LEFT if self.side_of_lever(LEFT) == side else RIGHT

    # ---- events ----------------------------------------------------------------------
    def on_event(self, ev, side, t, arg):
        self.dirty = True
        if ev == E.EV_PRESS:
            lg = self.logw
            if lg is None:
                self.log(ev, side, t, arg)
            else:   # a press's record the short way: it is made before its display
                lg.writer.log_press(side, t, arg, self.clock)
            self.session.on_press(side)
            self.collect_due = True
            return
        if (ev == E.EV_START or ev == E.EV_RESUME) and self.session.phase:
            self.session.cut(t)   # the self-test ends (logged) before the clock runs
        self.log(ev, side, t, arg)
        if ev == E.EV_END:
            self.session.game_over()
        elif ev == E.EV_STAGE and not competition(self.preset):
            # competition presets: no sound a player could take as a signal (seed 4.8)
            self.buzzer.play(Buzzer.STAGE, t)
        elif ev == E.EV_FLAG and self.preset is not None and self.preset.audible_flag:
            self.buzzer.play(Buzzer.FLAG, t)

    def log(self, ev, side, t, arg, reason=-1, reason2=0):
        """Keep an event in RAM (no allocation on a press); flush() writes them to flash.
        reason, reason2: the fields after arg of an app event (eventlog.extras_into); a
        correction's reason is found here when not given."""
        lg = self.logw
        if lg is None:  # the first event: continue the log found in flash
            from clockapp.logstore import EventLog
            lg = EventLog(self.store, getattr(self.board, "log_budget", _LOG_BUDGET))
            self.logw = lg
        c = self.clock
        if ev == EV.EV_HEADER:
            s = self.settings
            wall = self.wall_s + (t - self.wall_at) // 1000 if self.wall_s > 0 else 0
            lg.header(t, c, self.board.clock_id(), LOG_FIRMWARE, s.spec, s.white_left, wall)
        elif ev == EV.EV_BOOT:
            lg.boot(t, c, arg)
        elif reason >= 0:
            lg.log(ev, side, t, arg, c, reason, reason2)
        else:
            reason = 0
            if ev in EV.CORRECTIONS:  # an arbiter correction: why
                m = self.menu
                if m.active():
                    reason = m.reason()   # the arbiter menu item's (menu.py)
                elif self.log_ground is not None:  # the arbiter's ground, over the link
                    lg.log_ground(ev, side, t, arg, c, self.log_ground)
                    return
                else:
                    reason = self.log_reason  # e.g. the serial link's
            lg.log(ev, side, t, arg, c, reason)

    def logw_big(self, ev, side, t, arg, body):
        """A record with a body (a seal's digest, an adjourned game's snapshot); the log
        exists from the boot record on."""
        self.logw.writer.log_big(ev, side, t, arg, self.clock, body)

    def load_adjourned(self, data):
        """Install an adjourned game's snapshot (seal.py; from this clock or another):
        logged as a game header (its control, with any stage added before) and an
        adjourned-loaded record carrying the snapshot's SHA-256 and its state. The game
        comes back paused with the side to move ready to start. Raises ValueError.
        The SHA-256 digest. (seal.load_adjourned does it: loaded with the adjournment.)"""
        return self.part("seal").load_adjourned(self, data)

    @property
    def log_n(self):
        """Events kept in RAM, not yet on flash."""
        return self.logw.writer.n if self.logw is not None else 0

    def flush(self):
        if self.logw is not None:
            self.logw.flush(self.clock)

    def last_writes(self):
        """run(), after an error: the game and its log saved as they are (flash allowing),
        so that the restart comes back to this instant, not to the last save. Not when the
        error came in the middle of a write (store.busy): what is in RAM may not match the
        flash then, and the restart reads the flash as after a power cut."""
        if self.clock is not None and not self.flash_off and not self.store.busy:
            self.save_state()
            self.flush()

    # ---- one loop pass ---------------------------------------------------------------
    def step(self):
        b = self.board
        tick = b.ticks_us()
        now = self.timebase.advance(tick)
        self.now = now
        edge = self.edge_first()   # a press to show: the buttons and the session can wait
        self._locked(tick)
        if not edge:
            self._buttons(now)
            self.menu.lapse(now)   # a question not answered in time (menu.py)
            self.session.step(now)
        self.clock.tick(now)
        if self.seal.phase:
            self.seal.tick(now)
        if self.ring.pending():
            # An edge came in during this pass (or a collection held it up): taken before
            # the displays, which then show its press this pass, not the next.
            tick = b.ticks_us()
            now = self.timebase.advance(tick)
            self.now = now
            self._locked(tick)
            self.clock.tick(now)
        self._locked(-1)
        if self.close_first():
            # A lever closed during the displays (a collection held the pass up): its
            # press is the next pass's first work. The levels would wait for it, the host
            # and flash do; the buzzer and the battery can wait a millisecond.
            self.flash_waits += 1
            b.feed_watchdog()
            return
        self._lever_levels()
        if self.collect_due and not self.edge_first():
            # A press shown: its garbage goes now, at once, before the host's request and
            # the flash writes, whose time would push it towards the opponent's reply (a
            # collection holds the loop ~21 ms on the official Pico image; left until the
            # heap filled, it came wherever an allocation failed, and a press that fell in
            # it waited for it). The LEDs switch in the interrupt meanwhile (levers.py).
            self.collect_due = False
            self.collect()
        lk = self._link  # at most one host request: after the displays, before flash
        if lk is None and self.serial_port is not None and self.serial_port.any():
            lk = self.link
        if lk is not None:
            # A lever edge waiting: the press is shown first, the request waits a pass
            # (capped as flash is: a chattering lever cannot starve the host).
            if not self.edge_first():
                lk.poll()
                sp = self.serial_port
                # replies not sent yet: what the port takes now (16 bytes: ~1.3 ms on a
                # Pico), unless an edge came in during the request (its press goes first)
                if sp is not None and sp.queued and not self.edge_first():
                    self.parked = True   # writing queued bytes touches nothing of the game
                    try:
                        sp.drain()
                    finally:
                        self.parked = False
                if lk.spent and (sp is None or not sp.queued):
                    # A request answered: its garbage (a status reply's kilobytes) goes the
                    # next pass, parked, not in a collection MicroPython makes when the
                    # heap runs out inside a later request, which a press waited for (25
                    # ms on the emulated Pico).
                    lk.spent = False
                    self.collect_due = True
        self.buzzer.update(now)
        if now - self.battery_at >= _BATTERY_EVERY_MS:
            self._battery(now)
        # Flash last, after the displays, and only when something changed: a write never
        # delays what players see (the lever stamps come from the interrupt). A flash
        # operation holds the CPU with interrupts off (a 4 KB erase: ~45 ms), and the
        # file system decides when it erases, so a press that falls inside one waits for
        # it. Hence at most ONE write a pass (the log first: a dispute needs the press's
        # record; the state the pass after), and none while a lever edge waits: the next
        # pass takes that press and shows it before anything more goes to flash.
        if self.store.fold_phase and self.clock.state == E.RUNNING:
            self.store.stop_fold()   # no flash work: the journal takes the writes again
        if self.flash_off:
            pass  # critical battery: the last save is done
        elif self.edge_first():
            self.flash_waits += 1  # an edge came in during this pass: show it first
        elif self.buttons_raw != self.buttons and self.flash_waits < _FLASH_WAITS_MAX:
            # A button is changing: read again before a flash operation holds the CPU, or
            # a START tap during the journal's erases after a power cut goes unseen.
            self.flash_waits += 1
        elif self.log_n and not self.flushed:
            self.flush()
            self.flushed = True  # the state's turn next pass, even if the log is stuck
        else:
            self.flushed = False
            if self.dirty or (self.clock.state == E.RUNNING
                              and now - self.saved_at >= SAVE_EVERY_MS):
                self.save_state(True)
            elif self.clock.state != E.RUNNING and self.store.folding():
                self.store.fold_step()  # the journal into the files, then erased
        if not self.ring.pending() and self.buttons_raw == self.buttons:
            self.flash_waits = 0
        b.feed_watchdog()

    def _locked(self, tick):
        """_levers(tick), or with tick -1 refresh(False), the heap locked while a lever is
        armed (see __init__) and, for the displays, the pass has not opened a menu or the
        self-test nor stopped the clock meanwhile."""
        lock = self.lockable
        if tick < 0 and lock:
            lock = (self.clock.state == E.RUNNING and not self.menu.active()
                    and not self.session.phase)
        if lock:
            self.board.heap_lock()
        try:
            if tick < 0:
                self.refresh(False)
            else:
                self._levers(tick)
        except MemoryError:
            if not lock:
                raise
            # Something allocated with the heap locked: what it left undone is drawn
            # again, and the heap is no longer locked. (Still locked here: no allocation.)
            self.board.locks_heap = False   # (what says it happened)
            self.lockable = False
            self.views[LEFT].forget()
            self.views[RIGHT].forget()
        finally:
            if lock:
                self.board.heap_unlock()

    def edge_first(self):
        """A lever edge waits (and has not waited _FLASH_WAITS_MAX passes): what is slow,
        flash and a host's request, waits for the pass that shows its press."""
        return self.ring.pending() and self.flash_waits < _FLASH_WAITS_MAX

    def close_first(self):
        """A lever close waits (capped as edge_first is): a press to show before the rest of
        the displays. A release alone does not end a pass's displays: it shows nothing, and
        an SSD1306 press's displays (~14 ms on a Pico) are long enough for a quick tap's
        release to come in during them."""
        if self.flash_waits >= _FLASH_WAITS_MAX:
            return False
        ring = self.ring
        closes = ring.closed
        i = ring.tail
        h = ring.head
        while i != h:
            if closes[i]:
                return True
            i += 1
            if i == RING:
                i = 0
        return False

    def run(self):
        while True:
            self.step()
            self.rest()

    def rest(self):
        """The loop's sleep between two passes (LOOP_US), in quarters, parked: a press in
        it is taken in the lever interrupt at once. An edge the interrupt leaves to the
        loop ends it, so that it waits a quarter at most."""
        b = self.board
        ring = self.ring
        k = 0
        self.parked = True
        try:
            while k < 4 and not ring.pending():
                b.idle(_REST_US)
                k += 1
        finally:
            self.parked = False

    def _levers(self, tick):
        ring = self.ring
        f = self.filter
        levers = ring.levers
        ticks = ring.ticks
        closes = ring.closed
        while ring.head != ring.tail:
            # LeverRing's slot at tail, read in place: its lever(), tick(), is_closed() and
            # pop() are four calls before a press's display (a call is ~30-40 us of the
            # emulated M0+, docs/BENCHMARKS.md)
            i = ring.tail
            lever = levers[i]
            t = ticks[i]
            closed = closes[i] == 1
            ring.tail = 0 if i + 1 == RING else i + 1
            switched = closed and ring.lit == 1 - lever
            if switched:
                # the interrupt lit the other side's LED at this edge, and sent the bars:
                # what they show now (refresh puts them right if the engine does not take
                # the press)
                ring.lit = NONE_LIT
                self.led_lever = 1 - lever
            if closed and f.state[1 - lever] \
                    and not (self.board.read_levers() >> (1 - lever)) & 1:
                # A close while the other lever is taken as held, but that lever is open:
                # its release waits behind this close (edges latched in one flash write,
                # which the RP2040 then serves in pin number order, not time order), or was
                # taken for bounce (a close stamped late, after a write, then its release
                # within the window). The release goes first: this press counts; it was
                # lost as both levers.
                f.feed(1 - lever, t, False)
                f.state[1 - lever] = False   # even inside the bounce window: it is open
                f.doubt[1 - lever] = False
                self.held_logged[1 - lever] = False
            kind = f.feed(lever, t, closed)
            if kind == PRESS:
                self.held_logged[lever] = False
                if self.session.phase:  # the self-test wants both levers
                    self.session.lever(lever, self.timebase.at(t))
                else:
                    t_ms = self.timebase.at(t)
                    if not (switched and self.irq_bars == self.bars):
                        # (else every running mark there is went from the interrupt too)
                        self._switch_first(lever, t_ms)
                    self.lever_pressed(lever, t_ms)
                    if self.bars[lever]:
                        # its new time on the glass before either view is worked out
                        # (SSD1306Display, the display with a bar: show_press)
                        self.displays[lever].show_press(self, lever)
            elif kind == BOTH:
                if self.session.phase:  # both levers at once: both work
                    self.session.lever(lever, self.timebase.at(t))
                else:
                    self.log(EV.EV_LEVER_BOTH, self.side_of_lever(lever), self.timebase.at(t), 0)
            elif kind == RELEASE:
                self.held_logged[lever] = False
        f.settle(tick)  # after draining: see LeverFilter
        if ring.dropped != self.dropped_seen:
            self.log(EV.EV_LEVER_DROPPED, E.NOBODY, self.now, ring.dropped - self.dropped_seen)
            self.dropped_seen = ring.dropped

    def _lever_levels(self):
        """An edge the interrupt never delivered: the level says otherwise once settled; a
        lever held long is logged. After the displays (a press drawn first).
        The level is read first, then the ring: an edge whose interrupt came before the
        read is in the ring by then, and its stamp, not this look, is the press's. (Checked
        the other way round, a collection between the two let an edge in unseen: the level
        showed it, it was taken as missed and charged at the pass's start, up to a
        collection earlier than the lever closed: 29 presses in 1,000 on the bench.)"""
        b = self.board
        tick = b.ticks_us()
        level = b.read_levers()
        if self.ring.pending():
            return   # the level may be that edge's: drained, with its stamp, next pass
        f = self.filter
        now = -1   # the instant of this look, when needed (the pass's may be older)
        for lever in LEVERS:
            closed = (level >> lever) & 1 == 1
            if closed != f.state[lever] and f.settled(lever, tick):
                if not closed and f.doubt[lever]:
                    f.feed(lever, tick, False)   # its open was seen, taken for bounce
                    continue
                if now < 0:
                    now = self.timebase.at(tick)
                self.log(EV.EV_MISSED_EDGE, self.side_of_lever(lever), now, 1 if closed else 0)
                if f.feed(lever, tick, closed) == PRESS:
                    if self.session.phase:
                        self.session.lever(lever, now)
                    else:
                        self.lever_pressed(lever, now)
            elif closed and not self.held_logged[lever] and f.held_us(lever, tick) >= _HOLD_LOG_US:
                self.held_logged[lever] = True
                self.log(EV.EV_LEVER_HELD, self.side_of_lever(lever), self.now, 0)

    def lever_pressed(self, lever, t_ms):
        side = E.WHITE if (lever == LEFT) == self.settings.white_left else E.BLACK
        if self.menu.active():
            # Levers do nothing inside a menu (a Black press must not start the game while
            # the arbiter sets it up); logged for disputes like any ignored press.
            self.log(E.EV_IGNORED, side, t_ms, self.clock.state)
            return
        self.clock.press(side, t_ms)
        if self.seal.phase == SEALING:  # the sealer's press hands the sealed move in
            self.seal.pressed(side, t_ms)

    def _buttons(self, now):
        raw = self.board.read_buttons()
        if raw != self.buttons_raw:
            self.buttons_raw = raw
            self.buttons_since = now
            return
        if raw == self.buttons or now - self.buttons_since < _BUTTON_DEBOUNCE_MS:
            if raw and raw == self.buttons and not self.session.phase:
                self.menu.held(raw, now - self.buttons_since)
                if not self.menu.active():
                    self.session.hold(raw, now - self.buttons_since, now, BTN_PLUS)
            return
        pressed = raw & ~self.buttons
        self.buttons = raw
        if pressed and self.session.phase:
            return  # buttons do nothing during the self-test
        if pressed and self.restore_failed:  # the first press acknowledges "Err rESt"
            self.restore_failed = False
            self.refresh(True)
            return
        if pressed:
            self.buzzer.play(Buzzer.CLICK, now)
            self.menu.button(pressed, now)

    def _battery(self, now):
        from clockapp import battery  # (imported at the first pass, off the boot's peak)
        battery.read(self, now)

    # ---- what the displays show ------------------------------------------------------
    def _switch_irq(self, lever):
        """LeverRing.switch: in the lever interrupt, the LEDs, then both running bars
        where the bars may go from there (or, on a bus in use, as it comes free:
        SharedI2C); while the loop is parked, the whole press. Nothing allocated."""
        self.board.set_running(lever)
        self._irq_lit = lever
        if self._irq_any_bar:
            self._bars_irq(False)
        if self.parked:
            self._take_parked()

    def _take_parked(self):
        """In the lever interrupt, while the loop is parked where no game work is half
        done (its own collection, ~25 ms on the official Pico image, or a module loading):
        what a pass does first for the press the interrupt switched (its edge, the engine,
        its record in RAM, both displays), so that the new time does not wait for the
        loop. The loop goes on with the rest (host, flash) when it is back. Allocates
        nothing (tests/mp_only/test_alloc.py); an exception, caught so that the interrupt
        stays enabled, leaves the press to the loop."""
        b = self.board
        try:
            tick = b.ticks_us()
            now = self.timebase.advance(tick)
            self.now = now
            self._levers(tick)
            self.clock.tick(now)
            self.refresh(False)
            self.parked_presses += 1
        except Exception:
            self.parked_errors += 1
            views = self.views   # what they show may not be on the glass: drawn again
            views[LEFT].forget()
            views[RIGHT].forget()

    def collect(self):
        """Collect the garbage now, the loop parked (a press meanwhile is taken in the
        interrupt): after a press, and before a request's large allocations (a log reply's
        kilobytes: in a heap left to itself, MicroPython collects inside them, not parked,
        ~25 ms on the official Pico image each time)."""
        self.parked = True
        try:
            self.board.collect()
        finally:
            self.parked = False

    def load(self, name):
        """Import clockapp module `name` parked (a press comes in the interrupt while it
        loads: ~40 ms for a link's area on the official Pico image); the module."""
        self.parked = True
        try:
            return __import__("clockapp." + name, None, None, (name,))
        finally:
            self.parked = False

    def _bars_irq(self, held):
        lit = self._irq_lit
        if lit < 0:
            return   # the loop has shown the switch itself since (_show_running)
        d = self.displays
        if self.irq_bars[LEFT]:
            d[LEFT].irq_bar(lit == LEFT, self._irq_later, held)
        if self.irq_bars[RIGHT]:
            d[RIGHT].irq_bar(lit == RIGHT, self._irq_later, held)

    def _show_running(self, lit):
        """The running side's LEDs (-1: none), and the running bars (SSD1306) with them,
        both, before either view is worked out (~0.5 ms of the M0+ each) and either
        display drawn (the side that pressed: ~4 ms of digits): the bytes its render would
        send for them."""
        self._irq_lit = -1   # what the interrupt left for the bus to send: superseded
        if lit != self.led_lever:   # the interrupt may have lit them already
            self.led_lever = lit
            self.board.set_running(lit)
        bars = self.bars
        if bars[LEFT]:
            self.displays[LEFT].running_bar(lit == LEFT, self.views[LEFT])
        if bars[RIGHT]:
            self.displays[RIGHT].running_bar(lit == RIGHT, self.views[RIGHT])

    def _switch_first(self, lever, t_ms):
        """A press the engine is about to take: its switch on the LEDs and the running
        bars now, before the engine's accounting of it, its record and the session (~3 ms
        of the M0+ on the emulated Pico, docs/BENCHMARKS.md). The engine decides: after the
        press, refresh() shows what it says, should a case not foreseen here (a flag frozen
        by the press's own stage) end otherwise."""
        c = self.clock
        if c.state != E.RUNNING or self.menu.active():
            return
        side = E.WHITE if (lever == LEFT) == self.settings.white_left else E.BLACK
        c.tick(t_ms)   # flags up to the press's instant, as press() would first
        if c.state != E.RUNNING or side != c.turn:
            return   # the waiting side's lever, or the clock stopped: ignored
        lim = c.move_limit
        if lim and c.moves[side] + 1 >= lim and c.moves[1 - side] >= lim:
            return   # the play-off's last move: the game ends, nothing runs
        self._show_running(1 - lever)

    def refresh(self, force):
        if self.booting:
            return
        # Every pass, on a Pico ~1 ms of its ~2.5: what it reads is bound to locals once
        # (an attribute or module lookup is microseconds of bytecode on the M0+).
        c = self.clock
        state = c.state
        running_now = state == E.RUNNING
        turn = c.turn
        white_left = self.settings.white_left
        # The running-side LEDs first (an arbiter sees them from 10 m); the board is told
        # only when the lit lever changes (an int compare: no allocation in the loop).
        lit = -1
        if running_now:
            lit = LEFT if (turn == E.WHITE) == white_left else RIGHT
        if lit != self.led_lever:
            self._show_running(lit)
        # Low battery on displays with no room for a mark (the TM1637's 4 digits): 1 s in 3
        # while no clock runs, so that the time stays readable and a running game is never
        # hidden (the log has the instant of the warning).
        battery_low = self.battery_low
        moment = not running_now and (self.now // 1000) % 3 == 2
        alert = battery_low and moment
        moment = moment and self.moments
        idle = state == E.IDLE
        if self.restore_failed and not idle:  # a game started: "Err rESt" has been seen
            self.restore_failed = False
        # The side that waits is drawn first: after a press, that is the time the player
        # who pressed looks at (with its increment), a whole display's bus time sooner.
        first = LEFT
        if running_now:
            first = RIGHT if lit == LEFT else LEFT
        session = self.session
        menu = self.menu
        seal = self.seal
        in_session = session.phase
        in_menu = menu.active()
        # The lever whose close the interrupt may show at once: the running side's, when
        # the engine is sure to take its press (as _switch_first decides; not the last
        # move of a play-off, which ends the game).
        arm = -1
        if running_now and not in_menu and not in_session:
            lim = c.move_limit
            if not (lim and c.moves[turn] + 1 >= lim and c.moves[1 - turn] >= lim):
                arm = lit
        armed = self.ring.armed
        armed[0] = 1 if arm == LEFT else 0
        armed[1] = 1 if arm == RIGHT else 0
        self.lockable = arm >= 0 and not seal.phase and self.board.locks_heap
        views = self.views
        displays = self.displays
        deferrable = self.deferrable
        paused = state == E.PAUSED
        show_moves = self.settings.show_moves
        flag_at = c.flag_at
        for k in LEVERS:
            if k and not force and self.close_first():
                # A lever closed while the first display was drawn: its press first (the
                # other display is drawn the pass after, which compares it afresh).
                break
            lever = first ^ k
            side = E.WHITE if (lever == LEFT) == white_left else E.BLACK
            v = views[lever]
            changed = force
            if in_session:
                changed = session.render(lever, v) or changed
            elif in_menu:
                changed = menu.render(lever, v) or changed
            elif seal.phase and seal.render(side, v, self.now):
                changed = seal.fresh or changed
            elif self.restore_failed:
                changed = _show(v, _RESTORE_TEXT[lever]) or changed
            elif v.text_on:
                v.text_on = False
                changed = True
            changed = self._time(v, c, lever, side) or changed
            if idle:   # before the start: the control, for the players to check
                changed = self._setup_view(v, c, side) or changed
            running = running_now and turn == side
            flag = FLAG_NONE
            if flag_at[side] >= 0:
                flag = FLAG_FIRST if c.flag_order[0] == side else FLAG_SECOND
            delay_ds = -1
            if turn == side and not idle and c.delay_left > 0:
                delay_ds = (c.delay_left + 99) // 100
            periods = c.periods[side]
            if not periods:
                periods = -1
            moves = c.moves[side] if show_moves else -1
            stage = c.stage[side] + 1 if len(c.stages[side]) > 1 else 0
            white = side == E.WHITE
            if (v.running != running or v.flag != flag or v.delay_ds != delay_ds
                    or v.periods != periods or v.moves != moves or v.stage != stage
                    or v.paused != paused or v.battery_low != battery_low
                    or v.alert != alert or v.white != white
                    or v.moment != moment or v.idle != idle):
                v.moment = moment
                v.idle = idle
                v.running = running
                v.flag = flag
                v.delay_ds = delay_ds
                v.periods = periods
                v.moves = moves
                v.stage = stage
                v.stage_passed = c.stage[side] > 0
                v.paused = paused
                v.battery_low = battery_low
                v.alert = alert
                v.white = white
                changed = True
            if changed:
                v.touch()
                displays[lever].render(v)
            elif deferrable[lever] and displays[lever].unsent:
                displays[lever].render(v)   # what a lever's press stopped in an earlier pass

    def _setup_view(self, v, c, side):
        """At set-up: the side's control (SSD1306: on its status line; TM1637: its
        increment in turn with the other moments) and the 3 s cycle; True when changed."""
        changed = False
        if v.ctl_of is not c or v.ctl_n != len(c.stages[side]):   # a new game: once
            v.ctl_of = c
            v.ctl_n = len(c.stages[side])
            v.ctl = timefmt.control_line(c.sides[side], c.stages[side])
            st = c.stages[side][0]
            v.inc_ms = st.inc_ms if st.inc_ms else st.delay_ms
            v.inc_kind = 0 if st.inc_ms else st.delay_kind
            changed = True
        cycle = (self.now // 3000) & 1
        if cycle != v.cycle:
            v.cycle = cycle
            changed = True
        return changed

    def _time(self, v, c, lever, side):
        ms = c.main[side]
        up = c.sides[side].mode == MODE_UPCOUNT
        # The text is a function of these alone: formatted again only when one changed (the
        # waiting side's time stands still).
        key = side * 4 + (2 if up else 0) + (1 if self.settings.seconds_always else 0)
        fmt = self._formatted
        if fmt[lever] == ms and fmt[lever + 2] == key:
            return False
        fmt[lever] = ms
        fmt[lever + 2] = key
        s = self.scratch
        if up:
            timefmt.format_up(s, ms)
        else:
            timefmt.format_time(s, ms, 20000, self.settings.seconds_always)
        if s == v.time:
            return False
        # swap buffers instead of copying: no allocation
        self.scratch = v.time
        v.time = s
        return True

    # ---- used by the menus -----------------------------------------------------------
    def start_pause(self):
        c = self.clock
        now = self.now
        if c.state == E.IDLE:
            c.start(now)
        elif self.seal.phase == SEALING and c.state == E.RUNNING:
            try:                     # START in seal mode: the sealed move is handed in
                self.seal.hand_in(now)
            except ValueError:
                c.pause(now)
        elif c.state == E.RUNNING:
            c.pause(now)
        elif c.state == E.PAUSED:
            if self.preset is not None and self.preset.key in ARBITER_RESUME:
                # S1 6.13: the arbiter decides the restart (arbiter menu or host)
                self.log(EV.EV_RESUMED_BY, c.turn, now, EV.BY_REFUSED)
            elif c.resume(now):
                self.log(EV.EV_RESUMED_BY, c.turn, now, EV.BY_PLAYER)

    def save_settings(self):
        self.buzzer.enabled = self.settings.sound
        self.store.save_json("settings.json", self.settings.to_dict())
        self.refresh(True)


def _show(v, text):
    """Put a fixed message on a view (no allocation); True when that changed it."""
    changed = not v.text_on
    v.text_on = True
    buf = v.text
    for k in range(len(buf)):
        if buf[k] != text[k]:
            buf[k] = text[k]
            changed = True
    return changed


def run(board, report=None, start=None):
    """The board's entry point (main.py): never returns while the clock runs.

    An error (a bug, a MemoryError at boot) does not leave a dead clock: the clock starts
    again from flash, paused with the saved times as after a power cut, and logs
    EV_RESTARTED; report(e) says why on the console. At most RESTARTS times a power-on,
    the last without the saved game (kept as state.bad, "Err rESt" shown: the game that
    failed twice may be what fails); then the error goes to main.py (the REPL).
    start(app): what runs the app (App.run; clockapp/hallpub.py adds its station)."""
    try:
        import micropython
        micropython.kbd_intr(-1)  # Ctrl-C over USB must not stop a running game
    except (ImportError, AttributeError):
        pass
    import gc
    attempt = 0
    while True:
        app = None    # the failed attempt's App goes with the collection
        gc.collect()  # what importing (or the failed attempt) left, before the buffers
        try:
            app = App(board, attempt)
            if start is None:
                app.run()
            else:
                start(app)
            return
        except Exception as e:  # whatever it was, the clock comes back
            if app is not None:   # the times and events of the game it ran, if it can
                try:
                    app.last_writes()
                except Exception:  # the saved game is restored then
                    pass
            if attempt >= RESTARTS:
                raise
            if report is not None:
                report(e)
            attempt += 1

