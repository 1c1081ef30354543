"""`chessclock key new|use|set|check`: the arbiter's key, made, chosen, set on clocks and
checked against them."""

import os
from argparse import ArgumentParser, Namespace
from typing import TextIO

from chessclock.commands import clockrun as C
from chessclock.link import transport as L


def add_arguments_key(p: ArgumentParser) -> None:
    p.add_argument("action", choices=("new", "use", "set", "check"),
                   help="new FILE: make a key file; use FILE: use it from now on; set: put "
                   "the key on the clocks (no game in progress); check: does the clock "
                   "take the key")
    p.add_argument("file", nargs="?", metavar="FILE")
    p.add_argument("--old-key", metavar="FILE",
                   help="set: the key the clock has now (to replace it)")
    C.common_arguments(p)


def run_key(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if args.action in ("new", "use"):
        if not args.file:
            raise L.ClockError(L.EXIT_INPUT, "key %s needs FILE" % args.action)
        path = os.path.abspath(args.file)
        if args.action == "new":
            if os.path.exists(path):
                raise L.ClockError(L.EXIT_INPUT, "%s exists: not overwritten"
                                   % path)
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w") as f:
                    f.write(os.urandom(32).hex() + "\n")
            except OSError as e:
                raise L.ClockError(L.EXIT_INPUT, "cannot write %s: %s"
                                   % (path, e.strerror or e)) from None
            stdout.write("new key in %s (keep it secret; `chessclock key use %s`)\n"
                         % (path, args.file))
            return 0
        L.read_key(path)
        try:
            os.makedirs(L.config_dir(), exist_ok=True)
            with open(os.path.join(L.config_dir(), "key-path"), "w") as f:
                f.write(path + "\n")
        except OSError as e:
            raise L.ClockError(L.EXIT_INPUT, "cannot write %s: %s"
                               % (L.config_dir(), e.strerror or e)) from None
        stdout.write("using the key in %s\n" % path)
        return 0
    key = L.key_for(args)
    if args.action == "check":
        if key is None:
            raise L.ClockError(L.EXIT_INPUT, "no key chosen",
                               "chessclock key use FILE")
        return C.on_each(args, stdout, stderr, lambda lk: lk.request("verify", change=True),
                       key=key, render=lambda f: "the clock takes this key")
    # set
    if args.file:
        key = L.read_key(args.file)
    if key is None:
        raise L.ClockError(L.EXIT_INPUT, "no key to set",
                           "make one: chessclock key new FILE; key use FILE")
    old = None
    if args.old_key:
        old = L.read_key(args.old_key)
    def put(lk: L.Link) -> dict[str, str]:
        try:
            r = lk.request("keyset", key.hex(), change=True)
        except L.ClockError as e:
            if e.code == L.EXIT_AUTH and old is None:
                raise L.ClockError(e.code, "%s: this clock has a key already" % lk.port,
                                   "replacing it needs the one it has: --old-key FILE") \
                    from None
            raise
        lk.key = key        # the new key signs from now on
        lk.nonce = None
        C.send_wall_clock(lk)
        return r
    return C.on_each(args, stdout, stderr, put, key=old, render=lambda f: "key set")
