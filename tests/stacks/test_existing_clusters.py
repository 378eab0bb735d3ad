"""Existing clusters in their own terms, previewed whole (our program and the pack on the mock
engine, as ``python -m gpu_platform.offline_preview --config FILE`` runs it): an EKS cluster
of p5.48xlarge nodes with MIG, a GKE cluster of a3-highgpu-8g nodes and time-sliced L4s, and an
on-premises DGX H100 cluster. Each previews clean, with the capacity its nodes have, quotas on
the resources its pools expose and one device-plugin config per pool."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpu_platform.offline_preview import PreviewResult, preview
from tests.conftest import ROOT, by_type, run_once

pytestmark = pytest.mark.slow

WORKLOADS = [
    {"name": "train", "type": "training", "gpuQuota": 8},
    {"name": "serve", "type": "inference", "gpuQuota": 4},
]
CLUSTERS: dict[str, dict[str, Any]] = {
    "eks": {
        "cluster": {"name": "eks-gpu"},
        "gpuPools": [
            {
                "name": "p5",
                "machineType": "p5.48xlarge",
                "count": 2,
                "mig": {"profile": "1g.10gb", "strategy": "mixed"},
            },
            {"name": "g6", "machineType": "g6.12xlarge", "count": 3},
        ],
    },
    "gke": {
        "cluster": {"name": "gke-gpu"},
        "gpuPools": [
            {"name": "a3", "machineType": "a3-highgpu-8g", "count": 1},
            {
                "name": "l4",
                "machineType": "g2-standard-24",
                "count": 2,
                "sharing": {"mode": "timeSlicing", "replicas": 3},
            },
        ],
    },
    "dgx": {
        "cluster": {"name": "dgx-h100"},
        "gpuPools": [
            {"name": "dgx", "gpu": {"model": "H100-80GB", "count": 8}, "count": 4},
            {
                "name": "dgxmig",
                "gpu": {"model": "H100-80GB", "count": 8},
                "count": 1,
                "mig": {"profile": "3g.40gb", "strategy": "single"},
            },
        ],
    },
}
"""Per cluster: its pools in their own terms (what the preview must make of them is below)."""
CAPACITY = {
    "eks": {
        "p5": ({"nvidia.com/mig-1g.10gb": 56}, 2),
        "g6": ({"nvidia.com/gpu": 4}, 3),
    },
    "gke": {
        "a3": ({"nvidia.com/gpu": 8}, 1),
        "l4": ({"nvidia.com/gpu.shared": 6}, 2),
    },
    "dgx": {
        "dgx": ({"nvidia.com/gpu": 8}, 4),
        "dgxmig": ({"nvidia.com/gpu": 16}, 1),  # single strategy: 2 x 3g.40gb per H100
    },
}
"""Per node: what the scheduler sees (the GPUs per node from the catalogue or the stack)."""


@run_once
def cluster_preview(name: str) -> PreviewResult:
    config = {
        "config": {
            "gpu-platform:cloud": "existing",
            **{f"gpu-platform:{k}": v for k, v in CLUSTERS[name].items()},
            "gpu-platform:workloads": WORKLOADS,
        }
    }
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"Pulumi.{name}.yaml"
        path.write_text(yaml.safe_dump(config))
        return preview(ROOT, stack=name, config_file=path)


@pytest.mark.parametrize("name", sorted(CLUSTERS))
def test_previews_clean_with_the_nodes_capacity(name: str) -> None:
    result = cluster_preview(name)
    assert [v for v in result.violations if v.enforcement == "mandatory"] == []
    capacity = result.run.outputs["gpuCapacity"]
    assert {
        pool: (found["perNode"], found["nodes"]) for pool, found in capacity.items()
    } == CAPACITY[name]


@pytest.mark.parametrize("name", sorted(CLUSTERS))
def test_quotas_cover_the_resources_its_pools_expose(name: str) -> None:
    result = cluster_preview(name)
    quotas = {
        q.inputs["metadata"]["namespace"]: q.inputs["spec"]["hard"]
        for q in by_type(result.run, "kubernetes:core/v1:ResourceQuota")
        if q.inputs["metadata"]["namespace"] in {"train", "serve"}
        and any("nvidia.com" in key for key in q.inputs["spec"]["hard"])
    }
    exposed = {r for per_node, _ in CAPACITY[name].values() for r in per_node}
    train = {key.removeprefix("requests.") for key in quotas["train"]}
    # Training may use every pool that is not shared: each of their resources is capped.
    unshared = {r for r in exposed if not r.endswith(".shared")}
    assert unshared <= train


@pytest.mark.parametrize("name", sorted(CLUSTERS))
def test_one_device_plugin_config_per_pool(name: str) -> None:
    result = cluster_preview(name)
    (release,) = [
        r
        for r in by_type(result.run, "kubernetes:helm.sh/v3:Release")
        if r.inputs.get("chart") == "nvidia-device-plugin"
    ]
    configs = yaml.safe_load(release.inputs["values"]["config"]["map"][CONFIG_OF[name]])
    assert set(release.inputs["values"]["config"]["map"]) >= set(CAPACITY[name])
    assert configs["version"] == "v1"


CONFIG_OF = {"eks": "p5", "gke": "l4", "dgx": "dgxmig"}
"""A pool per cluster whose config says more than the default."""


def test_the_mig_and_sharing_configs_say_what_the_pools_are() -> None:
    def config(name: str, pool: str) -> dict[str, Any]:
        (release,) = [
            r
            for r in by_type(cluster_preview(name).run, "kubernetes:helm.sh/v3:Release")
            if r.inputs.get("chart") == "nvidia-device-plugin"
        ]
        return yaml.safe_load(release.inputs["values"]["config"]["map"][pool])

    assert config("eks", "p5")["flags"]["migStrategy"] == "mixed"
    assert config("dgx", "dgxmig")["flags"]["migStrategy"] == "single"
    sharing = config("gke", "l4")["sharing"]["timeSlicing"]
    assert sharing["resources"] == [{"name": "nvidia.com/gpu", "replicas": 3}]
    assert sharing["renameByDefault"] is True  # advertised as nvidia.com/gpu.shared
