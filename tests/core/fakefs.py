# An in-memory file system for the storage tests that can cut the power, runs under pytest
# and the MicroPython unix port. It has the interface clockapp.storage.Store expects:
# open(path, mode), rename(a, b), remove(path), exists(path), listdir(root).
#
# Power cuts. Every change is a "unit": one byte written, or one operation (opening a file
# for writing, closing it, a rename, a remove). FakeFS(cut_after=N) lets N units happen and
# raises PowerCut on the next one; the file system is then dead (every call raises PowerCut)
# until reboot() gives a new FakeFS over what the flash holds. Looping N over 0..units of a
# run cuts the power at every byte and before and after every operation. PowerCut is not an
# OSError, so the code under test cannot mistake it for an error it may handle.
#
# What the flash holds after a cut, by `model`:
#   "partial"  bytes land as they are written (FAT-like, the worst case): a cut file holds
#              what was written so far; 'wb' truncates at once.
#   "garbage"  as partial, and the rest of the interrupted write() is there as 0xFF (the
#              directory says the size grew, the data never came: erased flash).
#   "zeros"    the same with 0x00.
#   "commit"   littlefs: a file opened for writing is created at once (empty) if new, but
#              its content (the truncation included) changes only when it is closed; a cut
#              before the close leaves the file as it was.
# `replace`: rename replaces an existing target atomically (littlefs, POSIX); False: it fails
# with EEXIST (FAT). `capacity`: total bytes all files may hold; a write past it writes what
# fits and raises OSError(ENOSPC).

ENOENT = 2
EEXIST = 17
ENOSPC = 28


FILL = {"garbage": b"\xff", "zeros": b"\x00"}


class PowerCut(Exception):
    pass


class FakeFile:
    def __init__(self, fs, path, mode):
        self.fs = fs
        self.path = path
        self.closed = False
        self.failed = False
        self.writable = "w" in mode or "a" in mode
        self.pos = 0
        if not self.writable:
            fs._alive()
            if path not in fs.files:
                raise OSError(ENOENT, "no such file")
            self.data = bytes(fs.files[path])
            return
        fs._unit()
        if fs.model == "commit":
            if path not in fs.files:
                fs.files[path] = bytearray()
            self.shadow = bytearray(fs.files[path]) if "a" in mode else bytearray()
            self.base = len(self.shadow)  # an append only needs room for what it adds
            self.fs.pending[id(self)] = self
        else:
            if "w" in mode or path not in fs.files:
                fs.files[path] = bytearray()

    def _target(self):
        if self.fs.model == "commit":
            return self.shadow
        return self.fs.files[self.path]

    def write(self, data):
        fs = self.fs
        fs._alive()
        if self.closed or not self.writable:
            raise OSError(9, "not open for writing")
        data = bytes(data)
        n = len(data)
        k = n if fs.budget is None else min(n, fs.budget)
        room = k if fs.capacity is None else max(0, min(k, fs.capacity - fs.used()))
        target = self._target()
        target.extend(data[:room])
        fs.units += room
        if fs.budget is not None:
            fs.budget -= room
        if room < k:
            self.failed = True
            raise OSError(ENOSPC, "no space left on device")
        if k < n:
            if fs.model in FILL:
                target.extend(FILL[fs.model] * (n - k))
            fs.dead = True
            raise PowerCut("power cut during a write")
        return n

    def read(self, n=-1):
        self.fs._alive()
        if self.writable:
            raise OSError(9, "not open for reading")
        if n is None or n < 0:
            n = len(self.data) - self.pos
        out = self.data[self.pos:self.pos + n]
        self.pos += len(out)
        return out

    def seek(self, offset, whence=0):
        self.fs._alive()
        size = len(self.data) if not self.writable else len(self._target())
        base = (0, self.pos, size)[whence]
        self.pos = max(0, base + offset)
        return self.pos

    def tell(self):
        return self.pos

    def close(self):
        if self.closed:
            return
        if self.writable:
            self.fs._unit()
            if self.fs.model == "commit":
                del self.fs.pending[id(self)]
                if self.failed:  # littlefs cannot commit what did not fit: file unchanged
                    self.closed = True
                    raise OSError(ENOSPC, "no space left on device")
                self.fs.files[self.path] = self.shadow
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FakeFS:
    def __init__(self, files=None, cut_after=None, model="partial", replace=True,
                 capacity=None):
        self.files = {}
        for k in files or {}:
            self.files[k] = bytearray(files[k])
        self.budget = cut_after   # units left before the cut; None: never
        self.model = model
        self.replace = replace
        self.capacity = capacity
        self.pending = {}         # commit model: the files open for writing
        self.dead = False
        self.units = 0            # units done so far
        self.renames = 0

    # ---- power -------------------------------------------------------------------
    def _alive(self):
        if self.dead:
            raise PowerCut("the power is off")

    def _unit(self):
        self._alive()
        if self.budget is not None:
            if self.budget <= 0:
                self.dead = True
                raise PowerCut("power cut")
            self.budget -= 1
        self.units += 1

    def reboot(self, cut_after=None):
        """A new file system over what the flash holds now (power back on)."""
        return FakeFS(self.files, cut_after, self.model, self.replace, self.capacity)

    def used(self):
        n = 0
        for k in self.files:
            n += len(self.files[k])
        for k in self.pending:
            f = self.pending[k]
            n += len(f.shadow) - f.base
        return n

    # ---- the interface -----------------------------------------------------------
    def open(self, path, mode):
        return FakeFile(self, path, mode)

    def rename(self, a, b):
        self._alive()
        if a not in self.files:
            raise OSError(ENOENT, "no such file")
        if b in self.files and not self.replace:
            raise OSError(EEXIST, "file exists")
        self._unit()
        self.files[b] = self.files.pop(a)
        self.renames += 1

    def remove(self, path):
        self._alive()
        if path not in self.files:
            raise OSError(ENOENT, "no such file")
        self._unit()
        del self.files[path]

    def exists(self, path):
        self._alive()
        return path in self.files

    def listdir(self, root):
        self._alive()
        if not root.endswith("/"):
            root += "/"
        out = []
        for k in self.files:
            if k.startswith(root) and "/" not in k[len(root):]:
                out.append(k[len(root):])
        out.sort()
        return out

    # ---- for the tests -----------------------------------------------------------
    def get(self, path):
        f = self.files.get(path)
        return None if f is None else bytes(f)

    def put(self, path, data):
        self.files[path] = bytearray(data)
