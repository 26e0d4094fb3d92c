# goref: two commands do everything on a fresh machine.
#   make run   install, migrate, load demo data, start the web server and a Celery worker
#   make test  ruff (lint and format), the import contracts, mypy and the whole pytest suite
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv lint typecheck pytest browser migrate demo worker bench clean

$(STAMP): requirements.txt requirements-dev.txt
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is needed: install Python 3.11"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements-dev.txt
	@touch $(STAMP)

venv: $(STAMP)

migrate: venv
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py ensure_admin

# The web server in the foreground and a real Celery worker beside it; Ctrl-C stops both.
run: demo
	@mkdir -p var
	@echo "Starting a Celery worker (log: var/worker.log) and the web server on http://$(HOST):$(PORT)/"
	@$(BIN)/celery -A config worker -B -s var/celerybeat-schedule --loglevel=INFO --concurrency=2 \
	  > var/worker.log 2>&1 & \
	  worker=$$!; trap "kill $$worker 2>/dev/null; wait $$worker 2>/dev/null" EXIT INT TERM; \
	  $(BIN)/python manage.py runserver $(HOST):$(PORT)

worker: venv
	$(BIN)/celery -A config worker -B -s var/celerybeat-schedule --loglevel=INFO

# The formatter owns layout; lint-imports checks the import contracts in pyproject.toml.
lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: venv
	$(BIN)/mypy

# The browser tests drive the system's Chromium through Playwright; it is installed
# here when missing (as root, with apt-get), never downloaded by Playwright.  Without
# it they skip, saying why (in CI, CI=true, they fail instead).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Chromium for the browser tests"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -qq chromium >/dev/null 2>&1 || \
	      { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }; \
	  else echo "Chromium is missing (apt-get install chromium): the browser tests will skip"; fi

pytest: venv browser
	$(BIN)/python -m pytest

test: lint typecheck pytest

# Benchmarks print figures against a peer measured in the same run.  The
# re-scoring and database ratings benchmarks need PostgreSQL and Redis.
bench: venv
	$(BIN)/python -m bench.engine
	$(BIN)/python bench/ratings.py --quick
	$(BIN)/python -m bench.rescore
	$(BIN)/python -m bench.pairing

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache
