#!/usr/bin/env bash
# Create the virtualenv and install everything at the pinned versions of constraints.txt with
# uv (seconds, where pip takes a minute). The uv that installs is, in this order:
#   1. the one on the PATH;
#   2. the one the interpreter can import (`pip install --user uv`, or uv installed into that
#      Python) whose command is not on the PATH: run as `python -m uv`;
#   3. else the pinned uv, installed from PyPI into the new venv by the interpreter's pip.
# Whichever it was, requirements-dev.txt installs the pinned uv into the venv too, so
# .venv/bin/uv is the project's uv on every machine (make scan and team programs use it).
set -euo pipefail
python=${1:-python3}
venv=${2:-.venv}
if command -v uv >/dev/null 2>&1; then
  uv=(uv)
elif "$python" -m uv --version >/dev/null 2>&1; then
  uv=("$python" -m uv)
else
  uv=()
fi
if [ ${#uv[@]} -gt 0 ]; then
  [ -x "$venv/bin/python" ] || "${uv[@]}" venv -q -p "$python" "$venv"
else
  [ -x "$venv/bin/python" ] || "$python" -m venv --without-pip "$venv" 2>/dev/null \
    || "$python" -m venv "$venv"
  if [ ! -x "$venv/bin/uv" ]; then
    # pip from the base interpreter installs uv into the venv without seeding its pip.
    # --ignore-installed: a uv the interpreter already sees (user site, its own site-packages)
    # would otherwise make pip answer "already satisfied" and install nothing into the venv.
    # PIP_USER=0: a pip configured for --user installs cannot combine it with --prefix.
    # -qq keeps its errors but not warnings about the machine's own pip configuration.
    PIP_USER=0 "$python" -m pip install -qq --disable-pip-version-check --ignore-installed \
      --no-deps --prefix "$venv" "$(grep -E '^uv==' constraints.txt)"
  fi
  if [ ! -x "$venv/bin/uv" ]; then
    echo "install.sh: pip did not install uv into $venv/bin (see above)" >&2
    exit 1
  fi
  uv=("$venv/bin/uv")
fi
# Build dependencies (setuptools for the editable policy pack) are pinned by the same file.
"${uv[@]}" pip install -q -p "$venv/bin/python" -r requirements-dev.txt -c constraints.txt \
  -b constraints.txt
# Bytecode for the SDK modules every process imports, once, in parallel (scripts/precompile.py).
env -u PYTHONDONTWRITEBYTECODE "$venv/bin/python" scripts/precompile.py
