"""GpuPlatform (components/platform.py): the stack config mapped onto the components, per
cloud. Built here from a config written in the test (an existing cluster's DGX pool), not from
a stack file; whole stacks are ``tests/stacks/``."""

from __future__ import annotations

from typing import Any

import pulumi

from gpu_platform.components.platform import GpuPlatform
from gpu_platform.stack_config import load_platform
from tests.conftest import run

DGX: dict[str, Any] = {
    "cloud": "existing",
    "cluster": {"name": "lab"},
    "gpuPools": [
        {"name": "dgx", "gpu": {"model": "H100-80GB", "count": 8}, "count": 2},
        {
            "name": "dgxmig",
            "gpu": {"model": "A100-80GB", "count": 8},
            "count": 1,
            "mig": {"profile": "1g.10gb"},
        },
    ],
    "workloads": [{"name": "train", "type": "training", "gpuQuota": 16}],
}


def test_an_existing_clusters_platform_is_composed_of_the_in_cluster_components() -> None:
    def program() -> None:
        platform = GpuPlatform("lab", load_platform(DGX))
        pulumi.export("capacity", platform.gpu_capacity)
        pulumi.export("namespaces", platform.namespaces)

    result = run(program)
    (root,) = [r for r in result.resources if r.type == "gpu-platform:index:GpuPlatform"]
    components = {
        r.type.rsplit(":", 1)[-1]
        for r in result.resources
        if r.type.startswith("gpu-platform:index:") and r.parent == root.urn
    }
    assert {"ExistingCluster", "NvidiaDevicePlugin", "DriverCheck", "GpuWorkloadNamespace"} <= (
        components
    )
    assert "AksCluster" not in components and "AckCluster" not in components
    assert result.outputs["capacity"] == {
        "dgx": {"perNode": {"nvidia.com/gpu": 8}, "nodes": 2, "total": {"nvidia.com/gpu": 16}},
        "dgxmig": {
            "perNode": {"nvidia.com/mig-1g.10gb": 56},
            "nodes": 1,
            "total": {"nvidia.com/mig-1g.10gb": 56},
        },
    }
    assert result.outputs["namespaces"] == ["train"]
