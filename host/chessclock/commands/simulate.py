"""`chessclock simulate`: replay a clock from a script and print every clock event.

Arbiters use it to answer "what would the clock have shown"; the tests use it too. The
interface is fixed (see the README): scripts written against it must keep working.

A script has one action per line, `<ms> <action> [args]`, `#` starting a comment. The whole
script and the control are checked before anything runs, and the output is only printed
when the replay completed, so an error never leaves output that looks like a run.
"""

import json
import sys

from chessclock.sim.script import ScriptError, replay
from clockcore import engine as E


def add_arguments(p):
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


def options_for(args, preset):
    """Clock options: the command line's, else the preset's, else the defaults."""
    def pick(value, preset_attr, default):
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


def run(args, stdout, stderr):

    from clockcore import presets

    adjourned = None
    if args.adjourned:
        from chessclock import adjourned as A
        if args.control:
            stderr.write("chessclock simulate: --adjourned brings its own control: no "
                         "--control\n")
            return 2
        try:
            adjourned, _ = A.read(args.adjourned)
        except A.AdjournError as e:
            stderr.write("chessclock simulate: %s\n" % e)
            return 2
    elif not args.control:
        stderr.write("chessclock simulate: --control SPEC is needed (or --adjourned FILE)\n")
        return 2
    if args.export_adjourned:
        import os
        if os.path.exists(args.export_adjourned):
            stderr.write("chessclock simulate: %s exists: not overwritten\n"
                         % args.export_adjourned)
            return 2
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
        stderr.write("chessclock simulate: control %r: %s\n" % (args.control, e))
        return 2
    limit = getattr(args, "move_limit", None)
    if limit is not None and not 0 <= limit <= E.MAX_MOVE_LIMIT:
        stderr.write("chessclock simulate: --move-limit %d: give 0 (none) to %d moves a side\n"
                     % (limit, E.MAX_MOVE_LIMIT))
        return 2
    try:
        if args.script:
            with open(args.script, encoding="utf-8") as f:
                text = f.read()
        else:
            text = sys.stdin.read()
    except OSError as e:
        stderr.write("chessclock simulate: cannot read the script: %s\n" % (e.strerror or e))
        return 2
    except UnicodeDecodeError:
        stderr.write("chessclock simulate: %s is not a script (not UTF-8 text)\n"
                     % args.script)
        return 2
    if not text.strip():
        stderr.write("chessclock simulate: %s is empty: no actions to replay\n"
                     % (args.script or "<stdin>"))
        return 2
    kept = []
    try:
        out = replay(control, text, adjourned=adjourned, spec=args.control or "", keep=kept,
                     **options_for(args, preset))
    except ScriptError as e:
        where = args.script or "<stdin>"
        stderr.write("chessclock simulate: %s: %s\n" % (where, e))
        return 2
    if args.export_adjourned:
        from chessclock import adjourned as A
        if kept[0].sealed_data is None:
            stderr.write("chessclock simulate: --export-adjourned: the script seals no "
                         "move (`seal`, then `sealed`)\n")
            return 2
        try:
            A.write(args.export_adjourned, kept[0].sealed_data)
        except A.AdjournError as e:
            stderr.write("chessclock simulate: %s\n" % e)
            return 2
    stdout.write("".join(json.dumps(rec) + "\n" for rec in out))
    return 0
