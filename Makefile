# rummylab: the two commands are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench setup clean wheel-smoke

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/rummylab demo --out runs/demo --html reports/index.html

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

bench: $(STAMP)
	$(BIN)/python scripts/bench.py --markdown BENCHMARKS.md

clean:
	rm -rf $(VENV) .numba_cache runs reports/*.png reports/*.html

# the wheel installed for real, every subcommand from outside the checkout (also part of `make test`)
wheel-smoke: $(STAMP)
	$(BIN)/python scripts/wheel_smoke.py
