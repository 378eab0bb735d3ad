"""A stack's config as Pulumi holds it: read, checked against the rules, and resolved.

The schema is ``settings``; what a valid config means is ``plan``.

The names below load lazily: ``stack_config.yaml_file`` (the bounded YAML reader) is also
what the offline preview decodes manifests with, in a program's own virtualenv too, where
the loader's pydantic models are not installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .load import NAMESPACE, ConfigError, load_from_pulumi, load_platform

__all__ = ["NAMESPACE", "ConfigError", "load_from_pulumi", "load_platform"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'gpu_platform.stack_config' has no attribute {name!r}")
    return getattr(importlib.import_module(".load", __name__), name)
