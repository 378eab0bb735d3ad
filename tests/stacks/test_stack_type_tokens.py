"""Each component of 0.1.0 registered under ``gpu-platform:<module>:<Class>`` carries that token
as an alias on every stack, so a stack deployed with 0.1.0 sees its components (and their
children) renamed, not replaced (components.type_tokens)."""

from __future__ import annotations

import pytest

from gpu_platform.components.type_tokens import type_token
from tests.conftest import stack_preview

FORMER_TOKENS = {
    "AckCluster": "gpu-platform:alicloud:AckCluster",
    "AckCpuNodePool": "gpu-platform:alicloud:AckCpuNodePool",
    "AckGpuNodePool": "gpu-platform:alicloud:AckGpuNodePool",
    "AckGpuSharing": "gpu-platform:alicloud:AckGpuSharing",
    "AckMonitoring": "gpu-platform:alicloud:AckMonitoring",
    "AksCluster": "gpu-platform:azure:AksCluster",
    "AksCpuNodePool": "gpu-platform:azure:AksCpuNodePool",
    "AksGpuNodePool": "gpu-platform:azure:AksGpuNodePool",
    "AksGrafana": "gpu-platform:azure:AksGrafana",
    "AksMonitoring": "gpu-platform:azure:AksMonitoring",
    "AksMonitoringWorkspaces": "gpu-platform:azure:AksMonitoringWorkspaces",
    "DcgmExporter": "gpu-platform:gpu:DcgmExporter",
    "DriverCheck": "gpu-platform:gpu:DriverReadinessCheck",
    "ExistingCluster": "gpu-platform:cluster:ExistingCluster",
    "GpuAdmissionPolicy": "gpu-platform:workloads:GpuAdmissionPolicy",
    "GpuWorkloadNamespace": "gpu-platform:workloads:GpuWorkloadNamespace",
    "NvidiaDevicePlugin": "gpu-platform:gpu:NvidiaDevicePlugin",
    "NvidiaGpuOperator": "gpu-platform:gpu:NvidiaGpuOperator",
    "NvmeCache": "gpu-platform:azure:NvmeCache",
}
"""The type tokens of release 0.1.0 (CHANGELOG.md), which deployed stacks hold, by today's class
name (``DriverCheck`` was ``DriverReadinessCheck``)."""


@pytest.mark.slow
@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev", "existing"])
def test_every_component_keeps_its_former_token_as_an_alias(stack: str) -> None:
    components = [
        r for r in stack_preview(stack).run.resources if r.type.startswith("gpu-platform:")
    ]
    assert components
    for component in components:
        assert component.type == type_token(component.type.rsplit(":", 1)[-1])
        former = FORMER_TOKENS.get(component.type.rsplit(":", 1)[-1])
        # The engine reads an alias spec as the URN it names: the former token in place of
        # the current one, under the same parent.
        expected = [component.urn.replace(component.type, former)] if former else []
        assert component.aliases == expected, component.urn
