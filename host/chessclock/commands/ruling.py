"""`chessclock ruling`: a ruling on a flag, a late arrival or a clock replacement, from a log
(the arguments and the work are chessclock.ruling's)."""

from chessclock.ruling import add_arguments, run

__all__ = ["add_arguments", "run"]
