# PatienceKit developer tasks.  `make test` is what CI runs (see .ci/run).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Re-installs only when pyproject.toml changes (or the venv is missing).
STAMP  := $(VENV)/.installed-cli-server-test
# The compiled modules (mypyc, tools/build_fast.py): the position
# (src/patiencekit/state_fast*.so, from state_pure.py) and the Klondike search
# (src/patiencekit/solver/klondike_fast*.so, from solver/klondike.py) and the dead-end
# analysis of Patriarchs' family (solver/dead_ends_fast*.so, from solver/dead_ends.py) and the
# waste-only search (solver/waste_only_fast*.so, from solver/waste_only.py) and the reserve
# games' compact beam (solver/reserve_fast*.so, from solver/reserve.py) and PatienceMax's
# compact search (solver/patiencemax_fast*.so, from solver/patiencemax.py), each rebuilt
# whenever its source, the build script or the installed packages change. The engine and
# the solver themselves refuse a compiled module built from another source than the one
# there now (patiencekit/compiled.py), so a stale one is never run even without make.
STATE_SRC    := src/patiencekit/state_pure.py
KLONDIKE_SRC := src/patiencekit/solver/klondike.py
DEAD_ENDS_SRC := src/patiencekit/solver/dead_ends.py
WASTE_ONLY_SRC := src/patiencekit/solver/waste_only.py
RESERVE_SRC := src/patiencekit/solver/reserve.py
PATIENCEMAX_SRC := src/patiencekit/solver/patiencemax.py
# and two C extensions, the Klondike search's depth-first search
# (solver/klondike_native*.so, from solver/klondike_native.c), PatienceMax's best-first run
# (solver/patiencemax_native*.so, from solver/patiencemax_native.c) and the reserve games'
# exact search (solver/reserve_native*.so, from solver/reserve_native.c), each with Python's
# own compiler and flags
NATIVE_SRC := src/patiencekit/solver/klondike_native.c
PM_NATIVE_SRC := src/patiencekit/solver/patiencemax_native.c
RESERVE_NATIVE_SRC := src/patiencekit/solver/reserve_native.c
FAST   := $(VENV)/.state-fast $(VENV)/.klondike-fast $(VENV)/.dead-ends-fast $(VENV)/.waste-only-fast \
          $(VENV)/.reserve-fast $(VENV)/.patiencemax-fast $(VENV)/.klondike-native \
          $(VENV)/.patiencemax-native $(VENV)/.reserve-native

.PHONY: venv play serve test bench bench-web

venv: $(STAMP) $(FAST)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[cli,server,test]'
	touch $@

# A failed build removes the old module (the pure-Python one is used) and is not retried
# until the source changes.
$(VENV)/.state-fast: $(STATE_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py state || echo "mypyc build failed: the pure-Python position is used"
	touch $@

$(VENV)/.klondike-fast: $(KLONDIKE_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py klondike || echo "mypyc build failed: the pure-Python Klondike solver is used"
	touch $@

$(VENV)/.dead-ends-fast: $(DEAD_ENDS_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py dead_ends || echo "mypyc build failed: the pure-Python dead-end analysis is used"
	touch $@

$(VENV)/.waste-only-fast: $(WASTE_ONLY_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py waste_only || echo "mypyc build failed: the pure-Python waste-only search is used"
	touch $@

$(VENV)/.reserve-fast: $(RESERVE_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py reserve || echo "mypyc build failed: the pure-Python reserve beam is used"
	touch $@

$(VENV)/.patiencemax-fast: $(PATIENCEMAX_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py patiencemax || echo "mypyc build failed: the pure-Python PatienceMax search is used"
	touch $@

$(VENV)/.klondike-native: $(NATIVE_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py native || echo "C build failed: the Python Klondike depth-first search is used"
	touch $@

$(VENV)/.patiencemax-native: $(PM_NATIVE_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py patiencemax_native || echo "C build failed: the Python PatienceMax run is used"
	touch $@

$(VENV)/.reserve-native: $(RESERVE_NATIVE_SRC) tools/build_fast.py $(STAMP)
	$(BIN)/python tools/build_fast.py reserve_native || echo "C build failed: the Python reserve games' exact search is used"
	touch $@

play: venv
	$(BIN)/patiencekit play klondike

# The web app on http://127.0.0.1:8000 (an SQLite database in ./data, made on first run).
serve: venv
	$(BIN)/patiencekit serve

# ruff and mypy run inside the suite (tests/test_quality.py). The suite does its own set-up
# (tests/conftest.py): without PATIENCEKIT_TEST_POSTGRES_URL it starts a throwaway PostgreSQL
# from the installed binaries for all the workers and removes it at the end; it finds
# Chromium. Without either it stops at once and says how to install it (apt-get install
# postgresql chromium), unless PATIENCEKIT_ALLOW_NO_POSTGRES=1 / PATIENCEKIT_ALLOW_NO_BROWSER=1.
test: venv
	$(BIN)/python -m pytest -n auto

bench: venv
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/engine.py

# The web app under load (SQLite; add ARGS=--database-url=postgresql://... for PostgreSQL).
bench-web: venv
	$(BIN)/python bench/web_load.py $(ARGS)
