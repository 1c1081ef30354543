"""`chessclock simulate`: replay a clock from a script and print every clock event.

Arbiters use it to answer "what would the clock have shown"; the tests use it too. The
interface is fixed (see the README): scripts written against it must keep working.

A script has one action per line, `<ms> <action> [args]`, `#` starting a comment. The whole
script and the control are checked before anything runs, and the output is only printed
when the replay completed, so an error never leaves output that looks like a run.
"""

import json
import os
import sys
from argparse import ArgumentParser, Namespace
from typing import TYPE_CHECKING, Any, TextIO

from chessclock.errors import InputError
from chessclock.sim.script import ScriptError, replay
from clockcore import engine as E

if TYPE_CHECKING:
    from clockcore import presets
    from clockcore.control import Control


def add_arguments(p: ArgumentParser) -> None:
    p.add_argument("--control", metavar="SPEC",
                   help="PGN TimeControl tag, readable notation or preset name (required "
                   "unless --adjourned)")
    p.add_argument("--adjourned", metavar="FILE",
                   help="start from an adjourned game (`chessclock adjourn export`, or "
                   "--export-adjourned of an earlier replay): its control, times, counters "
                   "and stage; the script then plays the next session from 0 ms")
    p.add_argument("--export-adjourned", metavar="FILE",
                   help="save the game sealed in the script (`sealed`) as an adjourned-game "
                   "file for the next session")
    p.add_argument("--increment-at", choices=("press", "turn-start"), default=None,
                   help="credit the Fischer increment on the press (default) or when a "
                        "side's turn starts")
    p.add_argument("--next-stage", choices=("moves", "flag"), default=None,
                   help="add the next stage's time on the press completing the stage's "
                        "moves (default) or when time runs out")
    p.add_argument("--freeze", action="store_true", default=None,
                   help="stop both clocks at a flag (default)")
    p.add_argument("--no-freeze", dest="freeze", action="store_false",
                   help="keep the other clock running after a flag")
    p.add_argument("--move-limit", type=int, default=None, metavar="N",
                   help="end the game when both sides have made N moves (a play-off of at "
                        "most N moves each, seed S3 4.1; default: the preset's, else none)")
    p.add_argument("script", nargs="?", metavar="SCRIPT",
                   help="script file (default: standard input)")


def options_for(args: Namespace, preset: "presets.Preset | None") -> dict[str, Any]:
    """Clock options: the command line's, else the preset's, else the defaults."""
    def pick(value: Any, preset_attr: str, default: Any) -> Any:
        if value is not None:
            return value
        if preset is not None:
            return getattr(preset, preset_attr)
        return default

    return {
        "inc_at_turn_start": pick(None if args.increment_at is None
                                  else args.increment_at == "turn-start",
                                  "inc_at_turn_start", False),
        "stage_on_flag": pick(None if args.next_stage is None else args.next_stage == "flag",
                              "stage_on_flag", False),
        "freeze": pick(args.freeze, "freeze", True),
        "move_limit": pick(getattr(args, "move_limit", None), "move_limit", 0),
    }


def _adjourned_of(args: Namespace) -> bytes | None:
    """The adjourned game the replay starts from (--adjourned), or None; InputError."""
    from chessclock import adjourned as A
    if args.adjourned:
        if args.control:
            raise InputError("--adjourned brings its own control: no --control")
        return A.read(args.adjourned)[0]
    if not args.control:
        raise InputError("--control SPEC is needed (or --adjourned FILE)")
    return None


def _control_of(args: Namespace, adjourned: bytes | None
                ) -> "tuple[Control | None, presets.Preset | None]":
    """(Control, Preset) of --control (both None from an adjourned game); InputError."""
    from clockcore import presets

    try:
        if adjourned is not None:
            control, preset = None, None
        else:
            control, preset = presets.resolve(args.control)
        if preset is not None and preset.ledger:
            raise ValueError("%s is a day-based correspondence ledger, not a running clock"
                             % preset.key)
        if control is not None:
            control.validate()
    except ValueError as e:
        raise InputError("control %r: %s" % (args.control, e)) from None
    limit = getattr(args, "move_limit", None)
    if limit is not None and not 0 <= limit <= E.MAX_MOVE_LIMIT:
        raise InputError("--move-limit %d: give 0 (none) to %d moves a side"
                         % (limit, E.MAX_MOVE_LIMIT))
    return control, preset


def _script_text(args: Namespace) -> str:
    """The script (the file, else standard input), not empty; InputError."""
    try:
        if args.script:
            with open(args.script, encoding="utf-8") as f:
                text = f.read()
        else:
            text = sys.stdin.read()
    except OSError as e:
        raise InputError("cannot read the script: %s" % (e.strerror or e)) from None
    except UnicodeDecodeError:
        raise InputError("%s is not a script (not UTF-8 text)" % args.script) from None
    if not text.strip():
        raise InputError("%s is empty: no actions to replay" % (args.script or "<stdin>"))
    return text


def run(args: Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Bad input is an InputError: chessclock.cli prints it, `chessclock simulate: ...`."""
    from chessclock import adjourned as A

    adjourned = _adjourned_of(args)
    if args.export_adjourned and os.path.exists(args.export_adjourned):
        raise InputError("%s exists: not overwritten" % args.export_adjourned)
    control, preset = _control_of(args, adjourned)
    text = _script_text(args)
    kept = []
    try:
        out = replay(control, text, adjourned=adjourned, spec=args.control or "", keep=kept,
                     **options_for(args, preset))
    except ScriptError as e:
        raise InputError("%s: %s" % (args.script or "<stdin>", e)) from None
    if args.export_adjourned:
        if kept[0].sealed_data is None:
            raise InputError("--export-adjourned: the script seals no move (`seal`, then "
                             "`sealed`)")
        A.write(args.export_adjourned, kept[0].sealed_data)
    stdout.write("".join(json.dumps(rec) + "\n" for rec in out))
    return 0
