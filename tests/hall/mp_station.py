# A Wi-Fi clock's hall station on the MicroPython unix port: the real firmware app on the
# simulator board, in real time, with clockapp.hallpub publishing to the broker. Run by
# tests/hall/test_hall_mqtt.py:
#
#   MICROPYPATH=.frozen:firmware micropython tests/hall/mp_station.py \
#       STORAGE HOST PORT KEYHEX SECONDS [PRESS_EVERY_MS [MQTT_USER MQTT_PASSWORD]]
#
# Presses White's and Black's levers in turn every PRESS_EVERY_MS, and prints at the end
# one line: connects, messages sent, plies, the longest loop pass (us).

import sys
import time

from boards.sim import SimBoard
from clockapp.app import App
from clockapp.board import LEFT, RIGHT
from clockapp.hallpub import station_of


def main():
    storage, host, port, key, seconds = sys.argv[1:6]
    press_every = int(sys.argv[6]) if len(sys.argv) > 6 else 400
    login = {"mqtt_user": sys.argv[7], "mqtt_password": sys.argv[8]} if len(sys.argv) > 8 \
        else {}
    try:
        import os
        os.mkdir(storage)
    except OSError:
        pass
    board = SimBoard(storage)
    board.ident = "mp-clock"
    app = App(board)
    app.settings.pairing = [9, 2, "Wifi White", "Wifi Black", ""]   # as `pairings push`
    app.new_game("300+2")
    config = {"broker": host, "port": int(port), "hall": "test", "station": "wifi-1",
              "key": key}
    config.update(login)
    hall = station_of(app, config)
    start = time.ticks_us()
    t_end = int(seconds) * 1000000
    app.step()
    app.clock.start(app.now, 0)   # as the link's `start`
    next_press = press_every * 1000
    lever = LEFT
    longest = 0
    while True:
        now = time.ticks_diff(time.ticks_us(), start)
        if now > t_end:
            break
        if now >= next_press:
            board.press_lever(lever, board.t)
            lever = RIGHT if lever == LEFT else LEFT
            next_press += press_every * 1000
        a = time.ticks_us()
        board.advance_to(now)
        app.step()
        hall.poll()
        took = time.ticks_diff(time.ticks_us(), a)
        if took > longest:
            longest = took
        time.sleep_ms(1)
    print("connects=%d sent=%d plies=%d longest_us=%d" % (
        hall.pub.connects, hall.pub.sent, hall.plies, longest))


main()
