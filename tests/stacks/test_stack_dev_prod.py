"""The dev and prod AKS stacks through the offline preview: clean, hardened where prod must be."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpu_facts.scheduling import GPU_TAINT, POOL_LABEL
from gpu_platform.components.platform import GpuPlatform
from gpu_platform.offline_preview import PreviewResult, RecordedResource, Secret, run_policies
from gpu_platform.offline_preview.graph import downstream, waits_for
from gpu_platform.offline_preview.render import as_document
from gpu_platform.stack_config import load_platform
from gpu_policies import (
    gpu_clusters_have_untainted_pool,
    gpu_node_pools_tainted,
    mig_pools_no_autoscaling_no_azure_linux,
    network_policy_engine_enabled,
    node_os_upgrade_channel_set,
)
from gpu_policies.registry import policies
from gpu_policy_support.node_pools import node_pools
from gpu_policy_support.tolerations import may_schedule
from tests.conftest import by_type, one, run, stack_preview, stack_raw

MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
AGENT_POOL = "azure-native:containerservice:AgentPool"
BINDING = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"


@pytest.fixture
def previews() -> dict[str, PreviewResult]:
    return {stack: stack_preview(stack) for stack in ("dev", "prod")}


def pools(result: PreviewResult, component: str = "AksGpuNodePool") -> dict[str, RecordedResource]:
    """The AgentPools ``component`` (``AksGpuNodePool`` or ``AksCpuNodePool``) made, by name."""
    return {
        r.inputs["agentPoolName"]: r
        for r in by_type(result.run, AGENT_POOL)
        if (r.parent or "").split("::")[-2].endswith(f":{component}")
    }


def all_pool_inputs(result: PreviewResult) -> dict[str, dict[str, Any]]:
    """Every pool of the plan by AKS name, the system pool (inline in the cluster) included."""
    system = one(result.run, MANAGED_CLUSTER).inputs["agentPoolProfiles"]
    return {
        **{p["name"]: p for p in system},
        **{r.inputs["agentPoolName"]: r.inputs for r in by_type(result.run, AGENT_POOL)},
    }


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
    assert set(all_pool_inputs(previews[stack])) == {"system", "a100mig", "t4", "general"}
    mig, t4 = by_name["a100mig"].inputs, by_name["t4"].inputs
    for inputs in (mig, t4):
        assert inputs["nodeTaints"] == [GPU_TAINT]
        assert inputs["mode"] == "User"
        assert inputs["gpuProfile"] == {"driver": "Install"}
    assert mig["gpuInstanceProfile"] == "MIG1g"
    assert mig["enableAutoScaling"] is False
    assert mig["osSKU"] == "Ubuntu"
    assert t4["enableAutoScaling"] is True and t4["minCount"] == 0
    assert by_name["a100mig"].replace_on_changes[0] == "gpuInstanceProfile"
    outputs = previews[stack].run.outputs
    assert outputs["gpuPools"]["a100mig"]["capacityPerNode"] == {"nvidia.com/mig-1g.5gb": 56}
    assert outputs["resourceGroup"] == f"rg-gpu-{stack}"
    assert outputs["oidcIssuerUrl"].startswith("https://")


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_a_failed_gpu_pool_holds_back_only_its_own_check(
    previews: dict[str, PreviewResult], stack: str
) -> None:
    """Fail small: from the plan's dependency graph, nothing but a pool's own driver check
    waits for a GPU pool, so a quota error on one pool leaves every namespace, quota, the
    admission policy, the plugin, the exporter and the other pools' checks in place."""
    result = previews[stack]
    document = as_document(result.run, result.violations)
    graph = waits_for(document["resources"])
    names = {r["urn"]: r["name"] for r in document["resources"]}
    workloads = [
        r["urn"]
        for r in document["resources"]
        if r["type"].split(":")[1] in ("workloads", "gpu") or r["type"].startswith("kubernetes:")
    ]
    assert workloads
    for pool_name, pool in pools(result).items():
        held_back = {names[urn] for urn in downstream(graph, pool.urn)}
        own_checks = {f"{stack}-driver-check-{pool_name}"} & set(names.values())
        assert held_back == own_checks, pool_name
    # And so every namespace and the admission policy are independent of every pool.
    pool_urns = {pool.urn for pool in pools(result).values()}
    for urn in workloads:
        if not names[urn].startswith(f"{stack}-driver-check-"):
            assert not any(urn in downstream(graph, p) for p in pool_urns), names[urn]


def test_a_pools_check_waits_for_its_pool_and_the_plugin(
    previews: dict[str, PreviewResult],
) -> None:
    run = previews["dev"].run
    check = next(r for r in by_type(run, "kubernetes:batch/v1:Job"))
    assert pools(previews["dev"])["a100mig"].urn in check.dependencies
    assert check.inputs["metadata"]["annotations"]["gpu-platform.io/node-pool"] == (
        "dev-gpu-a100mig-pool-id"
    )
    release = next(
        r
        for r in by_type(run, "kubernetes:helm.sh/v3:Release")
        if r.name.endswith("plugin-release")
    )
    component = one(run, "gpu-platform:index:DriverCheck")
    assert release.urn in component.dependencies


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_cpu_and_gpu_pools_do_not_wait_for_each_other(
    previews: dict[str, PreviewResult], stack: str
) -> None:
    gpu = pools(previews[stack])
    (cpu,) = pools(previews[stack], "AksCpuNodePool").values()
    gpu_urns = {r.urn for r in gpu.values()}
    gpu_components = {r.parent for r in gpu.values()}
    assert not (gpu_urns | gpu_components) & set(cpu.dependencies)
    for pool in gpu.values():
        assert cpu.urn not in pool.dependencies and cpu.parent not in pool.dependencies
    # Each waits for the cluster, which names it.
    assert cpu.inputs["resourceName"] == gpu["t4"].inputs["resourceName"] == f"gpu-{stack}"


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_a_pod_without_tolerations_lands_only_on_cpu_pools(
    previews: dict[str, PreviewResult], stack: str
) -> None:
    """Every pool of the recorded plan, as the pack reads it (the system pool inline in the
    ManagedCluster, each AgentPool), matched like the scheduler matches a pod that tolerates
    nothing against the pool's taints: exactly the CPU pools take it, never the system or a GPU
    pool."""
    landing = set()
    for resource in previews[stack].run.resources:
        for pool in node_pools(resource.type, resource.name, resource.inputs):
            if may_schedule([], pool.taints):
                landing.add(pool.name)
    assert landing == set(pools(previews[stack], "AksCpuNodePool")) == {"general"}
    # A gateway picks the pool by name: the label is on its nodes.
    (cpu,) = pools(previews[stack], "AksCpuNodePool").values()
    assert cpu.inputs["nodeLabels"] == {POOL_LABEL: "general"}
    assert cpu.inputs["mode"] == "User" and cpu.inputs["nodeTaints"] == []


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


def test_prod_protects_cluster_and_pools(previews: dict[str, PreviewResult]) -> None:
    assert one(previews["prod"].run, MANAGED_CLUSTER).protect is True
    assert all(p.protect for p in by_type(previews["prod"].run, AGENT_POOL))
    assert one(previews["dev"].run, MANAGED_CLUSTER).protect is False
    assert not any(p.protect for p in by_type(previews["dev"].run, AGENT_POOL))


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_every_pool_has_explicit_os_disks_and_pods_per_node(
    previews: dict[str, PreviewResult], stack: str
) -> None:
    """System, GPU and CPU pools alike; every size of both stacks holds a 128 GiB OS disk on
    its temp disk (D4ds_v5 150 GiB, NC4as_T4_v3 176 GiB, ND96asr_v4 6,000 GiB)."""
    encrypted = stack == "prod"
    for name, inputs in all_pool_inputs(previews[stack]).items():
        hardening = {
            k: inputs[k]
            for k in ("osDiskType", "osDiskSizeGB", "maxPods", "enableEncryptionAtHost")
        }
        assert hardening == {
            "osDiskType": "Ephemeral",
            "osDiskSizeGB": 128,
            "maxPods": 110,
            "enableEncryptionAtHost": encrypted,
        }, name
    for pool in by_type(previews[stack].run, AGENT_POOL):
        # AKS sets these only when a pool is created: a change is a new pool.
        assert {"osDiskType", "osDiskSizeGB", "maxPods", "enableEncryptionAtHost"} <= set(
            pool.replace_on_changes
        ), pool.name
        assert pool.delete_before_replace is True


def test_prod_runs_azure_policy_and_defender_and_dev_does_not(
    previews: dict[str, PreviewResult],
) -> None:
    prod = one(previews["prod"].run, MANAGED_CLUSTER).inputs
    workspace = prod["addonProfiles"]["omsagent"]["config"]["logAnalyticsWorkspaceResourceID"]
    assert prod["addonProfiles"]["azurepolicy"] == {"enabled": True}
    # Defender reports to the cluster's own Log Analytics workspace, the logs' one.
    assert prod["securityProfile"] == {
        "workloadIdentity": {"enabled": True},
        "defender": {
            "logAnalyticsWorkspaceResourceId": workspace,
            "securityMonitoring": {"enabled": True},
        },
    }
    dev = one(previews["dev"].run, MANAGED_CLUSTER).inputs
    assert "azurepolicy" not in dev["addonProfiles"]
    assert dev["securityProfile"] == {"workloadIdentity": {"enabled": True}}


def test_admission_denies_in_prod_and_warns_in_dev(previews: dict[str, PreviewResult]) -> None:
    def actions(stack: str) -> set[tuple[str, ...]]:
        bindings = by_type(previews[stack].run, BINDING)
        assert len(bindings) == 2  # the pods' policy and the claims' policy
        return {tuple(b.inputs["spec"]["validationActions"]) for b in bindings}

    (prod,), (dev,) = actions("prod"), actions("dev")
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
    # The cache waits for no GPU pool: its local-disk driver reaches nodes as they join.
    assert nvme_pool.urn not in extension.dependencies
    assert extension.inputs["clusterName"] == "gpu-dev"
    storage_class = one(result, "kubernetes:storage.k8s.io/v1:StorageClass")
    provider = one(result, "pulumi:providers:kubernetes")
    assert storage_class.provider.startswith(provider.urn)
    assert one(result, "gpu-platform:index:NvmeCache").name == "plat-nvme"


def _mutated(
    result: PreviewResult, type_: str, change: Callable[[dict[str, Any]], None]
) -> list[RecordedResource]:
    resources = []
    for resource in result.run.resources:
        if resource.type == type_:
            # Resource policies read the inputs, stack policies the (mock) outputs: both.
            inputs, outputs = copy.deepcopy(resource.inputs), copy.deepcopy(resource.outputs)
            change(inputs)
            change(outputs)
            resource = dataclasses.replace(resource, inputs=inputs, outputs=outputs)
        resources.append(resource)
    return resources


@pytest.mark.parametrize(
    ("type_", "change", "policy"),
    [
        (AGENT_POOL, lambda i: i.update(nodeTaints=[]), gpu_node_pools_tainted.POLICY),
        (
            AGENT_POOL,
            lambda i: (
                i.update(nodeTaints=["dedicated=ingress:NoSchedule"])
                if i["agentPoolName"] == "general"
                else None
            ),
            gpu_clusters_have_untainted_pool.POLICY,
        ),
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


GRAFANA = "azure-native:dashboard:Grafana"


def test_managed_grafana_reads_prods_metrics_and_dev_has_none(
    previews: dict[str, PreviewResult],
) -> None:
    dev, prod = previews["dev"].run, previews["prod"].run
    assert by_type(dev, GRAFANA) == []
    assert "grafanaEndpoint" not in dev.outputs
    grafana = one(prod, GRAFANA)
    workspace = one(prod, "azure-native:monitor:AzureMonitorWorkspace")
    amw_id = f"{workspace.name}-id"
    assert grafana.inputs["workspaceName"] == "gpu-prod-grafana"
    assert grafana.inputs["properties"]["grafanaIntegrations"] == {
        "azureMonitorWorkspaceIntegrations": [{"azureMonitorWorkspaceResourceId": amw_id}]
    }
    assignments = {
        a.inputs["roleDefinitionId"].rsplit("/", 1)[-1]: a.inputs
        for a in by_type(prod, "azure-native:authorization:RoleAssignment")
        if a.name.startswith("prod-grafana-")
    }
    reader = assignments["b0d8363b-8ddd-447d-831f-62ca05bff136"]  # Monitoring Data Reader
    assert reader["scope"] == amw_id
    admin = assignments["22926164-76b3-42b3-bc55-97df8dab3e41"]  # Grafana Admin
    assert admin["principalId"] == "00000000-0000-0000-0000-00000000a001"
    assert admin["principalType"] == "Group"
    assert prod.outputs["grafanaEndpoint"] == "https://gpu-prod-grafana.grafana.offline.invalid"


def test_prod_keeps_logs_longer_than_dev(previews: dict[str, PreviewResult]) -> None:
    retention = {
        stack: one(previews[stack].run, "azure-native:operationalinsights:Workspace").inputs[
            "retentionInDays"
        ]
        for stack in ("dev", "prod")
    }
    assert retention == {"dev": 30, "prod": 90}


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_the_scan_sees_every_azure_resource_of_the_stack(
    previews: dict[str, PreviewResult], stack: str, tmp_path: Path
) -> None:
    """A new azure-native type without an ARM mapping would make `make scan` fail (or
    miss it): only the Helm releases, rendered by Helm at deploy time, stay unseen (here no
    chart is pulled: the suite never reaches a chart repository)."""
    from gpu_platform.offline_preview.helm_charts import ChartStore
    from gpu_platform.offline_preview.render import public
    from scan.export import export_plan
    from scan.plan import PlanResource

    run_ = previews[stack].run
    export = export_plan(
        [
            PlanResource(r.type, r.name, public(r.inputs), r.custom, r.remote)
            for r in run_.resources
        ],
        charts=ChartStore((), tmp_path, network=False),
    )

    assert {n.type for n in export.not_scanned} == {"kubernetes:helm.sh/v3:Release"}
    azure = [r for r in run_.resources if r.custom and r.type.startswith("azure-native:")]
    assert len(export.arm_resources) == len(azure)


@pytest.mark.slow
def test_each_pool_is_resolved_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """One preview of dev (two GPU pools): each pool's settings are validated once (with the
    whole config) and resolved to facts once; every component that takes the pools is handed
    those facts with its args (components.pool_args.gpu_pool_args)."""
    import sys

    from gpu_platform.offline_preview import preview
    from gpu_platform.plan import pools as plan_pools
    from gpu_platform.settings import GPU_POOL_SETTINGS
    from tests.conftest import ROOT

    resolved: list[str] = []
    validated: list[object] = []
    real_resolve = plan_pools.resolve_pool
    real_validates = {model: model.model_validate for model in GPU_POOL_SETTINGS.values()}

    def resolve_pool(cloud: Any, pool: Any) -> Any:
        resolved.append(pool.name)
        return real_resolve(cloud, pool)

    def counting(model: Any) -> Any:
        def model_validate(obj: Any, *args: Any, **kwargs: Any) -> Any:
            validated.append(obj)
            return real_validates[model](obj, *args, **kwargs)

        return model_validate

    # Every module of ours that imported the function by name gets the counting one (only ours:
    # an attribute lookup on the SDKs' lazy modules would import them).
    ours = [m for name, m in sys.modules.items() if name.split(".")[0] == "gpu_platform"]
    for module in ours:
        if getattr(module, "resolve_pool", None) is real_resolve:
            monkeypatch.setattr(module, "resolve_pool", resolve_pool)
    for model in GPU_POOL_SETTINGS.values():
        monkeypatch.setattr(model, "model_validate", counting(model))
    result = preview(ROOT, stack="dev")
    assert result.exit_code == 0
    assert sorted(resolved) == sorted(result.run.outputs["gpuCapacity"])
    assert len(resolved) == len(set(resolved)) == 2
    assert validated == []  # the pools came in with the whole config, never on their own
