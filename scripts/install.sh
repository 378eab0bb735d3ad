#!/usr/bin/env bash
# Create the virtualenv and install everything at the pinned versions of constraints.txt:
# uv when present (seconds), else pip.
set -euo pipefail
python=${1:-python3}
venv=${2:-.venv}
# Build dependencies (setuptools for the editable policy pack) are pinned by the same file.
if command -v uv >/dev/null 2>&1; then
  [ -x "$venv/bin/python" ] || uv venv -q -p "$python" "$venv"
  uv pip install -q -p "$venv/bin/python" -r requirements-dev.txt -c constraints.txt \
    -b constraints.txt
else
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  # The venv's own pip (no unpinned upgrade): PIP_CONSTRAINT also reaches isolated builds.
  PIP_CONSTRAINT=constraints.txt "$venv/bin/python" -m pip install -q \
    -r requirements-dev.txt -c constraints.txt
fi
