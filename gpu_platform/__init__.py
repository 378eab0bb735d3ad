"""gpu-platform: GPU-ready Kubernetes on AKS, ACK or an existing cluster, as Pulumi components.

``from gpu_platform import AksGpuNodePool, AksGpuNodePoolArgs`` is
``gpu_platform.components``' public API (see its ``__all__``); each name loads lazily, so a
program pays only for the cloud SDK of the components it uses. The layers behind them:
``settings`` (the stack config's schema), ``plan`` (what a valid config means),
``stack_config`` (reading ``Pulumi.<stack>.yaml``), ``offline_preview`` and ``verify``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import components as _components

if TYPE_CHECKING:
    from .components import *  # noqa: F403

__all__ = ["__version__", *_components.__all__]  # noqa: PLE0604 (the components' own list)


def _version() -> str:
    # A checkout's VERSION file wins over the installed metadata, which an editable install
    # keeps from the day it was made; a wheel has only the metadata.
    checkout = Path(__file__).resolve().parents[1] / "policies" / "VERSION"
    if checkout.is_file():
        return checkout.read_text().strip()
    import importlib.metadata  # here: ~30 ms of import a checkout never needs

    return importlib.metadata.version("gpu-platform")


__version__ = _version()


def __getattr__(name: str) -> Any:
    return getattr(_components, name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
