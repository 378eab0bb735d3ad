"""The offline preview: a Pulumi program and the policy pack on Pulumi's mock engine.

The names below load lazily: a program running in its own virtualenv imports
``offline_preview.program_runner`` (and the engine) without the policy pack's packages.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cli import PreviewResult, preview
    from .engine import ProgramRun, RecordedResource, Secret, Unknown, run_callable, run_program
    from .policy_runner import Violation, run_policies

_WHERE = {
    "PreviewResult": "cli",
    "preview": "cli",
    "ProgramRun": "engine",
    "RecordedResource": "engine",
    "Secret": "engine",
    "Unknown": "engine",
    "run_callable": "engine",
    "run_program": "engine",
    "Violation": "policy_runner",
    "run_policies": "policy_runner",
}

__all__ = [
    "PreviewResult",
    "ProgramRun",
    "RecordedResource",
    "Secret",
    "Unknown",
    "Violation",
    "preview",
    "run_callable",
    "run_policies",
    "run_program",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'gpu_platform.offline_preview' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
