"""Rules of the clouds' limits: regions, node pool and cluster sizes
(stack_config.rules.limits)."""

from __future__ import annotations

from gpu_facts.cloud_limits import AKS_MAX_NODES_PER_POOL
from gpu_platform.stack_config.rules.limits import RULES, cluster_size, cpu_pool_limits, region
from tests.stack_config.rules.subjects import Raw, subject


def test_an_unknown_region_suggests_close_ones() -> None:
    def typo(raw: Raw) -> None:
        raw["cluster"]["location"] = "westeurop"

    [(path, message)] = region(subject("dev", typo))
    assert path == "cluster.location"
    assert "did you mean westeurope" in message


def test_a_pool_past_the_clouds_limit() -> None:
    too_many = AKS_MAX_NODES_PER_POOL.value + 1

    def big(raw: Raw) -> None:
        raw["cpuPools"][0].pop("count", None)
        raw["cpuPools"][0]["autoscale"] = {"min": 0, "max": too_many}

    cfg = subject("dev", big)
    [(path, message)] = cpu_pool_limits(cfg)
    assert path == "cpuPools[0].autoscale.max"
    assert message.startswith(f"{too_many} nodes; AKS allows at most")
    # Reported on the pool, not again as the cluster's size.
    assert list(cluster_size(cfg)) == []
    assert RULES
