"""AKS rules of the stack config: the cluster (plan.aks.cluster, asked by the AksCluster
component too) and the node hardening of every pool (stack_config.rules.aks)."""

from __future__ import annotations

from gpu_platform.plan.aks.cluster import LOCKED_OUT, aks_cluster_problems
from gpu_platform.plan.aks.nodes import SURGE_COUNT_OR_PERCENTAGE
from gpu_platform.plan.problems import under
from gpu_platform.settings import AksClusterSettings
from gpu_platform.stack_config.rules.aks import POOL_RULES, cluster, node_hardening
from tests.stack_config.rules.subjects import Raw, subject


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
    assert [p for rule in POOL_RULES for p in rule(cfg)] == [
        ("gpuPools[0].upgrade.maxSurge", SURGE_COUNT_OR_PERCENTAGE)
    ]
    assert ("cpuPools[0].upgrade.maxSurge", SURGE_COUNT_OR_PERCENTAGE) in list(node_hardening(cfg))


def test_aks_node_settings_elsewhere_are_refused() -> None:
    def max_pods(raw: Raw) -> None:
        raw["gpuPools"][0]["maxPods"] = 50

    assert list(node_hardening(subject("ack-dev", max_pods))) == [
        ("gpuPools[0].maxPods", "AKS only (cloud 'azure'); on cloud 'alicloud' remove it")
    ]
