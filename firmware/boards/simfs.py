# The simulator board's flash as a folder of the host's (boards/sim.py): file writes timed
# as a board's flash takes them, and a power switch that cuts a write at any byte. The
# flash models (boards/simflash.py) build on it; a module of its own so that they need not
# import the board.


class PowerCut(Exception):
    """Raised inside a flash write to cut the power at that byte (tests)."""


class SimFile:
    def __init__(self, fs, f, path):
        self.fs = fs
        self.f = f
        self.path = path

    def write(self, data):
        fs = self.fs
        n = len(data)
        if fs.cut_after >= 0 and fs.written + n > fs.cut_after:
            k = fs.cut_after - fs.written
            if k > 0:
                self.f.write(data[:k])
            self.f.close()
            fs.written = fs.cut_after
            fs.cut_after = -1
            raise PowerCut(self.path)
        fs.written += n
        fs.board.spend(fs.write_us_per_byte * n)
        return self.f.write(data)

    def read(self, *args):
        return self.f.read(*args)

    def seek(self, *args):
        return self.f.seek(*args)

    def close(self):
        self.fs.board.spend(self.fs.close_us)
        self.f.close()

    def flush(self):
        self.f.flush()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()


class SimFS:
    """A real folder, with flash timing and a power switch."""

    def __init__(self, board, write_us_per_byte=2, close_us=1500):
        import os
        self.os = os
        self.board = board
        self.write_us_per_byte = write_us_per_byte
        self.close_us = close_us   # a page program / littlefs commit
        self.written = 0           # bytes written since the board started
        self.cut_after = -1        # cut the power when this many bytes have been written

    def open(self, path, mode="rb"):
        f = open(path, mode)
        if "w" in mode or "a" in mode:
            return SimFile(self, f, path)
        return f

    def rename(self, a, b):
        self.os.rename(a, b)

    def remove(self, path):
        self.os.remove(path)

    def exists(self, path):
        try:
            self.os.stat(path)
            return True
        except OSError:
            return False

    def listdir(self, root):
        return self.os.listdir(root.rstrip("/") or "/")
