# Everything runs from the project's own virtualenv in .venv, made on demand.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?= -q -n 2
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: venv run test lint bench chaos migrate static clean screenshots messages

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

migrate: venv
	$(BIN)/python manage.py migrate --noinput

# The static files (admin, Swagger UI) gathered into STATIC_ROOT for WhiteNoise.
static: venv
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0

# WebSocket messages no larger than a consumer accepts (kernel.consumers.MAX_FRAME).
WS_LIMITS = --websocket-max-message-size 16384 --websocket-max-frame-size 16384

run: migrate static
	@echo "Serving on http://$(HOST):$(PORT)/ (API docs: /api/docs/)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) $(WS_LIMITS) config.asgi:application

# The server's message catalogues (docs/languages.md): new marked messages
# into locale/*/django.po, and the .mo files compiled (needs GNU gettext).
messages: venv
	$(BIN)/python manage.py makemessages --all --no-location --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles --ignore=deploy
	$(BIN)/python manage.py compilemessages --ignore=.venv

test: venv
	$(BIN)/pytest $(PYTEST_ARGS)

# The docs' screenshots (docs/images) from the browser suite, as the
# client looks now (PostgreSQL and Chromium, as the e2e tests need).
screenshots: venv
	E2E_README_IMAGES=1 $(BIN)/pytest -q -p no:cacheprovider tests/e2e

# mypy: every app, strict, with Django's and DRF's stubs (the files and
# settings are pyproject's [tool.mypy]).
lint: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: venv
	$(BIN)/python -m bench

# The stack under faults on this machine (bench/chaos, docs/chaos.md):
# its own PostgreSQL and Redis, stops by itself; CHAOS_ARGS=--short for a minute.
CHAOS_ARGS ?=
chaos: venv
	$(BIN)/python -m bench.chaos $(CHAOS_ARGS)

# Build output and caches; keeps .venv and db.sqlite3 (rm -rf .venv for a fresh venv).
clean:
	rm -rf build dist *.egg-info staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
