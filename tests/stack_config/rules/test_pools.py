"""The GPU pool rules of the stack config ask plan.gpu_pools: the same messages as the
components, under the pool's place in the config (stack_config.rules.pools)."""

from __future__ import annotations

from typing import Any

from gpu_facts.aks.mig import MIG_NO_AUTOSCALER
from gpu_facts.nvidia.device_plugin_chart import MIN_VERSION_MPS
from gpu_platform.plan.dra_pools import dra_cluster_problems, dra_pool_problems
from gpu_platform.plan.gpu_pools import gpu_pool_problems, mig_problems
from gpu_platform.plan.problems import under
from gpu_platform.stack_config.rules.pools import POOL_RULES, dra_cluster, duplicate_names
from tests.stack_config.rules.subjects import Raw, problems, subject


def autoscaled_mig(raw: Raw) -> None:
    pool: dict[str, Any] = raw["gpuPools"][0]
    assert "mig" in pool
    pool.pop("count", None)
    pool["autoscale"] = {"min": 0, "max": 2}


def test_the_config_says_what_plan_says_under_the_pools_place() -> None:
    cfg = subject("dev", autoscaled_mig)
    found = [p for rule in POOL_RULES for p in rule(cfg)]
    pool = cfg.settings.gpu_pools[0]
    assert found == under("gpuPools[0]", gpu_pool_problems("aks", pool))
    rule = dict(mig_problems("aks", pool))
    assert ("gpuPools[0].autoscale", rule["autoscale"]) in found
    assert rule["autoscale"] == MIG_NO_AUTOSCALER


def test_sharing_needs_of_the_cluster_are_the_configs() -> None:
    def old_plugin_mps(raw: Raw) -> None:
        raw["gpuPools"][1]["sharing"] = {"mode": "mps", "replicas": 2}
        raw["devicePlugin"] = {"version": "0.14.5"}

    found = [p for rule in POOL_RULES for p in rule(subject("dev", old_plugin_mps))]
    assert ("devicePlugin.version", f"MPS sharing needs device plugin {MIN_VERSION_MPS}+") in found


def test_names_are_unique_across_gpu_and_cpu_pools() -> None:
    def same_name(raw: Raw) -> None:
        raw["cpuPools"][0]["name"] = raw["gpuPools"][0]["name"]

    name = subject("dev").settings.gpu_pools[0].name
    assert list(duplicate_names(subject("dev", same_name))) == [
        ("cpuPools[0].name", f"{name!r} is also the name of a GPU pool")
    ]


def test_dra_rules_are_plans_under_the_configs_paths() -> None:
    def shared_dra(raw: Raw) -> None:
        raw["gpuPools"][2]["sharing"] = {"mode": "timeSlicing", "replicas": 2}

    cfg = subject("dra-dev", shared_dra)
    found = [p for rule in POOL_RULES for p in rule(cfg)]
    expected = under("gpuPools[2]", dra_pool_problems("aks", cfg.settings.gpu_pools[2]))
    assert expected and all(problem in found for problem in expected)
    assert expected[0][0] == "gpuPools[2].sharing"

    def old_cluster(raw: Raw) -> None:
        raw["cluster"]["kubernetesVersion"] = "1.33"

    old = subject("dra-dev", old_cluster)
    assert list(dra_cluster(old)) == list(dra_cluster_problems(old.settings))

    # On ACK (whose 1.33 is supported) the DRA rule is the one the config reports.
    def ack_dra(raw: Raw) -> None:
        raw["gpuPools"][1]["allocation"] = "dra"  # the T4 pool, whose namespace asks for GPUs
        raw["workloads"][1]["gpuQuota"] = {"gpu.nvidia.com": 2}

    def ack_dra_on_133(raw: Raw) -> None:
        ack_dra(raw)
        raw["cluster"].update(kubernetesVersion="1.33", autoUpgradeChannel="none")

    settings = subject("ack-dev", ack_dra_on_133).settings
    assert problems("ack-dev", ack_dra_on_133) == list(dra_cluster_problems(settings))
    assert problems("ack-dev", ack_dra_on_133)[0][1].startswith("1.33 cannot run DRA pools")

    # ACK without a version creates the cluster on its newest, which serves DRA.
    assert list(dra_cluster(subject("ack-dev", ack_dra))) == []
