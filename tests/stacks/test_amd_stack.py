"""The amd-dev stack (an AMD MI300X pool next to an NVIDIA T4 pool) through the offline preview:
clean; NVIDIA's components never on AMD nodes and AMD's never on NVIDIA nodes, as the scheduler
would place them (taints against tolerations, labels against selectors and required affinity);
fail small; the NVMe cache and capacity as for NVIDIA sizes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from gpu_platform.offline_preview import PreviewResult
from gpu_platform.offline_preview.cli import EXIT_OK
from gpu_platform.offline_preview.graph import downstream, waits_for
from gpu_platform.offline_preview.render import as_document
from gpu_policy_support.node_placement import NodePlacement, node_placement
from gpu_policy_support.node_pools import NodePool, node_pools
from gpu_policy_support.tolerations import may_schedule
from tests.conftest import by_type, one, stack_preview

pytestmark = pytest.mark.slow

STACK = "amd-dev"
RELEASE = "kubernetes:helm.sh/v3:Release"
JOB = "kubernetes:batch/v1:Job"
AGENT_POOL = "azure-native:containerservice:AgentPool"


@pytest.fixture
def amd_dev() -> PreviewResult:
    return stack_preview(STACK)


def gpu_pools(result: PreviewResult) -> dict[str, NodePool]:
    """Every pool of the plan (the system pool inline in the cluster) by its AKS name."""
    found: dict[str, NodePool] = {}
    for resource in result.run.resources:
        for pool in node_pools(resource.type, resource.name, resource.inputs):
            found[pool.name.rsplit("[", 1)[-1].rstrip("]")] = pool
    return found


def lands(
    pools: Mapping[str, NodePool], placement: NodePlacement, tolerations: Sequence[Any]
) -> set[str]:
    """The pools whose nodes a pod with ``placement`` and ``tolerations`` may run on."""
    return {
        name
        for name, pool in pools.items()
        if placement.admits(pool.labels) and may_schedule(tolerations, pool.taints)
    }


def release(result: PreviewResult, chart: str) -> dict[str, Any]:
    (found,) = [r.inputs for r in by_type(result.run, RELEASE) if r.inputs["chart"] == chart]
    return found


def test_previews_clean(amd_dev: PreviewResult) -> None:
    """cert-manager's chart is no reference chart: offline its release (ours) is judged by its
    values, with no notice."""
    assert [(v.policy, v.message) for v in amd_dev.violations] == []
    assert amd_dev.exit_code == EXIT_OK


def test_nvidias_components_land_on_the_nvidia_pool_only(amd_dev: PreviewResult) -> None:
    pools = gpu_pools(amd_dev)
    assert {"mi300x", "t4", "system", "general"} <= set(pools)
    plugin = release(amd_dev, "nvidia-device-plugin")["values"]
    assert lands(pools, node_placement(plugin), plugin["tolerations"]) == {"t4"}
    worker = plugin["nfd"]["worker"]
    assert lands(pools, node_placement(worker), worker["tolerations"]) == {"t4"}
    exporter = release(amd_dev, "dcgm-exporter")["values"]
    assert lands(pools, node_placement(exporter), exporter["tolerations"]) == {"t4"}


def test_amds_operands_land_on_the_amd_pool_only(amd_dev: PreviewResult) -> None:
    """Each operand of the DeviceConfig: on the nodes its selector picks, with its tolerations
    (the exporter's with the operator's own ``amd-gpu-unhealthy``)."""
    pools = gpu_pools(amd_dev)
    (config,) = by_type(amd_dev.run, "kubernetes:amd.com/v1alpha1:DeviceConfig")
    spec = config.inputs["spec"]
    placement = NodePlacement(spec["selector"], None)
    unhealthy = {"key": "amd-gpu-unhealthy", "operator": "Exists", "effect": "NoSchedule"}
    for tolerations in (
        spec["driver"]["tolerations"],
        spec["devicePlugin"]["devicePluginTolerations"],
        spec["devicePlugin"]["nodeLabellerTolerations"],
        [*spec["metricsExporter"]["tolerations"], unhealthy],
    ):
        assert lands(pools, placement, tolerations) == {"mi300x"}


def test_each_pools_driver_check_runs_its_vendors_tool_on_its_nodes(
    amd_dev: PreviewResult,
) -> None:
    pools = gpu_pools(amd_dev)
    (check,) = [j.inputs for j in by_type(amd_dev.run, JOB)]  # t4 scales from zero: no check
    pod = check["spec"]["template"]["spec"]
    assert lands(pools, node_placement(pod), pod["tolerations"]) == {"mi300x"}
    assert "amd-smi" in pod["containers"][0]["command"][2]


def test_the_amd_pool_is_created_without_akss_driver(amd_dev: PreviewResult) -> None:
    pools = {r.inputs["agentPoolName"]: r.inputs for r in by_type(amd_dev.run, AGENT_POOL)}
    assert pools["mi300x"]["gpuProfile"] == {"driver": "None"}
    assert pools["t4"]["gpuProfile"] == {"driver": "Install"}
    assert pools["mi300x"]["nodeTaints"] == ["amd.com/gpu=present:NoSchedule"]


def test_gpu_capacity_and_the_nvme_cache(amd_dev: PreviewResult) -> None:
    outputs = amd_dev.run.outputs
    assert outputs["gpuCapacity"]["mi300x"] == {
        "perNode": {"amd.com/gpu": 8},
        "nodes": 1,
        "total": {"amd.com/gpu": 8},
    }
    classes = by_type(amd_dev.run, "kubernetes:storage.k8s.io/v1:StorageClass")
    assert [c.inputs["provisioner"] for c in classes] == ["localdisk.csi.acstor.io"]


def _named(result: PreviewResult) -> tuple[dict[str, Any], dict[str, str]]:
    document = as_document(result.run, result.violations)
    return waits_for(document["resources"]), {r["urn"]: r["name"] for r in document["resources"]}


def test_a_failed_amd_pool_holds_back_only_its_own_check(amd_dev: PreviewResult) -> None:
    graph, names = _named(amd_dev)
    for pool in by_type(amd_dev.run, AGENT_POOL):
        name = pool.inputs["agentPoolName"]
        held_back = {names[urn] for urn in downstream(graph, pool.urn)}
        assert held_back == {f"{STACK}-driver-check-{name}"} & set(names.values()), name


def test_the_operator_waits_for_cert_manager_and_its_device_config_for_the_release(
    amd_dev: PreviewResult,
) -> None:
    graph, names = _named(amd_dev)
    operator = one(amd_dev.run, "gpu-platform:index:AmdGpuOperator")
    operator_release = next(
        r for r in by_type(amd_dev.run, RELEASE) if r.inputs["chart"] == "gpu-operator-charts"
    )
    (config,) = by_type(amd_dev.run, "kubernetes:amd.com/v1alpha1:DeviceConfig")
    assert operator_release.urn in config.dependencies
    # The operator (its release, its DeviceConfig) waits for cert-manager's release, whose CRDs
    # the release needs.
    manager_release = next(
        r for r in by_type(amd_dev.run, RELEASE) if r.inputs["chart"] == "cert-manager"
    )
    assert manager_release.urn in operator.dependencies
    assert operator_release.urn in downstream(graph, manager_release.urn), names[
        operator_release.urn
    ]
