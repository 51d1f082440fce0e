# `make run`: set everything up and evaluate the example shipped with the package.
# `make test`: set everything up, then lint, type-check and run the whole test suite.
# `make docs`: set everything up, then build the documentation site, warnings as errors.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.base: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[report,parquet]'
	touch $@

$(VENV)/.test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,docs]'
	touch $@ $(VENV)/.base $(VENV)/.docs

$(VENV)/.docs: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $@

run: $(VENV)/.base
	$(BIN)/informed demo

lint: $(VENV)/.test
	$(BIN)/ruff check src tests benchmarks examples docs
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -n 2

# from scratch (-E), every warning listed (--keep-going) and an error (-W)
docs: $(VENV)/.docs
	$(BIN)/sphinx-build -E -W --keep-going -q -b html docs build/docs/html
	@echo "documentation: build/docs/html/index.html"

bench: $(VENV)/.test
	$(BIN)/python benchmarks/bench_table.py

clean:
	rm -rf $(VENV) build src/*.egg-info
