# Muster. `make` alone lists the targets.
.DEFAULT_GOAL := help
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NAME ?= bridge
export NAME  # the scenario target reads NAME from the environment, so a quote in it never becomes shell syntax
PAPER ?= a4

.PHONY: help scenario all booklet bench test lint golden clean distclean check-system

help: ## list the targets
	@echo "Muster: YAML scenarios in, print-ready PDF packs out."
	@echo
	@grep -E '^[a-z][a-z-]*:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-22s %s\n", $$1, $$2}'

check-system:
	@$(PYTHON) tools/check_system.py

$(STAMP): pyproject.toml tools/check_system.py
	@$(PYTHON) tools/check_system.py
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

install: $(STAMP) ## create .venv and install Muster with its test tools

scenario: $(STAMP) ## build output/NAME/NAME.pdf, NAME-cards.pdf, NAME-counters.pdf and any NAME-orders-SIDE.pdf (NAME=bridge PAPER=a4|letter)
	@if ! [[ "$$NAME" =~ ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$$ ]]; then echo "make scenario: NAME must be a plain scenario name such as bridge (got '$$NAME')" >&2; exit 2; fi
	@test -f scenarios/$(NAME).yaml || { echo "make scenario: no scenarios/$(NAME).yaml; the scenarios are: $$(cd scenarios && ls *.yaml | sed 's/\.yaml$$//' | tr '\n' ' ')" >&2; exit 2; }
	@$(PY) -m generator build scenarios/$(NAME).yaml --out output --paper $(PAPER)

all: $(STAMP) ## build every scenario in scenarios/
	@$(PY) -m generator build scenarios/*.yaml --out output --paper $(PAPER)

booklet: $(STAMP) ## build output/booklet.pdf from every scenario, behind booklets/club.yaml
	@$(PY) -m generator booklet scenarios/*.yaml --config booklets/club.yaml --out output/booklet.pdf --paper $(PAPER)

bench: $(STAMP) ## time the real commands (builds, a 40-scenario booklet) against the speed goals in README.md; minutes
	@$(PY) tools/bench.py

test: $(STAMP) ## run the whole test suite, a worker per core
	@$(PY) -m pytest -n auto --dist worksteal

lint: $(STAMP) ## check the code with ruff: lint rules and formatting (fix with: .venv/bin/ruff format . && .venv/bin/ruff check --fix .)
	@$(PY) -m ruff check .
	@$(PY) -m ruff format --check .

golden: $(STAMP) ## rewrite tests/golden/ from the examples; read `git diff tests/golden` before committing it
	@$(PY) tools/golden.py

.PHONY: fuzz
fuzz: $(STAMP) ## fuzz the loader and validator (12,000 mutated scenarios) and kill 100 builds mid-way; minutes
	@MUSTER_FUZZ=1 MUSTER_KILLS=100 $(PY) -m pytest tests/test_fuzz.py tests/test_kill.py --hypothesis-show-statistics

clean: ## remove output/
	rm -rf output

distclean: clean ## remove output/ and .venv
	rm -rf $(VENV)
