# The firmware's one version: `hello` (fw=), every game header of the event log, the host's
# `chessclock --version`, the freeze manifest and package.json (tests/host/test_version.py
# checks they agree). 0.3.0: log format 2 (headers carry the chain; signed heads, logack).
VERSION = "0.3.0"
