"""What a plan's components promise, through the plan functions (verify.plan_expectations)."""

from __future__ import annotations

import pytest

from gpu_platform.verify.plan_expectations import plan_expectations
from gpu_platform.verify.plan_file import PlanError, PlannedResource

T4 = {"name": "t4", "vmSize": "Standard_NC4as_T4_v3", "autoscale": {"min": 0, "max": 2}}


def _component(kind: str, resource: str, **inputs: object) -> PlannedResource:
    return PlannedResource(f"gpu-platform:index:{kind}", resource, dict(inputs))


def test_a_provider_built_program_in_the_schemas_names() -> None:
    exp, amd, _, queues = plan_expectations(
        [
            _component("AksGpuNodePool", "gpu", pool=T4, clusterName="c", workloadTypes=["x"]),
            _component("NvidiaDevicePlugin", "plugin", pools=[T4], cloud="aks", gfd=False),
            _component("DcgmExporter", "metrics", pools=[T4], cloud="aks", namespace="m"),
        ]
    )
    (pool,) = exp.pools
    assert (pool.name, pool.min_nodes, pool.max_nodes, pool.allocatable) == (
        "t4",
        0,
        2,
        {"nvidia.com/gpu": 1},
    )
    assert pool.labels["workload.gpu-platform.io/x"] == "true"
    assert pool.gfd is False
    assert exp.exporter is not None and exp.exporter.namespace == "m"
    assert exp.namespaces == [] and amd is None and queues is None
    assert exp.seeds.cloud == "aks" and exp.seeds.node_os_channel is None


def test_what_the_plan_does_not_register_is_not_expected() -> None:
    exp, _, _, _ = plan_expectations(
        [
            _component("NvidiaDevicePlugin", "plugin", pools=[T4], cloud="aks"),
            _component(
                "GpuWorkloadNamespace", "ns", name="team", type="inference", pools=[T4], gpu_quota=2
            ),
        ]
    )
    assert exp.exporter is None
    assert exp.exporter_skipped.startswith("the plan registers no DcgmExporter")
    (ns,) = exp.namespaces
    assert (ns.name, ns.gpu_quota, ns.admission_action) == (
        "team",
        {"requests.nvidia.com/gpu": 2},
        "",
    )
    # An existing cluster's nodes: the labels the plugin and the checks rely on.
    assert exp.pools[0].labels == {
        "nvidia.com/gpu.present": "true",
        "nvidia.com/device-plugin.config": "t4",
    }


def test_nothing_to_verify_and_bad_pools_are_plan_errors() -> None:
    with pytest.raises(PlanError, match="nothing to verify"):
        plan_expectations([PlannedResource("kubernetes:core/v1:Namespace", "ns", {})])
    with pytest.raises(PlanError, match="AksGpuNodePool gpu: pool vmSize"):
        plan_expectations([_component("AksGpuNodePool", "gpu", pool={"name": "t4", "vmSize": 3})])
    with pytest.raises(PlanError, match="DcgmExporter m: cloud 'gcp' is none of aks, "):
        plan_expectations([_component("DcgmExporter", "m", pools=[T4], cloud="gcp")])
    with pytest.raises(PlanError, match="AksGpuNodePool gpu: pool : Input should be a valid dict"):
        plan_expectations([_component("AksGpuNodePool", "gpu", pool="t4")])


def test_an_existing_clusters_pool_in_a_former_releases_keys() -> None:
    """Read as the components read it: ``vmSize`` on an existing cluster is ``machineType``."""
    exp, _, _, _ = plan_expectations([_component("NvidiaDevicePlugin", "p", pools=[T4])])
    (pool,) = exp.pools
    assert (pool.name, pool.allocatable) == ("t4", {"nvidia.com/gpu": 1})


def test_a_provider_built_gpu_queues_in_the_schemas_names() -> None:
    """GpuQueues from a YAML program: its namespaces in camelCase, a per-resource quota."""
    _, _, _, queues = plan_expectations(
        [
            _component(
                "GpuQueues",
                "queues",
                pools=[T4],
                cloud="aks",
                cohort="lab",
                namespaces=[
                    {
                        "name": "team-a",
                        "type": "training",
                        "gpuQuotaPerResource": {"nvidia.com/gpu": 2},
                    }
                ],
            )
        ]
    )
    assert queues is not None
    assert [(f.name, f.pool) for f in queues.flavors] == [("t4", "t4")]
    (cluster_queue,) = queues.cluster_queues
    assert (cluster_queue.name, cluster_queue.cohort) == ("training", "lab")
    assert cluster_queue.quotas[("t4", "nvidia.com/gpu")] == 2
    assert [(q.namespace, q.name, q.cluster_queue) for q in queues.local_queues] == [
        ("team-a", "training", "training")
    ]
    with pytest.raises(PlanError, match=r"GpuQueues queues: queueing_strategy: Input should be"):
        plan_expectations(
            [_component("GpuQueues", "queues", pools=[T4], namespaces=[], queueingStrategy="LIFO")]
        )
