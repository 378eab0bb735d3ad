"""The queue checks on objects (verify.queue_checks): one row each, failing rows naming what
differs."""

from __future__ import annotations

from typing import Any

from gpu_platform.verify.queue_checks import (
    cluster_queue_row,
    controller_row,
    flavor_row,
    live_quotas,
    local_queue_row,
)
from gpu_platform.verify.queue_expectations import (
    ClusterQueueExpectation,
    FlavorExpectation,
    LocalQueueExpectation,
    QueueExpectation,
)

TOLERATION = {
    "key": "nvidia.com/gpu",
    "operator": "Equal",
    "value": "present",
    "effect": "NoSchedule",
}
FLAVOR = FlavorExpectation("t4", "t4", {"gpu-platform.io/pool": "t4"}, [TOLERATION])
QUEUE = ClusterQueueExpectation("training", "gpu-platform", {("t4", "nvidia.com/gpu"): 4})
QUEUES = QueueExpectation("kueue-system", [FLAVOR], [QUEUE], [])


def node(name: str) -> dict[str, Any]:
    return {"metadata": {"name": name}}


def flavor_obj(labels: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "metadata": {"name": "t4"},
        "spec": {
            "nodeLabels": {"gpu-platform.io/pool": "t4"} if labels is None else labels,
            "tolerations": [TOLERATION],
        },
    }


def queue_obj(nominal: Any = "4", active: str = "True") -> dict[str, Any]:
    return {
        "metadata": {"name": "training"},
        "spec": {
            "cohortName": "gpu-platform",
            "resourceGroups": [
                {
                    "coveredResources": ["nvidia.com/gpu"],
                    "flavors": [
                        {
                            "name": "t4",
                            "resources": [{"name": "nvidia.com/gpu", "nominalQuota": nominal}],
                        }
                    ],
                }
            ],
        },
        "status": {"conditions": [{"type": "Active", "status": active, "reason": "Ready"}]},
    }


def test_the_controller_needs_its_ready_replicas() -> None:
    ready = {"spec": {"replicas": 2}, "status": {"readyReplicas": 2}}
    assert controller_row(QUEUES, ready).status == "pass"
    assert controller_row(QUEUES, {"spec": {"replicas": 2}, "status": {}}).found == "0/2 ready"
    assert controller_row(QUEUES, None).found == "no such Deployment"


def test_quotas_are_read_whatever_form_the_server_sends() -> None:
    for nominal in (4, "4", "4000m"):
        assert live_quotas(queue_obj(nominal)) == {("t4", "nvidia.com/gpu"): 4}


def test_a_cluster_queue_row() -> None:
    assert cluster_queue_row(QUEUE, queue_obj()).found == "Active, as planned"
    inactive = cluster_queue_row(QUEUE, queue_obj(active="False"))
    assert (inactive.status, inactive.found) == ("fail", "not Active (Ready)")
    assert (
        cluster_queue_row(QUEUE, queue_obj("8")).found == "nominal quotas nvidia.com/gpu on t4: 8"
    )
    assert cluster_queue_row(QUEUE, None).found == "no such ClusterQueue"


def test_a_local_queue_row() -> None:
    expected = LocalQueueExpectation("gpu-training", "training", "training")
    assert local_queue_row(expected, {"spec": {"clusterQueue": "training"}}).status == "pass"
    assert local_queue_row(expected, {"spec": {}}).found == "points at nothing"


def test_a_flavour_selects_exactly_its_pools_nodes() -> None:
    pool = [node("t4-0"), node("t4-1")]
    assert flavor_row(FLAVOR, flavor_obj(), pool, pool).found == "selects the pool's 2 nodes"
    assert flavor_row(FLAVOR, flavor_obj(), [], pool).found == "its nodeLabels select no node"
    more = flavor_row(FLAVOR, flavor_obj(), [*pool, node("a100-0")], pool)
    assert more.found == "3 nodes selected; not of the pool: a100-0"
    fewer = flavor_row(FLAVOR, flavor_obj(), pool[:1], pool)
    assert fewer.found == "1 node selected; the pool's left out: t4-1"


def test_a_pool_scaled_to_zero_has_no_node_to_select() -> None:
    row = flavor_row(FLAVOR, flavor_obj(), [], [])
    assert (row.status, row.found) == (
        "pass",
        "selects the pool's nodes: none now (scaled to zero)",
    )


def test_a_flavour_drifted_from_its_pool_fails() -> None:
    row = flavor_row(FLAVOR, flavor_obj({"pool": "t4"}), [], [node("t4-0")])
    assert row.status == "fail"
    assert row.found == "nodeLabels {'pool': 't4'}; its nodeLabels select no node"
    assert flavor_row(FLAVOR, None, None, []).found == "no such ResourceFlavor"
