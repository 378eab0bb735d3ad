"""Every component's args and outputs give Pulumi's component analyzer a schema, with a
description on every input property (the analyzer reads them from the docstrings): what
publishing the components to every Pulumi language needs."""

from collections.abc import Iterator
from typing import NotRequired, TypedDict

import pulumi
import pytest
from pulumi.provider.experimental.analyzer import (
    Analyzer,
    AnalyzeResult,
    PropertyDefinition,
)

from gpu_platform.components.ack_cluster import AckCluster
from gpu_platform.components.ack_cpu_node_pool import AckCpuNodePool
from gpu_platform.components.ack_gpu_node_pool import AckGpuNodePool
from gpu_platform.components.ack_gpu_sharing import AckGpuSharing
from gpu_platform.components.ack_monitoring import AckMonitoring
from gpu_platform.components.aks_cluster import AksCluster
from gpu_platform.components.aks_cpu_node_pool import AksCpuNodePool
from gpu_platform.components.aks_gpu_node_pool import AksGpuNodePool
from gpu_platform.components.aks_grafana import AksGrafana
from gpu_platform.components.aks_monitoring import AksMonitoring, AksMonitoringWorkspaces
from gpu_platform.components.driver_check import DriverCheck
from gpu_platform.components.existing_cluster import ExistingCluster
from gpu_platform.components.gpu_admission_policy import GpuAdmissionPolicy
from gpu_platform.components.gpu_metrics import DcgmExporter
from gpu_platform.components.gpu_operator import NvidiaGpuOperator
from gpu_platform.components.gpu_workload_namespace import GpuWorkloadNamespace
from gpu_platform.components.nvidia_device_plugin import NvidiaDevicePlugin
from gpu_platform.components.nvme_cache import NvmeCache

# One line per component; keep the list sorted so merges stay clean.
COMPONENTS: list[type[pulumi.ComponentResource]] = [
    AckCluster,
    AckCpuNodePool,
    AckGpuNodePool,
    AckGpuSharing,
    AckMonitoring,
    AksCluster,
    AksCpuNodePool,
    AksGpuNodePool,
    AksGrafana,
    AksMonitoring,
    AksMonitoringWorkspaces,
    DcgmExporter,
    DriverCheck,
    ExistingCluster,
    GpuAdmissionPolicy,
    GpuWorkloadNamespace,
    NvidiaDevicePlugin,
    NvidiaGpuOperator,
    NvmeCache,
]

PACKAGE = "gpu-platform"
OWN_TYPES = f"#/types/{PACKAGE}:index:"


def undocumented(
    result: AnalyzeResult, where: str, properties: dict[str, PropertyDefinition]
) -> Iterator[str]:
    """Paths of the properties without a description, through nested types, lists and maps."""
    for name, prop in properties.items():
        path = f"{where}.{name}"
        if not prop.description:
            yield path
        yield from _nested(result, path, prop, seen=set())


def _nested(
    result: AnalyzeResult, path: str, prop: PropertyDefinition, seen: set[str]
) -> Iterator[str]:
    for inner in (prop.items, prop.additional_properties):
        if inner is not None:
            yield from _nested(result, path, inner, seen)
    # Our own types; others (``pulumi.json#/Any``, resources) have no properties to document.
    if prop.ref is not None and prop.ref.startswith(OWN_TYPES):
        type_name = prop.ref.removeprefix(OWN_TYPES)
        if type_name in seen:  # a recursive type: checked already
            return
        type_def = result["type_definitions"][type_name]
        for name, child in type_def.properties.items():
            child_path = f"{path}.{name}"
            if not child.description:
                yield child_path
            yield from _nested(result, child_path, child, seen | {type_name})


@pytest.mark.parametrize("component", COMPONENTS, ids=lambda c: c.__name__)
def test_analyzer_infers_a_documented_schema(component: type[pulumi.ComponentResource]) -> None:
    result = Analyzer(PACKAGE).analyze([component])
    definition = result["component_definitions"][component.__name__]
    assert definition.inputs, "no input properties: the analyzer found no args"
    assert list(undocumented(result, component.__name__, definition.inputs)) == []


def test_every_component_in_one_schema() -> None:
    """Type names are unique across components: the analyzer puts them all in one module."""
    result = Analyzer(PACKAGE).analyze(COMPONENTS)
    assert set(result["component_definitions"]) == {c.__name__ for c in COMPONENTS}


class _InnerArgs(TypedDict):
    """A nested type with an undocumented property."""

    documented: str
    """Has a description."""
    bare: NotRequired[str]


class _CheckedArgs(TypedDict):
    """Args of a component the check below must catch."""

    inner: list[_InnerArgs]
    """Documented itself; its items' ``bare`` is not."""


class _Checked(pulumi.ComponentResource):
    def __init__(self, name: str, args: _CheckedArgs) -> None:
        super().__init__("test:index:Checked", name)


def test_the_check_reaches_nested_properties() -> None:
    result = Analyzer(PACKAGE).analyze([_Checked])
    inputs = result["component_definitions"]["_Checked"].inputs
    assert list(undocumented(result, "_Checked", inputs)) == ["_Checked.inner.bare"]
