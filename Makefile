# Two commands matter: `make demo` and `make test`. Both work on a fresh machine.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-random lock bench bytecode lint migrations-check ci install serve migrate services smoke faults

# Every package comes from requirements.lock (exact versions with hashes, `make lock` writes it from
# pyproject.toml); the project itself is installed on top without resolving anything again.
$(STAMP): pyproject.toml requirements.lock
	test -x $(PY) || "$$(scripts/find-python)" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	$(MAKE) --no-print-directory bytecode
	touch $(STAMP)

# The project's own modules compiled once, as pip compiles an installed package's: a process then reads
# bytecode instead of compiling each project module it imports (about 0.25 s of CPU for the engine's
# command line on a machine that sets PYTHONDONTWRITEBYTECODE, where Python never writes it itself). A module edited later is compiled in
# memory again until the next `make bytecode`; nothing reads stale bytecode (Python checks the source).
bytecode:
	$(PY) -m compileall -q -j 0 config accounts benefits elections payments taxes

# Rewrite the lock after a change of pyproject.toml's dependencies (needs the package index).
lock:
	test -x $(PY) || "$$(scripts/find-python)" -m venv $(VENV)
	$(PY) -m pip install --quiet "uv>=0.9"
	$(VENV)/bin/uv pip compile pyproject.toml --extra test --generate-hashes --universal \
		--python-version 3.12 --quiet -o requirements.lock

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

# The suite runs on every core (pytest-xdist, a database, Redis database and file folder per worker);
# TEST_WORKERS=0 runs it in one process. Hypothesis is derandomized when CI is set; HYPOTHESIS_RANDOM=1
# explores new examples (make test-random).
TEST_WORKERS ?= auto
test: install services
	scripts/ensure-chromium
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile

test-random: install services
	HYPOTHESIS_RANDOM=1 $(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile

bench: install services bytecode
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
