# `make run`: set everything up and evaluate the example shipped with the package.
# `make test`: set everything up, then lint, type-check and run the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.base: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[report,parquet]'
	touch $@

$(VENV)/.test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.base

run: $(VENV)/.base
	$(BIN)/informed demo

lint: $(VENV)/.test
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: $(VENV)/.test
	$(BIN)/python benchmarks/bench_table.py

clean:
	rm -rf $(VENV) build src/*.egg-info
