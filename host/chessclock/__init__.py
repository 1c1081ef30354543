from clockcore.version import VERSION

__version__ = VERSION  # one version: the firmware's (pyproject reads the same file)
