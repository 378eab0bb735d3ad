"""The dev and prod AKS stacks through the offline preview: clean, hardened where prod must be."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from components.platform import GpuPlatform
from gpu_facts.scheduling import GPU_TAINT
from gpu_policies import (
    gpu_node_pools_tainted,
    mig_pools_no_autoscaling_no_azure_linux,
    network_policy_engine_enabled,
    node_os_upgrade_channel_set,
)
from gpu_policies.registry import policies
from offline_preview import PreviewResult, RecordedResource, Secret, run_policies
from stack_config import load_platform
from tests.conftest import by_type, one, run, stack_preview, stack_raw

MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
AGENT_POOL = "azure-native:containerservice:AgentPool"
BINDING = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"


@pytest.fixture
def previews() -> dict[str, PreviewResult]:
    return {stack: stack_preview(stack) for stack in ("dev", "prod")}


def pools(result: PreviewResult) -> dict[str, RecordedResource]:
    return {r.inputs["agentPoolName"]: r for r in by_type(result.run, AGENT_POOL)}


def plain_strings(value: Any) -> list[str]:
    """Every string in a recorded value that is not inside a Secret."""
    if isinstance(value, Secret):
        return []
    if isinstance(value, dict):
        return [s for v in value.values() for s in plain_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in plain_strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_preview_has_no_mandatory_violation(previews: dict[str, PreviewResult], stack: str) -> None:
    result = previews[stack]
    mandatory = [v for v in result.violations if v.enforcement == "mandatory"]
    assert mandatory == []
    assert result.exit_code == 0


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_kubeconfig_is_a_secret_stack_output_and_never_plain(
    previews: dict[str, PreviewResult], stack: str
) -> None:
    run = previews[stack].run
    cluster = f"gpu-{stack}"
    assert isinstance(run.outputs["kubeconfig"], Secret)
    kubeconfig = yaml.safe_load(run.outputs["kubeconfig"].value)
    assert (
        kubeconfig["clusters"][0]["cluster"]["server"] == f"https://{cluster}.offline.invalid:443"
    )
    # Entra ID: a kubelogin exec user that logs in without a person (never devicecode).
    assert kubeconfig["users"][0]["user"]["exec"]["args"][-2:] == ["--login", "azurecli"]
    secret_host = f"{cluster}.offline.invalid"
    for resource in run.resources:
        leaked = [s for s in plain_strings(resource.inputs) if secret_host in s]
        assert leaked == [], f"{resource.name} carries the kubeconfig in plain text"
    assert not any(secret_host in s for s in plain_strings(run.outputs))


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_gpu_pools_of_both_stacks(previews: dict[str, PreviewResult], stack: str) -> None:
    by_name = pools(previews[stack])
    assert set(by_name) == {"a100mig", "t4"}
    mig, t4 = by_name["a100mig"].inputs, by_name["t4"].inputs
    for inputs in (mig, t4):
        assert inputs["nodeTaints"] == [GPU_TAINT]
        assert inputs["mode"] == "User"
        assert inputs["gpuProfile"] == {"driver": "Install"}
    assert mig["gpuInstanceProfile"] == "MIG1g"
    assert mig["enableAutoScaling"] is False
    assert mig["osSKU"] == "Ubuntu"
    assert t4["enableAutoScaling"] is True and t4["minCount"] == 0
    assert by_name["a100mig"].replace_on_changes == ["gpuInstanceProfile"]
    outputs = previews[stack].run.outputs
    assert outputs["gpuPools"]["a100mig"]["capacityPerNode"] == {"nvidia.com/mig-1g.5gb": 56}
    assert outputs["resourceGroup"] == f"rg-gpu-{stack}"
    assert outputs["oidcIssuerUrl"].startswith("https://")


def test_in_cluster_layers_wait_for_the_gpu_pools(previews: dict[str, PreviewResult]) -> None:
    run = previews["dev"].run
    pool_urns = {r.urn for r in by_type(run, AGENT_POOL)}
    in_cluster = [
        r for r in run.resources if not r.custom and r.type.split(":")[1] in ("gpu", "workloads")
    ]
    assert in_cluster, "the device plugin and workload layers are composed"
    for component in in_cluster:
        assert pool_urns <= set(component.dependencies), component.name


def test_prod_is_hardened_and_dev_is_not(previews: dict[str, PreviewResult]) -> None:
    dev = one(previews["dev"].run, MANAGED_CLUSTER)
    prod = one(previews["prod"].run, MANAGED_CLUSTER)
    assert prod.inputs["apiServerAccessProfile"] == {"enablePrivateCluster": True}
    assert dev.inputs["apiServerAccessProfile"]["authorizedIPRanges"] == ["203.0.113.0/24"]
    assert prod.inputs["disableLocalAccounts"] is True
    assert dev.inputs["disableLocalAccounts"] is False
    assert prod.inputs["sku"]["tier"] == "Standard"
    for inputs in (dev.inputs, prod.inputs):
        assert inputs["autoUpgradeProfile"]["nodeOSUpgradeChannel"] == "NodeImage"
        assert inputs["networkProfile"]["networkPolicy"] == "cilium"
        assert inputs["aadProfile"]["enableAzureRBAC"] is True


def test_prod_protects_cluster_and_gpu_pools(previews: dict[str, PreviewResult]) -> None:
    assert one(previews["prod"].run, MANAGED_CLUSTER).protect is True
    assert all(p.protect for p in pools(previews["prod"]).values())
    assert one(previews["dev"].run, MANAGED_CLUSTER).protect is False
    assert not any(p.protect for p in pools(previews["dev"]).values())


def test_admission_denies_in_prod_and_warns_in_dev(previews: dict[str, PreviewResult]) -> None:
    prod = one(previews["prod"].run, BINDING).inputs["spec"]["validationActions"]
    dev = one(previews["dev"].run, BINDING).inputs["spec"]["validationActions"]
    assert "Deny" in prod
    assert "Deny" not in dev and "Warn" in dev


def test_pools_carry_the_workload_types_allowed_on_them(
    previews: dict[str, PreviewResult],
) -> None:
    by_name = pools(previews["dev"])
    workload_labels = {
        name: sorted(k for k in pool.inputs["nodeLabels"] if k.startswith("workload."))
        for name, pool in by_name.items()
    }
    assert workload_labels == {
        "a100mig": ["workload.gpu-platform.io/training"],
        "t4": ["workload.gpu-platform.io/inference"],
    }


def test_nvme_pool_gets_the_ephemeral_cache_through_the_platform() -> None:
    raw = stack_raw("dev")
    raw["gpuPools"] = [
        *raw["gpuPools"],
        {"name": "a100nvme", "vmSize": "Standard_NC24ads_A100_v4", "count": 1, "nvme": True},
    ]
    platform = load_platform(raw)
    result = run(lambda: GpuPlatform("plat", platform))
    extension = one(result, "azure-native:kubernetesconfiguration:Extension")
    nvme_pool = next(r for r in by_type(result, AGENT_POOL) if r.name == "plat-gpu-a100nvme-pool")
    assert nvme_pool.urn in extension.dependencies
    assert extension.inputs["clusterName"] == "gpu-dev"
    storage_class = one(result, "kubernetes:storage.k8s.io/v1:StorageClass")
    provider = one(result, "pulumi:providers:kubernetes")
    assert storage_class.provider.startswith(provider.urn)
    assert one(result, "gpu-platform:azure:NvmeCache").name == "plat-nvme"


def _mutated(
    result: PreviewResult, type_: str, change: Callable[[dict[str, Any]], None]
) -> list[RecordedResource]:
    resources = []
    for resource in result.run.resources:
        if resource.type == type_:
            inputs = copy.deepcopy(resource.inputs)
            change(inputs)
            resource = dataclasses.replace(resource, inputs=inputs)
        resources.append(resource)
    return resources


@pytest.mark.parametrize(
    ("type_", "change", "policy"),
    [
        (AGENT_POOL, lambda i: i.update(nodeTaints=[]), gpu_node_pools_tainted.POLICY),
        (
            AGENT_POOL,
            lambda i: i.update(enableAutoScaling=True, minCount=0, maxCount=2),
            mig_pools_no_autoscaling_no_azure_linux.POLICY,
        ),
        (
            MANAGED_CLUSTER,
            lambda i: i["networkProfile"].update(networkPolicy="none"),
            network_policy_engine_enabled.POLICY,
        ),
        (
            MANAGED_CLUSTER,
            lambda i: i["autoUpgradeProfile"].update(nodeOSUpgradeChannel="None"),
            node_os_upgrade_channel_set.POLICY,
        ),
    ],
)
def test_the_pack_checks_our_aks_resources(
    previews: dict[str, PreviewResult],
    type_: str,
    change: Callable[[dict[str, Any]], None],
    policy: Any,
) -> None:
    """A clean preview means something: break one AKS input and its policy reports it."""
    resources = _mutated(previews["dev"], type_, change)
    violations = run_policies(resources, policies())
    assert policy.name in {v.policy for v in violations}
