"""`python -m chessclock.hardware generate|render|check` (make hardware)."""

import sys

from chessclock.hardware.cmd import main

sys.exit(main())
