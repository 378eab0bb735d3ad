"""AKS rules of the stack config: the cluster (plan.aks.cluster, asked by the AksCluster
component too) and the node hardening of every pool (stack_config.rules.aks)."""

from __future__ import annotations

import pytest

from gpu_platform.plan.aks.cluster import LOCKED_OUT, aks_cluster_problems
from gpu_platform.plan.aks.nodes import SURGE_COUNT_OR_PERCENTAGE
from gpu_platform.plan.problems import under
from gpu_platform.settings import AksClusterSettings
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_platform.stack_config.rules.aks import cluster, node_hardening
from gpu_platform.stack_config.rules.pools import POOL_RULES as PER_POOL_RULES
from tests.stack_config.rules.subjects import Raw, raw, subject


def test_the_cluster_rule_is_plans_under_cluster() -> None:
    def locked_out(raw: Raw) -> None:
        raw["cluster"]["entraId"] = {"enabled": False}
        raw["cluster"]["disableLocalAccounts"] = True

    cfg = subject("dev", locked_out)
    assert isinstance(cfg.settings.cluster, AksClusterSettings)
    found = list(cluster(cfg))
    assert found == under("cluster", aks_cluster_problems(cfg.settings.cluster))
    assert ("cluster.disableLocalAccounts", LOCKED_OUT) in found
    assert list(cluster(subject("ack-dev"))) == []


def test_surge_of_gpu_and_cpu_pools() -> None:
    def no_surge(raw: Raw) -> None:
        raw["gpuPools"][0]["upgrade"] = {"maxSurge": "0"}
        raw["cpuPools"][0]["upgrade"] = {"maxSurge": "0%"}

    cfg = subject("dev", no_surge)
    # A GPU pool's surge is AKS's pool rule (plan.aks.pools), asked with the pool's others.
    assert [p for rule in PER_POOL_RULES for p in rule(cfg)] == [
        ("gpuPools[0].upgrade.maxSurge", SURGE_COUNT_OR_PERCENTAGE)
    ]
    assert ("cpuPools[0].upgrade.maxSurge", SURGE_COUNT_OR_PERCENTAGE) in list(node_hardening(cfg))


def test_aks_node_settings_elsewhere_are_refused() -> None:
    def max_pods(raw: Raw) -> None:
        raw["gpuPools"][0]["maxPods"] = 50

    # An ACK GPU pool's model has no maxPods: the schema refuses it, in the same words.
    with pytest.raises(ConfigError) as err:
        load_platform(raw("ack-dev", max_pods))
    assert err.value.problems == [
        ("gpuPools[0].maxPods", "AKS only (cloud 'aks'); on cloud 'ack' remove it")
    ]
