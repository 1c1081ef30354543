# Adjournment: the sealed move (seed RGC 10.2, 11.1-11.2; preset P6; docs/ADJOURNMENT.md).
#
# At the end of a session the arbiter starts seal mode (hold MENU 2 s while a clock runs, or
# the link's `seal start`). The player to move is the sealer; their clock keeps running
# (the time used to seal is theirs), the other display shows SEAL. After 15 minutes of
# sealing (P6: the seal is made within 15:00 at most) the other display shows SL15 and the
# log has the instant: an alert for the arbiter, silent (a competition preset never beeps
# at the players). The sealer hands the envelope in by pressing their lever (or START, or
# the link's `seal done`): that press is their move (FIDE: the sealed move counts on the
# sealer's clock and its move counter), and both clocks stop at its instant. The clock
# then takes an unchangeable snapshot (gamestate bytes: both times, counters, stages, who
# is to move, plus the sealer, the session and the sealed-move text or hash the host gave)
# whose SHA-256 goes into the log; the snapshot is kept on flash (`sealed.bin`) and the
# link exports it. The game is then adjourned: resumed on this clock at the next session
# (the arbiter's resume, which starts the side to move), or loaded on another clock from
# the exported snapshot (load()), whose log then carries the same hash.
#
# Portable: MicroPython and CPython. Nothing here runs on a press outside seal mode.

from clockcore import const
from clockcore import engine as E
from clockcore import events as EV

NONE = const(0)
SEALING = const(1)     # the sealer's clock runs while they write the move down
SEALED = const(2)      # handed in: both clocks stopped, the game adjourned

ALERT_MS = const(900000)     # P6: the seal within 15:00 at most
MOVE_MAX = const(100)        # characters of sealed-move text (or hash) the host may give
SNAPSHOT_FILE = "sealed.bin"

_TEXT = (b"    SEAL", b"    SL15", b"     AdJ")


def snapshot(clock, meta):
    """The sealed game as bytes (gamestate format) and their SHA-256 digest."""
    import hashlib

    from clockapp import gamestate
    data = gamestate.encode(clock, meta)
    return data, hashlib.sha256(data).digest()


def check_move(text):
    """The sealed-move text or hash as the host gives it: printable ASCII, no spaces."""
    if len(text) > MOVE_MAX:
        raise ValueError("the sealed move is at most %d characters" % MOVE_MAX)
    for ch in text:
        if not 33 <= ord(ch) <= 126:
            raise ValueError("the sealed move is printable characters without spaces")
    return text


class Seal:
    def __init__(self, app):
        self.app = app
        self.reset()

    def reset(self):
        self.phase = NONE
        self.sealer = E.NOBODY
        self.since = 0           # app time seal mode began
        self.alerted = False
        self.session = 1         # the session in play (from 1); +1 at each resumption
        self.move = ""           # the sealed-move text or hash the host gave
        self.digest = b""        # SHA-256 of the snapshot, once sealed
        self.fresh = False       # render() changed the other display's text

    # ---- what a saved game keeps (gamestate meta) ---------------------------------------
    def meta_into(self, meta, now):
        # [phase, sealer, ms of sealing so far, alerted, session]
        if self.phase != NONE or self.session != 1:
            meta["seal"] = [self.phase, self.sealer,
                            now - self.since if self.phase == SEALING else 0,
                            1 if self.alerted else 0, self.session]
            if self.move:
                meta["seal_move"] = self.move

    def restore(self, meta):
        s = meta.get("seal") if meta else None
        if isinstance(s, list) and len(s) == 5:
            self.phase, self.sealer, used, alerted, self.session = s
            self.alerted = alerted == 1
            self.move = meta.get("seal_move", "")
            # a new time line after a power cut: the 15 minutes count on from what was used
            self.since = self.app.now - used

    # ---- seal mode ----------------------------------------------------------------------
    def begin(self, now):
        """Seal mode: the player to move seals; their clock keeps running."""
        c = self.app.clock
        if self.phase != NONE:
            raise ValueError("seal mode is on already")
        if c.state != E.RUNNING:
            raise ValueError("the clock of the player to move must be running to seal")
        self.phase = SEALING
        self.sealer = c.turn
        self.since = now
        self.alerted = False
        self.move = ""
        self.digest = b""
        self.app.log(EV.EV_SEAL_START, self.sealer, now, self.session)
        self.app.dirty = True

    def cancel(self, now):
        if self.phase != SEALING:
            raise ValueError("not sealing")
        self.phase = NONE
        self.app.log(EV.EV_SEAL_CANCEL, self.sealer, now, now - self.since)
        self.app.dirty = True

    def hand_in(self, now, move=""):
        """The sealer hands the envelope in: their press (the sealed move) at `now`."""
        if self.phase != SEALING:
            raise ValueError("not sealing")
        c = self.app.clock
        if c.state != E.RUNNING or c.turn != self.sealer:
            raise ValueError("the sealer's clock is not running")
        self.move = check_move(move)
        c.press(self.sealer, now)   # the sealed move counts as the sealer's move
        self.sealed(now)

    def pressed(self, side, now):
        """After a lever press in seal mode: the sealer's press was the hand-in."""
        if self.phase == SEALING and side == self.sealer and self.app.clock.turn != side:
            self.sealed(now)

    def sealed(self, now):
        app = self.app
        c = app.clock
        c.pause(now)                # both clocks stop at the hand-in's instant
        self.phase = SEALED
        meta = app.game_meta()
        w = app.logw.writer
        meta["seal_seq"] = (w.seq + w.n) & 0xFFFFFFFF   # the sealed record, logged below
        b = app.board
        meta["clock"] = b.clock_id() if hasattr(b, "clock_id") else "unknown"
        data, digest = snapshot(c, meta)
        self.digest = digest
        app.store.save(SNAPSHOT_FILE, data)
        app.logw_big(EV.EV_SEALED, self.sealer, now, now - self.since, digest)
        app.dirty = True

    def tick(self, now):
        """Once a loop pass while in seal mode (phase != NONE)."""
        c = self.app.clock
        if self.phase == SEALING:
            if c.state in (E.FROZEN, E.ENDED):   # a flag or the end: nothing to seal
                self.cancel(now)
            elif not self.alerted and now - self.since >= ALERT_MS:
                self.alerted = True
                self.app.log(EV.EV_SEAL_ALERT, self.sealer, self.since + ALERT_MS,
                             now - self.since)
                self.app.dirty = True
        elif self.phase == SEALED and c.state != E.PAUSED:
            # resumed (the next session) or ended: the adjournment is over
            self.phase = NONE
            if c.state == E.RUNNING:
                self.session += 1
            self.app.dirty = True

    def text(self, now):
        """Which text the other display shows now (index in _TEXT), or -1: its time."""
        if self.phase == SEALING:
            return 1 if self.alerted else 0
        if self.phase == SEALED and (now // 1000) % 3 == 2:
            return 2
        return -1

    def render(self, side, view, now):
        """The sealer's opponent's display: SEAL / SL15 / AdJ (1 s in 3). True when it
        shows one; `fresh` then says whether its text changed (no allocation)."""
        self.fresh = False
        if self.sealer == E.NOBODY or side == self.sealer:
            return False
        i = self.text(now)
        if i < 0:
            return False
        t = _TEXT[i]
        buf = view.text
        for k in range(len(buf)):
            if buf[k] != t[k]:
                buf[k] = t[k]
                self.fresh = True
        if not view.text_on:
            view.text_on = True
            self.fresh = True
        return True

    # ---- an adjourned game from another clock (or this one) -----------------------------
    def loaded(self, meta, now):
        """After app.load_adjourned() installed a snapshot's clock."""
        s = meta.get("seal") if meta else None
        self.phase = SEALED
        self.sealer = s[1] if isinstance(s, list) and len(s) == 5 else E.NOBODY
        self.session = s[4] if isinstance(s, list) and len(s) == 5 else 1
        self.alerted = False
        self.move = meta.get("seal_move", "")
        self.since = now


# ---- an adjourned game's snapshot installed (App.load_adjourned) ------------------------
def load_adjourned(app, data):
    """App.load_adjourned: the snapshot's clock installed on `app`, logged as a game header
    (its control, with any stage added before) and an adjourned-loaded record carrying the
    snapshot's SHA-256 and its state; the game comes back paused with the side to move
    ready to start. The digest; ValueError when `data` is no adjourned game."""
    import hashlib

    from clockapp import gamestate
    from clockcore.control import Control
    from clockcore.logbody import added_stages_body, snapshot_body
    from clockcore.presets import find
    digest = hashlib.sha256(data).digest()
    clock, meta = gamestate.decode(data, app.on_event)
    seal = meta.get("seal")
    if clock.state != E.PAUSED or not isinstance(seal, list) or len(seal) != 5 \
            or seal[0] != SEALED:
        raise ValueError("not an adjourned game (no sealed move in it)")
    spec = meta.get("spec", "")
    if not isinstance(spec, str) or len(spec) > 200:
        raise ValueError("not an adjourned game (bad control)")
    # the header: the control as set, at its starting times (stages an arbiter added
    # are in the adjourned-loaded record, after the state)
    fresh = E.Clock(Control(clock.sides[0], clock.sides[1]), None,
                    inc_at_turn_start=clock.inc_at_turn_start,
                    stage_on_flag=clock.stage_on_flag, freeze=clock.freeze)
    settings = app.settings
    settings.spec = spec
    settings.white_left = meta.get("white_left", settings.white_left) is True
    app.store.save_json("settings.json", settings.to_dict())
    app.clock = fresh
    app.log(EV.EV_HEADER, E.NOBODY, app.now, 0)
    app.clock = clock
    app.preset = find(spec)
    app.logw_big(EV.EV_ADJOURNED_LOADED, E.NOBODY, app.now, seal[4],
                 digest + snapshot_body(clock) + added_stages_body(clock))
    app.seal.loaded(meta, app.now)
    app.dirty = True
    app.refresh(True)
    return digest
