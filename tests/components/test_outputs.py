"""Output helpers (components/outputs.py): a value carrying a dependency on a resource."""

from __future__ import annotations

import pulumi
import pulumi_kubernetes as k8s

from gpu_platform.components.outputs import known_after
from tests.conftest import run


def test_known_after_is_the_value_and_waits_for_the_resource() -> None:
    def program() -> None:
        namespace = k8s.core.v1.Namespace(
            "ns", metadata=k8s.meta.v1.ObjectMetaArgs(name="gpu-training")
        )
        name = known_after("gpu-training", namespace)
        k8s.core.v1.ConfigMap(
            "cm",
            metadata=k8s.meta.v1.ObjectMetaArgs(name="cm", namespace=name),
            data={"a": "b"},
        )
        pulumi.export("name", name)

    result = run(program)
    (namespace,) = [r for r in result.resources if r.type == "kubernetes:core/v1:Namespace"]
    (config_map,) = [r for r in result.resources if r.type == "kubernetes:core/v1:ConfigMap"]
    assert result.outputs["name"] == "gpu-training"
    # Known at preview (a policy reads where the ConfigMap goes), and it waits for the namespace.
    assert config_map.inputs["metadata"]["namespace"] == "gpu-training"
    assert namespace.urn in config_map.dependencies
