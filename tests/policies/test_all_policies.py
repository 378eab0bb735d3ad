"""What holds across policies: pods without GPUs, other types and odd shapes are left alone,
compliant workloads and the dev-like platform pass the whole pack, and the shared fixtures are
the wire shape the SDKs send. Each policy's own cases are in ``test_<policy module>.py``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gpu_facts.pod_templates import POD_BEARING_KINDS
from gpu_policies.registry import policies
from gpu_policy_support.pod_specs import pod_bearing

from .cloud_fixtures import (
    ACK_NODE_POOL,
    AGENT_POOL,
    MANAGED_CLUSTER,
    REPLACE,
    ack,
    ack_pool,
    aks_gpu_pool,
)
from .crd_fixtures import GPU_FREE
from .harness import Case, Res, messages, policy_named, violations
from .platform_fixtures import dev_like_stack
from .pod_fixtures import KINDS, container, gpu_pod_spec, mutated, without_gpus, wrap
from .stack_fixtures import governed, operator_release

POD_POLICIES = (
    "gpu-workloads-tolerate-gpu-taint",
    "gpu-limits-whole-numbers",
    "no-nvidia-visible-devices-env",
    "no-privileged-gpu-containers",
    "cuda-images-pinned",
    "host-ipc-only-for-gpu-mem-pods",
    "gpu-pods-not-in-default-namespace",
)
NEW_STACK_POLICIES = (
    "pod-gpu-resources-exposed-by-pools",
    "shared-gpus-renamed-and-single-request",
    "gpu-pools-have-driver-check",
    "nvme-cache-volumes-ephemeral",
)


def test_every_kind_of_the_policies_is_covered() -> None:
    assert set(KINDS) == {k.label for k in POD_BEARING_KINDS}


@pytest.mark.parametrize("kind", KINDS)
def test_compliant_workload_passes_every_registered_policy(kind: str) -> None:
    """In its declared, governed namespace (the namespace policies judge the namespace)."""
    res = mutated(kind, without_gpus) if kind in GPU_FREE else wrap(kind, gpu_pod_spec())
    bearing = pod_bearing(res.type)
    made_by = bearing.made_by if bearing else None
    # A stack with an operator's custom resources says which version of it runs.
    operator = [operator_release(made_by.chart, made_by.version)] if made_by else []
    for policy in policies():
        found = violations(policy, [res, *operator, *governed("gpu-training")])
        assert found == [], policy.name


def test_policies_about_gpu_pods_skip_pods_without_gpus() -> None:
    def cpu_only(spec: dict[str, Any]) -> None:
        container(spec)["resources"] = {"limits": {"cpu": "1"}}
        container(spec)["securityContext"] = {"privileged": True}
        spec["tolerations"] = []

    res = mutated("Deployment", cpu_only, namespace=None)
    for name in (
        "gpu-workloads-tolerate-gpu-taint",
        "no-privileged-gpu-containers",
        "gpu-pods-not-in-default-namespace",
        "gpu-limits-whole-numbers",
    ):
        assert messages(Case(name, "cpu", (res,))) == [], name


def test_pod_policies_ignore_other_types_and_odd_shapes() -> None:
    odd = [
        Res("kubernetes:core/v1:ConfigMap", "cm", {"data": {"NVIDIA_VISIBLE_DEVICES": "all"}}),
        Res("kubernetes:apps/v1:Deployment", "empty", {}),
        Res("kubernetes:apps/v1:Deployment", "str-spec", {"spec": "oops"}),
        Res("kubernetes:core/v1:Pod", "bad-lists", {"spec": {"containers": "x", "tolerations": 3}}),
        Res("kubernetes:apps/v1:DeploymentPatch", "patch", {"spec": {"template": {"spec": {}}}}),
    ]
    for name in POD_POLICIES:
        assert violations(policy_named(name), odd) == [], name


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


def test_odd_shapes_do_not_crash_the_new_policies() -> None:
    odd = (
        Res("kubernetes:helm.sh/v3:Release", "p", {"chart": "nvidia-device-plugin", "values": "x"}),
        Res(
            "kubernetes:helm.sh/v3:Release",
            "q",
            {"chart": "nvidia-device-plugin", "values": {"config": {"map": {"a": 1}}}},
        ),
        Res("azure-native:containerservice:AgentPool", "x", {"vmSize": 3, "nodeLabels": "y"}),
        Res("kubernetes:core/v1:Pod", "p", {"spec": {"containers": [1], "nodeSelector": "z"}}),
        Res(
            "kubernetes:batch/v1:Job",
            "j",
            {"spec": {"template": {"spec": {"nodeSelector": {"a": "b"}}}}},
        ),
        Res("kubernetes:core/v1:PersistentVolumeClaim", "c", {"spec": "x"}),
        Res("kubernetes:storage.k8s.io/v1:StorageClass", "s", {"provisioner": 4}),
        Res(
            "kubernetes:apps/v1:StatefulSet",
            "ss",
            {"spec": {"volumeClaimTemplates": [1, {"spec": 2}]}},
        ),
    )
    for name in NEW_STACK_POLICIES:
        assert violations(policy_named(name), odd) == [], name


def test_dev_like_stack_passes_every_policy() -> None:
    for policy in policies():
        assert messages(Case(policy.name, "dev-like", dev_like_stack())) == [], policy.name
