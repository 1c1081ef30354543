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
import struct

from clockapp.menu import CONFIRM_MS
from clockcore import const, eventlog
from clockcore import engine as E
from clockcore import events as EV
from clockcore import protocol as P
from clockcore.version import VERSION as FIRMWARE_VERSION

KEY_FILE = "arbiter.key"
_KEY_BYTES = const(32)
_LOG_CHUNK_DEFAULT = const(1024)
# Payload bytes in one log reply, whatever the host asks. A 4 KB payload is ~6 KB blocks
# several times over (its base64, the escaped field, the frame): after a power cut the
# stock Pico image of pico-ssd1306 found no such block and refused pulls (MemoryError,
# the emulated 200-cut run); 1 KB replies pulled the same images.
_LOG_CHUNK_MAX = const(1024)
_LOG_SCAN_MAX = const(256)     # records skipped per pass when seeking a sequence number
_READ_BUDGET = const(4)        # serial reads per pass
_FIELDS_A_STEP = const(4)      # reply fields encoded between two looks at the levers
_AUTH_LOG_MS = const(1000)
_AUTH_LOG_MAX = const(4)       # refusals logged one by one in a second; more are counted
CHUNK = const(64)

CHANGE = const(1)
STEPPED = const(2)             # the operation is a generator: None between its steps,
_LOG_STEP_BYTES = const(128)   # then its reply's pairs (op_log: records a step)
SEAL_PHASES = ("-", "sealing", "sealed")
_ADJ_MAX = const(8192)         # bytes of an adjourned game's snapshot (adjput)
CAPS = ("status,control,start,pause,resume,end,correct,wallclock,log,auth,maintenance,"
        "logack,head,seal,adjourn,session,pairing")
HEAD_DOMAIN = b"chessclock log head key"   # the log key: HMAC(arbiter key, this)
# The erasure of a keyless clock's log (op_logclear), as `status logclear=` gives it: none
# asked since boot, asked (the clock waits for MENU held), done, declined (another button,
# the time out, the menu closed), the log changed meanwhile (pull again), the flash failed.
CLEAR_NONE = const(0)
CLEAR_ASKED = const(1)
CLEAR_DONE = const(2)
CLEAR_DECLINED = const(3)
CLEAR_CHANGED = const(4)
CLEAR_FAILED = const(5)


def _side(arg):
    s = arg.decode()
    if s in ("white", "w"):
        return E.WHITE
    if s in ("black", "b"):
        return E.BLACK
    raise P.ProtocolError(P.E_ARGS, "side must be white or black")


def _int(arg):
    try:
        s = arg.decode()
        if len(s) > 12:
            raise ValueError
        return int(s)
    except ValueError:
        raise P.ProtocolError(P.E_ARGS, "expected a whole number") from None


def _nargs(args, lo, hi):
    if not lo <= len(args) <= hi:
        raise P.ProtocolError(P.E_ARGS, "takes %d to %d arguments" % (lo, hi))


def head_text(clock_id, seq, chain_hex, t, wall):
    """What the clock signs about its log: format 1, clock id, last sequence number (-1:
    empty), its chain (16 hex), the clock's time line (ms) and wall clock (s, -1 unknown)."""
    return "ccl-head 1 %s %d %s %d %d" % (clock_id, seq, chain_hex, t, wall)


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
        self._use_key(key if key is not None and len(key) == _KEY_BYTES else None)
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
        self.read_end_seq = -1  # last sequence number sent by a read that reached the end
        self.read_end_size = -1
        self.sent_max = -1      # highest sequence number sent to the host since boot
        self.after = None       # run on the next pass, after the reply went out
        self.job = None         # the steps left of a request begun (_steps)
        self.reply = b""        # the last reply
        self.ops = {
            "hello": (self.op_hello, 0), "status": (self.op_status, 0),
            "control": (self.op_control, 0), "auth": (self.op_auth, 0),
            "log": (self.op_log, STEPPED), "sim": (self.op_sim, 0),
            "verify": (self.op_verify, CHANGE), "set": (self.op_set, CHANGE),
            "start": (self.op_start, CHANGE), "pause": (self.op_pause, CHANGE),
            "resume": (self.op_resume, CHANGE), "end": (self.op_end, CHANGE),
            "adjust": (self.op_adjust, CHANGE), "settime": (self.op_settime, CHANGE),
            "moves": (self.op_moves, CHANGE), "stage": (self.op_stage, CHANGE),
            "undo": (self.op_undo, CHANGE), "addstage": (self.op_addstage, CHANGE),
            "addinc": (self.op_addinc, CHANGE),
            "split": (self.op_split, CHANGE), "wallclock": (self.op_wallclock, CHANGE),
            "keyset": (self.op_keyset, CHANGE), "logclear": (self.op_logclear, CHANGE),
            "logack": (self.op_logack, CHANGE),
            "maintenance": (self.op_maintenance, CHANGE),
            "seal": (self.op_seal, CHANGE), "adjexport": (self.op_adjexport, 0),
            "adjput": (self.op_adjput, CHANGE), "adjload": (self.op_adjload, CHANGE),
        }
        self.adj = None         # an adjourned game's snapshot arriving in adjput chunks
        self.clear_upto = -1    # a keyless erasure asked: the last record read (op_logclear)
        self.clear_state = CLEAR_NONE
        for name in ("selftest", "result", "incident", "schedule", "arrive", "pairing"):
            # the session at the board (clockapp/sessionops.py, docs/SESSION.md)
            self.ops[name] = (self._session_op(name), CHANGE)

    def _use_key(self, key):
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
            return
        budget = _READ_BUDGET
        line = self.line
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
                    self.job = self._steps(bytes(line[:n]))
                    self._run_job()
                    return
            self.cpos = i

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
        shown first (the next pass), and the rest of the request follows it."""
        job = self.job
        for _ in job:
            if self.app.edge_first():
                return
        self.job = None

    def handle(self, line):
        """Answer one request line (bytes without its newline) at once; returns the reply."""
        for _ in self._steps(line):
            pass
        return self.reply

    def _steps(self, line):
        """Answer one request line, in steps (a generator): decode, carry out, encode (a
        few fields a step), send. A status on the RP2040 is ~1 ms to decode, ~2 to carry
        out, ~4 to encode: between two steps a lever edge that came in goes first
        (_run_job), so a press never waits for a whole request. Nothing changes on the clock
        before the carrying out; the reply says what was true then. The reply is queued,
        not written: the app drains the queue after the link, when no edge waits."""
        self.requests += 1
        rid = -1
        try:
            rid, op, args, mac, signed = P.decode_request(line)
            entry = self.ops.get(op)
            if entry is None:
                raise P.ProtocolError(P.E_UNKNOWN, "unknown operation", rid)
            fn, flags = entry
            if flags & CHANGE:
                self.authorise(rid, op, mac, signed)
            elif mac is not None:
                raise P.ProtocolError(P.E_ARGS, "this operation takes no mac", rid)
            yield
            # What a change writes to the event log says it came from the host.
            self.app.log_reason = EV.R_HOST if flags & CHANGE else 0
            try:
                pairs = fn(args)
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
            yield
            # encoded a few fields a step (a status: ~0.25 ms of the M0+ a field)
            body = P.ok_body(rid)
            k = 0
            for key, value in pairs:
                P.add_field(body, key, value)
                k += 1
                if k == _FIELDS_A_STEP:
                    k = 0
                    yield
            reply = P.ok_frame(body)
        except P.ProtocolError as e:
            reply = P.encode_error(e.rid if e.rid >= 0 else rid, e.code, e.detail)
        except ValueError as e:  # the engine or the notation refused: nothing changed
            reply = P.encode_error(rid, P.E_STATE, str(e.args[0]) if e.args else "refused")
        except Exception as e:  # a bug must not stop the clock
            reply = P.encode_error(rid, P.E_INTERNAL, type(e).__name__)
        self.reply = reply
        yield
        self.send(reply)

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
                ("maxline", P.LINE_MAX), ("chunk", _LOG_CHUNK_MAX))

    def op_status(self, args):
        app = self.app
        c = app.clock
        run = c.running()
        pairs = [("state", E.STATE_NAMES[c.state]), ("turn", E.SIDE_NAMES[c.turn]),
                 ("run", E.SIDE_NAMES[run] if run >= 0 else "-"), ("t", app.now)]
        for s, p in ((E.WHITE, "w"), (E.BLACK, "b")):
            pairs.append((p, c.main[s]))
            pairs.append((p + "moves", c.moves[s]))
            pairs.append((p + "stage", c.stage[s] + 1))
            pairs.append((p + "flag", c.flag_at[s]))
            pairs.append((p + "periods", c.periods[s]))
        pairs.append(("delay", c.delay_left))
        pairs.append(("paused", 1 if c.state == E.PAUSED else 0))
        pairs.append(("bat", app.battery_mv))
        pairs.append(("batlow", 1 if app.battery_low else 0))
        pairs.append(("soc", app.battery_pct))   # fuel gauge percent, -1: none
        pairs.append(("menu", 1 if app.menu.active() else 0))
        pairs.append(("wall", self.wall_now()))
        pairs.append(("spec", app.settings.spec))
        logw = app.logw
        # the log is over its flash budget and holds games not pulled yet: pull them
        pairs.append(("logwarn", 1 if logw is not None and logw.warn else 0))
        pairs.append(("refused", self.refused))
        pairs.append(("key", 1 if self.key else 0))
        pairs.append(("logclear", self.clear_state))   # a keyless erasure: CLEAR_*
        sl = app.seal
        pairs.append(("seal", SEAL_PHASES[sl.phase]))
        if sl.phase:
            pairs.append(("sealer", E.SIDE_NAMES[sl.sealer] if sl.sealer >= 0 else "-"))
            pairs.append(("sealms", app.now - sl.since if sl.phase == 1 else 0))
            pairs.append(("sealalert", 1 if sl.alerted else 0))
        pairs.append(("session", sl.session))
        ss = app.session
        pairs.append(("selftest", ss.result))     # failure bits of the last; -1: none
        pairs.append(("testing", ss.phase))       # 0 no, 1 lamp, 2 levers, 3 result shown
        pairs.append(("sched", ss.sched_s if ss.sched_t >= 0 else -1))
        pairs.append(("default", ss.defaulted))   # bits: sides past the default time
        pairs.append(("arrived", ss.arrived))
        pairs.append(("lowtime", ss.under))       # bits: sides under the low-time mark
        pairs.append(("incidents", ss.incidents))
        pairs.append(("result", ss.game_result))
        p = app.settings.pairing
        if p:   # the round's pairing (clockapp/pairing.py)
            pairs += [("board", p[0]), ("round", p[1]), ("white", p[2]), ("black", p[3])]
        return pairs

    def wall_now(self):
        if self.wall_s < 0:
            return -1
        return self.wall_s + (self.app.now - self.wall_at) // 1000

    def op_control(self, args):
        _nargs(args, 0, 0)
        app = self.app
        return (("spec", app.settings.spec), ("text", app.control_text()))

    def op_auth(self, args):
        _nargs(args, 0, 0)
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

    def op_set(self, args):
        _nargs(args, 1, 1)
        app = self.app
        try:
            spec = args[0].decode()
        except ValueError:
            raise P.ProtocolError(P.E_ARGS, "control must be text") from None
        try:
            app.new_game(spec)
        except ValueError as e:
            raise P.ProtocolError(P.E_ARGS, str(e.args[0]) if e.args else "bad control") \
                from None
        return (("spec", spec),)

    def _done(self, ok, what):
        if not ok:
            raise P.ProtocolError(P.E_STATE, "the clock is %s: cannot %s"
                                  % (E.STATE_NAMES[self.app.clock.state], what))
        return (("state", E.STATE_NAMES[self.app.clock.state]),)

    def op_start(self, args):
        _nargs(args, 0, 1)
        side = _side(args[0]) if args else E.WHITE
        c = self.app.clock
        if c.state != E.IDLE:
            return self._done(False, "start")
        if self.app.session.checking():   # someone at the board is checking the clock
            raise P.ProtocolError(P.E_STATE, "the self-test is running: start when it is "
                                  "over (at most 20 s)")
        return self._done(c.start(self.app.now, side), "start")

    def op_pause(self, args):
        _nargs(args, 0, 0)
        return self._done(self.app.clock.pause(self.app.now), "pause")

    def op_resume(self, args):
        _nargs(args, 0, 1)
        side = _side(args[0]) if args else E.NOBODY
        app = self.app
        ok = app.clock.resume(app.now, side)
        if ok:
            app.log(EV.EV_RESUMED_BY, app.clock.turn, app.now, EV.BY_HOST)
        return self._done(ok, "resume")

    def op_end(self, args):
        _nargs(args, 0, 0)
        return self._done(self.app.clock.end(self.app.now), "end")

    def _session_op(self, name):
        """The session's operations (clockapp/sessionops.py LINK_OPS), loaded when first
        used: their code is not carried by every host connection."""
        def run(args):
            from clockapp import sessionops
            return sessionops.LINK_OPS[name](self, args)
        return run

    def _times(self):
        c = self.app.clock
        return (("w", c.main[0]), ("b", c.main[1]), ("wmoves", c.moves[0]),
                ("bmoves", c.moves[1]), ("state", E.STATE_NAMES[c.state]))

    def op_adjust(self, args):
        """adjust SIDE MS [REASON ARTICLE]: with the arbiter's ground, logged with the
        correction (reason R_GROUND, docs/EVENT-LOG.md)."""
        _nargs(args, 2, 4)
        if len(args) == 3:
            raise P.ProtocolError(P.E_ARGS, "a ground is a reason and an article")
        ground = None
        if len(args) == 4:
            text = []
            for a in args[2:]:
                if len(a) > EV.GROUND_MAX:
                    raise P.ProtocolError(P.E_ARGS, "a reason or article is at most %d "
                                          "bytes" % EV.GROUND_MAX)
                try:
                    text.append(a.decode())
                except UnicodeError:
                    raise P.ProtocolError(P.E_ARGS, "a reason or article is UTF-8 text") \
                        from None
            ground = eventlog.ground_body(text[0], text[1])
        side, ms = _side(args[0]), _int(args[1])
        self.app.log_ground = ground
        try:
            self.app.clock.adjust(side, ms, self.app.now)
        finally:
            self.app.log_ground = None
        return self._times()

    def op_settime(self, args):
        _nargs(args, 2, 2)
        self.app.clock.set_time(_side(args[0]), _int(args[1]), self.app.now)
        return self._times()

    def op_moves(self, args):
        _nargs(args, 2, 2)
        self.app.clock.set_moves(_side(args[0]), _int(args[1]), self.app.now)
        return self._times()

    def op_stage(self, args):
        _nargs(args, 2, 2)
        self.app.clock.set_stage(_side(args[0]), _int(args[1]) - 1, self.app.now)
        return self._times()

    def op_undo(self, args):
        _nargs(args, 0, 0)
        c = self.app.clock
        if not c.undo_press(self.app.now):
            raise P.ProtocolError(P.E_STATE, "no press to undo")
        return self._times() + (("turn", E.SIDE_NAMES[c.turn]),)   # the presser's again

    def op_addstage(self, args):
        _nargs(args, 2, 2)
        from clockcore import notation  # lazily: the parser is large

        who = args[0].decode()
        sides = (E.WHITE, E.BLACK) if who == "both" else (_side(args[0]),)
        try:
            stage = notation.parse_stage(args[1].decode())
        except ValueError as e:
            raise P.ProtocolError(P.E_ARGS, str(e.args[0]) if e.args else "one stage") from None
        for s in sides:
            self.app.clock.add_stage(s, stage, self.app.now)
        return self._times()

    def op_addinc(self, args):
        """`addinc SIDE|both MS`: MS a move from now on (FIDE Guidelines III), one action."""
        _nargs(args, 2, 2)
        side = E.NOBODY if args[0] == b"both" else _side(args[0])
        ms = _int(args[1])
        if ms <= 0:
            raise P.ProtocolError(P.E_ARGS, "an increment is more than 0 ms")
        self.app.clock.add_increment(side, ms, self.app.now)
        return self._times()

    def op_split(self, args):
        _nargs(args, 2, 2)
        self.app.clock.split(_int(args[0]), _int(args[1]), self.app.now)
        return self._times()

    def op_wallclock(self, args):
        _nargs(args, 1, 1)
        t = _int(args[0])
        if t < 0:
            raise P.ProtocolError(P.E_ARGS, "seconds since 1970, not negative")
        self.wall_s = t
        self.wall_at = self.app.now
        self.app.wall_s = t  # game headers carry it (counted on from wall_at)
        self.app.wall_at = self.app.now
        self.app.log(EV.EV_WALL_CLOCK, -1, self.app.now, t)
        return (("wall", t),)

    def op_keyset(self, args):
        _nargs(args, 1, 1)
        if self.in_game():
            raise P.ProtocolError(P.E_STATE, "the key is set only when no game is in progress")
        try:
            key = binascii.unhexlify(args[0])
        except ValueError:
            key = b""
        if len(key) != _KEY_BYTES:
            raise P.ProtocolError(P.E_ARGS, "the key is 64 hex digits")
        if not self.app.store.save(KEY_FILE, key):
            raise P.ProtocolError(P.E_INTERNAL, "could not save the key")
        self._use_key(key)
        self.nonce = None   # a new session is needed with the new key
        self.last_rid = -1
        return (("key", 1),)

    def op_maintenance(self, args):
        _nargs(args, 0, 0)
        b = self.app.board
        if not hasattr(b, "enter_maintenance"):
            raise P.ProtocolError(P.E_STATE, "this board has no maintenance mode")
        self.after = b.enter_maintenance
        return (("maintenance", 1),)

    def op_sim(self, args):
        # Simulator board only (tests press its levers through it): on a real board the
        # operation does not exist.
        hook = getattr(self.app.board, "sim_op", None)
        if hook is None:
            raise P.ProtocolError(P.E_UNKNOWN, "unknown operation")
        return hook([a.decode() for a in args])

    # ---- adjournment (clockapp/seal.py, docs/ADJOURNMENT.md) ---------------------------
    def op_seal(self, args):
        """seal start | seal done [MOVE] | seal cancel. MOVE: the sealed-move text or its
        hash as the host gives it (kept in the snapshot; `chessclock seal` sends a salted
        hash)."""
        _nargs(args, 1, 2)
        sl = self.app.seal
        what = args[0]
        now = self.app.now
        if what == b"start" and len(args) == 1:
            sl.begin(now)
        elif what == b"done":
            sl.hand_in(now, args[1].decode() if len(args) > 1 else "")
        elif what == b"cancel" and len(args) == 1:
            sl.cancel(now)
        else:
            raise P.ProtocolError(P.E_ARGS, "seal start | done [MOVE] | cancel")
        c = self.app.clock
        pairs = (("seal", SEAL_PHASES[sl.phase]), ("sealer", E.SIDE_NAMES[sl.sealer]))
        if sl.phase == 2:
            pairs += (("sha256", binascii.hexlify(sl.digest)),)
        return pairs + self._times() + (("turn", E.SIDE_NAMES[c.turn]),)

    def op_adjexport(self, args):
        """The sealed snapshot kept on flash: base64 and its SHA-256 (what the log has)."""
        _nargs(args, 0, 0)
        app = self.app
        if app.seal.phase != 2:
            raise P.ProtocolError(P.E_STATE, "no adjourned game on this clock (seal first)")
        from clockapp.seal import SNAPSHOT_FILE
        data = app.store.load(SNAPSHOT_FILE)
        if data is None:
            raise P.ProtocolError(P.E_INTERNAL, "the sealed snapshot is not on flash")
        import hashlib
        return (("sha256", binascii.hexlify(hashlib.sha256(data).digest())),
                ("data", binascii.b2a_base64(data).strip()))

    def op_adjput(self, args):
        """adjput N BASE64: chunk N (from 0; 0 starts again) of an adjourned game."""
        _nargs(args, 2, 2)
        n = _int(args[0])
        if n == 0:
            self.adj = bytearray()
        elif self.adj is None or n < 0:
            raise P.ProtocolError(P.E_ARGS, "adjput starts with chunk 0")
        try:
            part = binascii.a2b_base64(args[1])
        except ValueError:
            raise P.ProtocolError(P.E_ARGS, "the chunk is not base64") from None
        if len(self.adj) + len(part) > _ADJ_MAX:
            self.adj = None
            raise P.ProtocolError(P.E_ARGS, "an adjourned game is at most %d bytes" % _ADJ_MAX)
        self.adj += part
        return (("bytes", len(self.adj)),)

    def op_adjload(self, args):
        """adjload SHA256: load the adjourned game sent with adjput, when its SHA-256 is
        this one (what the sealing clock logged). Refused while another game is in play."""
        _nargs(args, 1, 1)
        app = self.app
        if self.adj is None:
            raise P.ProtocolError(P.E_ARGS, "send the game with adjput first")
        import hashlib
        got = binascii.hexlify(hashlib.sha256(bytes(self.adj)).digest())
        if got != args[0].lower():
            raise P.ProtocolError(P.E_ARGS, "the game sent does not match its SHA-256")
        c = app.clock
        if c.state == E.RUNNING or (c.state in (E.PAUSED, E.FROZEN) and app.seal.phase != 2):
            raise P.ProtocolError(P.E_STATE, "a game is in progress on this clock: end it "
                                  "first")
        try:
            app.load_adjourned(bytes(self.adj))
        except ValueError as e:
            raise P.ProtocolError(P.E_ARGS, str(e.args[0]) if e.args else "not a game") \
                from None
        self.adj = None
        c = app.clock
        return (("sha256", got), ("session", app.seal.session),
                ("turn", E.SIDE_NAMES[c.turn])) + self._times()

    # ---- the event log ---------------------------------------------------------------
    def _log_reset(self):
        it = self.log_iter
        self.log_iter = None
        self.log_pending = None
        self.log_next = -1
        if it is not None:
            try:
                it.close()
            except AttributeError:
                pass

    def op_log(self, args):
        """log FROM [MAXBYTES]: the records with sequence number >= FROM, in log order, as
        base64 of (u16 LE length + payload)*; `more=0` when the end of the log was reached.
        A generator (STEPPED): None every _LOG_STEP_BYTES of records, its pairs last."""
        _nargs(args, 1, 2)
        start = _int(args[0])
        limit = _int(args[1]) if len(args) > 1 else _LOG_CHUNK_DEFAULT
        if start < 0 or limit < 64:
            raise P.ProtocolError(P.E_ARGS, "log FROM (>= 0) [MAXBYTES (>= 64)]")
        if limit > _LOG_CHUNK_MAX:
            limit = _LOG_CHUNK_MAX
        if self.log_iter is None or self.log_next != start:
            self._log_reset()
            self.log_iter = self.app.store.read_log()
        it = self.log_iter
        out = bytearray()
        n = 0
        first = -1
        last = -1
        more = 1
        scanned = 0
        step = 0
        rec = self.log_pending
        self.log_pending = None
        while True:
            if len(out) >= step + _LOG_STEP_BYTES:
                step = len(out)
                yield None   # a lever edge that came in goes first (Link._run_job)
            if rec is None:
                if scanned >= _LOG_SCAN_MAX and n == 0:
                    break   # seeking: continue on the next request
                try:
                    rec = next(it)
                except StopIteration:
                    more = 0
                    break
                scanned += 1
            if len(rec) < 4:
                rec = None
                continue
            seq = struct.unpack_from("<I", rec, 0)[0]
            if seq < start:
                rec = None
                continue
            if n and len(out) + 2 + len(rec) > limit:
                self.log_pending = rec
                break
            out += struct.pack("<H", len(rec))
            out += rec
            if first < 0:
                first = seq
            last = seq
            n += 1
            rec = None
        nxt = last + 1 if n else start
        if n and (self.sent_max < 0 or ((last - self.sent_max) & 0xFFFFFFFF) < 0x80000000):
            self.sent_max = last
        if more:
            self.log_next = nxt
        else:
            self._log_reset()
            self.read_end_seq = last if n else start - 1
            self.read_end_size = self.app.store.log_size()
        # Reading marks nothing pulled: only a keyed host's `logack` does (a host without
        # the key could otherwise make the clock prune games the arbiter never got).
        yield None
        data = binascii.b2a_base64(bytes(out)).strip() if n else b""
        yield (("n", n), ("first", first), ("last", last), ("next", nxt), ("more", more),
               ("data", data)) + self.head()

    def head(self):
        """The log's signed head: the last record on flash (its sequence number and chain),
        the clock's time line and wall clock now, the clock id; `hmac` = hex
        HMAC-SHA256(log key, HEAD_TEXT) where the log key is HMAC(arbiter key,
        HEAD_DOMAIN), or "-" on a clock without a key. docs/EVENT-LOG.md."""
        app = self.app
        w = app.logw.writer if app.logw is not None else None
        seq = (w.seq - 1) if w is not None and w.seq else -1
        chain = binascii.hexlify(w.chain).decode() if w is not None else "0" * 16
        b = app.board
        cid = b.clock_id() if hasattr(b, "clock_id") else "unknown"
        text = head_text(cid, seq, chain, app.now, self.wall_now())
        mac = "-"
        if self.head_key is not None:
            mac = binascii.hexlify(P.hmac_sha256(self.head_key, text.encode())).decode()
        return (("head", text), ("hmac", mac))

    def op_logack(self, args):
        """logack SEQ: the host (the arbiter's, on a keyed clock) has every record up to SEQ
        safely: those games may be removed when the log is over its budget."""
        _nargs(args, 1, 1)
        seq = _int(args[0])
        if seq < 0 or self.sent_max < 0 or ((self.sent_max - seq) & 0xFFFFFFFF) >= 0x80000000:
            raise P.ProtocolError(P.E_NOT_READ, "records up to %d were not sent to a host"
                                  % seq)
        logw = self.app.logw
        if logw is None or not logw.mark_pulled(seq):
            raise P.ProtocolError(P.E_INTERNAL, "could not save the acknowledgement")
        return (("acked", seq),)

    def _read_to(self, upto):
        """The log was read to its end, UPTO is the last sequence number that read returned
        and nothing was written since (so nothing unread is lost)."""
        app = self.app
        return (self.read_end_size >= 0 and upto == self.read_end_seq
                and app.store.log_size() == self.read_end_size and not app.log_n)

    def op_logclear(self, args):
        """logclear UPTO: remove the log, only when it was read to its end (_read_to). With
        a key the signed request is the arbiter's word; a clock without a key asks the
        person at it (menu.ask: hold MENU 2 s) and removes the log at that answer:
        `confirm` S in the reply, `status logclear=` says how it ended."""
        _nargs(args, 1, 1)
        upto = _int(args[0])
        app = self.app
        if not self._read_to(upto):
            raise P.ProtocolError(P.E_NOT_READ, "pull the log to its end first (up to %d)"
                                  % upto)
        if self.key is None:
            if not app.menu.ask("CLr?", self, app.now):
                raise P.ProtocolError(P.E_STATE, "the clock's menu is open: close it first")
            self.clear_upto = upto
            self.clear_state = CLEAR_ASKED
            app.refresh(True)
            return (("confirm", CONFIRM_MS // 1000), ("upto", upto))
        if not self._clear():
            raise P.ProtocolError(P.E_INTERNAL, "could not remove the log")
        return (("cleared", upto),)

    def _clear(self):
        self._log_reset()
        if not self.app.store.clear_log():
            return False
        self.read_end_size = -1
        return True

    def yes(self, now):
        """Held MENU at the clock (menu.ask): the log goes, if it is still what was read."""
        if not self._read_to(self.clear_upto):
            self.clear_state = CLEAR_CHANGED
        else:
            self.clear_state = CLEAR_DONE if self._clear() else CLEAR_FAILED
        self.app.refresh(True)

    def no(self):
        """Another button, the time out or the menu closed (menu.ask): the log stays."""
        self.clear_state = CLEAR_DECLINED
        self.app.refresh(True)
