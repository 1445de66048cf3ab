# Two commands for a newcomer: `make serve` (build + serve the site) and `make test`.
# Each does its own set-up: virtual environment, Python and npm packages, Pyodide, browser.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export NO_MKDOCS_2_WARNING := 1

.PHONY: help setup site serve test test-fast browser lint bench clean

help:
	@echo "make serve   build the site and serve it at http://127.0.0.1:$(PORT)/"
	@echo "make test    run the whole test suite, browser tests included"
	@echo "make test-fast  the suite without browser tests"
	@echo "make site    build the site into site/"

$(VENV)/.installed: pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[docs,test]"
	@touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup: $(VENV)/.installed node_modules/.installed

site: setup
	SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)/} $(PY) -m mkdocs build --strict

serve: site
	$(PY) -m calculators.serve site --port $(PORT)

# A Chromium for the browser tests: the system one if present; as root on Debian the
# `chromium` package; otherwise Playwright's own build.
browser: setup
	@if [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; then \
	  echo "browser: using system Chromium"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
	  $(PY) -m playwright install chromium; \
	fi

test: setup browser
	$(PY) -m pytest -q

test-fast: setup
	$(PY) -m pytest -q -m "not browser"

lint: setup
	$(PY) -m ruff check rules_core calculators tests benchmarks
	npx --no-install tsc --noEmit -p tsconfig.json
	npx --no-install eslint calculators/assets

bench: setup
	@for script in benchmarks/*.py; do echo "== $$script"; $(PY) $$script; done

clean:
	rm -rf site .pytest_cache .hypothesis
