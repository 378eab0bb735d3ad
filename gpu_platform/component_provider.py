"""The component provider: our components for every Pulumi language.

``provider/`` (``PulumiPlugin.yaml``, ``runtime: python``) is what ``pulumi package add
<repo>/provider@vX.Y.Z`` installs; the CLI starts it as the Python language host starts a
program (``python provider <engine-address>``) and its ``__main__`` calls :func:`host`. The
schema is inferred from the components' typed args by Pulumi's analyzer
(``pulumi.provider.experimental``); ``provider/schema.json`` is the reviewed copy.

Two things the SDK's own host does not do, and why this module wraps it:

- **Numbers arrive as floats.** Over gRPC every number is a double; the SDK converts top-level
  integer properties only (and then keeps the float), never inside lists or maps. Our args are
  strictly typed, so every whole-number float is made an ``int`` before a component sees it, at
  any depth; a fractional value stays a float and is refused by the component's own check.
- **Bad input is an input error, not a traceback.** A component's ``InputPropertiesError``
  reaches the SDK wrapped in ``ComponentInitError`` and would leave as an UNKNOWN gRPC error
  with a Python stack; unwrapped, it reaches the caller as INVALID_ARGUMENT with each
  property path.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

import pulumi
from pulumi.provider.experimental.component import ComponentProvider
from pulumi.provider.provider import ConstructResult
from pulumi.provider.server import ComponentInitError, main

from . import __version__
from .components.type_tokens import PACKAGE

HOSTED_COMPONENTS = (
    "AckCluster",
    "AckCpuNodePool",
    "AckGpuNodePool",
    "AckGpuSharing",
    "AckMonitoring",
    "AksCluster",
    "AksCpuNodePool",
    "AksGpuNodePool",
    "AksGrafana",
    "AksMonitoring",
    "AksMonitoringWorkspaces",
    "AmdGpuOperator",
    "CertManager",
    "DcgmExporter",
    "DriverCheck",
    "ExistingCluster",
    "GpuAdmissionPolicy",
    "GpuWorkloadNamespace",
    "NvidiaDevicePlugin",
    "NvidiaGpuOperator",
    "NvmeCache",
)
"""Every component a platform engineer composes. Not ``GpuPlatform``: it is driven by our stack
config (``Pulumi.<stack>.yaml``), which a program in another language does not have."""


def whole_numbers_as_ints(value: Any) -> Any:
    """``value`` with every float that is a whole number made an ``int``, at any depth (lists,
    maps, and inside Outputs); fractions, booleans and everything else unchanged."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, Mapping):
        return {k: whole_numbers_as_ints(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [whole_numbers_as_ints(v) for v in value]
    if isinstance(value, pulumi.Output):
        return value.apply(whole_numbers_as_ints)
    return value


def hosted_classes() -> list[type[pulumi.ComponentResource]]:
    from . import components

    return [getattr(components, name) for name in HOSTED_COMPONENTS]


class GpuPlatformProvider(ComponentProvider):
    """Pulumi's component provider for :data:`HOSTED_COMPONENTS`, with whole numbers as ints
    and component input errors as property-path errors (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(hosted_classes(), PACKAGE, None, __version__)

    def construct(
        self,
        name: str,
        resource_type: str,
        inputs: pulumi.Inputs,
        options: pulumi.ResourceOptions | None = None,
    ) -> ConstructResult:
        try:
            return super().construct(name, resource_type, whole_numbers_as_ints(inputs), options)
        except ComponentInitError as err:
            if isinstance(err.inner, pulumi.InputPropertiesError):
                raise err.inner from None
            raise


def host(args: list[str] | None = None) -> None:
    """Serve the provider: what ``provider/__main__.py`` runs, with the engine's arguments."""
    main(GpuPlatformProvider(), sys.argv[1:] if args is None else args)


def schema() -> dict[str, Any]:
    """The provider's schema, as ``GetSchema`` answers it."""
    return json.loads(GpuPlatformProvider().schema or "{}")


def schema_text() -> str:
    """The schema as ``provider/schema.json`` keeps it: sorted keys, two-space indent."""
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m gpu_platform.component_provider > provider/schema.json
    sys.stdout.write(schema_text())
