# memlens entry points. `make demo` and `make test` each set up what they need first.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: setup demo test test-fast bench clean

setup:
	bash scripts/setup.sh

demo: setup
	$(VENV)/bin/memlens demo --out demo-output

test: setup
	$(PY) -m pytest -q

test-fast: setup
	$(PY) -m pytest -q -m "not slow"

bench: setup
	$(PY) benchmarks/morning.py --out benchmarks/results

clean:
	rm -rf demo-output .pytest_cache
