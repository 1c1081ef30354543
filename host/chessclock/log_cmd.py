"""`chessclock log ...`: the clock's event log. A table of subcommands like cli.py's:
name -> (module under chessclock, one-line help); each module has add_arguments_NAME(p)
and run_NAME(args, stdout, stderr) (or add_arguments/run). The serial link adds `pull`
here (one line)."""

import importlib

SUBCOMMANDS = {
    "verify": ("logtools", "check CRCs and hash chain, replay every press through the engine"),
    "show": ("logtools", "the log as a readable table"),
    "export": ("logtools", "the log as JSON Lines, CSV or PGN with [%%clk]/[%%emt]"),
    "pull": ("clock_cmd", "pull clocks' logs over USB into a local archive (resumable)"),
}


def add_arguments(p):
    sub = p.add_subparsers(dest="log_command", metavar="SUBCOMMAND")
    sub.required = True
    for name, (module, help_text) in SUBCOMMANDS.items():
        # help strings are %-formatted by argparse: the description is printed as is
        sp = sub.add_parser(name, help=help_text, description=help_text.replace("%%", "%"))
        sp.set_defaults(_log_module=module)
        mod = importlib.import_module("chessclock." + module)
        adder = getattr(mod, "add_arguments_" + name, None) or mod.add_arguments
        adder(sp)


def run(args, stdout, stderr):
    mod = importlib.import_module("chessclock." + args._log_module)
    runner = getattr(mod, "run_" + args.log_command, None) or mod.run
    return runner(args, stdout, stderr)
