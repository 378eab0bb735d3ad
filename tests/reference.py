"""Upstream artefacts the tests read but the repository never holds (charts, values files).

They live beside the repository, in ``<repo root>/../shared/reference/<name>`` (or where
``$GPU_PLATFORM_REFERENCE`` says: a checkout elsewhere, such as a git worktree); a test that
needs one is skipped, saying so, when it is not there.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REFERENCE = Path(
    os.environ.get("GPU_PLATFORM_REFERENCE")
    or Path(__file__).resolve().parents[1].parent / "shared" / "reference"
)


def reference(name: str) -> Path:
    """``../shared/reference/<name>``, or skip the test that asked for it."""
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"upstream {name} is not at {path} (the repository holds no upstream copy)")
    return path
