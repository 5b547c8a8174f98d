# `make run` and `make test` are all the setup a fresh machine needs: each creates .venv when
# missing and installs the package with what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

HOST ?= 127.0.0.1
PORT ?= 8000
# The browser tests drive Debian's Chromium headless shell (tests/e2e/conftest.py);
# apt-get needs root (CI runs as root).
CHROMIUM := /usr/lib/chromium/chromium-headless-shell
# The PostgreSQL tests start a throwaway server of Debian's package (unless
# RACEDECK_TEST_POSTGRES names a server).
PG_CTL := $(firstword $(wildcard /usr/lib/postgresql/*/bin/pg_ctl))
SUDO := $(shell test "$$(id -u)" = 0 || echo sudo)

.PHONY: run test lint lint-js typecheck pytest kernels browser axe postgres bench golden clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,rl]'
	touch $(STAMP)

run: $(STAMP) kernels
	@echo "racedeck: open http://$(HOST):$(PORT)/ in your browser (Ctrl-C stops the server)"
	$(BIN)/racedeck serve --host $(HOST) --port $(PORT)

test: lint lint-js typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts examples
	$(BIN)/ruff format --check src tests benchmarks scripts examples

typecheck: $(STAMP)
	$(BIN)/mypy --strict src/racedeck

# One test process a core and one more: many tests wait on a browser, a server or a socket, and
# the extra process runs meanwhile; more processes cost more than they overlap (each collects
# the tests and starts its own browser, servers and shared fixtures). Measured on this 2-core
# machine, back to back on one checkout: 4:51 with 2 processes, 4:46 with 3, 4:58 with 4
# (and 537, 564 and 594 s of CPU).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# The tests go out to the processes two at a time, in the order tests/conftest.py gives them
# (the slowest first): with xdist's default chunks of a quarter of each process's share, one
# process got every browser test and the run ended on them.
# More pytest options, e.g. make test PYTEST_ARGS="--durations=20".
PYTEST_ARGS ?=

# Compiled modules are cached even where the environment turns caching off
# (PYTHONDONTWRITEBYTECODE): the tests start many Python processes (servers, the CLI, worker
# pools), and each would compile the package again; pytest caches its rewritten test modules.
pytest: $(STAMP) browser postgres axe kernels
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -q -n $(TEST_WORKERS) --dist load --maxschedchunk 2 $(PYTEST_ARGS)

# The games' Numba kernels, compiled into their cache once, one game per core, before the test
# processes or the server start: otherwise, on a fresh checkout, every test process compiled the
# same kernels side by side (86 s of compiling each), and a server's first fastsearch bot waited
# a minute for its move; a later process loads them all in about a second. Done again when a
# kernel's source changes (Numba's cache also sees that by itself, on first use).
KERNELS_STAMP := $(VENV)/.kernels-compiled
kernels: $(KERNELS_STAMP)
$(KERNELS_STAMP): $(STAMP) $(wildcard src/racedeck/kernels/*.py) src/racedeck/cli/compile.py
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/racedeck compile
	touch $(KERNELS_STAMP)

browser:
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update && $(SUDO) apt-get install -y chromium-headless-shell; }

# axe-core, the accessibility audit the browser tests inject into pages (tests/e2e/package.json).
AXE := tests/e2e/node_modules/axe-core/axe.min.js
axe: $(AXE)
$(AXE): tests/e2e/package-lock.json
	@command -v npm >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y npm; }
	npm ci --prefix tests/e2e --no-audit --no-fund --silent
	touch $(AXE)

# ESLint over the browser client, plain ES modules with no build step (tests/e2e/eslint.config.js):
# an undefined name, an unused import or a name declared twice is found before a browser test.
# It is one of tests/e2e's packages, installed with axe-core (the axe target's npm ci).
ESLINT := tests/e2e/node_modules/.bin/eslint
lint-js: axe
	$(ESLINT) --config tests/e2e/eslint.config.js 'src/racedeck/server/static/**/*.js'

postgres:
	@test -n "$(PG_CTL)" || test -n "$$RACEDECK_TEST_POSTGRES" || \
		{ $(SUDO) apt-get update && $(SUDO) apt-get install -y postgresql; }

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/engine_speed.py
	$(BIN)/python benchmarks/search_speed.py
	$(BIN)/python benchmarks/rl_speed.py
	$(BIN)/python benchmarks/vector_env.py

golden: $(STAMP)
	$(BIN)/python scripts/regen_golden.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .mypy_cache .pytest_cache .ruff_cache tests/e2e/node_modules
