"""components.type_tokens: every component is ``gpu-platform:index:<Class>`` (that each one
of 0.1.0 keeps its former token as an alias is checked on our stacks:
tests/stacks/test_stack_type_tokens.py)."""

from __future__ import annotations

from gpu_platform.components.type_tokens import type_token


def test_type_token() -> None:
    assert type_token("AksGpuNodePool") == "gpu-platform:index:AksGpuNodePool"
