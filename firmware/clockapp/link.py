# The clock's side of the serial link (protocol: clockcore/protocol.py, docs/PROTOCOL.md).
#
# Polled from the app loop after the displays are refreshed and before the flash writes:
# reads what bytes are waiting (never blocks), keeps one line in a preallocated buffer,
# handles at most one request per pass and writes its reply. Nothing is allocated while no
# byte arrives. Every frame gets a reply; a malformed one changes nothing.
#
# Security: operations that change the game, the control, the log, the wall clock or the
# key are CHANGE operations. On a clock with an arbiter key every CHANGE needs a mac
# (HMAC-SHA256 with the key over the session nonce of the last `auth` and the request);
# request ids must grow within a session (a replayed frame is refused). On a clock without
# a key a CHANGE is taken only while no game is in progress. Refusals are logged
# (EV_AUTH_FAIL, at most one a second).

import binascii
import os
import sys

import clockapp
from clockapp.linkcommon import KEY_FILE, LOG_CHUNK_MAX, SEAL_PHASES, nargs
from clockcore import const
from clockcore import engine as E
from clockcore import events as EV
from clockcore import protocol as P
from clockcore.version import VERSION as FIRMWARE_VERSION

_KEY_BYTES = const(32)
_READ_BUDGET = const(4)        # serial reads per pass
_FIELDS_A_STEP = const(4)      # reply fields encoded between two looks at the levers
_VALUE_STEP = const(256)       # bytes of a long value (a log's base64) escaped a step
_AUTH_LOG_MS = const(1000)
_AUTH_LOG_MAX = const(4)       # refusals logged one by one in a second; more are counted
CHUNK = const(64)
CAPS = ("status,control,start,pause,resume,end,correct,wallclock,log,auth,maintenance,"
        "logack,head,seal,adjourn,session,pairing")
HEAD_DOMAIN = b"chessclock log head key"   # the log key: HMAC(arbiter key, this)

# The operations: name -> flags | the module that carries it out. The link answers the
# frequent ones itself (hello, status, control, auth, verify: its methods op_NAME); the
# others are functions op_NAME(link, args) in a module by area, imported when first used
# (then kept in sys.modules until a game runs: drop_areas), so a connection carries only
# the code it uses.
CHANGE = const(1)              # changes the game, the log, the clock or the key: authorised
STEPPED = const(2)             # a generator: None between its steps, then its reply's pairs
_GAME = const(4)               # clockapp/ops_game.py
_LOG = const(8)                # clockapp/ops_log.py
_ADJOURN = const(12)           # clockapp/ops_adjourn.py
_ADMIN = const(16)             # clockapp/ops_admin.py
_SESSION = const(20)           # clockapp/ops_session.py
_FIX = const(24)               # clockapp/ops_fix.py
_AREA = const(28)              # the bits that say the module (0: the link's own)
OPS = {
    "hello": 0, "status": 0, "control": 0, "auth": 0, "verify": CHANGE,
    "log": STEPPED | _LOG, "logack": CHANGE | _LOG, "logclear": CHANGE | _LOG,
    "set": CHANGE | _GAME, "start": CHANGE | _GAME, "pause": CHANGE | _GAME,
    "resume": CHANGE | _GAME, "end": CHANGE | _GAME, "adjust": CHANGE | _FIX,
    "settime": CHANGE | _FIX, "moves": CHANGE | _FIX, "stage": CHANGE | _FIX,
    "undo": CHANGE | _FIX, "addstage": CHANGE | _FIX, "addinc": CHANGE | _FIX,
    "split": CHANGE | _FIX,
    "seal": CHANGE | _ADJOURN, "adjexport": _ADJOURN, "adjput": CHANGE | _ADJOURN,
    "adjload": CHANGE | _ADJOURN,
    "wallclock": CHANGE | _ADMIN, "keyset": CHANGE | _ADMIN,
    "maintenance": CHANGE | _ADMIN, "sim": _ADMIN,
    "selftest": CHANGE | _SESSION, "result": CHANGE | _SESSION,
    "incident": CHANGE | _SESSION, "schedule": CHANGE | _SESSION,
    "arrive": CHANGE | _SESSION, "pairing": CHANGE | _SESSION,
}


_AREAS = {_GAME: "ops_game", _LOG: "ops_log", _ADJOURN: "ops_adjourn", _ADMIN: "ops_admin",
          _SESSION: "ops_session", _FIX: "ops_fix"}
# What drop_areas drops, as sys.modules names them (no string is built in a pass): not
# ops_log, which a host pulling the log during a game uses again and again (imported anew
# each time, its ~40 ms and its garbage came with every pull).
_AREA_NAMES = (("ops_game", "clockapp.ops_game"),
               ("ops_adjourn", "clockapp.ops_adjourn"), ("ops_admin", "clockapp.ops_admin"),
               ("ops_session", "clockapp.ops_session"), ("ops_fix", "clockapp.ops_fix"))


def _area(app, area):
    """The module that carries out an area's operations, imported when first used, with
    the loop parked (App.load: a press meanwhile is taken in the lever interrupt)."""
    return app.load(_AREAS[area])


class Link:
    def __init__(self, app, serial):
        self.app = app
        self.serial = serial
        self.line = bytearray(P.LINE_MAX)
        self.n = 0
        self.overflow = False
        self.chunk = bytearray(CHUNK)
        self.cpos = 0
        self.cend = 0
        key = app.store.load(KEY_FILE)
        self.key = None
        self.head_key = None    # HMAC(key, HEAD_DOMAIN): signs the log's head
        self.use_key(key if key is not None and len(key) == _KEY_BYTES else None)
        self.nonce = None
        self.last_rid = -1
        self.wall_s = -1        # wall-clock seconds (Unix time) at app time wall_at
        self.wall_at = 0
        self.auth_logged_at = -_AUTH_LOG_MS
        self.auth_logged_n = 0
        self.flood_n = 0        # refusals past _AUTH_LOG_MAX in this second, not logged yet
        self.flood_code = 0
        self.refused = 0        # authorisation refusals since boot
        self.requests = 0
        self.log_iter = None    # read_log() generator kept between log requests
        self.log_next = -1      # the sequence number it continues from
        self.log_pending = None  # a record read but not sent yet
        self.log_cap = LOG_CHUNK_MAX  # a log reply's record bytes: halved by a MemoryError
        self.read_end_seq = -1  # last sequence number sent by a read that reached the end
        self.read_end_size = -1
        self.sent_max = -1      # highest sequence number sent to the host since boot
        self.after = None       # run on the next pass, after the reply went out
        self.job = None         # the steps left of a request begun (_steps)
        self.reply = b""        # the last reply
        self.ops = OPS
        self.adj = None         # an adjourned game's snapshot arriving in adjput chunks
        self.clear_upto = -1    # a keyless erasure asked: the last record read (ops_log)
        self.clear_state = 0    # how it ended (`status logclear=`): ops_log.CLEAR_*
        self.areas = False      # an operations' module imported since the last drop_areas
        self.spent = False      # a request answered since the app last collected its garbage
        self.quiet = False      # the job's next step touches nothing of the game: parked

    def use_key(self, key):
        self.key = key
        self.head_key = P.hmac_sha256(key, HEAD_DOMAIN) if key is not None else None

    # ---- the loop ------------------------------------------------------------------
    def poll(self):
        if self.job is not None:   # a request begun in an earlier pass: its next steps
            self._run_job()
            return
        if self.flood_n and self.app.now - self.auth_logged_at >= _AUTH_LOG_MS:
            self._log_flood()
        if self.after is not None:
            fn = self.after
            self.after = None
            fn()
        s = self.serial
        if s is None or (self.cpos >= self.cend and not s.any()):
            if self.areas and self.app.clock.state == E.RUNNING:
                self.drop_areas()
            return
        budget = _READ_BUDGET
        line = self.line
        app = self.app
        # Reading and framing the bytes touch nothing of the game: parked (a press in them
        # is taken in the lever interrupt at once); a request's steps set it their own way.
        app.parked = True
        try:
            while True:
                if self.cpos >= self.cend:
                    if budget == 0 or not s.any() or self.app.edge_first():
                        return   # (a port's read stops at a lever edge: its press first)
                    budget -= 1
                    self.cend = s.readinto(self.chunk)
                    self.cpos = 0
                    if not self.cend:
                        return
                c = self.chunk
                i = self.cpos
                end = self.cend
                while i < end:
                    # The line's end and a frame mark found by bytearray.find, in C: scanned a
                    # byte at a time in Python, a 48-byte line cost 1.0 ms of the emulated M0+
                    # (find: 0.12 ms), and a lever edge that came in meanwhile waited for it.
                    j = c.find(b"\n", i, end)
                    if j < 0:
                        j = end
                    k = c.find(b"\r", i, j)
                    if k >= 0:
                        j = k
                    # a "!" starts a frame: the line's first byte, or the next frame's
                    f = i if (self.n or self.overflow) else i + 1
                    m = c.find(b"!", f, j) if f < j else -1
                    stop = j if m < 0 else m
                    if not self.overflow and stop > i:
                        n = self.n
                        if n + stop - i > P.LINE_MAX - 1:
                            self.overflow = True   # the rest up to its end is dropped
                        else:
                            line[n:n + stop - i] = c[i:stop]
                            self.n = n + stop - i
                    if m >= 0:
                        self.cpos = m   # this "!" starts the next frame, next pass
                        if self.overflow:
                            self._drop(P.E_TOO_LONG, "a request is at most %d bytes" % P.LINE_MAX)
                        elif line[0] == P.REQ_MARK:
                            self._drop(P.E_TRUNCATED, "frame cut by a new one")
                        else:
                            self._drop(P.E_FRAME, "no frame mark")
                        return
                    if j == end:
                        i = end
                        break
                    i = j + 1     # past the CR or LF
                    if self.overflow:
                        self.cpos = i
                        self._drop(P.E_TOO_LONG, "a request is at most %d bytes" % P.LINE_MAX)
                        return
                    if self.n:
                        if self.app.edge_first():    # an edge came in: its press first
                            self.cpos = j            # this line ends here next pass
                            return
                        self.cpos = i
                        n = self.n
                        self.n = 0
                        self.quiet = True    # decoding first
                        self.job = self._steps(bytes(line[:n]))
                        self._run_job()
                        return
                self.cpos = i
        finally:
            app.parked = False

    def _drop(self, code, detail):
        self.n = 0
        self.overflow = False
        self.send(P.encode_error(-1, code, detail))

    def send(self, data):
        s = self.serial
        if s is None:
            return
        put = getattr(s, "put", None)   # queued only: App.step drains it, an edge first
        if put is not None:
            put(data)
        else:
            s.write(data)

    def _run_job(self):
        """The request's steps, up to the end, or until a lever edge comes in: its press is
        shown first (the next pass), and the rest of the request follows it. A step that
        touches nothing of the game (decoding, encoding, framing, queueing: `quiet`) runs
        with the loop parked: a press in it is taken in the lever interrupt at once."""
        job = self.job
        assert job is not None
        app = self.app
        while True:
            app.parked = self.quiet
            try:
                next(job)
            except StopIteration:
                self.job = None
                return
            finally:
                app.parked = False
            if app.edge_first():
                return

    def handle(self, line):
        """Answer one request line (bytes without its newline) at once; returns the reply."""
        for _ in self._steps(line):
            pass
        return self.reply

    def _steps(self, line):
        """Answer one request line, in steps (a generator): decode, carry out, encode (a
        few fields a step), send. A status on the RP2040 is ~1 ms to decode, ~2 to carry
        out, ~4 to encode, and a refusal ~6 to make, ~2.5 to encode: between two steps a
        lever edge that came in goes first (_run_job), so a press never waits for a whole
        request. Nothing changes on the clock before the carrying out; the reply says what
        was true then. The reply is queued, not written: the app drains the queue after
        the link, when no edge waits."""
        self.requests += 1
        rid = -1
        err = None
        collected = False
        try:
            rid, op, args, mac, signed = P.decode_request(line)
            flags = self.ops.get(op)
            if flags is None:
                raise P.ProtocolError(P.E_UNKNOWN, "unknown operation", rid)
            self.quiet = False   # a refusal is logged, an operation reads or changes the game
            yield
            if flags & CHANGE:
                self.authorise(rid, op, mac, signed)
            elif mac is not None:
                raise P.ProtocolError(P.E_ARGS, "this operation takes no mac", rid)
            yield
            # What a change writes to the event log says it came from the host.
            self.app.log_reason = EV.R_HOST if flags & CHANGE else 0
            try:
                if flags & _AREA:
                    self.areas = True
                    pairs = getattr(_area(self.app, flags & _AREA), "op_" + op)(self, args)
                else:
                    pairs = getattr(self, "op_" + op)(args)
            finally:
                self.app.log_reason = 0
            if flags & STEPPED:
                # carried out in steps too (a 1 KB log reply read and encoded at once was
                # ~75 ms of the M0+, and a press in it waited for all of it)
                steps = pairs
                pairs = None
                while pairs is None:
                    pairs = next(steps)
                    if pairs is None:
                        yield
            self.quiet = True    # the reply from here on: encoded, framed, queued
            yield
            # encoded a few fields a step (a status: ~0.25 ms of the M0+ a field)
            body = P.ok_body(rid)
            k = 0
            for key, value in pairs:
                if isinstance(value, (bytes, bytearray)) and len(value) > _VALUE_STEP:
                    # a part a step (escaping a log reply's 1.4 KB of base64 at once was
                    # ~8 ms of the M0+): escaping works byte by byte, so parts join
                    P.add_field(body, key, b"")
                    i = 0
                    while i < len(value):
                        body += P.escape(value[i:i + _VALUE_STEP])
                        i += _VALUE_STEP
                        yield
                    continue
                P.add_field(body, key, value)
                k += 1
                if k == _FIELDS_A_STEP:
                    k = 0
                    yield
            if len(body) > _VALUE_STEP:
                # A long reply (a log's): framed and queued in a heap just collected, the
                # loop parked. Escaped a part at a time, it left the heap in pieces, and
                # MicroPython collected inside the framing's kilobytes: a press waited
                # ~90 ms on the emulated Pico.
                yield
                self.app.collect()
                collected = True
                yield
            reply = P.ok_frame(body)
        except P.ProtocolError as e:
            err = (e.rid if e.rid >= 0 else rid, e.code, e.detail)
        except ValueError as e:  # the engine or the notation refused: nothing changed
            err = (rid, P.E_STATE, str(e.args[0]) if e.args else "refused")
        except MemoryError:
            # No block for the reply (a Pico's heap in pieces after power cuts): the pull
            # starts again where the host asks (its reader may be dead), in smaller replies.
            if self.log_cap > 128:
                self.log_cap //= 2
            self.log_next = -1
            err = (rid, P.E_INTERNAL, "MemoryError")
        except Exception as e:  # a bug must not stop the clock
            err = (rid, P.E_INTERNAL, type(e).__name__)
        if err is not None:
            # a refusal (raised, logged: ~6 ms of the M0+) is a step, its encoding the next
            self.quiet = True
            yield
            reply = P.encode_error(err[0], err[1], err[2])
        self.reply = reply
        yield
        self.send(reply)
        self.spent = not collected   # (a long reply's heap was just collected: once is enough)

    def drop_areas(self):
        """A game runs and no request is under way: the operations' modules (the set-up's,
        an arbiter's corrections) go off its heap, their code collected; the next request
        of an area imports its module again, parked (App.load). A request in steps (a log
        read) keeps what it uses until it is done. Nothing allocated."""
        self.areas = False
        mods = sys.modules
        pkg = clockapp.__dict__
        for short, name in _AREA_NAMES:
            if name in mods:
                del mods[name]
            if short in pkg:
                del pkg[short]

    # ---- authorisation ---------------------------------------------------------------
    def in_game(self):
        return self.app.clock.state in (E.RUNNING, E.PAUSED, E.FROZEN)

    def refuse(self, rid, code, detail):
        """Refuse and log it: every refusal, one record each up to _AUTH_LOG_MAX a second;
        past that (a flood, which must not wear the flash) the rest of the second is
        counted and logged as one record with its count."""
        self.refused += 1
        app = self.app
        if app.now - self.auth_logged_at >= _AUTH_LOG_MS:
            self._log_flood()
            self.auth_logged_at = app.now
            self.auth_logged_n = 0
        if self.auth_logged_n < _AUTH_LOG_MAX:
            self.auth_logged_n += 1
            self._log_refusal(code, 1)
        else:
            self.flood_n += 1
            self.flood_code = code
        raise P.ProtocolError(code, detail, rid)

    def _log_refusal(self, code, count):
        app = self.app
        if app.logw is not None:
            app.logw.log(EV.EV_AUTH_FAIL, -1, app.now, code, app.clock, count)

    def _log_flood(self):
        if self.flood_n:
            self._log_refusal(self.flood_code, self.flood_n)
            self.flood_n = 0

    def authorise(self, rid, op, mac, signed):
        if self.key is None:
            if mac is not None:
                self.refuse(rid, P.E_AUTH, "this clock has no arbiter key")
            if self.in_game() and op != "verify":
                self.refuse(rid, P.E_AUTH_REQUIRED,
                            "a game is in progress and this clock has no arbiter key")
            if op == "verify":
                self.refuse(rid, P.E_AUTH, "this clock has no arbiter key")
            return
        if mac is None:
            self.refuse(rid, P.E_AUTH_REQUIRED, "needs the arbiter's key")
        if self.nonce is None:
            self.refuse(rid, P.E_AUTH, "no challenge: send auth first")
        if rid <= self.last_rid:
            self.refuse(rid, P.E_REPLAY, "request id already used in this session")
        if not P.equal(P.mac_of(self.key, self.nonce, signed), mac.lower()):
            self.refuse(rid, P.E_AUTH, "wrong mac: not the arbiter's key, or a stale session")
        self.last_rid = rid

    # ---- operations (each returns the reply's (key, value) pairs) -------------------------
    def op_hello(self, args):
        b = self.app.board
        cid = b.clock_id() if hasattr(b, "clock_id") else "unknown"
        return (("fw", FIRMWARE_VERSION), ("board", b.name), ("clock", cid),
                ("proto", P.VERSION), ("caps", CAPS), ("key", 1 if self.key else 0),
                ("maxline", P.LINE_MAX), ("chunk", LOG_CHUNK_MAX))

    def op_status(self, args):
        # The pairs in two list displays, each built at its final size: appended one by
        # one (and their keys joined, "w" + "moves"), a status left ~0.8 KB more garbage
        # on a 32-bit heap, every second a host polls, in a pass a press may share.
        app = self.app
        c = app.clock
        run = c.running()
        logw = app.logw
        sl = app.seal
        pairs = [("state", E.STATE_NAMES[c.state]), ("turn", E.SIDE_NAMES[c.turn]),
                 ("run", E.SIDE_NAMES[run] if run >= 0 else "-"), ("t", app.now),
                 ("w", c.main[0]), ("wmoves", c.moves[0]), ("wstage", c.stage[0] + 1),
                 ("wflag", c.flag_at[0]), ("wperiods", c.periods[0]),
                 ("b", c.main[1]), ("bmoves", c.moves[1]), ("bstage", c.stage[1] + 1),
                 ("bflag", c.flag_at[1]), ("bperiods", c.periods[1]),
                 ("delay", c.delay_left),
                 ("paused", 1 if c.state == E.PAUSED else 0),
                 ("bat", app.battery_mv),
                 ("batlow", 1 if app.battery_low else 0),
                 ("soc", app.battery_pct),   # fuel gauge percent, -1: none
                 ("menu", 1 if app.menu.active() else 0),
                 ("wall", self.wall_now()),
                 ("spec", app.settings.spec),
                 # the log is over its flash budget and holds games not pulled yet: pull them
                 ("logwarn", 1 if logw is not None and logw.warn else 0),
                 ("refused", self.refused),
                 ("key", 1 if self.key else 0),
                 ("logclear", self.clear_state),   # a keyless erasure: CLEAR_*
                 ("seal", SEAL_PHASES[sl.phase])]
        if sl.phase:
            pairs += [("sealer", E.SIDE_NAMES[sl.sealer] if sl.sealer >= 0 else "-"),
                      ("sealms", app.now - sl.since if sl.phase == 1 else 0),
                      ("sealalert", 1 if sl.alerted else 0)]
        ss = app.session
        pairs += [("session", sl.session),
                  ("selftest", ss.result),     # failure bits of the last; -1: none
                  ("testing", ss.phase),       # 0 no, 1 lamp, 2 levers, 3 result shown
                  ("sched", ss.sched_s if ss.sched_t >= 0 else -1),
                  ("default", ss.defaulted),   # bits: sides past the default time
                  ("arrived", ss.arrived),
                  ("lowtime", ss.under),       # bits: sides under the low-time mark
                  ("incidents", ss.incidents),
                  ("result", ss.game_result)]
        p = app.settings.pairing
        if p:   # the round's pairing (clockapp/pairing.py)
            pairs += [("board", p[0]), ("round", p[1]), ("white", p[2]), ("black", p[3])]
        return pairs

    def wall_now(self):
        if self.wall_s < 0:
            return -1
        return self.wall_s + (self.app.now - self.wall_at) // 1000

    def op_control(self, args):
        nargs(args, 0, 0)
        from clockcore.control import Control
        from clockcore.notation import format_readable  # lazily: the parser is large

        c = self.app.clock
        return (("spec", self.app.settings.spec),
                ("text", format_readable(Control(c.sides[0], c.sides[1]))))

    def op_auth(self, args):
        nargs(args, 0, 0)
        try:
            raw = os.urandom(16)
        except (AttributeError, NotImplementedError, OSError):
            import random
            raw = bytes([random.getrandbits(8) for _ in range(16)])
        self.nonce = binascii.hexlify(raw)
        self.last_rid = -1
        return (("nonce", self.nonce),)

    def op_verify(self, args):
        return (("key", 1),)

    # ---- the person at the clock answers a keyless erasure (menu.ask, ops_log) ----------
    def yes(self, now):
        """Held MENU at the clock: the log goes, if it is still what was read."""
        from clockapp import ops_log
        ops_log.answered(self, True)

    def no(self):
        """Another button, the time out or the menu closed: the log stays."""
        from clockapp import ops_log
        ops_log.answered(self, False)
