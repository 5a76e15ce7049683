# Every target sets up what it needs: `.venv` is created and filled from pyproject.toml on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup vectors test check lint typecheck generate generated-check bench fuzz mutation clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## The main job: check every conformance vector against the reference and print the summary.
vectors: $(STAMP)
	$(BIN)/iospec vectors

## The test suite alone.
test: $(STAMP)
	$(BIN)/python -m pytest

## Everything CI runs: lint, types, vector lint, generated-code drift, tests.
check: lint typecheck generated-check test

lint: $(STAMP)
	$(BIN)/ruff check reference scripts tests
	$(BIN)/iospec lint

typecheck: $(STAMP)
	$(BIN)/mypy

generate: $(STAMP)
	$(BIN)/python -m seq_io_tools.generate generate

generated-check: $(STAMP)
	$(BIN)/python -m seq_io_tools.generate check

bench: $(STAMP)
	$(BIN)/python scripts/bench_validation.py

clean:
	rm -rf $(VENV) build mutants .mypy_cache .ruff_cache
