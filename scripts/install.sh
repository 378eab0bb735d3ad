#!/usr/bin/env bash
# Create the virtualenv and install everything at the pinned versions of constraints.txt:
# uv when present (seconds), else pip.
set -euo pipefail
python=${1:-python3}
venv=${2:-.venv}
if command -v uv >/dev/null 2>&1; then
  [ -x "$venv/bin/python" ] || uv venv -q -p "$python" "$venv"
  uv pip install -q -p "$venv/bin/python" -r requirements-dev.txt -c constraints.txt
else
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q -r requirements-dev.txt -c constraints.txt
fi
