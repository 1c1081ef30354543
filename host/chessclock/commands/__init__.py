"""The chessclock subcommands: thin argparse modules over the domain packages."""
