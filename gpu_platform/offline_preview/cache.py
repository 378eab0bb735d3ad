"""Where the offline preview keeps what it fetches or builds once: ``~/.cache/gpu-platform``.

``$GPU_PLATFORM_CACHE`` moves the whole cache, else ``$XDG_CACHE_HOME/gpu-platform``. Inside:
``venvs/`` (programs' virtualenvs), ``charts/`` (Helm charts pulled from their repositories),
``python/`` (packages installed on first use, such as Helm's SDK).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def cache_dir(kind: str) -> Path:
    """``<cache>/<kind>`` (not created)."""
    if os.environ.get("GPU_PLATFORM_CACHE"):
        return Path(os.environ["GPU_PLATFORM_CACHE"]) / kind
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gpu-platform" / kind


def find_uv() -> str | None:
    """The project's uv (scripts/install.sh bootstraps it into the venv), else the PATH's."""
    ours = Path(sys.prefix) / "bin" / "uv"
    return str(ours) if ours.exists() else shutil.which("uv")
