"""Where the offline preview keeps what it fetches or builds once: ``~/.cache/gpu-platform``.

``$GPU_PLATFORM_CACHE`` moves the whole cache, else ``$XDG_CACHE_HOME/gpu-platform``. Inside:
``venvs/`` (programs' virtualenvs), ``charts/`` (Helm charts pulled from their repositories),
``python/`` (packages installed on first use, such as Helm's SDK), ``helm/`` (Helm's own cache,
``HELM_CACHE_HOME``: the repository indexes it downloads to pull a chart).

An install (a program's requirements, Helm's SDK) goes into the cache and nowhere else: it
runs with no uv or pip configuration but ours (``isolated_install_env``). ``--offline``
(``$GPU_PLATFORM_OFFLINE=1``) fetches nothing and installs only from uv's cache
(``offline_mode``).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

OFFLINE_ENV = "GPU_PLATFORM_OFFLINE"
"""Set to ``1`` by ``--offline`` (or by CI itself): no network for the preview's own work."""
KEPT_INSTALLER_ENV = frozenset(
    {
        "UV_CACHE_DIR",
        "UV_OFFLINE",
        "UV_NO_CACHE",
        "UV_HTTP_TIMEOUT",
        "UV_CONCURRENT_DOWNLOADS",
        "UV_CONCURRENT_BUILDS",
        "UV_CONCURRENT_INSTALLS",
        "UV_NATIVE_TLS",
        "UV_NO_PROGRESS",
    }
)
"""uv settings an install keeps from the environment: where uv's own cache is, whether it may
use the network, how it downloads. None of them says where packages come from or go."""
DROPPED_ENV = frozenset(
    {"VIRTUAL_ENV", "CONDA_PREFIX", "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONSTARTUP"}
)
"""Variables that would point an install at another environment."""


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


def offline_mode() -> bool:
    """``--offline``: nothing fetched, nothing installed that is not in uv's cache."""
    return os.environ.get(OFFLINE_ENV, "") not in ("", "0")


def ignored_installer_env(environ: dict[str, str] | None = None) -> list[str]:
    """The variables of ``environ`` an install leaves out: every ``PIP_*``, every ``UV_*`` but
    ``KEPT_INSTALLER_ENV``, and ``DROPPED_ENV`` (sorted)."""
    environ = dict(os.environ if environ is None else environ)
    return sorted(
        name
        for name in environ
        if name.startswith("PIP_")
        or (name.startswith("UV_") and name not in KEPT_INSTALLER_ENV)
        or name in DROPPED_ENV
    )


def isolated_install_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of an install: ``environ`` without what could redirect it (a target, a
    prefix, an index, a config file: ``ignored_installer_env``), no uv or pip config file read
    (``UV_NO_CONFIG``, ``PIP_CONFIG_FILE=/dev/null``), and offline under ``--offline``."""
    environ = dict(os.environ if environ is None else environ)
    for name in ignored_installer_env(environ):
        del environ[name]
    environ["UV_NO_CONFIG"] = "1"
    environ["PIP_CONFIG_FILE"] = os.devnull
    if offline_mode():
        environ["UV_OFFLINE"] = "1"
        environ["PIP_NO_INDEX"] = "1"
    return environ
