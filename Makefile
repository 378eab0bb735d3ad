# The README's commands. `make preview` and `make test` are all the set-up there is.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STACK ?= dev
FORMAT ?= table
PROGRAM ?= .
CONFIG ?=
POLICY_CONFIG ?=
CHARTS ?=

.PHONY: venv preview test lint typecheck typecheck-only unit tests up bench bench-check verify scan clean format dist dist-check

# Let Python cache bytecode even where the environment says not to: without it every process
# (each test worker, each preview) compiles the SDK modules it imports from source again.
unexport PYTHONDONTWRITEBYTECODE

# Three test workers on the two cores we budget for (docs/performance.md): the suite's waits
# (deadlines, timeouts, subprocesses, sockets) would leave a core idle under two; a fourth
# costs more collection than it saves. Work stealing: a worker that runs dry takes tests queued
# for the others, so no core idles at the end.
PYTEST := $(PY) -m pytest -n 3 --dist worksteal

$(VENV)/.installed: requirements.txt requirements-dev.txt constraints.txt pyproject.toml policies/requirements.txt policies/pyproject.toml policies/VERSION
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

# The type check has its own target (CI runs it: .ci/run): tests/unit/test_typecheck_guard.py
# checks the whole project with basedpyright and, in the same run, that misspelt SDK keywords
# fail it. It costs about 30 s of CPU, a third of `make test`'s budget on two cores, so
# `make test` leaves it here. `make typecheck-only` is the checker alone, as it prints.
typecheck: venv ## The whole project's type check, with the proof that it sees the SDK calls.
	$(PY) -m pytest tests/unit/test_typecheck_guard.py -p no:xdist -m typecheck

typecheck-only: venv
	$(VENV)/bin/basedpyright

unit: venv ## The fast tests: every test not marked `slow` (nor the type check).
	$(PYTEST) -m "not slow and not typecheck"

tests: venv ## Every test, `slow` ones included, but the type check (make typecheck).
	$(PYTEST) -m "not typecheck"

test: lint ## Lint, then every test; the type check is `make typecheck` (CI runs both).
	@$(MAKE) --no-print-directory tests

# Releases (docs/packaging.md): both wheels and sdists into dist/, then the packaging tests:
# built from a clean clone, installed into fresh virtualenvs, consumer programs previewed.
dist: venv ## Build gpu-platform and gpu-platform-policies (wheels and sdists) into dist/.
	@rm -rf dist
	@$(UV) build -q --out-dir dist .
	@$(UV) build -q --out-dir dist policies
	@ls dist

dist-check: venv ## The packaging tests: clean-clone wheels installed and used outside the repo.
	$(PY) -m pytest tests/packaging --dist-check -p no:xdist

up: ## pulumi up for STACK (needs the Pulumi CLI and cloud credentials).
	pulumi up --stack $(STACK) --policy-pack policies

bench: venv ## Benchmarks: writes bench/results/.
	$(PY) -m bench

# The harness's own tests run whole previews, floors and fake fleets in processes of their own
# (about 25 s of CPU): CI runs them (.ci/run), `make test` leaves them here, as it does the type
# check, so that it stays the product's loop.
bench-check: venv ## The benchmark harness's tests (tests/bench): smallest sizes, no timing asserted.
	$(PYTEST) tests/bench --bench-check

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

scan: venv $(SCAN_VENV)/.installed ## checkov on the exported plan against scan/baseline-$(STACK).yaml (STACK, CONFIG, CHARTS=DIR, UPDATE_BASELINE=1).
	@$(PY) -m scan --stack $(STACK) --checkov $(SCAN_VENV)/bin/checkov \
		$(if $(CONFIG),--config $(CONFIG)) $(if $(CHARTS),--charts $(CHARTS)) \
		$(if $(UPDATE_BASELINE),--update-baseline)

verify: venv ## Check a live cluster against the stack (STACK, CONTEXT, FORMAT, VERIFY_TIMEOUT, VERIFY_REQUEST_TIMEOUT; $$KUBECONFIG).
	$(PY) -m gpu_platform.verify --stack $(STACK) --format $(FORMAT) $(if $(CONTEXT),--context $(CONTEXT)) \
		$(if $(VERIFY_TIMEOUT),--timeout $(VERIFY_TIMEOUT)) \
		$(if $(VERIFY_REQUEST_TIMEOUT),--request-timeout $(VERIFY_REQUEST_TIMEOUT))

clean:
	rm -rf $(VENV) $(SCAN_VENV) .pytest_cache .ruff_cache build/scan
