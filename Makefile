# Two commands for a newcomer: `make serve` (build + serve the site) and `make test`.
# Each does its own set-up: virtual environment, Python and npm packages, Pyodide, browser.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The site generator: mkdocs (default) or zensical; both build the same mkdocs.yml and
# then go through the same post-build step (python -m calculators.build).
GENERATOR ?= mkdocs
export NO_MKDOCS_2_WARNING := 1
# Test processes at once, one a core, for the tests that need no browser (pytest-xdist's
# workers, each taking whole test modules) and the rules core's run inside Pyodide. The
# browser tests run one at a time: two browsers starting Pyodide at once on two cores
# made three of them time out (a worker restart, a deploy's reload, axe's timing).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# The longest browser test's phase takes about 105 s here (a crawl's setup); one that
# runs past this is stuck, and fails with its stack rather than holding the suite.
BROWSER_TEST_TIMEOUT := 600

.PHONY: help setup site serve test test-fast test-js test-pyodide pyodide-shard test-loaded browser lint bench clean

help:
	@echo "make serve   build the site and serve it at http://127.0.0.1:$(PORT)/"
	@echo "make test    run the whole test suite, browser tests included"
	@echo "make test-fast  the suite without browser tests"
	@echo "make test-loaded  the browser suite 3 times (RUNS=n) with both cores kept busy"
	@echo "make site    build the site into site/ (GENERATOR=zensical to build with Zensical)"

$(VENV)/.installed: pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[docs,test]"
	@touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup: $(VENV)/.installed node_modules/.installed

# The rules_core tests also run inside Pyodide (the pinned npm package, under Node), so the
# browser's Python is tested too. Pyodide gets pytest and its pure-Python dependencies from
# the venv; Hypothesis's pure-Python wheel is fetched once here (the venv's is compiled).
PYODIDE_WHEELS := build/pyodide-wheels
$(PYODIDE_WHEELS)/.installed: $(VENV)/.installed
	$(PY) -m pip download --quiet --no-deps --only-binary=:all: --platform any \
	  --python-version 3.14 --dest $(PYODIDE_WHEELS) "hypothesis==6.155.7"
	@touch $@

# They run in $(JOBS) Node processes at once, sharing the tests as they go: each runs the
# next test no other has claimed in build/pyodide-claims (logs in build/). Afterwards the
# tests the processes ran must add up to those collected: each ran once.
PYODIDE_CLAIMS := build/pyodide-claims
test-pyodide: setup $(PYODIDE_WHEELS)/.installed
	@echo "the rules core's tests inside Pyodide, in $(JOBS) processes"; \
	site=$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); pids=""; \
	rm -rf $(PYODIDE_CLAIMS) && mkdir -p $(PYODIDE_CLAIMS); \
	for k in $$(seq $(JOBS)); do \
	  $(MAKE) --no-print-directory pyodide-shard CLAIMS=$(PYODIDE_CLAIMS) SITE_PACKAGES="$$site" \
	    > build/pyodide-shard-$$k.log 2>&1 & pids="$$pids $$!"; done; \
	status=0; for pid in $$pids; do wait $$pid || status=1; done; \
	for k in $$(seq $(JOBS)); do cat build/pyodide-shard-$$k.log; done; \
	collected=$$(sed -n 's/^this process ran [0-9]* of the \([0-9]*\) tests collected.*/\1/p' build/pyodide-shard-1.log | head -1); \
	ran=$$(for k in $$(seq $(JOBS)); do cat build/pyodide-shard-$$k.log; done | sed -n 's/^this process ran \([0-9]*\) of the.*/\1/p' | awk '{ n += $$1 } END { print n + 0 }'); \
	if [ "$$status" = 0 ] && [ "$$ran" != "$$collected" ]; then \
	  echo "inside Pyodide $$ran tests were run of the $$collected collected: each must run once"; status=1; fi; \
	exit $$status

# one process, sharing the tests with the others given the same empty CLAIMS folder
pyodide-shard:
	node tests/pyodide/run_rules_core.mjs --claims $(CLAIMS) "$(SITE_PACKAGES)" \
	  $(PYODIDE_WHEELS) -q tests/rules_core -m "not heavy" \
	  --deselect tests/rules_core/test_api_contract.py::test_command_line_list_run_and_errors \
	  --deselect tests/rules_core/test_api_contract.py::test_a_calculator_imports_its_own_system_only \
	  --deselect tests/rules_core/test_hostile.py::test_hostile_command_lines_answer_in_json_without_a_traceback \
	  --deselect tests/rules_core/test_hostile.py::test_a_closed_pipe_ends_the_program_quietly \
	  --deselect tests/rules_core/test_sucs_battle.py::test_a_share_link_from_the_army_builder_is_read \
	  --deselect tests/rules_core/test_cascade.py::test_the_command_line_takes_a_precision \
	  --deselect tests/rules_core/test_share_address.py::test_the_core_reads_the_battle_address_the_page_writes \
	  --deselect tests/rules_core/test_share_address.py::test_a_cut_battle_address_is_cut_for_the_core_too
# (the tests that start a new process, the command line's, a fresh interpreter's and
# Node's for the site's own share-link packing, run in CPython only: Pyodide cannot
# start a process)

site: setup
	$(PY) -m calculators.generate --generator $(GENERATOR) --site-url "$${SITE_URL:-http://127.0.0.1:$(PORT)/}" site

serve: site
	$(PY) -m calculators.serve site --port $(PORT)

# Browsers for the tests: Chromium (the suite), Firefox ESR and WebKitGTK under Xvfb (the
# cross-browser smoke tests). As root on Debian, apt-get installs whichever is missing;
# elsewhere Chromium falls back to Playwright's own build and the others must be installed.
BROWSER_PACKAGES := chromium:/usr/bin/chromium firefox-esr:/usr/bin/firefox-esr \
	webkit2gtk-driver:/usr/bin/WebKitWebDriver xvfb:/usr/bin/Xvfb
browser: setup
	@missing=""; for entry in $(BROWSER_PACKAGES); do \
	  [ -x "$${entry#*:}" ] || missing="$$missing $${entry%%:*}"; done; \
	if [ -z "$$missing" ]; then echo "browser: using the system Chromium, Firefox ESR and WebKitGTK"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	elif ! command -v chromium >/dev/null 2>&1; then \
	  $(PY) -m playwright install chromium; \
	fi

# Everything: the suite in CPython (the browser tests crawl the MkDocs and the Zensical
# builds in Chromium, and Firefox ESR and WebKitGTK run the smoke tests), then the
# rules_core tests again inside Pyodide (the browser's Python).
test: setup browser
	$(MAKE) --no-print-directory test-js
	$(PY) -m pytest -q -n $(JOBS) --dist loadfile -m "not browser" --durations=10
	$(PY) -m pytest -q -n $(JOBS) --dist loadfile -m browser --durations=15 --timeout=$(BROWSER_TEST_TIMEOUT)
	$(MAKE) --no-print-directory test-pyodide

test-fast: setup
	$(MAKE) --no-print-directory test-js
	$(PY) -m pytest -q -n $(JOBS) --dist loadfile -m "not browser" --durations=10

# The JavaScript that needs no page (share links, the storage kit, the army builder's
# library and its first storage format), in Node's own test runner, with the core's data.
test-js: setup
	PYTHON=$(PY) node --test --test-reporter=spec tests/js/

# CI trust: the browser suite RUNS times in a row (default 3) while two busy processes hold
# both cores, stopping at the first failure: a test that passes only on a quiet machine
# shows here.
RUNS ?= 3
test-loaded: setup browser
	@busy=""; trap 'kill $$busy 2>/dev/null' EXIT INT TERM; \
	for core in 1 2; do ( while :; do :; done ) & busy="$$busy $$!"; done; \
	for run in $$(seq $(RUNS)); do echo "== loaded run $$run of $(RUNS)"; \
	  $(PY) -m pytest -q -n $(JOBS) --dist loadfile -m browser --durations=10 -p no:cacheprovider \
	    --timeout=$(BROWSER_TEST_TIMEOUT) || exit 1; done

lint: setup
	$(PY) -m ruff check rules_core calculators tests benchmarks
	$(PY) -m mypy
	npx --no-install tsc --noEmit -p tsconfig.json
	npx --no-install eslint .

bench: setup
	@for script in benchmarks/*.py; do echo "== $$script"; $(PY) $$script; done

clean:
	rm -rf site .pytest_cache .hypothesis
