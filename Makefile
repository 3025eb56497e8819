# Two commands matter: `make demo` and `make test`. Both work on a fresh machine.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint migrations-check ci install serve migrate services smoke faults

$(STAMP): pyproject.toml
	test -x $(PY) || "$$(scripts/find-python)" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo
	@echo ""
	@echo "Serving at http://127.0.0.1:8000  (participant pat@demo.test, committee committee@demo.test,"
	@echo "administrator admin@demo.test; password demo-pass-2026; staff TOTP secrets in README.md)"
	$(PY) manage.py runserver 127.0.0.1:8000

services:
	scripts/ensure-services

test: install services
	scripts/ensure-chromium
	$(PY) -m pytest -q

bench: install services
	@for f in bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

lint: install
	$(VENV)/bin/ruff check .

# Production settings end to end: own database, gunicorn, a worker per queue, beat, logins, PDFs (README).
smoke: install services
	$(PY) scripts/smoke.py

# Fault tests with real processes (workers killed, Redis stopped, broker unreachable, database dropped).
faults: install services
	$(PY) -m pytest -q -m faults tests/faults

migrations-check: install services
	$(PY) manage.py makemigrations --check --dry-run --settings=config.settings.test

ci:
	.ci/run
