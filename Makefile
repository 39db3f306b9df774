# PatienceKit developer tasks.  `make test` is what CI runs (see .ci/run).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Re-installs only when pyproject.toml changes (or the venv is missing).
STAMP  := $(VENV)/.installed-cli-test

.PHONY: venv play test bench

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[cli,test]'
	touch $@

play: venv
	$(BIN)/patiencekit play klondike

# ruff and mypy run inside the suite (tests/test_quality.py).
test: venv
	$(BIN)/python -m pytest -n auto

bench: venv
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/engine.py
