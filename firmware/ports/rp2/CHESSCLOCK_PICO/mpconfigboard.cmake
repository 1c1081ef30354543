# The chess clock's Pico image: RPI_PICO (ports/rp2/boards/RPI_PICO) with the clock frozen
# in. Build it from a MicroPython checkout (v1.28.0 or later):
#   make -C ports/rp2 BOARD_DIR=$CHESSCLOCK/firmware/ports/rp2/CHESSCLOCK_PICO
# pins.csv is a copy of ports/rp2/boards/RPI_PICO/pins.csv (MicroPython v1.28.0, MIT).
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/../../../manifest.py)
