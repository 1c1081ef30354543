__version__ = "0.3.0"  # = the firmware's: clockcore/version.py (test_version.py)
