# rummylab: the two commands are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast bench docs setup clean wheel-smoke

TEST_STAMP := $(VENV)/.installed-test

# the demo needs only the package; the tests add pytest, hypothesis, dask, mkdocs (the test extra)
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(TEST_STAMP)

setup: $(TEST_STAMP)

demo: $(STAMP)
	$(BIN)/rummylab demo --out runs/demo --html reports/index.html

test: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -n 2

# the fast tier: every test not marked slow (each heavy one is, e.g. whole-study runs, real
# browsers, subprocess runs, every table size); under 2 minutes on 2 cores once the numba cache is
# warm (a first run compiles the kernels).  `make test` stays the whole suite, and what CI runs.
test-fast: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -n 2 -m "not slow"

DOCS_STAMP := $(VENV)/.docs-installed

$(DOCS_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)   # the reference site, built into site/ (open site/index.html)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

bench: $(TEST_STAMP)
	$(BIN)/python scripts/bench.py --markdown BENCHMARKS.md

clean:
	rm -rf $(VENV) .numba_cache runs site reports/*.png reports/*.html

# the wheel installed for real, every subcommand from outside the checkout (also part of `make test`)
wheel-smoke: $(TEST_STAMP)
	$(BIN)/python scripts/wheel_smoke.py
