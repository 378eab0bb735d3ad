"""AksGpuNodePool and NvmeCache on the mock engine, and the proof that the NVIDIA chart's
default tolerations and node affinity accept the taint and labels our GPU nodes carry."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest
from pulumi_azure_native import containerservice as aks

from gpu_facts.aks.mig import MIG_NO_AUTOSCALER
from gpu_facts.scheduling import (
    DEVICE_PLUGIN_CONFIG_LABEL,
    GPU_PRESENT_LABEL,
    GPU_TAINT,
    GPU_TAINT_KEY,
    POOL_LABEL,
)
from gpu_platform.components.aks.cluster import SYSTEM_POOL_TAINT
from gpu_platform.components.aks.gpu_node_pool import AksGpuNodePool, AksGpuNodePoolArgs
from gpu_platform.components.nvidia.device_plugin import chart_values, gpu_node_affinity
from gpu_platform.components.nvidia.gpu_operator import operator_values
from gpu_platform.components.pool_args import GpuPoolArgs, gpu_pool_args
from gpu_platform.offline_preview import ProgramRun
from gpu_platform.plan.gpu_pools import mig_problems
from gpu_platform.plan.node_labels import aks_node_labels
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.settings import DevicePluginSettings
from gpu_platform.stack_config import ConfigError, load_platform
from tests.components import platforms
from tests.components.input_errors import paths
from tests.components.input_errors import refused as refused_by
from tests.conftest import one, run
from tests.pools import gpu_pool

AGENT_POOL = "azure-native:containerservice:AgentPool"
EXTENSION = "azure-native:kubernetesconfiguration:Extension"
STORAGE_CLASS = "kubernetes:storage.k8s.io/v1:StorageClass"


def mig_and_time_slicing(mutate: Any = None) -> ResolvedPlatform:
    """``platforms.aks_mig_and_time_slicing``, changed by ``mutate``."""
    raw = platforms.aks_mig_and_time_slicing()
    if mutate is not None:
        mutate(raw)
    return load_platform(raw)


def pool_args(pf: PoolFacts, **overrides: Any) -> AksGpuNodePoolArgs:
    """The component args GpuPlatform passes for a resolved pool."""
    args: AksGpuNodePoolArgs = {
        "pool": gpu_pool_args(pf),
        "cluster_name": "gpu-dev",
        "resource_group_name": "rg-gpu-dev",
        "gpu_operator": False,
        "workload_types": ["training"],
        "protect": False,
    }
    return {**args, **overrides}  # type: ignore[typeddict-item]


def build(args: AksGpuNodePoolArgs, name: str = "plat-gpu") -> ProgramRun:
    def program() -> None:
        pool = AksGpuNodePool(name, args)
        pulumi.export("facts", pool.facts)
        pulumi.export("poolName", pool.pool_name)

    return run(program)


def mig_pool() -> PoolFacts:
    return mig_and_time_slicing().pools["a100mig"]


def t4_pool() -> PoolFacts:
    return mig_and_time_slicing().pools["t4"]


# --- the MIG pool -------------------------------------------------------------------------


def test_mig_pool_exact_inputs() -> None:
    inputs = one(build(pool_args(mig_pool())), AGENT_POOL).inputs
    assert inputs["resourceName"] == "gpu-dev"
    assert inputs["resourceGroupName"] == "rg-gpu-dev"
    assert inputs["agentPoolName"] == "a100mig"
    assert inputs["vmSize"] == "Standard_ND96asr_v4"
    assert inputs["mode"] == "User"
    assert inputs["osType"] == "Linux"
    assert inputs["osSKU"] == "Ubuntu"
    assert inputs["nodeTaints"] == ["nvidia.com/gpu=present:NoSchedule"]
    assert inputs["gpuInstanceProfile"] == "MIG1g"
    assert inputs["enableAutoScaling"] is False
    assert inputs["count"] == 1
    assert "minCount" not in inputs and "maxCount" not in inputs
    assert inputs["gpuProfile"] == {"driver": "Install"}
    assert inputs["upgradeSettings"] == {
        "maxSurge": "1",
        "drainTimeoutInMinutes": 120,
        "nodeSoakDurationInMinutes": 5,
    }


def test_node_labels_select_plugin_config_pool_and_workloads() -> None:
    inputs = one(build(pool_args(mig_pool(), workload_types=["training", "batch"])), AGENT_POOL)
    assert inputs.inputs["nodeLabels"] == {
        "nvidia.com/gpu.present": "true",
        "nvidia.com/device-plugin.config": "a100mig",
        "gpu-platform.io/pool": "a100mig",
        "workload.gpu-platform.io/batch": "true",
        "workload.gpu-platform.io/training": "true",
    }


def test_user_labels_are_added() -> None:
    platform = mig_and_time_slicing(lambda r: r["gpuPools"][0].update(labels={"team": "vision"}))
    labels = one(build(pool_args(platform.pools["a100mig"])), AGENT_POOL).inputs["nodeLabels"]
    assert labels["team"] == "vision"
    assert labels[POOL_LABEL] == "a100mig"


def test_mig_profile_is_immutable_the_pool_is_replaced() -> None:
    pool = one(build(pool_args(mig_pool())), AGENT_POOL)
    # The MIG profile (BP-11), and the node hardening AKS also sets only at creation.
    assert pool.replace_on_changes == [
        "gpuInstanceProfile",
        "enableEncryptionAtHost",
        "maxPods",
        "osDiskSizeGB",
        "osDiskType",
    ]
    # AKS pool names are unique per cluster: the old pool goes before the new one comes.
    assert pool.delete_before_replace is True
    assert pool.ignore_changes == []


def test_gpu_operator_owns_the_driver() -> None:
    inputs = one(build(pool_args(mig_pool(), gpu_operator=True)), AGENT_POOL).inputs
    assert inputs["gpuProfile"] == {"driver": "None"}


def test_protect_is_passed_to_the_pool() -> None:
    assert one(build(pool_args(mig_pool(), protect=True)), AGENT_POOL).protect is True
    assert one(build(pool_args(mig_pool())), AGENT_POOL).protect is False


def test_mig_pool_outputs_capacity() -> None:
    facts = build(pool_args(mig_pool())).outputs["facts"]
    assert facts == {
        "vmSize": "Standard_ND96asr_v4",
        "gpuModel": "A100-40GB",
        "gpusPerNode": 8,
        "nodes": 1,
        "migProfile": "1g.5gb",
        "aksGpuInstanceProfile": "MIG1g",
        "migStrategy": "mixed",
        "capacityPerNode": {"nvidia.com/mig-1g.5gb": 56},
        "capacityTotal": {"nvidia.com/mig-1g.5gb": 56},
        "nvmeCache": False,
        "gpuVendor": "NVIDIA",
    }


def refused(args: AksGpuNodePoolArgs) -> pulumi.InputPropertiesError:
    """The error AksGpuNodePool raises for ``args``, after checking it registered nothing."""
    return refused_by(lambda: AksGpuNodePool("bad", args))


MIG_POOL: GpuPoolArgs = {
    "name": "mig",
    "vm_size": "Standard_ND96asr_v4",
    "count": 1,
    "mig": {"profile": "MIG1g"},
}


def test_mig_pool_that_autoscales_is_refused_before_anything_is_registered() -> None:
    # The stack config refuses it too, with the same message: both ask plan.gpu_pools.
    bad: GpuPoolArgs = {**MIG_POOL, "autoscale": {"min": 0, "max": 2}}
    del bad["count"]
    err = refused(pool_args(t4_pool(), pool=bad))
    rule = dict(mig_problems("aks", gpu_pool(bad)))
    assert {e["property_path"]: e["reason"] for e in err.errors or []} == {
        "pool.autoscale": rule["autoscale"]
    }
    assert rule["autoscale"] == MIG_NO_AUTOSCALER


def test_azure_linux_mig_pool_is_refused_by_config_and_component() -> None:
    with pytest.raises(ConfigError) as config:
        mig_and_time_slicing(lambda r: r["gpuPools"][0].update(osSku="AzureLinux"))
    bad: GpuPoolArgs = {**MIG_POOL, "os_sku": "AzureLinux"}
    err = refused(pool_args(t4_pool(), pool=bad))
    rule = dict(mig_problems("aks", gpu_pool(bad)))["osSku"]
    assert {e["property_path"]: e["reason"] for e in err.errors or []} == {"pool.osSku": rule}
    assert ("gpuPools[0].osSku", rule) in config.value.problems


def test_a_pool_from_plain_args_without_any_stack_config() -> None:
    args: AksGpuNodePoolArgs = {
        "pool": MIG_POOL,
        "cluster_name": "c1",
        "resource_group_name": "rg",
    }
    result = build(args)
    inputs = one(result, AGENT_POOL).inputs
    assert inputs["gpuInstanceProfile"] == "MIG1g"
    assert inputs["gpuProfile"] == {"driver": "Install"}
    assert inputs["nodeLabels"] == {
        "nvidia.com/gpu.present": "true",
        "nvidia.com/device-plugin.config": "mig",
        "gpu-platform.io/pool": "mig",
    }
    assert one(result, AGENT_POOL).protect is False
    assert result.outputs["facts"]["capacityTotal"] == {"nvidia.com/mig-1g.5gb": 56}


def test_bad_pool_args_name_every_bad_property_and_register_nothing() -> None:
    schema = refused(
        pool_args(
            t4_pool(),
            pool={
                "name": "Big_Pool",
                "vm_size": "Standard_NC4as_T4_v3",
                "count": -1,
                "sharing": {"mode": "timeSlicing", "replicas": 100},
                "os_sku": "Windows",
                "colour": "blue",
            },
        )
    )
    assert sorted(paths(schema)) == [
        "pool.colour",
        "pool.count",
        "pool.name",
        "pool.osSku",
        "pool.sharing.replicas",
    ]
    catalog = refused(pool_args(t4_pool(), pool={**MIG_POOL, "vm_size": "Standard_D4s_v5"}))
    assert paths(catalog) == ["pool.vmSize"]
    mig = refused(pool_args(t4_pool(), pool={**MIG_POOL, "mig": {"profile": "MIG5g"}}))
    assert paths(mig) == ["pool.mig.profile"]


def test_pool_args_that_aks_would_refuse_are_named() -> None:
    err = refused(
        pool_args(
            t4_pool(),
            pool={
                "name": "system",
                "vm_size": "Standard_NC4as_T4_v3",
                "autoscale": {"min": 3, "max": 1},
                "nvme": True,
                "labels": {POOL_LABEL: "x", "kubernetes.azure.com/mode": "user", "team": "a"},
                "upgrade": {"max_surge": "0"},
            },
        )
    )
    assert paths(err) == [
        "pool.name",
        "pool.autoscale.min",
        f"pool.labels.{POOL_LABEL}",
        "pool.labels.kubernetes.azure.com/mode",
        "pool.nvme",
        "pool.upgrade.maxSurge",
    ]


def test_an_aks_pool_needs_a_vm_size() -> None:
    no_size: GpuPoolArgs = {"name": "t4", "count": 1}
    assert paths(refused(pool_args(t4_pool(), pool=no_size))) == ["pool.vmSize"]
    # Another cloud's machine field is no field of an AKS pool.
    alibaba: GpuPoolArgs = {"name": "t4", "count": 1, "instance_type": "ecs.gn7i-c8g1.2xlarge"}
    assert paths(refused(pool_args(t4_pool(), pool=alibaba))) == [
        "pool.vmSize",
        "pool.instanceType",
    ]


# --- node hardening -----------------------------------------------------------------------


def hardening(inputs: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(
        inputs[k] for k in ("osDiskType", "osDiskSizeGB", "maxPods", "enableEncryptionAtHost")
    )


def test_mig_pool_hardening_from_the_config_and_encryption_at_host() -> None:
    inputs = one(build(pool_args(mig_pool(), encryption_at_host=True)), AGENT_POOL).inputs
    # The ND96asr_v4's 6,000 GiB temp disk holds the OS disk.
    assert hardening(inputs) == ("Ephemeral", 128, 110, True)
    plain = one(build(pool_args(mig_pool())), AGENT_POOL).inputs
    assert plain["enableEncryptionAtHost"] is False


@pytest.mark.parametrize(
    ("pool", "expected"),
    [
        # NC24ads_A100_v4: a 64 GiB temp disk: the default 128 GiB OS disk is managed.
        ({"vm_size": "Standard_NC24ads_A100_v4"}, ("Managed", 128, 110, False)),
        (
            {"vm_size": "Standard_NC24ads_A100_v4", "os_disk_size_gb": 64},
            ("Ephemeral", 64, 110, False),
        ),
        # One NVMe disk, which the NVMe cache needs: the OS disk stays off it.
        (
            {"vm_size": "Standard_NC40ads_H100_v5", "nvme": True},
            ("Managed", 128, 110, False),
        ),
        ({"vm_size": "Standard_NC40ads_H100_v5"}, ("Ephemeral", 128, 110, False)),
        ({"vm_size": "Standard_NC4as_T4_v3", "max_pods": 30}, ("Ephemeral", 128, 30, False)),
        (
            {"vm_size": "Standard_NC4as_T4_v3", "os_disk_type": "Managed"},
            ("Managed", 128, 110, False),
        ),
    ],
)
def test_os_disk_type_follows_the_size_local_disk_unless_set(
    pool: dict[str, Any], expected: tuple[Any, ...]
) -> None:
    args: GpuPoolArgs = {"name": "p", "count": 1, **pool}  # type: ignore[typeddict-item]
    assert hardening(one(build(pool_args(t4_pool(), pool=args)), AGENT_POOL).inputs) == expected


def test_ephemeral_os_disk_the_size_cannot_hold_is_refused_by_config_and_component() -> None:
    with pytest.raises(ConfigError) as err:
        mig_and_time_slicing(lambda r: r["gpuPools"][1].update(osDiskSizeGb=200))
    assert err.value.problems == [
        (
            "gpuPools[1].osDiskType",
            "Standard_NC4as_T4_v3's cache or temp disk holds at most 176 GiB, not the 200 GiB "
            "OS disk (osDiskSizeGb); use Managed, or an OS disk of at most 176 GiB",
        )
    ]
    with pytest.raises(ConfigError, match="an ephemeral OS disk is at most 2040 GiB on any size"):
        mig_and_time_slicing(lambda r: r["gpuPools"][0].update(osDiskSizeGb=2048))
    small: GpuPoolArgs = {
        "name": "a100",
        "vm_size": "Standard_NC24ads_A100_v4",
        "count": 1,
        "os_disk_type": "Ephemeral",
    }
    err = refused(pool_args(t4_pool(), pool=small))
    assert paths(err) == ["pool.osDiskType"]
    assert "holds at most 64 GiB, not the 128 GiB OS disk" in str(err)


# --- the autoscaled pool ------------------------------------------------------------------


def test_non_mig_pool_autoscales_from_zero() -> None:
    pool = one(build(pool_args(t4_pool(), workload_types=["inference"])), AGENT_POOL)
    inputs = pool.inputs
    assert inputs["vmSize"] == "Standard_NC4as_T4_v3"
    assert "gpuInstanceProfile" not in inputs
    assert inputs["enableAutoScaling"] is True
    assert inputs["minCount"] == 0
    assert inputs["maxCount"] == 3
    assert inputs["count"] == 0
    assert inputs["nodeTaints"] == [GPU_TAINT]
    # The autoscaler owns the live node count; a preview must not fight it.
    assert pool.ignore_changes == ["count"]
    # An empty pool is sized from its tags: 1 T4 time-sliced 4 ways, renamed .shared. From the
    # VM size alone the autoscaler would offer only nvidia.com/gpu, and a pod asking
    # nvidia.com/gpu.shared would never bring up the first node.
    assert inputs["tags"] == {
        "k8s.io_cluster-autoscaler_node-template_resources_nvidia.com_gpu.shared": "4"
    }


def test_fixed_size_non_mig_pool() -> None:
    platform = mig_and_time_slicing(lambda r: r["gpuPools"][1].update(autoscale=None, count=2))
    pool = one(build(pool_args(platform.pools["t4"])), AGENT_POOL)
    assert pool.inputs["enableAutoScaling"] is False
    assert pool.inputs["count"] == 2
    assert "minCount" not in pool.inputs and "maxCount" not in pool.inputs
    # Nothing else owns a fixed pool's count: Pulumi manages it.
    assert pool.ignore_changes == []
    assert "tags" not in pool.inputs  # no autoscaler to inform


def test_pool_names_and_parentage() -> None:
    result = build(pool_args(t4_pool()), name="edge-gpu-t4")
    component = one(result, "gpu-platform:index:AksGpuNodePool")
    pool = one(result, AGENT_POOL)
    assert pool.parent == component.urn
    assert pool.name == "edge-gpu-t4-pool"
    assert result.outputs["poolName"] == "t4"


def test_misspelt_agent_pool_argument_fails() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        aks.AgentPool(  # type: ignore[call-overload]
            "x", resource_group_name="rg", resource_name_="c", node_taint=[GPU_TAINT]
        )
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        aks.AgentPoolUpgradeSettingsArgs(drain_timeout_minutes=60)  # type: ignore[call-arg]


# --- config rules for AKS pools -----------------------------------------------------------


@pytest.mark.parametrize(
    ("labels", "fragment"),
    [
        ({GPU_PRESENT_LABEL: "false"}, "set by the platform"),
        ({DEVICE_PLUGIN_CONFIG_LABEL: "other"}, "set by the platform"),
        ({"workload.gpu-platform.io/x": "true"}, "set by the platform"),
        ({"kubernetes.azure.com/mode": "user"}, "AKS reserves"),
    ],
)
def test_platform_labels_cannot_be_overridden(labels: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError) as err:
        mig_and_time_slicing(lambda r: r["gpuPools"][0].update(labels=labels))
    # (The workload quota on the refused pool is reported too; only pool problems matter here.)
    [(path, message)] = [p for p in err.value.problems if p[0].startswith("gpuPools")]
    assert path == f"gpuPools[0].labels.{next(iter(labels))}"
    assert fragment in message


@pytest.mark.parametrize("surge", ["0", "ten", "-1", "10%%"])
def test_max_surge_must_be_a_count_or_percentage(surge: str) -> None:
    with pytest.raises(ConfigError) as err:
        mig_and_time_slicing(lambda r: r["gpuPools"][0].update(upgrade={"maxSurge": surge}))
    pool_paths = [p for p, _ in err.value.problems if p.startswith("gpuPools")]
    assert pool_paths == ["gpuPools[0].upgrade.maxSurge"]


# --- NVMe cache (BP-18) -------------------------------------------------------------------


def nvme_platform() -> ResolvedPlatform:
    def add_pool(raw: dict[str, Any]) -> None:
        raw["gpuPools"].append(
            {"name": "a100nvme", "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "nvme": True}
        )

    return mig_and_time_slicing(add_pool)


def k8s_provider() -> k8s.Provider:
    return k8s.Provider("k8s", kubeconfig=pulumi.Output.secret("apiVersion: v1"))


def test_nvme_pool_facts() -> None:
    pf = nvme_platform().pools["a100nvme"]
    assert pf.nvme_disk_count == 1
    facts = build(pool_args(pf)).outputs["facts"]
    assert facts["nvmeCache"] is True


def test_nvme_refused_on_sizes_without_nvme() -> None:
    with pytest.raises(ConfigError, match="no local NVMe"):
        mig_and_time_slicing(lambda r: r["gpuPools"][0].update(nvme=True))


# --- the chart's defaults accept our nodes --------------------------------------------------
# nvidia-device-plugin 0.20.0 values.yaml: ``tolerations`` and ``affinity`` (device plugin and
# GFD DaemonSets) and ``nfd.worker.tolerations`` (NFD worker). These are the chart's own
# defaults, copied here as the thing under test; our taint and labels must satisfy them.

CHART_TOLERATIONS: list[dict[str, str]] = [
    {"key": "CriticalAddonsOnly", "operator": "Exists"},
    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
]
CHART_NFD_WORKER_TOLERATIONS: list[dict[str, str]] = [
    {
        "key": "node-role.kubernetes.io/master",
        "operator": "Equal",
        "value": "",
        "effect": "NoSchedule",
    },
    {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
]
CHART_NODE_SELECTOR_TERMS: list[list[dict[str, Any]]] = [
    [{"key": "feature.node.kubernetes.io/pci-10de.present", "operator": "In", "values": ["true"]}],
    [
        {
            "key": "feature.node.kubernetes.io/cpu-model.vendor_id",
            "operator": "In",
            "values": ["NVIDIA"],
        }
    ],
    [{"key": "nvidia.com/gpu.present", "operator": "In", "values": ["true"]}],
]


def parse_taint(taint: str) -> dict[str, str]:
    """``key=value:Effect`` (the AKS nodeTaints form) to a Kubernetes taint."""
    key_value, _, effect = taint.partition(":")
    key, _, value = key_value.partition("=")
    return {"key": key, "value": value, "effect": effect}


def tolerates(toleration: dict[str, str], taint: dict[str, str]) -> bool:
    """Kubernetes toleration matching (core/v1 Toleration.ToleratesTaint)."""
    if toleration.get("effect") and toleration["effect"] != taint["effect"]:
        return False
    if toleration.get("key") and toleration["key"] != taint["key"]:
        return False
    operator = toleration.get("operator", "Equal")
    if operator == "Exists":
        return True
    return toleration.get("value", "") == taint["value"]


def schedulable(tolerations: list[dict[str, str]], taints: list[str]) -> bool:
    """A pod may land on a node when every NoSchedule taint of the node is tolerated."""
    return all(any(tolerates(t, parse_taint(taint)) for t in tolerations) for taint in taints)


def expression_matches(expression: dict[str, Any], labels: dict[str, str]) -> bool:
    """One node-selector requirement (``In`` or ``Exists``; others are not used here)."""
    if expression["operator"] == "In":
        return labels.get(expression["key"]) in expression["values"]
    if expression["operator"] == "Exists":
        return expression["key"] in labels
    raise AssertionError(f"operator not modelled: {expression['operator']}")


def node_affinity_matches(terms: list[list[dict[str, Any]]], labels: dict[str, str]) -> bool:
    """requiredDuringScheduling: any term matches when all its expressions do."""
    return any(all(expression_matches(e, labels) for e in term) for term in terms)


def our_terms(affinity: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The match expressions of each node-selector term of a required node affinity."""
    required = affinity["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    return [term["matchExpressions"] for term in required["nodeSelectorTerms"]]


def test_our_taint_parses_as_the_gpu_taint() -> None:
    assert parse_taint(GPU_TAINT) == {
        "key": GPU_TAINT_KEY,
        "value": "present",
        "effect": "NoSchedule",
    }


def test_chart_plugin_and_gfd_land_on_our_gpu_nodes() -> None:
    pool = one(build(pool_args(mig_pool())), AGENT_POOL).inputs
    assert schedulable(CHART_TOLERATIONS, pool["nodeTaints"])
    # Before NFD has labelled the node, our own label satisfies the chart's affinity.
    assert node_affinity_matches(CHART_NODE_SELECTOR_TERMS, pool["nodeLabels"])


def test_chart_nfd_worker_lands_on_our_gpu_nodes() -> None:
    pool = one(build(pool_args(t4_pool())), AGENT_POOL).inputs
    assert schedulable(CHART_NFD_WORKER_TOLERATIONS, pool["nodeTaints"])


def test_our_plugin_gfd_and_nfd_worker_affinity_lands_on_our_gpu_nodes() -> None:
    # Our values replace the chart's affinity: GPU-present AND a per-pool config label.
    values = chart_values(DevicePluginSettings(), [t4_pool()])
    pool = one(build(pool_args(t4_pool())), AGENT_POOL).inputs
    for affinity in (values["affinity"], values["nfd"]["worker"]["affinity"]):
        assert node_affinity_matches(our_terms(affinity), pool["nodeLabels"])
    selector = values["nfd"]["worker"]["nodeSelector"]
    assert selector.items() <= pool["nodeLabels"].items()


def test_our_affinity_keeps_off_gpu_nodes_without_a_plugin_config() -> None:
    # An ACK-shared node (ACK's own plugin): even if it carried gpu.present, no config label.
    terms = our_terms(gpu_node_affinity())
    assert not node_affinity_matches(terms, {GPU_PRESENT_LABEL: "true", POOL_LABEL: "a10mps"})
    assert not node_affinity_matches(terms, {DEVICE_PLUGIN_CONFIG_LABEL: "t4"})


def test_nfd_master_and_gc_tolerate_the_system_pool() -> None:
    # AKS taints every non-GPU node: the NFD master and gc Deployments (and the GPU Operator's
    # operator) need the system pool, or they stay Pending.
    values = chart_values(DevicePluginSettings(), [t4_pool()])
    operator = operator_values([t4_pool()])
    for tolerations in (
        values["nfd"]["master"]["tolerations"],
        values["nfd"]["gc"]["tolerations"],
        operator["operator"]["tolerations"],
        operator["node-feature-discovery"]["master"]["tolerations"],
        operator["node-feature-discovery"]["gc"]["tolerations"],
    ):
        assert schedulable(tolerations, [SYSTEM_POOL_TAINT])
    # The plugin itself must not: it belongs on GPU nodes only.
    assert not schedulable(values["tolerations"], [SYSTEM_POOL_TAINT])


def test_the_proof_can_fail() -> None:
    # The NFD worker tolerates only the value "present": another value would keep it off.
    assert not schedulable(CHART_NFD_WORKER_TOLERATIONS, ["nvidia.com/gpu=true:NoSchedule"])
    assert not schedulable(CHART_TOLERATIONS, ["sku=gpu:NoSchedule"])
    labels = aks_node_labels(mig_pool(), [])
    del labels[GPU_PRESENT_LABEL]
    assert not node_affinity_matches(CHART_NODE_SELECTOR_TERMS, labels)


# --- AMD pools: MI300X without AKS's driver, tainted amd.com/gpu, our labels only -----------


def amd_pool() -> PoolFacts:
    return load_platform(platforms.aks_amd_and_nvidia()).pools["mi300x"]


def test_amd_pool_exact_inputs() -> None:
    result = build(pool_args(amd_pool(), workload_types=["training"]))
    inputs = one(result, AGENT_POOL).inputs
    assert inputs["vmSize"] == "Standard_ND96isr_MI300X_v5"
    assert inputs["osSKU"] == "Ubuntu"
    # AKS installs no AMD driver and insists the pool says so (docs/amd.md).
    assert inputs["gpuProfile"] == {"driver": "None"}
    assert inputs["nodeTaints"] == ["amd.com/gpu=present:NoSchedule"]
    # Our labels only: NVIDIA's plugin, GFD, NFD worker and dcgm-exporter select on theirs.
    assert inputs["nodeLabels"] == {
        "gpu-platform.io/pool": "mi300x",
        "workload.gpu-platform.io/training": "true",
    }
    assert "gpuInstanceProfile" not in inputs
    # 8 NVMe disks beside a 1,000 GiB temp disk: an ephemeral OS disk leaves the cache its disks.
    assert inputs["osDiskType"] == "Ephemeral"
    facts = result.outputs["facts"]
    assert (facts["gpuVendor"], facts["gpuModel"], facts["capacityPerNode"]) == (
        "AMD",
        "MI300X",
        {"amd.com/gpu": 8},
    )
    assert facts["nvmeCache"] is True


@pytest.mark.parametrize(
    ("change", "path", "fragment"),
    [
        ({"os_sku": "AzureLinux"}, "pool.osSku", "AzureLinux and Windows are not yet supported"),
        (
            {"sharing": {"mode": "timeSlicing", "replicas": 2}},
            "pool.sharing",
            "AMD's device plugin hands out whole GPUs",
        ),
    ],
)
def test_amd_pool_settings_aks_or_amd_refuse_are_named(
    change: dict[str, Any], path: str, fragment: str
) -> None:
    args = pool_args(amd_pool())
    args["pool"] = {**args["pool"], **change}  # type: ignore[typeddict-item]
    errors: list[pulumi.InputPropertiesError] = []

    def program() -> None:
        try:
            AksGpuNodePool("plat-gpu", args)
        except pulumi.InputPropertiesError as err:
            errors.append(err)

    assert run(program).resources == []
    found = {e["property_path"]: e["reason"] for e in errors[0].errors or []}
    assert fragment in found[path]
