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
"""

import asyncio
import json
import os

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from chessclock import link as L
from chessclock.hall import broadcast, pairings
from chessclock.hall.station import ACTIONS

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.html")
COALESCE_S = 0.05   # changes within this are sent together
PING_S = 1.0        # the stream's heartbeat (also when staleness is checked)


def create_app(hub, stations=(), title="Hall"):
    """The ASGI app of a hub; `stations` are this process's (their clocks take actions)."""
    with open(PAGE, encoding="utf-8") as f:
        page = f.read().replace("{{TITLE}}", _html(title))

    def worker(key):
        for st in stations:
            w = st.worker_for(key)
            if w is not None:
                return w
        return None

    hub.is_local = lambda key: worker(key) is not None

    def snapshot(since=0):
        version, rows, flags, stations_seen = hub.view(since)
        return version, {"v": version, "boards": rows, "flags": flags,
                         "event": hub.pairings.event if hub.pairings else "",
                         "round": hub.pairings.round if hub.pairings else "",
                         "unpaired": _unpaired(hub, rows) if since == 0 else None}

    async def index(request):
        return HTMLResponse(page)

    async def boards(request):
        hub.check_stale()
        return JSONResponse(snapshot()[1])

    async def events(request: Request) -> Response:
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        hub.subscribe(loop, wake)

        async def stream():
            try:
                since, data = snapshot()
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
                    since, data = snapshot(since)
                    if data["boards"] or data["flags"]:
                        yield "data: %s\n\n" % json.dumps(data)
            finally:
                hub.unsubscribe(loop, wake)

        from starlette.responses import StreamingResponse
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    async def action(request: Request) -> Response:
        try:
            req = await request.json()
        except ValueError:
            return _refuse(400, "not a JSON request")
        if not isinstance(req, dict):
            return _refuse(400, "not a JSON object")
        key_hex = str(req.get("key") or "").strip().lower()
        try:
            key = bytes.fromhex(key_hex)
        except ValueError:
            key = b""
        if len(key) != 32:   # nothing happens without the arbiter's key
            return _refuse(401, "the arbiter's key is needed (64 hex digits, the key file's "
                           "text)")
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
        w = worker(str(req.get("clock", "")))
        if w is None:
            return _refuse(404, "that clock is not at this station: act from its station's "
                           "page")
        try:
            fields = await asyncio.to_thread(w.act, op, args, key)
        except L.ClockError as e:
            status = {L.EXIT_AUTH: 403, L.EXIT_INPUT: 400, L.EXIT_REFUSED: 409}.get(
                e.code, 504)
            return _refuse(status, e.message)   # the CLI's hint (--key FILE) is not for here
        except TimeoutError:
            return _refuse(504, "the clock's worker did not answer in time")
        return JSONResponse({"ok": True, "result": fields})

    async def round_pgn(request):
        games = [_game(hub, n, b) for n, b in sorted(hub.by_board().items())]
        return PlainTextResponse(broadcast.round_pgn(games), media_type="application/x-chess-pgn")

    async def board_pgn(request):
        try:
            n = int(request.path_params["n"])
        except ValueError:
            return _refuse(404, "no such board")
        body = hub.by_board().get(n)
        if body is None and not (hub.pairings and hub.pairings.pairing(n)):
            return _refuse(404, "no clock and no pairing on board %d" % n)
        return PlainTextResponse(_game(hub, n, body or {}),
                                 media_type="application/x-chess-pgn")

    async def results_csv(request):
        rows = pairings.results(hub.pairings, hub.by_board())
        return Response(pairings.results_csv(rows), media_type="text/csv")

    async def results_trf(request):
        rows = pairings.results(hub.pairings, hub.by_board())
        return PlainTextResponse(pairings.results_trf(hub.pairings, rows))

    routes = [Route("/", index), Route("/events", events), Route("/api/boards", boards),
              Route("/api/action", action, methods=["POST"]),
              Route("/broadcast/round.pgn", round_pgn),
              Route("/broadcast/board/{n}.pgn", board_pgn),
              Route("/results.csv", results_csv), Route("/results.trf", results_trf)]
    return Starlette(routes=routes)


def _game(hub, n, body):
    headers = hub.pairings.headers(n) if hub.pairings else {"Board": str(n)}
    for tag, k in (("White", "wn"), ("Black", "bn")):   # the clock's pushed pairing
        if headers.get(tag, "?") == "?" and body and body.get(k):
            headers[tag] = body[k]
    return broadcast.game_pgn(headers, body)


def _unpaired(hub, rows):
    """Boards of the pairings that no clock stands for (yet)."""
    if not hub.pairings:
        return []
    have = {r["bd"] for r in rows}
    return [dict(bd=n, **p) for n, p in sorted(hub.pairings.boards.items()) if n not in have]


def _side_ms(args, op):
    from chessclock.clock_cmd import parse_ms
    if len(args) != 2 or args[0] not in ("white", "black"):
        raise ValueError("%s needs a side (white or black) and a time" % op)
    try:
        ms = parse_ms(args[1])
    except L.ClockError as e:
        raise ValueError(str(e)) from None
    if op == "settime" and ms < 0:
        raise ValueError("a clock's time is not negative")
    return [args[0], str(ms)]


def _refuse(status, message):
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def _html(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


class ServerThread:
    """uvicorn serving an app from a thread (tests, the bench): start() returns once it
    listens; stop() ends it."""

    def __init__(self, app, host="127.0.0.1", port=0):
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

    def start(self, wait=10.0):
        import time
        self.thread.start()
        deadline = time.monotonic() + wait
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the hall's server did not start")
            time.sleep(0.02)
        return self

    def stop(self):
        self.server.should_exit = True
        self.thread.join(5)
