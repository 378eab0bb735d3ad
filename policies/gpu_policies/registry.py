"""The one list of policies in the pack, each with the practices (BP-IDs) it enforces."""

from __future__ import annotations

from dataclasses import dataclass

from pulumi_policy import ResourceValidationPolicy, StackValidationPolicy

Policy = ResourceValidationPolicy | StackValidationPolicy

PACK_NAME = "gpu-platform"
PACK_VERSION = "0.1.0"


@dataclass(frozen=True, slots=True)
class RegisteredPolicy:
    """A policy and the practices from SPEC.md it enforces."""

    policy: Policy
    practices: tuple[str, ...]


REGISTERED: tuple[RegisteredPolicy, ...] = ()


def policies() -> list[Policy]:
    """Every policy of the pack, in registration order."""
    return [entry.policy for entry in REGISTERED]
