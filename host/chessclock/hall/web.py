"""The hall page: Starlette, served by uvicorn.

    GET  /                       the page (page.html): every clock, live
    GET  /events                 Server-Sent Events: the boards that changed, as JSON
    GET  /api/boards             the same, all boards, once (scripts, tests)
    POST /api/action             an arbiter's action on a clock: {"clock", "op", "args",
                                 "key"}; the key (64 hex digits) signs that one request
                                 through the serial link and is not kept
    GET  /broadcast/round.pgn    the round, one game a board, [%clk] after every ply
    GET  /broadcast/board/N.pgn  board N's game (a relay polls it)
    GET  /results.csv            what the clocks decided, a row a board
    GET  /results.trf            the same as TRF 001 lines of this round

Guards (docs/HALL.md, "Threat model"): a Host header that is not an IP address, this
machine's name or one allowed (`--allow-host`) is refused (DNS rebinding); a POST from
another origin is refused; an action's body is at most MAX_BODY bytes, refused before it
is read further; the key is checked here before anything reaches a clock (against the
hall's `--key`, else against the key a clock last accepted); a client's failed actions
make it wait, longer each time.
"""

import asyncio
import hashlib
import hmac
import ipaddress
import json
import os
import socket
import time
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from chessclock.hall import broadcast, pairings
from chessclock.hall.station import ACTIONS
from chessclock.link import transport as L

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.html")
COALESCE_S = 0.05   # changes within this are sent together
PING_S = 1.0        # the stream's heartbeat (also when staleness is checked)
MAX_BODY = 4096     # bytes of an action's request (one is ~150)
FAILS_FREE = 5      # failed actions a client may make before it has to wait
WAIT_MAX_S = 60.0   # the longest wait (it doubles from 1 s at each failure after those)
FORGET_S = 600.0    # a client's failures are forgotten after this long without one
QUEUE_MAX = 4       # actions waiting for one clock's worker; more are refused (busy)


def _key_digest(key: Any) -> bytes:
    return hashlib.sha256(b"chessclock hall: the arbiter's key\n" + key).digest()


class Throttle:
    """Failed actions by client address: after FAILS_FREE of them a client waits 1, 2, 4 ...
    WAIT_MAX_S seconds before the next action is even looked at."""

    def __init__(self, free: int = FAILS_FREE, wait_max: float = WAIT_MAX_S,
                 forget: float = FORGET_S, size: int = 4096) -> None:
        self.free, self.wait_max, self.forget, self.size = free, wait_max, forget, size
        self.clients: dict[str, list[float]] = {}   # client -> [failures, until, last]

    def wait(self, client: str, now: Any) -> float:
        """Seconds the client must still wait (0: go on)."""
        c = self.clients.get(client)
        if c is None:
            return 0.0
        if now - c[2] > self.forget:
            del self.clients[client]
            return 0.0
        return max(0.0, c[1] - now)

    def failed(self, client: str, now: Any) -> None:
        c = self.clients.get(client)
        if c is None:
            if len(self.clients) >= self.size:   # bounded: the quiet ones go first
                for k in [k for k, v in self.clients.items() if v[1] <= now][:self.size // 2]:
                    del self.clients[k]
                if len(self.clients) >= self.size:
                    self.clients.pop(next(iter(self.clients)))
            c = self.clients[client] = [0, 0.0, now]
        c[0] += 1
        c[2] = now
        over = int(c[0]) - self.free
        if over >= 0:
            c[1] = now + min(self.wait_max, 2.0 ** min(over, 16))

    def ok(self, client: str) -> None:
        self.clients.pop(client, None)


def _own_names() -> set[str]:
    """This machine's names a browser may use for the page."""
    names = {"localhost"}
    for n in (socket.gethostname(), socket.getfqdn()):
        if n:
            names.update({n.lower(), n.lower().split(".")[0] + ".local"})
    return names


def _split_host(host: str) -> str:
    """'name:port', '[v6]:port', 'name' -> the name or address, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


class HostGuard:
    """ASGI middleware: an unknown Host header (DNS rebinding: another site's name that
    points at this machine) gets 421; a request that changes something (not GET/HEAD)
    from another origin gets 403. An IP address as Host is no rebinding: allowed."""

    def __init__(self, app: Any, hosts: Any) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}

    def host_ok(self, host: str) -> bool:
        name = _split_host(host)
        return bool(name) and (_ip(name) or name in self.hosts)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = {k.lower(): v.decode("latin-1") for k, v in scope["headers"]}
            host = headers.get(b"host", "")
            why = None
            if not self.host_ok(host):
                why = (421, "unknown Host %r: give the hall's name with --allow-host"
                       % host[:80])
            elif scope["method"] not in ("GET", "HEAD"):
                origin = headers.get(b"origin")
                site = headers.get(b"sec-fetch-site", "same-origin")
                if origin is not None and urlsplit(origin).netloc.lower() != \
                        host.strip().lower():
                    why = (403, "refused: a request from another site (%s)" % origin[:80])
                elif site not in ("same-origin", "none"):
                    why = (403, "refused: a request from another site")
            if why is not None:
                await _refuse(*why)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _body(request: Any, limit: int) -> bytes | None:
    """The request's body, at most `limit` bytes: None when it is longer (the rest is not
    read)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        return None
    out = bytearray()
    async for chunk in request.stream():
        out += chunk
        if len(out) > limit:
            return None
    return bytes(out)


def create_app(hub: Any, stations: Any = (), title: str = "Hall", arbiter_key: Any = None,
               hosts: Any = (),
               throttle: Any = None) -> Any:
    """The ASGI app of a hub; `stations` are this process's (their clocks take actions);
    arbiter_key: the key actions must give (else: the one a clock last accepted); hosts:
    Host names allowed besides IP addresses and this machine's names."""
    with open(PAGE, encoding="utf-8") as f:
        page = f.read().replace("{{TITLE}}", _html(title))
    h = _Handlers(hub, stations, page, throttle or Throttle(), arbiter_key)
    hub.is_local = lambda key: h.worker(key) is not None
    routes = [Route("/", h.index), Route("/events", h.events), Route("/api/boards", h.boards),
              Route("/api/action", h.action, methods=["POST"]),
              Route("/broadcast/round.pgn", h.round_pgn),
              Route("/broadcast/board/{n}.pgn", h.board_pgn),
              Route("/results.csv", h.results_csv), Route("/results.trf", h.results_trf)]
    names = _own_names() | {n.lower() for n in hosts}
    return HostGuard(Starlette(routes=routes), names)


class _Handlers:
    """The page's routes over one hub."""

    def __init__(self, hub: Any, stations: Any, page: str, throttle: Any, arbiter_key: Any) -> None:
        self.hub = hub
        self.stations = stations
        self.page = page
        self.throttle = throttle
        self.digest = _key_digest(arbiter_key) if arbiter_key else None

    def worker(self, key: Any) -> Any:
        for st in self.stations:
            w = st.worker_for(key)
            if w is not None:
                return w
        return None

    def snapshot(self, since: int = 0) -> tuple[int, dict[str, Any]]:
        hub = self.hub
        version, rows, flags, stations_seen = hub.view(since)
        return version, {"v": version, "boards": rows, "flags": flags,
                         "event": hub.pairings.event if hub.pairings else "",
                         "round": hub.pairings.round if hub.pairings else "",
                         "unpaired": _unpaired(hub, rows) if since == 0 else None}

    async def index(self, request: Any) -> Any:
        return HTMLResponse(self.page)

    async def boards(self, request: Any) -> Any:
        self.hub.check_stale()
        return JSONResponse(self.snapshot()[1])

    async def events(self, request: Request) -> Response:
        hub = self.hub
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        hub.subscribe(loop, wake)

        async def stream() -> Any:
            try:
                since, data = self.snapshot()
                yield "data: %s\n\n" % json.dumps(data)
                while True:
                    try:
                        await asyncio.wait_for(wake.wait(), PING_S)
                    except asyncio.TimeoutError:
                        if await request.is_disconnected():
                            return
                        if not hub.check_stale():
                            yield ": ping\n\n"
                            continue
                    wake.clear()
                    await asyncio.sleep(COALESCE_S)
                    wake.clear()
                    since, data = self.snapshot(since)
                    if data["boards"] or data["flags"]:
                        yield "data: %s\n\n" % json.dumps(data)
            finally:
                hub.unsubscribe(loop, wake)

        from starlette.responses import StreamingResponse
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    async def action(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        now = time.monotonic()
        wait = self.throttle.wait(client, now)
        if wait > 0:
            return _refuse(429, "too many refused actions from here: wait %d s" % (wait + 1),
                           {"Retry-After": str(int(wait) + 1)})
        req = await _action_request(request)
        if isinstance(req, Response):
            return req
        key = self._key(req, client, now)
        if isinstance(key, Response):
            return key
        op_args = _op_args(req)
        if isinstance(op_args, Response):
            return op_args
        w = self.worker(str(req.get("clock", "")))
        if w is None:
            return _refuse(404, "that clock is not at this station: act from its station's "
                           "page")
        if w.actions.qsize() >= QUEUE_MAX:
            return _refuse(503, "the clock's worker is busy: try again")
        try:
            fields = await asyncio.to_thread(w.act, op_args[0], op_args[1], key)
        except L.ClockError as e:
            if e.code == L.EXIT_AUTH:
                self.throttle.failed(client, now)
            status = {L.EXIT_AUTH: 403, L.EXIT_INPUT: 400, L.EXIT_REFUSED: 409}.get(
                e.code, 504)
            return _refuse(status, e.message)   # the CLI's hint (--key FILE) is not for here
        except TimeoutError:
            return _refuse(504, "the clock's worker did not answer in time")
        self.throttle.ok(client)
        if self.digest is None:   # a clock took it: the hall's key from now on
            self.digest = _key_digest(key)
        return JSONResponse({"ok": True, "result": fields})

    def _key(self, req: dict[str, Any], client: str, now: Any) -> Any:
        """The arbiter's key of an action (bytes), or the refusal (a Response)."""
        key_hex = str(req.get("key") or "").strip().lower()
        try:
            key = bytes.fromhex(key_hex)
        except ValueError:
            key = b""
        if len(key) != 32:   # nothing happens without the arbiter's key
            self.throttle.failed(client, now)
            return _refuse(401, "the arbiter's key is needed (64 hex digits, the key file's "
                           "text)")
        if self.digest is not None and not hmac.compare_digest(_key_digest(key), self.digest):
            self.throttle.failed(client, now)   # the clock never sees it
            return _refuse(403, "auth-failed: not the arbiter's key (the hall checked it; "
                           "nothing went to the clock)")
        return key

    async def round_pgn(self, request: Any) -> Any:
        hub = self.hub
        games = [_game(hub, n, b) for n, b in sorted(hub.by_board().items())]
        return PlainTextResponse(broadcast.round_pgn(games), media_type="application/x-chess-pgn")

    async def board_pgn(self, request: Any) -> Any:
        hub = self.hub
        try:
            n = int(request.path_params["n"])
        except ValueError:
            return _refuse(404, "no such board")
        body = hub.by_board().get(n)
        if body is None and not (hub.pairings and hub.pairings.pairing(n)):
            return _refuse(404, "no clock and no pairing on board %d" % n)
        return PlainTextResponse(_game(hub, n, body or {}),
                                 media_type="application/x-chess-pgn")

    async def results_csv(self, request: Any) -> Any:
        rows = pairings.results(self.hub.pairings, self.hub.by_board())
        return Response(pairings.results_csv(rows), media_type="text/csv")

    async def results_trf(self, request: Any) -> Any:
        rows = pairings.results(self.hub.pairings, self.hub.by_board())
        return PlainTextResponse(pairings.results_trf(self.hub.pairings, rows))


async def _action_request(request: Any) -> Any:
    """An action's JSON object (a dict), or the refusal (a Response)."""
    raw = await _body(request, MAX_BODY)
    if raw is None:
        return _refuse(413, "an action is at most %d bytes" % MAX_BODY)
    try:
        req = json.loads(raw)
    except ValueError:
        return _refuse(400, "not a JSON request")
    if not isinstance(req, dict):
        return _refuse(400, "not a JSON object")
    return req


def _op_args(req: dict[str, Any]) -> Any:
    """(op, [args]) of an action, or the refusal (a Response)."""
    op = req.get("op")
    if op not in ACTIONS:
        return _refuse(400, "no such action: %r" % op)
    args = req.get("args") or []
    if not isinstance(args, list) or len(args) > 2:
        return _refuse(400, "args: a list of at most two values")
    args = [str(a) for a in args]
    if op in ("adjust", "settime"):
        try:
            args = _side_ms(args, op)
        except ValueError as e:
            return _refuse(400, str(e))
    return op, args


def _game(hub: Any, n: int, body: dict[str, Any]) -> str:
    headers = hub.pairings.headers(n) if hub.pairings else {"Board": str(n)}
    for tag, k in (("White", "wn"), ("Black", "bn")):   # the clock's pushed pairing
        if headers.get(tag, "?") == "?" and body and body.get(k):
            headers[tag] = body[k]
    return broadcast.game_pgn(headers, body)


def _unpaired(hub: Any, rows: list[dict[str, Any]]) -> list[Any]:
    """Boards of the pairings that no clock stands for (yet)."""
    if not hub.pairings:
        return []
    have = {r["bd"] for r in rows}
    return [dict(bd=n, **p) for n, p in sorted(hub.pairings.boards.items()) if n not in have]


def _side_ms(args: list[str], op: str) -> list[str]:
    from chessclock.link.transport import parse_ms
    if len(args) != 2 or args[0] not in ("white", "black"):
        raise ValueError("%s needs a side (white or black) and a time" % op)
    try:
        ms = parse_ms(args[1])
    except L.ClockError as e:
        raise ValueError(str(e)) from None
    if op == "settime" and ms < 0:
        raise ValueError("a clock's time is not negative")
    return [args[0], str(ms)]


def _refuse(status: int, message: str, headers: dict[str, str] | None = None) -> Any:
    return JSONResponse({"ok": False, "error": message}, status_code=status, headers=headers)


def _html(text: str) -> str:
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


class ServerThread:
    """uvicorn serving an app from a thread (tests, the bench): start() returns once it
    listens; stop() ends it."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: Any = 0) -> None:
        import socket
        import threading

        import uvicorn
        if port == 0:   # a free port of this machine's loopback
            with socket.socket() as s:
                s.bind((host, 0))
                port = s.getsockname()[1]
        self.url = "http://%s:%d" % (host, port)
        self.server = uvicorn.Server(uvicorn.Config(app, host=host, port=port,
                                                    log_level="warning", access_log=False,
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self, wait: float = 10.0) -> Any:
        import time
        self.thread.start()
        deadline = time.monotonic() + wait
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the hall's server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5)
