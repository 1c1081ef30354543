"""`chessclock hall`: the arbiter's page of every clock (docs/HALL.md).

    chessclock hall --all                              # this laptop's clocks, no broker
    chessclock hall --all --pairings round1.trf --listen 0.0.0.0:8000
    chessclock hall --all --broker 127.0.0.1:1883 --station hall-b --hall-key hall.key --no-page
    chessclock hall --broker 127.0.0.1:1883 --hall-key hall.key   # the page of every station
    chessclock hall --write-broker DIR --stations hall-a,hall-b --broker 0.0.0.0:1883
"""

import os
import socket
from argparse import ArgumentParser, Namespace
from typing import Any, TextIO

from chessclock.errors import InputError
from chessclock.link import transport as L
from chessclock.link.ports import ports_of


def add_arguments(p: ArgumentParser) -> None:
    p.add_argument("--port", action="append", default=[], metavar="PORT",
                   help="serial port of a clock (repeat for several)")
    p.add_argument("--all", action="store_true",
                   help="every clock found by `chessclock ports` (and $CHESSCLOCK_PORTS)")
    p.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for a reply")
    p.add_argument("--interval", type=float, default=0.2,
                   help="seconds between two status polls of a clock (default 0.2)")
    p.add_argument("--listen", default="127.0.0.1:8000", metavar="HOST:PORT",
                   help="where the page is served (default 127.0.0.1:8000; 0.0.0.0:8000 "
                   "for phones on the hall's network)")
    p.add_argument("--no-page", action="store_true",
                   help="a station only: publish to the broker, serve no page")
    p.add_argument("--title", default="Hall", help="the page's title")
    p.add_argument("--pairings", metavar="FILE", help="the round's pairings: CSV or FIDE TRF")
    p.add_argument("--round", default=None, help="round number (TRF: which round's "
                   "pairings; default the last one paired)")
    p.add_argument("--event", default="", help="event name (default: from the pairings)")
    p.add_argument("--assign", action="append", default=[], metavar="BOARD=CLOCK",
                   help="the clock (id, port or STATION/CLOCK) on a board (repeat)")
    p.add_argument("--archive", default="chessclock-logs",
                   help="where clocks' logs are pulled to be verified (default "
                   "chessclock-logs)")
    p.add_argument("--no-verify", action="store_true",
                   help="do not pull and verify the clocks' logs")
    p.add_argument("--broker", metavar="HOST[:PORT]",
                   help="an MQTT broker: publish this station's clocks there and show "
                   "every station's")
    p.add_argument("--hall", default="hall", help="the hall's name in the topics")
    p.add_argument("--station", default=None,
                   help="this station's name in the topics (default: the host name)")
    p.add_argument("--hall-key", metavar="FILE",
                   help="the key that signs the hall's messages (`chessclock key new "
                   "FILE`; the same file at every station)")
    p.add_argument("--broker-login", metavar="FILE",
                   help="this station's (or the page's) login to the broker, a file "
                   "`--write-broker` wrote")
    p.add_argument("--broker-ca", metavar="FILE",
                   help="TLS to the broker: the CA certificate that signed the broker's")
    p.add_argument("--write-broker", metavar="DIR",
                   help="write the broker's files (mosquitto.conf, passwd, acl, a login "
                   "for each of --stations and for the page) into DIR, then stop")
    p.add_argument("--stations", default="", metavar="NAME,...",
                   help="with --write-broker: the stations that may publish")
    p.add_argument("--broker-cert", metavar="FILE",
                   help="with --write-broker: the broker's TLS certificate (and "
                   "--broker-certkey its key): clients connect with TLS")
    p.add_argument("--broker-certkey", metavar="FILE", help="the key of --broker-cert")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a host name the page is reached by (repeat; IP addresses and this "
                   "machine's names are allowed; any other Host header is refused)")
    p.add_argument("--key", metavar="FILE",
                   help="the arbiter's key for the station's own log pulls and their "
                   "acknowledgement (default: the one `chessclock key use` chose, or "
                   "$CHESSCLOCK_KEY; none: logs are pulled, not acknowledged)")


def write_broker(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """--write-broker DIR: the broker's files for --stations (docs/HALL.md)."""
    import os

    from chessclock.hall.broker import write_config
    from chessclock.hall.mqtt import parse_broker

    stations = [s.strip() for s in args.stations.split(",") if s.strip()]
    if not stations:
        raise InputError("--write-broker needs --stations NAME,... (the stations that "
                         "publish)")
    try:
        host, port = parse_broker(args.broker or "127.0.0.1:1883")
    except ValueError as e:
        raise InputError(str(e)) from None
    for f in (args.broker_cert, args.broker_certkey):
        if f and not os.path.isfile(f):
            raise InputError("cannot read %s" % f)
    try:
        logins = write_config(args.write_broker, args.hall, stations, host, port,
                              args.broker_cert, args.broker_certkey)
    except ValueError as e:
        raise InputError(str(e)) from None
    except OSError as e:
        raise InputError("cannot write %s (%s)"
                         % (args.write_broker, e.strerror or e)) from None
    stdout.write("broker files in %s (run: python -m chessclock.hall.broker --dir %s)\n"
                 % (args.write_broker, args.write_broker))
    for user, path in logins.items():
        stdout.write("  %-24s %s\n" % (user, path))
    return 0


def run(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    from clockcore.hallmsg import name_ok, safe_name

    if args.write_broker:
        return write_broker(args, stdout, stderr)
    host, _, port = args.listen.rpartition(":")
    if not host or not port.isdigit():
        raise InputError("--listen: HOST:PORT, e.g. 127.0.0.1:8000")
    ports = []
    if args.port or args.all:
        ports = ports_of(args)
    if not ports and not args.broker:
        raise InputError("no clock given: --port PORT (repeat), --all, or --broker to "
                         "show the stations of a broker")
    station = args.station or safe_name(socket.gethostname())
    if not (name_ok(station) and name_ok(args.hall)):
        raise InputError("--station and --hall: letters, digits, '-', '_', '.'")
    rnd = None
    if args.pairings:
        from chessclock.hall import pairings
        rnd = pairings.load(args.pairings, event=args.event, round_no=args.round)
        for a in args.assign:
            n, _, clock = a.partition("=")
            rnd.assign_clock(clock.strip(), pairings._board_no(n, "--assign"))
    elif args.assign:
        from chessclock.hall import pairings
        rnd = pairings.Round(args.event, args.round or "")
        for a in args.assign:
            n, _, clock = a.partition("=")
            rnd.assign_clock(clock.strip(), pairings._board_no(n, "--assign"))
    broker = key = None
    if args.broker:
        from chessclock.hall.mqtt import parse_broker
        try:
            broker = parse_broker(args.broker)
        except ValueError as e:
            raise InputError(str(e)) from None
        if not args.hall_key:
            raise InputError("--broker needs --hall-key FILE (the key that signs the "
                             "hall's messages; `chessclock key new FILE`)")
        key = L.read_key(args.hall_key)
        if not args.broker_login:
            raise InputError("--broker needs --broker-login FILE (this station's "
                             "login, from `chessclock hall --write-broker`)")
        from chessclock.hall.broker import read_login
        try:
            args.login = read_login(args.broker_login)
        except ValueError as e:
            raise InputError(str(e)) from None
        if args.broker_ca and not os.path.isfile(args.broker_ca):
            raise InputError("cannot read %s" % args.broker_ca)
    for h in args.allow_host:
        if not h or not all(c.isalnum() or c in ".-" for c in h):
            raise InputError("--allow-host %r: a host name (letters, digits, '.', '-')"
                             % h)
    args.arbiter_key = L.key_for(args)
    if args.no_page and not broker:
        raise InputError("--no-page is for a station that publishes to --broker")
    return serve(args, stdout, stderr, ports, station, rnd, broker, key, host, int(port))


def serve(args: Namespace, stdout: TextIO, stderr: TextIO, ports: list[str], station_name: str,
          rnd: Any, broker: Any, key: bytes | None, host: str, port: int) -> int:
    import threading

    from chessclock.hall.hub import Hub, LocalSink
    from chessclock.hall.station import Station

    hub = Hub(rnd)
    url = "http://%s:%d/" % (host if host != "0.0.0.0" else socket.gethostname(), port)
    parts: list[Any] = []   # what to stop, last first (stations, publisher, subscriber)
    sink: Any
    if broker:
        from chessclock.hall.mqtt import Publisher, Subscriber
        sink = Publisher(broker, args.hall, station_name, key,
                         url="" if args.no_page else url, login=args.login,
                         ca=args.broker_ca)
        sink.start()
        parts.append(sink)
    else:
        sink = LocalSink(hub)
    archive = None if args.no_verify else args.archive
    station = Station(station_name, ports, sink, args.interval, args.timeout, archive,
                      arbiter_key=args.arbiter_key)
    station.start()
    parts.append(station)
    if broker and not args.no_page:
        sub = Subscriber(broker, args.hall, key, hub, name="page-" + station_name,
                         login=args.login, ca=args.broker_ca)
        sub.start()
        parts.append(sub)
    try:
        if args.no_page:
            stderr.write("chessclock hall: station %s publishes %d clock(s) to %s:%d "
                         "(Ctrl-C stops)\n" % (station_name, len(ports), *broker))
            threading.Event().wait()
        else:
            import uvicorn

            from chessclock.hall.web import create_app
            app = create_app(hub, [station], title=args.title, arbiter_key=args.arbiter_key,
                             hosts=args.allow_host)
            stderr.write("chessclock hall: %d clock(s)%s; the page: %s\n" % (
                len(ports), " and the stations of %s:%d" % broker if broker else "", url))
            stderr.flush()
            uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False,
                        timeout_graceful_shutdown=2)
    except KeyboardInterrupt:
        pass
    except OSError as e:
        stderr.write("chessclock hall: cannot serve on %s:%d (%s)\n" % (host, port, e))
        return L.EXIT_FAILED
    finally:
        for p in reversed(parts):
            p.stop()
    return 0

