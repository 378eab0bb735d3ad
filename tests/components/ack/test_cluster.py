"""AckCluster on the mock engine: edition, networking, security settings, the secret kubeconfig."""

from __future__ import annotations

import json
from typing import Any

import pulumi
import pytest
import yaml

from gpu_platform.components.ack.cluster import (
    GPU_SCALE_DOWN_THRESHOLD,
    NODE_SCALER_TYPE,
    NODE_SCALING_EXPANDER,
    TERWAY_ADDON,
    AckCluster,
    AckClusterArgs,
    ack_cluster_args,
)
from gpu_platform.offline_preview import ProgramRun, Secret, engine
from gpu_platform.offline_preview.cloud_outputs import fake_kubeconfig
from gpu_platform.settings import AckClusterSettings
from tests.components import platforms
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import by_type, one, run

MANAGED = "alicloud:cs/managedKubernetes:ManagedKubernetes"
NODE_POOL = "alicloud:cs/nodePool:NodePool"
VPC = "alicloud:vpc/network:Network"
SWITCH = "alicloud:vpc/switch:Switch"
PROVIDER = "pulumi:providers:kubernetes"
AUTOSCALING = "alicloud:cs/autoscalingConfig:AutoscalingConfig"
CREDENTIAL = "alicloud:cs/getClusterCredential:getClusterCredential"


def settings(node_autoscaling: bool = False, **changes: Any) -> AckClusterArgs:
    """The args the platform passes for ``platforms.ack_pro_cluster``, with ``changes`` (YAML
    keys) applied."""
    raw = {**platforms.ack_pro_cluster(), **changes}
    return ack_cluster_args(
        AckClusterSettings.model_validate(raw), node_autoscaling=node_autoscaling
    )


def build(cluster: AckClusterArgs) -> ProgramRun:
    def program() -> None:
        component = AckCluster("plat", cluster)
        pulumi.export("kubeconfig", component.kubeconfig)
        pulumi.export("clusterId", component.cluster_id)
        pulumi.export("nodeVswitchIds", component.node_vswitch_ids)
        pulumi.export("rrsaIssuer", component.rrsa_oidc_issuer_url)

    return run(program)


def test_ack_pro_cluster_with_tags() -> None:
    ack = one(build(settings()), MANAGED)
    assert ack.inputs["name"] == "gpu-ack-dev"
    assert ack.inputs["clusterSpec"] == "ack.pro.small"
    assert ack.inputs["tags"] == {"environment": "dev"}


def test_auto_upgraded_cluster_leaves_the_version_to_ack() -> None:
    # The provider: "Do not specify [version] if cluster auto upgrade is enabled".
    ack = one(build(settings()), MANAGED)
    assert ack.inputs["operationPolicy"]["clusterAutoUpgrade"]["enabled"] is True
    assert "version" not in ack.inputs


def test_pinned_version_without_auto_upgrade() -> None:
    cluster = settings(kubernetesVersion="1.33", autoUpgradeChannel="none")
    ack = one(build(cluster), MANAGED)
    assert ack.inputs["version"] == "1.33"
    assert ack.inputs["operationPolicy"] == {"clusterAutoUpgrade": {"enabled": False}}


def test_node_autoscaling_turned_on_for_autoscaled_pools() -> None:
    result = build(settings(node_autoscaling=True))
    config = one(result, AUTOSCALING)
    assert config.name == "plat-autoscaling"
    assert config.parent == one(result, "gpu-platform:index:AckCluster").urn
    assert config.inputs == {
        "clusterId": "plat-ack-id",
        "scalerType": NODE_SCALER_TYPE,
        "expander": NODE_SCALING_EXPANDER,
        "scaleUpFromZero": True,
        "scaleDownEnabled": True,
        "gpuUtilizationThreshold": GPU_SCALE_DOWN_THRESHOLD,
    }
    assert (NODE_SCALER_TYPE, NODE_SCALING_EXPANDER) == ("cluster-autoscaler", "least-waste")
    # Pools take the cluster ID from the component: it is the cluster's, once scaling is on.
    assert result.outputs["clusterId"] == "plat-ack-id"


def test_pools_wait_for_node_autoscaling() -> None:
    cluster = settings(node_autoscaling=True)

    def program() -> None:
        component = AckCluster("plat", cluster)

        async def depends_on() -> list[str]:
            resources = await component.cluster_id.resources()
            return sorted([await r.urn.future() for r in resources])

        pulumi.export("dependsOn", pulumi.Output.from_input(depends_on()))

    urns = run(program).outputs["dependsOn"]
    assert any(urn.endswith("::plat-autoscaling") for urn in urns), urns


def test_no_node_autoscaling_without_autoscaled_pools() -> None:
    assert by_type(build(settings()), AUTOSCALING) == []


def test_terway_enforces_network_policies() -> None:
    ack = one(build(settings()), MANAGED)
    (addon,) = ack.inputs["addons"]
    assert addon["name"] == TERWAY_ADDON == "terway-eniip"
    assert json.loads(addon["config"]) == {"IPVlan": "false", "NetworkPolicy": "true"}


def test_created_vpc_node_and_pod_vswitches() -> None:
    result = build(settings())
    vpc = one(result, VPC)
    assert vpc.inputs == {
        "vpcName": "gpu-ack-dev",
        "cidrBlock": "10.0.0.0/8",
        "tags": {"environment": "dev"},
    }
    switches = {s.name: s.inputs for s in by_type(result, SWITCH)}
    assert switches["plat-nodes-vsw-0"]["cidrBlock"] == "10.1.0.0/16"
    assert switches["plat-nodes-vsw-0"]["zoneId"] == "cn-hangzhou-i"
    assert switches["plat-nodes-vsw-1"]["zoneId"] == "cn-hangzhou-j"
    assert switches["plat-pods-vsw-0"]["cidrBlock"] == "10.11.0.0/16"
    assert {s["vpcId"] for s in switches.values()} == {"plat-vpc-id"}
    ack = one(result, MANAGED)
    assert ack.inputs["vswitchIds"] == ["plat-nodes-vsw-0-id", "plat-nodes-vsw-1-id"]
    assert ack.inputs["podVswitchIds"] == ["plat-pods-vsw-0-id", "plat-pods-vsw-1-id"]
    assert ack.inputs["serviceCidr"] == "172.21.0.0/20"
    assert "workerVswitchIds" not in ack.inputs  # deprecated: vswitchIds replaces it
    assert result.outputs["nodeVswitchIds"] == ["plat-nodes-vsw-0-id", "plat-nodes-vsw-1-id"]


def test_existing_vpc_and_vswitches_create_no_network() -> None:
    vpc = {"vpcId": "vpc-existing", "vswitchIds": ["vsw-a"], "podVswitchIds": ["vsw-p"]}
    result = build(settings(vpc=vpc))
    assert by_type(result, VPC) == []
    assert by_type(result, SWITCH) == []
    ack = one(result, MANAGED)
    assert ack.inputs["vswitchIds"] == ["vsw-a"]
    assert ack.inputs["podVswitchIds"] == ["vsw-p"]


def test_vswitches_created_in_an_existing_vpc() -> None:
    vpc = {
        "vpcId": "vpc-existing",
        "vswitchIds": ["vsw-a"],
        "vswitches": [{"zone": "cn-hangzhou-j", "cidr": "192.168.1.0/24"}],
        "podVswitchIds": ["vsw-p"],
    }
    result = build(settings(vpc=vpc))
    assert by_type(result, VPC) == []
    (switch,) = by_type(result, SWITCH)
    assert switch.inputs["vpcId"] == "vpc-existing"
    assert one(result, MANAGED).inputs["vswitchIds"] == ["vsw-a", "plat-nodes-vsw-0-id"]


def test_rrsa_issuer_url_comes_from_the_cluster() -> None:
    result = build(settings())
    assert result.outputs["rrsaIssuer"] == "https://oidc-ack.offline.invalid/gpu-ack-dev"
    assert build(settings(rrsa=False)).outputs["rrsaIssuer"] is None


def test_rrsa_audit_log_and_deletion_protection() -> None:
    ack = one(build(settings(deletionProtection=True, auditLogProject="audit-sls")), MANAGED)
    assert ack.inputs["enableRrsa"] is True
    assert ack.inputs["deletionProtection"] is True
    assert ack.inputs["auditLogConfig"] == {"enabled": True, "slsProjectName": "audit-sls"}


def test_maintenance_window_and_auto_upgrade_policy() -> None:
    ack = one(build(settings()), MANAGED)
    assert ack.inputs["maintenanceWindow"] == {
        "enable": True,
        "weeklyPeriod": "Saturday",
        "maintenanceTime": "2024-01-01T18:00:00Z",
        "duration": "6h",
    }
    assert ack.inputs["operationPolicy"] == {
        "clusterAutoUpgrade": {"enabled": True, "channel": "patch"}
    }


def test_auto_upgrade_off_without_window() -> None:
    ack = one(build(settings(maintenanceWindow=None, autoUpgradeChannel="none")), MANAGED)
    assert ack.inputs["maintenanceWindow"] == {"enable": False}
    assert ack.inputs["operationPolicy"] == {"clusterAutoUpgrade": {"enabled": False}}


@pytest.mark.parametrize("protect", [True, False])
def test_protect_follows_config(protect: bool) -> None:
    ack = one(build(settings(protect=protect)), MANAGED)
    assert ack.protect is protect


def test_system_pool_untainted_for_add_ons() -> None:
    pool = one(build(settings()), NODE_POOL)
    assert pool.inputs["nodePoolName"] == "system"
    assert pool.inputs["instanceTypes"] == ["ecs.g7.xlarge"]
    assert pool.inputs["desiredSize"] == "2"
    assert pool.inputs["clusterId"] == "plat-ack-id"
    assert "taints" not in pool.inputs


def test_children_named_after_and_parented_to_the_component() -> None:
    result = build(settings())
    component = one(result, "gpu-platform:index:AckCluster")
    children = [r for r in result.resources if r is not component]
    assert children
    for child in children:
        assert child.parent == component.urn
        assert child.name.startswith("plat-")


def test_kubeconfig_is_secret_everywhere() -> None:
    result = build(settings())
    kubeconfig = result.outputs["kubeconfig"]
    assert isinstance(kubeconfig, Secret)
    cluster_id = result.outputs["clusterId"]
    assert kubeconfig.value == fake_kubeconfig(cluster_id)
    assert yaml.safe_load(kubeconfig.value)["kind"] == "Config"
    provider = one(result, PROVIDER)
    assert isinstance(provider.inputs["kubeconfig"], Secret)
    # A fresh credential per run must not replace the provider: only a new cluster does.
    assert provider.inputs["clusterIdentifier"] == cluster_id


def test_kubeconfig_output_reports_is_secret() -> None:
    cluster = settings()

    async def is_secret(output: pulumi.Output[str]) -> bool:
        return await output.is_secret()

    def program() -> None:
        component = AckCluster("plat", cluster)
        pulumi.export("isSecret", pulumi.Output.from_input(is_secret(component.kubeconfig)))

    assert run(program).outputs["isSecret"] is True


def test_credential_is_temporary(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, dict[str, Any]]] = []
    answer = engine.invoke_result

    def recording(token: str, args: dict[str, Any]) -> dict[str, Any]:
        calls.append((token, args))
        return answer(token, args)

    monkeypatch.setattr(engine, "invoke_result", recording)
    build(settings(kubeconfigMinutes=30))
    (args,) = [a for token, a in calls if token == CREDENTIAL]
    assert args == {"clusterId": "plat-ack-id", "temporaryDurationMinutes": 30}


# --- args: typed, analyzer-friendly, checked before anything is registered -----------------


def test_platform_args_carry_no_region_nor_azure_system_pool() -> None:
    args = settings(node_autoscaling=True)
    assert "region" not in args  # the alicloud provider's, not the cluster's
    assert args["system_pool"] == {"instance_type": "ecs.g7.xlarge", "count": 2}
    assert args["node_autoscaling"] is True
    assert "vpc_id" not in args["vpc"]  # unset values are left out, not None


def test_plain_args_without_the_stack_config() -> None:
    result = build(
        {
            "name": "reused",
            "vpc": {
                "vpc_id": "vpc-1",
                "vswitch_ids": ["vsw-n"],
                "pod_vswitch_ids": ["vsw-p"],
            },
            "auto_upgrade_channel": "none",
            "kubernetes_version": "1.33",
        }
    )
    ack = one(result, MANAGED)
    assert ack.inputs["name"] == "reused"
    assert ack.inputs["clusterSpec"] == "ack.pro.small"  # the settings' defaults apply
    assert ack.inputs["vswitchIds"] == ["vsw-n"]
    assert ack.inputs["maintenanceWindow"] == {"enable": False}
    assert one(result, NODE_POOL).inputs["desiredSize"] == "3"
    assert by_type(result, AUTOSCALING) == []


def test_bad_args_name_every_property_path_and_register_nothing() -> None:
    bad: Any = {
        **settings(),
        "kubeconfig_minutes": 5,
        "auto_upgrade_channel": "weekly",
        "maintenance_window": {"day": "Someday", "start_hour": 18},
        "vpc": {"vswitches": [{"zone": "", "cidr": "10.1.0.0/16"}], "pod_vswitch_ids": ["p"]},
        "color": "blue",
    }
    err = refused(lambda: AckCluster("plat", bad))
    assert paths(err) == [
        "vpc.vswitches[0].zone",
        "maintenanceWindow.day",
        "autoUpgradeChannel",
        "kubeconfigMinutes",
        "color",
    ]
    assert reasons(err)["color"] == "unknown property"
    assert "AckCluster 'plat'" in str(err)


def test_networking_the_cluster_cannot_use_is_refused() -> None:
    bad = settings(vpc={"vswitchIds": ["vsw-a"]})
    err = refused(lambda: AckCluster("plat", bad))
    assert paths(err) == ["vpc.vswitchIds", "vpc"]
    assert "vpcId" in reasons(err)["vpc.vswitchIds"]
    assert "pod vSwitches" in reasons(err)["vpc"]


def test_the_clusters_own_rules_are_the_stack_configs() -> None:
    """plan.ack.cluster: the edition, the CIDRs, the version under auto-upgrade, the window;
    the same messages the stack config gives under ``cluster``."""
    bad = settings(
        clusterSpec="ack.enterprise",
        kubernetesVersion="1.34",
        maintenanceWindow=None,
        vpc={
            "cidr": "10.0.0.0/8",
            "vswitches": [
                {"zone": "cn-hangzhou-i", "cidr": "10.1.0.0/16"},
                {"zone": "cn-hangzhou-j", "cidr": "10.1.128.0/17"},
            ],
            "podVswitches": [{"zone": "cn-hangzhou-i", "cidr": "192.168.0.0/16"}],
        },
        serviceCidr="10.2.0.0/16",
    )
    err = refused(lambda: AckCluster("plat", bad))
    assert paths(err) == [
        "clusterSpec",
        "vpc.podVswitches[0].cidr",
        "serviceCidr",
        "vpc.vswitches[1].cidr",
        "kubernetesVersion",
        "maintenanceWindow",
    ]
    found = reasons(err)
    assert found["serviceCidr"] == "overlaps the VPC CIDR 10.0.0.0/8"
    assert found["vpc.vswitches[1].cidr"] == "10.1.128.0/17 overlaps vpc.vswitches[0].cidr"


def test_system_pool_system_disk_from_config() -> None:
    pool = one(build(settings()), NODE_POOL).inputs
    assert {k: pool.get(k) for k in ("systemDiskCategory", "systemDiskSize")} == {
        "systemDiskCategory": "cloud_essd",
        "systemDiskSize": 120,
    }
    assert pool["systemDiskEncrypted"] is False
    encrypted = settings(nodeSystemDisk={"encrypted": True, "kmsKeyId": "key-1", "sizeGib": 200})
    pool = one(build(encrypted), NODE_POOL).inputs
    assert (pool["systemDiskEncrypted"], pool["systemDiskKmsKey"], pool["systemDiskSize"]) == (
        True,
        "key-1",
        200,
    )


def test_a_kms_key_without_encryption_is_refused() -> None:
    bad = settings(nodeSystemDisk={"kmsKeyId": "key-1"})
    err = refused(lambda: AckCluster("plat", bad))
    assert paths(err) == ["nodeSystemDisk.kmsKeyId"]
