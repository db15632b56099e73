# Arbiter's front door. CI (.ci/run) runs the same targets a developer runs.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=
# both cores: a module's tests stay on one worker, the e2e modules first (conftest.py: schedule);
# `make test XDIST=` runs in one process
XDIST ?= -n 2 --dist loadgroup --no-loadscope-reorder

.DEFAULT_GOAL := help
.PHONY: help install demo test test-changed test-unit test-slow test-integration test-e2e lint fmt bench dev dlq lock clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml requirements/constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Arbiter needs Python 3.11 or newer (set PYTHON=...)")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements/constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## create .venv from the pinned dependencies and install Arbiter into it

demo: install ## run a whole tournament embedded: one process, no servers
	$(BIN)/arbiter demo

test: install ## run every test but the slow ones (unit, integration, e2e); needs PostgreSQL, RabbitMQ, Redis
	$(BIN)/python -m pytest -m "not slow" $(XDIST) --timings $(PYTEST_ARGS)

test-changed: install ## first the tests of what your branch and your uncommitted changes touch (tests/changed.py)
	@runs=$$($(BIN)/python -m tests.changed $(BASE)) || exit $$?; \
	if [ -z "$$runs" ]; then echo "nothing changed since $(or $(BASE),main)"; exit 0; fi; \
	while read -r paths; do \
		echo "== pytest $$paths"; \
		$(BIN)/python -m pytest -m "not slow" $(XDIST) $(PYTEST_ARGS) $$paths < /dev/null || exit $$?; \
	done <<< "$$runs"

test-unit: install ## only the fast tests, no servers
	$(BIN)/python -m pytest -m "not integration and not e2e and not slow" $(XDIST) --timings $(PYTEST_ARGS)

test-slow: install ## only the slow tests (thousands of generated tournaments checked), no servers
	$(BIN)/python -m pytest -m slow $(XDIST) --timings $(PYTEST_ARGS)

test-integration: install
	$(BIN)/python -m pytest -m integration $(XDIST) --timings $(PYTEST_ARGS)

test-e2e: install
	$(BIN)/python -m pytest -m e2e $(XDIST) --timings $(PYTEST_ARGS)

lint: install ## ruff format check, ruff check, mypy on the domain packages, import contracts
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy shared services/*/domain cli
	$(BIN)/lint-imports

fmt: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install ## print the performance figures (nothing is asserted)
	$(BIN)/python -m benchmarks

dev: install ## every process locally against PostgreSQL, RabbitMQ and Redis on localhost
	$(BIN)/python deploy/local_setup.py
	PATH=$(CURDIR)/$(BIN):$$PATH ARBITER_LOG_FORMAT=$${ARBITER_LOG_FORMAT:-text} \
		ARBITER_MIN_LEAD_SECONDS=$${ARBITER_MIN_LEAD_SECONDS:-30} \
		$(BIN)/honcho -f deploy/Procfile -d $(CURDIR) start

dlq: install ## dead letters: make dlq ARGS="list | show | replay --dry-run | replay [--queue Q] [--id ID]"
	$(BIN)/arbiter dlq $(or $(ARGS),list)

lock: ## re-resolve requirements/constraints.txt from pyproject.toml
	$(BIN)/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links --extra dev --output-file requirements/constraints.txt pyproject.toml

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info
