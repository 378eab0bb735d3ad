#!/usr/bin/env bash
# Create the virtualenv and install everything at the pinned versions of constraints.txt with
# uv: the one on the PATH, else uv bootstrapped from PyPI into the venv (a few seconds, and the
# rest of the install takes seconds instead of a minute with pip).
set -euo pipefail
python=${1:-python3}
venv=${2:-.venv}
if command -v uv >/dev/null 2>&1; then
  uv=uv
  [ -x "$venv/bin/python" ] || uv venv -q -p "$python" "$venv"
else
  [ -x "$venv/bin/python" ] || "$python" -m venv --without-pip "$venv" 2>/dev/null \
    || "$python" -m venv "$venv"
  uv="$venv/bin/uv"
  if [ ! -x "$uv" ]; then
    # pip from the base interpreter installs uv (pinned) into the venv without seeding its pip;
    # -qq keeps its errors but not warnings about the machine's own pip configuration.
    "$python" -m pip install -qq --disable-pip-version-check --prefix "$venv" \
      "$(grep -E '^uv==' constraints.txt)"
  fi
fi
# Build dependencies (setuptools for the editable policy pack) are pinned by the same file.
"$uv" pip install -q -p "$venv/bin/python" -r requirements-dev.txt -c constraints.txt \
  -b constraints.txt
# Bytecode for the SDK modules every process imports, once, in parallel (scripts/precompile.py).
env -u PYTHONDONTWRITEBYTECODE "$venv/bin/python" scripts/precompile.py
