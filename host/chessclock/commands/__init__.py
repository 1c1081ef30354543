"""The `chessclock` commands: thin argparse modules, one or more commands each (the table is
chessclock.cli.COMMANDS). A module has add_arguments[_NAME](parser) and
run[_NAME](args, stdout, stderr) -> exit status; the work is in the domain packages, which
never import from here."""
