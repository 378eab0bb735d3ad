"""Cloud-resource policies on AKS AgentPool, ManagedCluster agentPoolProfiles and ACK NodePool."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from .harness import Case, Res, assert_case, messages

AGENT_POOL = "azure-native:containerservice:AgentPool"
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
ACK_NODE_POOL = "alicloud:cs/nodePool:NodePool"


def aks_gpu_pool(**changes: Any) -> dict[str, Any]:
    pool: dict[str, Any] = {
        "agentPoolName": "a100",
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "vmSize": "Standard_ND96asr_v4",
        "count": 2,
        "enableAutoScaling": False,
        "osSKU": "Ubuntu",
        "gpuInstanceProfile": "MIG1g",
        "nodeTaints": ["nvidia.com/gpu=present:NoSchedule"],
        "nodeLabels": {"gpu-platform.io/pool": "a100"},
    }
    pool.update(changes)
    return {k: v for k, v in pool.items() if v is not None}


def profile(**changes: Any) -> dict[str, Any]:
    entry = aks_gpu_pool(**changes)
    entry["name"] = entry.pop("agentPoolName")
    del entry["resourceGroupName"], entry["resourceName"]
    return entry


SYSTEM_PROFILE = {
    "name": "system",
    "vmSize": "Standard_D4s_v5",
    "mode": "System",
    "nodeTaints": ["CriticalAddonsOnly=true:NoSchedule"],
}


def cluster(**changes: Any) -> dict[str, Any]:
    props: dict[str, Any] = {
        "resourceGroupName": "rg",
        "dnsPrefix": "aks",
        "agentPoolProfiles": [SYSTEM_PROFILE, profile()],
        "autoUpgradeProfile": {"upgradeChannel": "patch", "nodeOSUpgradeChannel": "NodeImage"},
        "networkProfile": {"networkPlugin": "azure", "networkPolicy": "cilium"},
    }
    props.update(changes)
    return {k: v for k, v in props.items() if v is not None}


def ack_pool(**changes: Any) -> dict[str, Any]:
    props: dict[str, Any] = {
        "clusterId": "c-123",
        "nodePoolName": "a10",
        "instanceTypes": ["ecs.gn7i-c8g1.2xlarge"],
        "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}],
        "labels": [{"key": "gpu-platform.io/pool", "value": "a10"}],
        "desiredSize": "2",
    }
    props.update(changes)
    return props


TERWAY = {"name": "terway-eniip", "config": '{"IPVlan": "false", "NetworkPolicy": "true"}'}


def ack_cluster(addons: Sequence[dict[str, Any]] | None = (TERWAY,)) -> tuple[Res, ...]:
    props: dict[str, Any] = {"name": "ack", "clusterSpec": "ack.pro.small"}
    if addons is not None:
        props["addons"] = list(addons)
    return (Res("alicloud:cs/managedKubernetes:ManagedKubernetes", "ack", props),)


def agent_pool(**changes: Any) -> tuple[Res, ...]:
    return (Res(AGENT_POOL, "a100", aks_gpu_pool(**changes)),)


def managed_cluster(**changes: Any) -> tuple[Res, ...]:
    return (Res(MANAGED_CLUSTER, "aks", cluster(**changes)),)


def in_cluster(**changes: Any) -> tuple[Res, ...]:
    """The GPU pool inline in a ManagedCluster's agentPoolProfiles, with ``changes``."""
    return managed_cluster(agentPoolProfiles=[SYSTEM_PROFILE, profile(**changes)])


def ack(**changes: Any) -> tuple[Res, ...]:
    return (Res(ACK_NODE_POOL, "a10", ack_pool(**changes)),)


T4 = {"vmSize": "Standard_NC4as_T4_v3", "gpuInstanceProfile": None}
NO_TAINT = "lacks the taint nvidia.com/gpu:NoSchedule"
REPLACE = "mig-pools-replaceable-on-profile-change"
NOT_REPLACEABLE = "neither sets deleteBeforeReplace nor carries its profile in its name"

CASES: list[Case] = [
    # BP-01: taints.
    Case("gpu-node-pools-tainted", "agent-pool", agent_pool()),
    Case("gpu-node-pools-tainted", "cluster-profiles", managed_cluster()),
    Case("gpu-node-pools-tainted", "ack", ack()),
    Case(
        "gpu-node-pools-tainted",
        "cpu-pool-untainted",
        agent_pool(vmSize="Standard_D4s_v5", nodeTaints=[], gpuInstanceProfile=None),
    ),
    Case("gpu-node-pools-tainted", "ack-cpu-pool", ack(instanceTypes=["ecs.g7.xlarge"], taints=[])),
    Case("gpu-node-pools-tainted", "agent-pool-no-taint", agent_pool(nodeTaints=None), (NO_TAINT,)),
    Case(
        "gpu-node-pools-tainted",
        "agent-pool-wrong-effect",
        agent_pool(nodeTaints=["nvidia.com/gpu=present:PreferNoSchedule"]),
        (NO_TAINT,),
    ),
    Case(
        "gpu-node-pools-tainted",
        "agent-pool-other-key",
        agent_pool(**T4, nodeTaints=["sku=gpu:NoSchedule"]),
        ("sku=gpu:NoSchedule",),
    ),
    Case(
        "gpu-node-pools-tainted",
        "agent-pool-wrong-value",
        agent_pool(nodeTaints=["nvidia.com/gpu=true:NoSchedule"]),
        ("not 'present'",),
    ),
    Case(
        "gpu-node-pools-tainted",
        "case-insensitive-vm-size",
        agent_pool(vmSize="standard_nd96asr_v4", nodeTaints=[]),
        (NO_TAINT,),
    ),
    Case(
        "gpu-node-pools-tainted",
        "cluster-profile-no-taint",
        in_cluster(nodeTaints=[]),
        ("aks/agentPoolProfiles[a100]",),
    ),
    Case("gpu-node-pools-tainted", "ack-no-taint", ack(taints=[]), (NO_TAINT,)),
    Case(
        "gpu-node-pools-tainted",
        "ack-mixed-types",
        ack(instanceTypes=["ecs.g7.xlarge", "ecs.gn7i-c8g1.2xlarge"], taints=[]),
        (NO_TAINT,),
    ),
    Case(
        "gpu-node-pools-tainted",
        "ack-wrong-effect",
        ack(taints=[{"key": "nvidia.com/gpu", "value": "present", "effect": "NoExecute"}]),
        (NO_TAINT,),
    ),
    # BP-12: MIG pools fixed size, not on Azure Linux.
    Case("mig-pools-no-autoscaling-no-azure-linux", "ubuntu-fixed", agent_pool()),
    Case("mig-pools-no-autoscaling-no-azure-linux", "os-unset", agent_pool(osSKU=None)),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "non-mig-autoscaled-azure-linux",
        agent_pool(**T4, enableAutoScaling=True, osSKU="AzureLinux"),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "autoscaling",
        agent_pool(enableAutoScaling=True, minCount=1, maxCount=3),
        ("enables the cluster autoscaler",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "azure-linux",
        agent_pool(osSKU="AzureLinux"),
        ("Azure Linux",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "mariner",
        agent_pool(osSKU="CBLMariner"),
        ("Azure Linux",),
    ),
    Case(
        "mig-pools-no-autoscaling-no-azure-linux",
        "cluster-profile-both",
        in_cluster(enableAutoScaling=True, osSKU="AzureLinux3"),
        ("autoscaler", "Azure Linux"),
    ),
    # BP-10: MIG profile valid for the VM size.
    Case("mig-profile-valid-for-vm-size", "nd96asr-mig1g", agent_pool()),
    Case(
        "mig-profile-valid-for-vm-size",
        "h100-mig7g",
        agent_pool(vmSize="Standard_ND96isr_H100_v5", gpuInstanceProfile="MIG7g"),
    ),
    Case("mig-profile-valid-for-vm-size", "no-mig", agent_pool(**T4)),
    Case(
        "mig-profile-valid-for-vm-size",
        "t4-with-mig",
        agent_pool(vmSize="Standard_NC4as_T4_v3"),
        ("not a MIG-capable GPU VM size",),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "cpu-size-with-mig",
        agent_pool(vmSize="Standard_D4s_v5"),
        ("not a MIG-capable",),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "unknown-profile",
        agent_pool(gpuInstanceProfile="MIG5g"),
        ("unknown MIG profile 'MIG5g'",),
    ),
    Case(
        "mig-profile-valid-for-vm-size",
        "cluster-profile",
        in_cluster(gpuInstanceProfile="MIG9g"),
        ("MIG9g",),
    ),
    # BP-06: node OS upgrade channel.
    Case("node-os-upgrade-channel-set", "node-image", managed_cluster()),
    Case(
        "node-os-upgrade-channel-set",
        "security-patch",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "SecurityPatch"}),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "unset",
        managed_cluster(autoUpgradeProfile=None),
        ("'unset'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "none",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "None"}),
        ("'None'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "unmanaged",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "Unmanaged"}),
        ("'Unmanaged'",),
    ),
    Case(
        "node-os-upgrade-channel-set",
        "unmanaged-allowed",
        managed_cluster(autoUpgradeProfile={"nodeOSUpgradeChannel": "Unmanaged"}),
        config={"allowedChannels": ["NodeImage", "Unmanaged"]},
    ),
    # BP-08: a network policy engine.
    Case("network-policy-engine-enabled", "cilium", managed_cluster()),
    Case(
        "network-policy-engine-enabled",
        "azure",
        managed_cluster(networkProfile={"networkPolicy": "azure"}),
    ),
    Case(
        "network-policy-engine-enabled",
        "unset",
        managed_cluster(networkProfile={"networkPlugin": "azure"}),
        ("no network policy engine",),
    ),
    Case(
        "network-policy-engine-enabled",
        "no-profile",
        managed_cluster(networkProfile=None),
        ("unset",),
    ),
    Case(
        "network-policy-engine-enabled",
        "none",
        managed_cluster(networkProfile={"networkPolicy": "none"}),
        ("is none",),
    ),
    Case("network-policy-engine-enabled", "ack-terway", ack_cluster()),
    Case(
        "network-policy-engine-enabled",
        "ack-terway-bool",
        ack_cluster([{"name": "terway-eniip", "config": '{"NetworkPolicy": true}'}]),
    ),
    Case(
        "network-policy-engine-enabled",
        "ack-terway-off",
        ack_cluster([{"name": "terway-eniip", "config": '{"NetworkPolicy": "false"}'}]),
        ("Terway without NetworkPolicy",),
    ),
    Case(
        "network-policy-engine-enabled",
        "ack-terway-bad-config",
        ack_cluster([{"name": "terway-eniip", "config": "{not json"}]),
        ("Terway without NetworkPolicy",),
    ),
    Case(
        "network-policy-engine-enabled",
        "ack-terway-disabled",
        ack_cluster([{**TERWAY, "disabled": True}]),
        ("no Terway addon",),
    ),
    Case(
        "network-policy-engine-enabled",
        "ack-flannel",
        ack_cluster([{"name": "flannel"}]),
        ("no Terway addon",),
    ),
    Case("network-policy-engine-enabled", "ack-no-addons", ack_cluster(None), ("no Terway addon",)),
    # BP-11: a profile change must be able to replace the pool.
    Case(
        REPLACE,
        "delete-before-replace",
        (Res(AGENT_POOL, "a100", aks_gpu_pool(), delete_before_replace=True),),
    ),
    Case(REPLACE, "profile-in-name", agent_pool(agentPoolName="a100mig1g")),
    Case(REPLACE, "profile-in-name-any-case", agent_pool(agentPoolName="A100MIG1G")),
    Case(REPLACE, "no-mig", agent_pool(**T4)),
    Case(REPLACE, "other-resources", managed_cluster() + ack()),
    Case(REPLACE, "same-name-create-first", agent_pool(), (f"'a100' (MIG1g) {NOT_REPLACEABLE}",)),
    Case(
        REPLACE,
        "other-profile-in-name",
        agent_pool(agentPoolName="a100mig2g"),
        (NOT_REPLACEABLE,),
    ),
    Case(REPLACE, "no-name", agent_pool(agentPoolName=None), ("without agentPoolName",)),
    Case(REPLACE, "exempt-pool", agent_pool(), config={"exemptNames": ["a100"]}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.policy}/{c.id}")
def test_case(case: Case) -> None:
    assert_case(case)


def test_required_taint_value_can_be_relaxed() -> None:
    case = Case(
        "gpu-node-pools-tainted",
        "any-value",
        agent_pool(nodeTaints=["nvidia.com/gpu=true:NoSchedule"]),
        config={"requiredTaintValue": ""},
    )
    assert messages(case) == []
    assert (
        messages(
            Case(
                "gpu-node-pools-tainted",
                "key-only",
                agent_pool(nodeTaints=["nvidia.com/gpu:NoSchedule"]),
                config={"requiredTaintValue": ""},
            )
        )
        == []
    )


def test_cloud_policies_ignore_odd_shapes() -> None:
    odd = (
        Res(AGENT_POOL, "empty", {}),
        Res(AGENT_POOL, "bad-taints", {"vmSize": 7, "nodeTaints": "x", "gpuInstanceProfile": 3}),
        Res(
            MANAGED_CLUSTER,
            "bad-profiles",
            {
                "agentPoolProfiles": ["x", 1],
                "networkProfile": {"networkPolicy": "azure"},
                "autoUpgradeProfile": {"nodeOSUpgradeChannel": "NodeImage"},
            },
        ),
        Res(ACK_NODE_POOL, "bad", {"instanceTypes": "ecs.gn7i-c8g1.2xlarge", "taints": [1]}),
    )
    for name in (
        "gpu-node-pools-tainted",
        "mig-pools-no-autoscaling-no-azure-linux",
        "mig-profile-valid-for-vm-size",
        "node-os-upgrade-channel-set",
        "network-policy-engine-enabled",
        REPLACE,
    ):
        assert messages(Case(name, "odd", odd)) == [], name


def test_agent_pool_fixture_is_the_sdk_wire_shape() -> None:
    """The fixture keys are what pulumi-azure-native sends (checked on the mock engine)."""
    import pulumi_azure_native.containerservice as aks

    from tests.conftest import one, run

    recorded = run(
        lambda: aks.AgentPool(
            "a100",
            resource_group_name="rg",
            resource_name_="aks",
            agent_pool_name="a100",
            vm_size="Standard_ND96asr_v4",
            count=2,
            enable_auto_scaling=False,
            os_sku="Ubuntu",
            gpu_instance_profile="MIG1g",
            node_taints=["nvidia.com/gpu=present:NoSchedule"],
            node_labels={"gpu-platform.io/pool": "a100"},
        )
    )
    inputs = copy.deepcopy(one(recorded, AGENT_POOL).inputs)
    assert inputs == aks_gpu_pool()


def test_ack_fixtures_are_the_sdk_wire_shape() -> None:
    """NodePool taints/labels and the cluster's clusterSpec as pulumi-alicloud sends them."""
    import pulumi_alicloud as alicloud

    from tests.conftest import one, run

    def program() -> None:
        alicloud.cs.ManagedKubernetes("ack", cluster_spec="ack.pro.small")
        alicloud.cs.NodePool(
            "a10",
            cluster_id="c-123",
            node_pool_name="a10",
            instance_types=["ecs.gn7i-c8g1.2xlarge"],
            taints=[
                alicloud.cs.NodePoolTaintArgs(
                    key="nvidia.com/gpu", value="present", effect="NoSchedule"
                )
            ],
            labels=[alicloud.cs.NodePoolLabelArgs(key="gpu-platform.io/pool", value="a10")],
            desired_size="2",
            scaling_config=alicloud.cs.NodePoolScalingConfigArgs(enable=False),
        )

    recorded = run(program)
    assert one(recorded, ACK_NODE_POOL).inputs == ack_pool(scalingConfig={"enable": False})
    assert (
        one(recorded, "alicloud:cs/managedKubernetes:ManagedKubernetes").inputs["clusterSpec"]
        == "ack.pro.small"
    )
    assert messages(Case("gpu-node-pools-tainted", "sdk", ack())) == []
