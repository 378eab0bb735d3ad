"""plan.metrics: the exporter on every GPU node (ACK's shared pools by our pool label), told only
the resource names it can attribute."""

from __future__ import annotations

from gpu_facts.scheduling import GPU_NODE_TAINT
from gpu_platform.plan.cpu_pools import cpu_node_labels
from gpu_platform.plan.metrics import (
    ack_shared_pools,
    attributed_pools,
    exporter_env,
    exporter_pools,
    exporter_values,
    exposed_resources,
    resource_names_to_declare,
)
from gpu_platform.plan.node_labels import node_labels
from gpu_policy_support.node_placement import node_placement
from gpu_policy_support.tolerations import untolerated
from tests.conftest import platform_of, stack_raw


def _ack_with_every_sharing_mode() -> dict:
    raw = stack_raw("ack-dev")
    mps = raw["gpuPools"][0]
    raw["gpuPools"] += [
        {**mps, "name": "a10cgpu", "sharing": {"mode": "cgpu"}},
        {**mps, "name": "a10share", "sharing": {"mode": "share"}},
    ]
    return raw


def test_every_ack_gpu_pool_gets_the_exporter_and_only_the_plugins_are_attributed() -> None:
    pools = list(platform_of(stack_raw("ack-dev")).pools.values())
    assert [p.name for p in exporter_pools(pools)] == ["a10mps", "t4"]
    assert [p.name for p in ack_shared_pools(pools)] == ["a10mps"]
    assert [p.name for p in attributed_pools(pools)] == ["t4"]
    # aliyun.com/gpu-mem is neither attributed nor declared; nvidia.com/gpu needs no telling.
    assert exposed_resources(pools) == ["nvidia.com/gpu"]
    assert resource_names_to_declare(pools) == []
    # ACK's shared GPUs get no per-pod series: it could name none of their pods.
    assert exporter_env(pools) == []


def test_the_exporter_lands_on_each_gpu_pools_nodes_and_on_no_cpu_or_system_node() -> None:
    platform = platform_of(_ack_with_every_sharing_mode())
    pools = list(platform.pools.values())
    values = exporter_values(pools, "armsPrometheus")
    placement = node_placement(values)
    # The taint and labels the ACK node pool component gives every GPU pool's nodes.
    assert untolerated(tuple(values["tolerations"]), (GPU_NODE_TAINT,)) == []
    for pool in pools:
        assert placement.admits(node_labels(platform, pool)), pool.name
    assert not placement.admits(cpu_node_labels("general", {}))
    assert not placement.admits({})
    terms = values["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert terms["nodeSelectorTerms"][1] == {
        "matchExpressions": [
            {
                "key": "gpu-platform.io/pool",
                "operator": "In",
                "values": ["a10cgpu", "a10mps", "a10share"],
            }
        ]
    }


def test_off_ack_the_plugins_labels_alone_select_the_nodes() -> None:
    for stack in ("dev", "prod", "existing"):
        pools = list(platform_of(stack_raw(stack)).pools.values())
        assert ack_shared_pools(pools) == []
        assert attributed_pools(pools) == exporter_pools(pools)
        terms = exporter_values(pools, "annotations")["affinity"]["nodeAffinity"][
            "requiredDuringSchedulingIgnoredDuringExecution"
        ]["nodeSelectorTerms"]
        assert len(terms) == 1, stack
