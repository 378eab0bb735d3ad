"""Queues as the config means them (plan.queues): a flavour per pool from the pool's placement,
a ClusterQueue per type whose nominal quotas are the namespaces' and never more than a pool
holds, LocalQueues, the sharing defaults, and what Kueue would refuse."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gpu_facts import PoolShape, kueue, pool_capacity
from gpu_facts.scheduling import GPU_NODE_TAINT, POOL_LABEL
from gpu_platform.plan.node_labels import node_labels
from gpu_platform.plan.pools import pool_placement
from gpu_platform.plan.queue_controller import manager_config
from gpu_platform.plan.queues import (
    ClusterQueue,
    apportion,
    device_class_mappings,
    pool_flavor,
    queue_namespace,
    queue_problems,
    queue_resources,
    queue_totals,
    queues_plan,
    type_policy,
)
from gpu_platform.settings import QueuesSettings, QueueTypeSettings, WorkloadSettings
from tests.conftest import platform_of, stack_raw


def _platform(change: Any = None) -> Any:
    raw = stack_raw("queues-dev")
    if change is not None:
        change(raw)
    return platform_of(raw)


def _plan(change: Any = None) -> Any:
    platform = _platform(change)
    settings = platform.settings
    assert settings.queues is not None
    return queues_plan(settings.queues, platform.pools, settings.workloads)


def _queue(plan: Any, name: str) -> ClusterQueue:
    return next(q for q in plan.cluster_queues if q.name == name)


@pytest.mark.parametrize(
    ("total", "weights", "shares"),
    [
        (16, [12, 4], [12, 4]),
        (16, [12, 8], [10, 6]),  # 9.6 and 6.4: the larger remainder gets the last one
        (10, [1, 1, 1], [4, 3, 3]),  # ties go to the earlier
        (5, [0, 0], [3, 2]),  # nothing to weigh by: evenly
        (7, [], []),
    ],
)
def test_apportion_shares_in_proportion_and_hands_out_everything(
    total: int, weights: list[int], shares: list[int]
) -> None:
    assert apportion(total, weights) == shares
    assert sum(shares) == (total if weights else 0)


def test_each_pool_has_a_flavour_that_selects_and_tolerates_exactly_its_placement() -> None:
    """The flavour's labels and tolerations come from the pool placement the pool components
    label and taint the nodes with: its labels are among the nodes', each of its tolerations
    tolerates exactly one of the nodes' taints."""
    platform = _platform()
    plan = _plan()
    assert [f.name for f in plan.flavors] == list(platform.pools)
    for flavor in plan.flavors:
        pool = platform.pools[flavor.pool]
        placement = pool_placement(pool)
        assert flavor.node_labels == placement.labels == {POOL_LABEL: pool.name}
        assert flavor.node_labels.items() <= node_labels(platform, pool).items()
        assert flavor.node_taints == placement.taints == (GPU_NODE_TAINT,)
        assert list(flavor.tolerations) == placement.tolerations()
        assert flavor.spec() == {
            "nodeLabels": {POOL_LABEL: pool.name},
            "nodeTaints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}],
            "tolerations": [
                {
                    "key": "nvidia.com/gpu",
                    "operator": "Equal",
                    "value": "present",
                    "effect": "NoSchedule",
                }
            ],
        }


def test_an_amd_pools_flavour_tolerates_amds_taint() -> None:
    platform = platform_of(stack_raw("amd-dev"))
    flavor = pool_flavor(platform.pools["mi300x"])
    assert [t["key"] for t in flavor.tolerations] == ["amd.com/gpu"]
    assert [t.key for t in flavor.node_taints] == ["amd.com/gpu"]


def test_the_types_nominal_quotas_are_their_namespaces_gpu_quotas() -> None:
    plan = _plan()
    training, inference = _queue(plan, "training"), _queue(plan, "inference")
    assert training.quotas == {"a100": {"nvidia.com/gpu": 12}}
    assert inference.quotas == {"a100": {"nvidia.com/gpu": 4}, "t4": {"nvidia.com/gpu.shared": 12}}
    assert training.covered == inference.covered == ("nvidia.com/gpu", "nvidia.com/gpu.shared")
    assert plan.warnings == []


def test_a_cluster_queue_admits_its_types_namespaces_only_and_covers_every_gpu_resource() -> None:
    spec = _queue(_plan(), "inference").spec()
    assert spec["namespaceSelector"] == {
        "matchExpressions": [
            {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["gpu-inference"]}
        ]
    }
    (group,) = spec["resourceGroups"]
    assert group["coveredResources"] == ["nvidia.com/gpu", "nvidia.com/gpu.shared"]
    # Kueue's CEL rule: every flavour lists exactly the covered resources, in their order.
    for flavor in group["flavors"]:
        assert [r["name"] for r in flavor["resources"]] == group["coveredResources"]
    assert [f["name"] for f in group["flavors"]] == ["a100", "t4"]
    assert spec["cohortName"] == "gpu-platform"
    assert spec["queueingStrategy"] == "BestEffortFIFO"


def test_by_default_inference_lends_and_reclaims_but_never_borrows() -> None:
    plan = _plan()
    inference, training = _queue(plan, "inference").spec(), _queue(plan, "training").spec()
    for spec in (inference, training):
        assert spec["preemption"] == {
            "reclaimWithinCohort": "Any",
            "withinClusterQueue": "LowerPriority",
            "borrowWithinCohort": {"policy": "Never"},
        }
    a100 = inference["resourceGroups"][0]["flavors"][0]["resources"][0]
    assert a100 == {"name": "nvidia.com/gpu", "nominalQuota": 4, "borrowingLimit": 0}
    # Training borrows without limit and lends everything: no limits written.
    assert training["resourceGroups"][0]["flavors"][0]["resources"][0] == {
        "name": "nvidia.com/gpu",
        "nominalQuota": 12,
    }


def test_borrowing_and_lending_limits_are_shares_of_the_nominal_quota() -> None:
    def limits(raw: dict[str, Any]) -> None:
        raw["queues"] = {
            "types": {
                "inference": {"borrow": True, "borrowingLimitPercent": 50},
                "training": {"lendingLimitPercent": 25, "reclaimWithinCohort": "LowerPriority"},
            }
        }

    plan = _plan(limits)
    inference = _queue(plan, "inference").quota("a100", "nvidia.com/gpu")
    training = _queue(plan, "training").quota("a100", "nvidia.com/gpu")
    assert (inference.nominal, inference.borrowing_limit, inference.lending_limit) == (4, 2, None)
    assert (training.nominal, training.borrowing_limit, training.lending_limit) == (12, None, 3)
    assert _queue(plan, "training").spec()["preemption"]["reclaimWithinCohort"] == "LowerPriority"


def test_type_policy_defaults() -> None:
    assert type_policy("inference", None).borrowing_limit_percent == 0
    assert type_policy("training", None).borrowing_limit_percent is None
    assert type_policy("research", QueueTypeSettings(borrow=False)).borrowing_limit_percent == 0
    assert (
        type_policy("training", QueueTypeSettings(lending_limit_percent=100)).lending_limit_percent
        is None
    )


def test_a_namespace_quota_on_several_pools_is_split_by_their_size() -> None:
    def two_pools(raw: dict[str, Any]) -> None:
        a100 = raw["gpuPools"][0]
        raw["gpuPools"].append({**a100, "name": "a100b", "count": 1})
        raw["workloads"][0]["pools"] = ["a100", "a100b"]

    training = _queue(_plan(two_pools), "training")
    # 12 over 16 and 8 GPUs.
    assert training.quotas == {"a100": {"nvidia.com/gpu": 8}, "a100b": {"nvidia.com/gpu": 4}}


def test_types_that_ask_a_pool_for_more_than_it_holds_share_it_and_are_warned() -> None:
    def ask_more(raw: dict[str, Any]) -> None:
        raw["workloads"][1]["gpuQuota"]["nvidia.com/gpu"] = 8

    plan = _plan(ask_more)
    assert _queue(plan, "training").quotas["a100"] == {"nvidia.com/gpu": 10}
    assert _queue(plan, "inference").quotas["a100"] == {"nvidia.com/gpu": 6}
    assert plan.warnings == [
        "queues: the namespaces ask pool 'a100' for 20 nvidia.com/gpu, more than it holds (16); "
        "the ClusterQueues' nominal quotas share it: inference 6, training 10"
    ]
    # The platform's warnings carry it too.
    assert plan.warnings[0] in _platform(ask_more).warnings


def test_one_local_queue_per_namespace_named_like_its_type() -> None:
    plan = _plan()
    assert [(q.namespace, q.name, q.cluster_queue) for q in plan.local_queues] == [
        ("gpu-training", "training", "training"),
        ("gpu-inference", "inference", "inference"),
    ]
    assert plan.local_queue("gpu-inference").spec() == {"clusterQueue": "inference"}
    assert plan.local_queue("nowhere") is None


def _settings(**fields: Any) -> QueuesSettings:
    return QueuesSettings.model_validate(fields)


def _workloads() -> list[WorkloadSettings]:
    return list(_platform().settings.workloads)


def test_the_defaults_pass() -> None:
    platform = _platform()
    assert queue_problems(_settings(), platform.pools.values(), _workloads()) == []


@pytest.mark.parametrize(
    ("fields", "workloads", "expected"),
    [
        (
            {"version": "0.18.6"},
            True,
            ("version", "0.18.6 is older than 0.19.0: the ClusterQueues cover GPU resources"),
        ),
        ({"version": "latest"}, True, ("version", "not a chart version: 'latest'")),
        ({}, False, ("", "no workload namespaces to queue")),
        (
            {"types": {"research": {}}},
            True,
            ("types.research", "no workload namespace has type 'research'"),
        ),
        (
            {
                "types": {
                    "training": {
                        "reclaimWithinCohort": "Never",
                        "borrowWithinCohort": "LowerPriority",
                    }
                }
            },
            True,
            ("types.training.borrowWithinCohort", "Kueue refuses borrowWithinCohort other than"),
        ),
    ],
)
def test_what_kueue_or_the_platform_would_refuse(
    fields: dict[str, Any], workloads: bool, expected: tuple[str, str]
) -> None:
    found = queue_problems(
        _settings(**fields), _platform().pools.values(), _workloads() if workloads else []
    )
    assert len(found) == 1
    path, message = found[0]
    assert path == expected[0] and message.startswith(expected[1]), found


def test_a_cluster_queue_takes_at_most_64_flavours() -> None:
    pool = _platform().pools["a100"]
    found = queue_problems(_settings(), [pool] * (kueue.FLAVORS_MAX + 1), _workloads())
    assert found == [("", "65 GPU pools; a ClusterQueue takes at most 64 flavours")]


def _dra(pool: Any) -> Any:
    """``pool`` served through DRA (issue 28 brings such pools to the config; the capacity model
    has them): no extended resource, its devices per DeviceClass."""
    capacity = pool.capacity
    shape = PoolShape(
        pool.gpu_model, pool.gpus_per_node, capacity.min_nodes, capacity.max_nodes, allocation="dra"
    )
    return replace(pool, capacity=pool_capacity(shape))


def test_a_dra_pools_devices_are_quota_d_through_kueues_device_class_mapping() -> None:
    platform = _platform()
    pools = {**platform.pools, "a100": _dra(platform.pools["a100"])}
    assert platform.settings.queues is not None
    plan = queues_plan(platform.settings.queues, pools, platform.settings.workloads)
    key = "gpu.nvidia.com.deviceclass.resource.k8s.io/devices"
    assert key in _queue(plan, "training").covered
    assert _queue(plan, "training").quotas["a100"] == {}  # asks nvidia.com/gpu, not devices
    assert device_class_mappings(pools.values()) == [
        {"name": key, "deviceClassNames": ["gpu.nvidia.com"]}
    ]
    assert queue_resources(pools["a100"]) == {key: 8}
    assert queue_totals(pools["a100"]) == {key: 16}
    # A namespace quota of one number covers the devices too.
    unlisted = [w.model_copy(update={"gpu_quota": 6}) for w in platform.settings.workloads]
    plan = queues_plan(platform.settings.queues, pools, unlisted)
    assert _queue(plan, "training").quotas["a100"] == {key: 6}
    mapping = manager_config(device_class_mappings(pools.values()))["resources"]
    assert mapping["deviceClassMappings"] == [{"name": key, "deviceClassNames": ["gpu.nvidia.com"]}]


def test_a_queued_namespace_reads_as_a_workloads_settings() -> None:
    """GpuQueues' namespace args, as the component and make verify --plan read them."""
    per_resource = {
        "name": "a",
        "type": "training",
        "gpu_quota_per_resource": {"nvidia.com/gpu": 2},
    }
    assert queue_namespace(per_resource) == {
        "name": "a",
        "type": "training",
        "gpu_quota": {"nvidia.com/gpu": 2},
    }
    whole = {"name": "b", "type": "inference", "gpu_quota": 4, "pools": ["t4"]}
    assert queue_namespace(whole) == whole
    assert WorkloadSettings.model_validate(queue_namespace(per_resource)).gpu_quota == {
        "nvidia.com/gpu": 2
    }
