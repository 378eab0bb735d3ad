"""Pulumi's component analyzer infers a schema from each component's typed args: the first step
to publishing the components to every Pulumi language. Every input, and every property of a
nested args type, carries its docstring as the schema description.

Add a component to ``COMPONENTS`` when its args follow docs/architecture.md's conventions.
"""

from __future__ import annotations

import pulumi
import pytest
from pulumi.provider.experimental.analyzer import Analyzer

from components.aks_cluster import AksCluster
from components.aks_gpu_node_pool import AksGpuNodePool
from components.nvme_cache import NvmeCache

COMPONENTS: list[type[pulumi.ComponentResource]] = [
    AksCluster,
    AksGpuNodePool,
    NvmeCache,
]


@pytest.mark.parametrize("component", COMPONENTS, ids=lambda c: c.__name__)
def test_the_analyzer_infers_a_documented_schema(component: type[pulumi.ComponentResource]) -> None:
    result = Analyzer("gpu-platform").analyze([component])
    definition = result["component_definitions"][component.__name__]
    assert definition.description
    assert definition.inputs, "no inputs: the args annotation was not read"
    undocumented = [name for name, prop in definition.inputs.items() if not prop.description]
    for type_name, type_def in result["type_definitions"].items():
        undocumented += [
            f"{type_name}.{name}"
            for name, prop in type_def.properties.items()
            if not prop.description
        ]
    assert undocumented == []


def test_type_names_are_unique_across_components() -> None:
    # The analyzer puts every type in one module and refuses a name used by two modules.
    result = Analyzer("gpu-platform").analyze(COMPONENTS)
    assert set(result["component_definitions"]) == {c.__name__ for c in COMPONENTS}
