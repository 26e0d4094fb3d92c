# goref: two commands do everything on a fresh machine.
#   make run   install, migrate, load demo data, start the web server and Celery workers
#   make test  ruff (lint and format), the import contracts, mypy and the whole pytest suite
#   make serve production: install, collect static files, migrate, gunicorn + workers, beat
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

# Every worker start gets its own node name: a claim's liveness is per process
# of one start, and two starts under one name would vouch for each other.
NODE = worker-$(shell od -An -N4 -tx4 /dev/urandom | tr -d ' ')@%h

.PHONY: run serve test test-hosts venv lint typecheck pytest browser gettext messages migrate demo worker bench clean

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

# The web server and two real Celery workers beside it: one for page rebuilds (the
# `pages` queue) and one, with beat, for everything else (re-scoring, ratings, the
# sweeps), so that a scoring run never waits behind a burst of page rebuilds.
# Ctrl-C, or SIGTERM to make, to the shell or to the process group, stops all three.
# Each worker runs in its own session (setsid) so that a group signal never reaches
# its pool processes behind its back (a worker whose children died under it could
# hang); the shell waits on the server (a trap runs during `wait`, not while a
# foreground command runs), then stops the workers with one SIGTERM (a warm
# shutdown) and kills their groups if they are still there after RUN_GRACE seconds.
# $(call with_workers,WORKER OPTIONS,WEB SERVER COMMAND).
RUN_GRACE ?= 10
REST_QUEUES := scoring,ratings,sweeps,default
CELERY_WORKER = $(BIN)/celery -A config worker --loglevel=INFO
with_workers = setsid $(CELERY_WORKER) -B -s var/celerybeat-schedule -Q $(REST_QUEUES) $(1) \
	  -n "$(NODE)" > var/worker.log 2>&1 & worker=$$!; \
	  setsid $(CELERY_WORKER) -Q pages $(1) -n "$(NODE)" > var/worker-pages.log 2>&1 & pages=$$!; \
	  $(2) & web=$$!; \
	  stop() { trap '' INT TERM; trap - EXIT; kill -TERM $$web $$worker $$pages 2>/dev/null; \
	    for _ in $$(seq $$(( $(RUN_GRACE) * 10 ))); do \
	      kill -0 $$worker 2>/dev/null || kill -0 $$pages 2>/dev/null || break; sleep 0.1; done; \
	    kill -KILL -- -$$worker -$$pages 2>/dev/null; wait; }; \
	  trap 'stop; exit 130' INT; trap 'stop; exit 143' TERM; trap stop EXIT; \
	  wait $$web

run: demo
	@mkdir -p var
	@echo "Starting two Celery workers (logs: var/worker*.log) and the web server on http://$(HOST):$(PORT)/"
	@$(call with_workers,--concurrency=1,$(BIN)/python manage.py runserver $(HOST):$(PORT))

# One worker on this host: every queue by default, or QUEUES=pages (or
# QUEUES=scoring,ratings,...) for one per queue on separate hosts; BEAT=0 leaves
# the schedule to another host (README, "More than one machine").
QUEUES ?= pages,$(REST_QUEUES)
BEAT ?= 1
worker: venv
	@mkdir -p var
	$(CELERY_WORKER) $(if $(filter 1,$(BEAT)),-B -s var/celerybeat-schedule) -Q $(QUEUES) -n "$(NODE)"

# Production on one host: DEBUG=0 (SECRET_KEY and ALLOWED_HOSTS from the
# environment, as the README's Configuration says; a key is made once in
# var/secret-key if none is given), static files collected (the start-up
# check refuses to run without them), migrations, then two Celery workers
# (one with beat) in the background and gunicorn (config/gunicorn.py) in the
# foreground on $(HOST):$(PORT).  Ctrl-C or a SIGTERM to make stops them all, as
# under `make run` (a supervisor may also stop the process group).  A key made
# here is this host's own: `check --deploy` warns (GOREF_SECRET_KEY_FILE), since
# every host of a site must share one.
serve: venv
	@mkdir -p var
	@test -n "$$SECRET_KEY" -o -s var/secret-key || \
	  $(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))' > var/secret-key
	@test -n "$$SECRET_KEY" || export GOREF_SECRET_KEY_FILE=var/secret-key; \
	  export DEBUG=0 SECRET_KEY="$${SECRET_KEY:-$$(cat var/secret-key)}" \
	  ALLOWED_HOSTS="$${ALLOWED_HOSTS:-$(HOST),localhost,127.0.0.1}" HOST=$(HOST) PORT=$(PORT); \
	  $(BIN)/python manage.py collectstatic --noinput --verbosity 0 && \
	  $(BIN)/python manage.py migrate --noinput && \
	  $(BIN)/python manage.py check --deploy --fail-level ERROR && \
	  { echo "Starting two Celery workers (logs: var/worker*.log) and gunicorn on http://$(HOST):$(PORT)/"; \
	    $(call with_workers,,$(BIN)/gunicorn -c config/gunicorn.py config.wsgi); }

# The formatter owns layout; lint-imports checks the import contracts in pyproject.toml.
lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: venv
	$(BIN)/mypy

# The browser tests drive the system's Chromium through Playwright; it is installed
# here when missing (as root, with apt-get), never downloaded by Playwright.  Without
# it they skip, saying why (in CI, CI=true, they fail instead).  axe-core, which the
# accessibility tests run in the pages, is npm's package, kept under var/axe/.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Chromium for the browser tests"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -qq chromium >/dev/null 2>&1 || \
	      { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }; \
	  else echo "Chromium is missing (apt-get install chromium): the browser tests will skip"; fi
	@test -f var/axe/node_modules/axe-core/axe.min.js || \
	  if command -v npm >/dev/null 2>&1; then \
	    echo "Installing axe-core for the accessibility tests (var/axe/)"; \
	    npm install --silent --no-audit --no-fund --prefix var/axe axe-core@4; \
	  else echo "npm is missing: the accessibility tests will skip"; fi

# GNU gettext gathers and compiles the catalogues (docs/i18n.md); the tests check that
# every marked string is translated, so it is installed here when missing (as root, with
# apt-get), as Chromium is.  Without it those tests skip (in CI they fail).
gettext:
	@command -v msgfmt >/dev/null 2>&1 || \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing gettext for the translation catalogues"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -qq gettext >/dev/null 2>&1 || \
	      { apt-get update -qq && apt-get install -y -qq gettext >/dev/null; }; \
	  else echo "gettext is missing (apt-get install gettext): the catalogue tests will skip"; fi

# After marking strings: gather them into each language's .po (translate the new
# entries there), then compile the .mo files, which are committed (docs/i18n.md).
messages: venv gettext
	$(BIN)/python manage.py makemessages -l fr -l ja -l ko -l zh_Hans --no-obsolete \
	  --add-location=file --ignore='.venv/*' --ignore='tests/*' --ignore='bench/*' \
	  --ignore='static/*' --ignore='staticfiles/*' --ignore='var/*'
	$(BIN)/python manage.py compilemessages --ignore='.venv/*'

pytest: venv browser gettext
	$(BIN)/python -m pytest -m "not hosts"

test: lint typecheck pytest

# Two web hosts and two workers in network namespaces of their own (ip netns: as
# root) on one PostgreSQL and one Redis (DATABASE_URL, REDIS_URL): a write on one
# host read on the other, a worker killed holding claims, two sites on one Redis DB
# (tests/hosts/).  About a minute; .ci/run runs it after `make test`.
test-hosts: venv
	$(BIN)/python -m pytest -m hosts tests/hosts

# Benchmarks print figures against a peer measured in the same run.  The
# re-scoring, web and database ratings benchmarks need PostgreSQL and Redis
# (the web one uses wrk when it is installed).
bench: venv
	$(BIN)/python -m bench.engine
	$(BIN)/python bench/ratings.py --quick
	$(BIN)/python -m bench.rescore
	$(BIN)/python -m bench.deadstones
	$(BIN)/python -m bench.web
	$(BIN)/python -m bench.burst
	$(BIN)/python -m bench.pairing
	$(BIN)/python -m bench.pairing_page
	$(BIN)/python -m bench.rating_lists
	$(BIN)/python -m bench.tournament_import
	$(BIN)/python -m bench.results_files

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache .pytest_cache
