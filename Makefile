# The README's commands. `make preview` and `make test` are all the set-up there is.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STACK ?= dev
FORMAT ?= table
PROGRAM ?= .
CONFIG ?=
POLICY_CONFIG ?=

.PHONY: venv preview test lint format typecheck unit tests up bench verify scan clean

# Let Python cache bytecode even where the environment says not to: without it every process
# (each test worker, each preview) compiles the SDK modules it imports from source again.
unexport PYTHONDONTWRITEBYTECODE

# Two test workers, one per core of the machines we budget for (docs/performance.md); work
# stealing: a worker that runs dry takes tests queued for the other, so no core idles at the end.
PYTEST := $(PY) -m pytest -n 2 --dist worksteal

$(VENV)/.installed: requirements.txt requirements-dev.txt constraints.txt policies/requirements.txt policies/pyproject.toml
	@./scripts/install.sh $(PYTHON) $(VENV)
	@touch $@

venv: $(VENV)/.installed

preview: venv ## Offline preview of a stack with the policy pack (STACK, CONFIG, PROGRAM, FORMAT).
	@$(PY) -m gpu_platform.offline_preview --stack $(STACK) --format $(FORMAT) --program $(PROGRAM) \
		$(if $(CONFIG),--config $(CONFIG)) $(if $(POLICY_CONFIG),--policy-config $(POLICY_CONFIG))

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: venv ## Rewrite what `make lint` would refuse and ruff can fix: formatting, import order.
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

typecheck: venv
	$(VENV)/bin/basedpyright

unit: venv ## The fast tests: every test not marked `slow`.
	$(PYTEST) -m "not slow"

tests: venv ## Every test, `slow` ones included.
	$(PYTEST)

# The type check runs as one of the tests: tests/unit/test_typecheck_guard.py checks the whole
# project (what `make typecheck` does) and, in the same run, that misspelt SDK keywords fail.
test: lint ## Lint, then every test, the type check among them.
	@$(MAKE) --no-print-directory tests

up: ## pulumi up for STACK (needs the Pulumi CLI and cloud credentials).
	pulumi up --stack $(STACK) --policy-pack policies

bench: venv ## Benchmarks: writes bench/results/.
	$(PY) -m bench

# checkov lives in its own virtualenv, installed on the first `make scan` only: `make test`
# never installs it. The project's uv (install.sh bootstraps it into .venv), else the PATH's.
SCAN_VENV := .venv-scan
UV = $(if $(wildcard $(VENV)/bin/uv),$(VENV)/bin/uv,uv)

$(SCAN_VENV)/.installed: scan/requirements.txt scan/constraints.txt | venv
	@echo "make scan: installing checkov into $(SCAN_VENV) (once)"
	@rm -rf $(SCAN_VENV)
	@$(UV) venv -q -p $(PY) $(SCAN_VENV)
	@$(UV) pip install -q -p $(SCAN_VENV)/bin/python -r scan/requirements.txt -c scan/constraints.txt
	@touch $@

scan: venv $(SCAN_VENV)/.installed ## checkov on the exported plan against scan/baseline-$(STACK).yaml (STACK, CONFIG, UPDATE_BASELINE=1).
	@$(PY) -m scan --stack $(STACK) --checkov $(SCAN_VENV)/bin/checkov \
		$(if $(CONFIG),--config $(CONFIG)) $(if $(UPDATE_BASELINE),--update-baseline)

verify: venv ## Check a live cluster against the stack (STACK, CONTEXT, FORMAT; $$KUBECONFIG).
	$(PY) -m gpu_platform.verify --stack $(STACK) --format $(FORMAT) $(if $(CONTEXT),--context $(CONTEXT))

clean:
	rm -rf $(VENV) $(SCAN_VENV) .pytest_cache .ruff_cache build/scan
