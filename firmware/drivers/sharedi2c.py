# An I2C bus that an interrupt handler may also write to (the lever interrupt sends the
# SSD1306s' running bars: clockapp/app.py). The loop's transfers hold the bus (`busy`, a
# depth): each writeto() and readfrom_mem_into(), and, through hold() and release(), a
# driver's transfers that belong together (a window command and its data). A handler that
# finds the bus busy leaves one function in `waiting`; release() runs it as the bus comes
# free, in the loop, still holding the bus (its argument True says so), so the handler's
# bytes never cut into another transfer and wait for no more than its end. A handler that
# finds the bus free writes at once (to `i2c` itself: nothing in the loop runs meanwhile).


class SharedI2C:
    """Wraps a machine.I2C (or anything with writeto and readfrom_mem_into)."""

    def __init__(self, i2c):
        self.i2c = i2c
        self.busy = 0
        self.waiting = None   # f(held): what an interrupt left for the bus's next free moment

    def hold(self):
        self.busy += 1

    def release(self):
        w = self.waiting
        while w is not None and self.busy == 1:
            self.waiting = None
            w(True)
            w = self.waiting
        self.busy -= 1

    def writeto(self, addr, buf):
        self.busy += 1
        try:
            return self.i2c.writeto(addr, buf)
        finally:
            self.release()

    def readfrom_mem_into(self, addr, reg, buf):
        self.busy += 1
        try:
            self.i2c.readfrom_mem_into(addr, reg, buf)
        finally:
            self.release()
