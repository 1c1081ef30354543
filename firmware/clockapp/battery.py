# The battery, read every few seconds (App.step): the voltage and, on a board with a fuel
# gauge, the charge left; each logged when it goes low, and below the critical voltage the
# game saved once more and flash writes stopped. Loaded at the first reading, after the app
# is built, so that its code is not on the heap while the boot's garbage is.

from clockcore import engine as E
from clockcore import events as EV


def read(app, now):
    app.battery_at = now
    b = app.board
    mv = b.battery_mv()
    app.battery_mv = mv
    app.volt_low = _below(app, mv, b.battery_low_mv, app.volt_low, EV.EV_LOW_BATTERY, now)
    # A fuel gauge warns by the charge left (FIDE: 10 h after the warning), which a
    # LiPo's flat voltage cannot tell; the voltage stays as the backstop.
    pct = b.battery_pct()
    app.battery_pct = pct
    app.charge_low = _below(app, pct, b.battery_low_pct, app.charge_low, EV.EV_LOW_CHARGE, now)
    app.battery_low = app.volt_low or app.charge_low
    if 0 <= mv < b.battery_critical_mv and not app.flash_off:
        # About to brown out: save the game and the log once more, then stop writing,
        # so that the power cannot fail in the middle of a flash write.
        app.log(EV.EV_POWER_OFF, E.NOBODY, now, mv)
        app.save_state()
        app.flush()
        app.flash_off = True


def _below(app, value, threshold, was, ev, now):
    """Whether a reading is under its threshold (-1 on either side: not measured); logs ev
    with the reading when it goes under."""
    low = 0 <= value < threshold
    if low and not was:
        app.log(ev, E.NOBODY, now, value)
    return low
