"""pod-gpu-resources-exposed-by-pools: pods ask only for resources the pools advertise."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, UnknownValueError

from gpu_facts.scheduling import AMD_GPU, GPU_PRESENT_LABEL, POOL_LABEL
from gpu_platform.components.nvidia.device_plugin import gpu_node_affinity

from .cloud_fixtures import eks, gke, karpenter
from .crd_fixtures import GPU_FREE, NIM_KINDS, served_from_pvc
from .harness import Case, Res, assert_case, policy_named, violations
from .platform_fixtures import (
    MIG_1G,
    MIG_POOL,
    T4_POOL,
    ack_pool,
    aks_pool,
    amd_pool,
    amd_tolerations,
    dev_like_stack,
    device_config,
    many_workloads_stack,
    mig_stack,
    plain,
    plugin_release,
    shared,
    t4_stack,
    workload,
)
from .pod_fixtures import KINDS, mutated, without_gpus
from .stack_fixtures import walks_once

EXPOSED = "pod-gpu-resources-exposed-by-pools"
NOT_EXPOSED = "which no GPU pool of the stack exposes"
BAD_REQUEST = workload("nvidia.com/mig-1g.10gb")


def required_affinity(*terms: list[dict[str, object]]) -> dict[str, object]:
    """A required node affinity: ``terms`` ORed, each one's expressions ANDed."""
    selector = {"nodeSelectorTerms": [{"matchExpressions": term} for term in terms]}
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": selector}}


OUR_AFFINITY_RELEASE = plugin_release(
    {"plain-default": plain(), "t4": plain()}, affinity=gpu_node_affinity()
)


def _every_kind() -> list[Case]:
    cases = []
    for kind in KINDS:
        if kind in GPU_FREE:  # asks for no GPU resource, so for none the pools lack
            res = mutated(kind, without_gpus)
            cases.append(Case(EXPOSED, f"{kind}-no-gpu", (*mig_stack(), res)))
            continue
        # A NIM served from its PVC: the operator adds no GPU to what it asks (below: one that is).
        own: Callable[[Res], Res] = served_from_pvc if kind in NIM_KINDS else (lambda r: r)
        cases.append(
            Case(
                EXPOSED,
                f"{kind}-exposed",
                (*mig_stack(), own(workload("nvidia.com/mig-1g.5gb", kind))),
            )
        )
        cases.append(
            Case(
                EXPOSED,
                f"{kind}-not-exposed",
                (*mig_stack(), own(workload("nvidia.com/mig-2g.10gb", kind))),
                ("asks for nvidia.com/mig-2g.10gb, which no GPU pool",),
            )
        )
    return cases


CASES: list[Case] = [
    # NVIDIA's NIM operator adds nvidia.com/gpu to a NIMService served from a NIMCache unless
    # it asks for that very resource (a MIG profile does not count): on a pool of MIG only,
    # the pod it makes never schedules.
    *(
        Case(
            EXPOSED,
            f"{kind}-served-from-a-nimcache-on-mig",
            (*mig_stack(), workload("nvidia.com/mig-1g.5gb", kind)),
            ("asks for nvidia.com/gpu, which no GPU pool of the stack exposes",),
        )
        for kind in sorted(NIM_KINDS)
    ),
    Case(
        EXPOSED,
        "exempt-by-object-name",
        (*mig_stack(), BAD_REQUEST),
        config={"exemptNames": ["trainer-deployment"]},
    ),
    Case(
        EXPOSED,
        "exempt-namespace-from-config",
        (*mig_stack(), BAD_REQUEST),
        config={"exemptNamespaces": ["gpu-training"]},
    ),
    Case(
        EXPOSED,
        "cleared-exemptions-bring-kube-system-back",
        (*mig_stack(), workload("nvidia.com/mig-1g.10gb", namespace="kube-system")),
        (NOT_EXPOSED,),
        config={"exemptNamespaces": []},
    ),
    Case(EXPOSED, "dev-like", dev_like_stack()),
    Case(EXPOSED, "mig-mixed", (*mig_stack(), workload("nvidia.com/mig-1g.5gb"))),
    Case(EXPOSED, "mig-single", (*mig_stack("single"), workload("nvidia.com/gpu"))),
    Case(
        EXPOSED,
        "global-mig-strategy-overrides-configs",
        (*mig_stack("none", global_mig="mixed"), workload("nvidia.com/mig-1g.5gb")),
    ),
    Case(EXPOSED, "shared-renamed", (*t4_stack(shared()), workload("nvidia.com/gpu.shared"))),
    Case(
        EXPOSED,
        "shared-not-renamed",
        (*t4_stack(shared(rename=False)), workload("nvidia.com/gpu")),
    ),
    Case(
        EXPOSED,
        "per-resource-rename",
        (*t4_stack(shared(rename=None, resource_rename="t4.slice")), workload("t4.slice")),
    ),
    Case(
        EXPOSED,
        "per-resource-rename-not-shared-suffix",
        (
            *t4_stack(shared(rename=None, resource_rename="nvidia.com/t4-slice")),
            workload("nvidia.com/gpu.shared"),
        ),
        ("exposes nvidia.com/t4-slice (pool t4)",),
    ),
    Case(
        EXPOSED,
        "default-config-for-unlabelled-pool",
        (aks_pool("t4", config_label=False), plugin_release(), workload("nvidia.com/gpu")),
    ),
    Case(
        EXPOSED,
        "single-config-is-the-default",
        (
            aks_pool("t4", config_label=False),
            plugin_release({"only": plain()}, default=None),
            workload("nvidia.com/gpu"),
        ),
    ),
    Case(
        EXPOSED,
        "ack-gpu-mem",
        (ack_pool("a10", "mps"), plugin_release(), workload("aliyun.com/gpu-mem")),
    ),
    Case(EXPOSED, "no-device-plugin-release", (MIG_POOL, workload("nvidia.com/mig-1g.10gb"))),
    Case(EXPOSED, "no-pools", (plugin_release(), workload("nvidia.com/mig-1g.10gb"))),
    Case(
        EXPOSED,
        "external-configmap",
        (
            MIG_POOL,
            Res(
                "kubernetes:helm.sh/v3:Release",
                "p",
                {"chart": "nvidia-device-plugin", "values": {"config": {"name": "cm"}}},
            ),
            workload("nvidia.com/mig-1g.10gb"),
        ),
    ),
    # AMD: amd.com/gpu where a DeviceConfig runs AMD's plugin on an AMD pool.
    Case(
        EXPOSED,
        "amd-ask-on-nvidia-only-pools",
        (*mig_stack(), workload("amd.com/gpu")),
        ("asks for amd.com/gpu, which no GPU pool of the stack exposes",),
    ),
    Case(EXPOSED, "amd-pool-and-device-config", (amd_pool(), device_config(), workload(AMD_GPU))),
    Case(
        EXPOSED,
        "mixed-vendors",
        (*mig_stack(), amd_pool(), device_config(), workload(AMD_GPU), workload(MIG_1G)),
    ),
    Case(
        EXPOSED,
        "amd-partition-under-single-naming",
        (amd_pool(), device_config(), workload("amd.com/cpx_nps4")),
        (
            "asks for amd.com/cpx_nps4, which no GPU pool of the stack exposes; the stack "
            "exposes amd.com/gpu (pool mi300x)",
        ),
    ),
    Case(
        EXPOSED,
        "amd-partition-under-mixed-naming-not-judged",
        (
            amd_pool(),
            device_config(
                devicePlugin={
                    "devicePluginArguments": {"resource_naming_strategy": "mixed"},
                    "devicePluginTolerations": amd_tolerations(),
                }
            ),
            workload("amd.com/cpx_nps4"),
        ),
    ),
    Case(
        EXPOSED,
        "amd-device-config-selects-another-pool",
        (amd_pool(), device_config(selector={POOL_LABEL: "other"}), workload(AMD_GPU)),
        ("no DeviceConfig of AMD's GPU Operator selects pool mi300x",),
    ),
    Case(
        EXPOSED,
        "amd-plugin-without-the-amd-toleration",
        (amd_pool(), device_config(devicePlugin={}), workload(AMD_GPU)),
        ("DeviceConfig 'mi300x''s device plugin does not tolerate pool mi300x's taints",),
    ),
    Case(EXPOSED, "amd-pool-operator-outside-the-stack", (amd_pool(), workload(AMD_GPU))),
    Case(
        EXPOSED,
        "exempt-namespace",
        (*mig_stack(), workload("nvidia.com/mig-1g.10gb", namespace="kube-system")),
    ),
    Case(
        EXPOSED,
        "wrong-mig-profile",
        (*mig_stack(), workload("nvidia.com/mig-1g.10gb")),
        (
            "asks for nvidia.com/mig-1g.10gb, which no GPU pool of the stack exposes; the "
            "stack exposes nvidia.com/mig-1g.5gb (pool a100mig)",
        ),
    ),
    Case(
        EXPOSED,
        "whole-gpu-on-mixed-mig-and-renamed-shared-pools",
        (*dev_like_stack(), workload("nvidia.com/gpu")),
        ("exposes nvidia.com/gpu.shared (pool t4), nvidia.com/mig-1g.5gb (pool a100mig)",),
    ),
    Case(
        EXPOSED,
        "mig-resource-under-single",
        (*mig_stack("single"), workload("nvidia.com/mig-1g.5gb")),
        ("exposes nvidia.com/gpu (pool a100mig)",),
    ),
    Case(
        EXPOSED,
        "shared-name-when-not-renamed",
        (*t4_stack(shared(rename=False)), workload("nvidia.com/gpu.shared")),
        (NOT_EXPOSED,),
    ),
    Case(
        EXPOSED,
        "exclusive-name-on-renamed-pool",
        (*t4_stack(shared()), workload("nvidia.com/gpu")),
        ("exposes nvidia.com/gpu.shared (pool t4)",),
    ),
    Case(
        EXPOSED,
        "mps-on-mig-is-refused-by-the-plugin",
        (
            MIG_POOL,
            plugin_release(
                {
                    "plain-default": plain(),
                    "a100mig": shared("mps", strategy="mixed", resource=MIG_1G),
                }
            ),
            workload("nvidia.com/mig-1g.5gb"),
        ),
        ("exposes no GPU resource",),
    ),
    Case(
        EXPOSED,
        "mps-on-mig-whatever-it-lists",
        (
            MIG_POOL,
            plugin_release({"plain-default": plain(), "a100mig": shared("mps", strategy="mixed")}),
            workload(MIG_1G),
        ),
        ("exposes no GPU resource",),
    ),
    Case(
        EXPOSED,
        "config-named-default-is-the-default",
        (
            aks_pool("t4", config_label=False),
            plugin_release({"other": shared(), "default": plain()}, default=None),
            workload("nvidia.com/gpu"),
        ),
    ),
    # The chart's config-manager exits on a label naming a missing config: no fallback.
    Case(
        EXPOSED,
        "label-naming-a-missing-config-exposes-nothing",
        (
            aks_pool("t4"),
            plugin_release({"plain-default": plain()}),
            workload("nvidia.com/gpu"),
        ),
        ("label names config 't4', which release 'device-plugin' does not have",),
    ),
    # Our release's required node affinity: the GPU label AND a config label.
    Case(
        EXPOSED,
        "our-affinity-on-a-labelled-pool",
        (T4_POOL, OUR_AFFINITY_RELEASE, workload("nvidia.com/gpu")),
    ),
    Case(
        EXPOSED,
        "our-affinity-skips-a-pool-without-the-config-label",
        (aks_pool("t4", config_label=False), OUR_AFFINITY_RELEASE, workload("nvidia.com/gpu")),
        ("pool t4 does not match release 'device-plugin's required node affinity",),
    ),
    Case(
        EXPOSED,
        "node-selector-skips-other-pools",
        (
            T4_POOL,
            plugin_release({"t4": plain()}, nodeSelector={POOL_LABEL: "a100"}),
            workload("nvidia.com/gpu"),
        ),
        ("does not match release 'device-plugin's nodeSelector",),
    ),
    Case(
        EXPOSED,
        "node-selector-on-the-pool",
        (
            T4_POOL,
            plugin_release({"t4": plain()}, nodeSelector={POOL_LABEL: "t4"}),
            workload("nvidia.com/gpu"),
        ),
    ),
    Case(
        EXPOSED,
        "affinity-terms-are-ored",
        (
            T4_POOL,
            plugin_release(
                {"t4": plain()},
                affinity=required_affinity(
                    [{"key": POOL_LABEL, "operator": "NotIn", "values": ["t4"]}],
                    [{"key": "example.com/other", "operator": "DoesNotExist"}],
                ),
            ),
            workload("nvidia.com/gpu"),
        ),
    ),
    Case(
        EXPOSED,
        "affinity-expressions-are-anded",
        (
            T4_POOL,
            plugin_release(
                {"t4": plain()},
                affinity=required_affinity(
                    [
                        {"key": GPU_PRESENT_LABEL, "operator": "In", "values": ["true"]},
                        {"key": POOL_LABEL, "operator": "DoesNotExist"},
                    ]
                ),
            ),
            workload("nvidia.com/gpu"),
        ),
        ("does not match release 'device-plugin's required node affinity",),
    ),
    Case(
        EXPOSED,
        "config-not-yaml",
        (
            T4_POOL,
            plugin_release({"plain-default": plain(), "t4": "{oops"}),
            workload("nvidia.com/gpu"),
        ),
        ("exposes no GPU resource",),
    ),
    Case(
        EXPOSED,
        "gpu-mem-without-ack-sharing",
        (*t4_stack(plain()), workload("aliyun.com/gpu-mem")),
        ("asks for aliyun.com/gpu-mem",),
    ),
    *_every_kind(),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_violations_point_at_the_workload() -> None:
    bad = workload("nvidia.com/mig-1g.10gb")
    assert [urn for _, urn in violations(policy_named(EXPOSED), (*mig_stack(), bad))] == [bad.urn]


def test_an_unknown_config_raises_the_analyzers_error_not_a_crash() -> None:
    release = plugin_release({"t4": UNKNOWN_STRING_VALUE})
    with pytest.raises(UnknownValueError):
        violations(policy_named(EXPOSED), (T4_POOL, release, workload("nvidia.com/gpu")))


def test_walks_the_resources_once() -> None:
    walks_once(EXPOSED, many_workloads_stack())


# --- EKS and GKE pools -----------------------------------------------------------------------

EKS_GKE_CASES = [
    # GKE runs its own device plugin: whole GPUs, no release needed.
    Case(EXPOSED, "gke-whole-gpu", (*gke(), workload("nvidia.com/gpu"))),
    Case(
        EXPOSED,
        "gke-mig-resource",
        (*gke(), workload("nvidia.com/mig-1g.5gb")),
        ("the stack exposes nvidia.com/gpu (pool t4)",),
    ),
    # EKS: the plugin release's config decides, as on AKS.
    Case(EXPOSED, "eks-whole-gpu", (*eks(), plugin_release(), workload("nvidia.com/gpu"))),
    Case(
        EXPOSED,
        "eks-shared-not-asked",
        (
            *eks(labels={"nvidia.com/device-plugin.config": "t4"}),
            plugin_release({"plain-default": plain(), "t4": shared()}),
            workload("nvidia.com/gpu"),
        ),
        ("exposes nvidia.com/gpu.shared (pool gpu)",),
    ),
    Case(EXPOSED, "eks-without-release-not-judged", (*eks(), workload("nvidia.com/mig-1g.5gb"))),
]


@pytest.mark.parametrize("case", EKS_GKE_CASES, ids=lambda c: c.id)
def test_eks_and_gke_pools_expose_their_gpus(case: Case) -> None:
    assert_case(case)


# --- Karpenter NodePools (issue 30) ----------------------------------------------------------

KARPENTER_CASES = [
    # A catalogued GPU (AKS NAP's A100 size): judged as any pool of that size.
    Case(
        EXPOSED,
        "karpenter-nap-whole-gpu",
        (*karpenter("aks-nap"), plugin_release(), workload("nvidia.com/gpu")),
    ),
    Case(
        EXPOSED,
        "karpenter-nap-mig-not-exposed",
        (*karpenter("aks-nap"), plugin_release(), workload("nvidia.com/mig-1g.10gb")),
        ("the stack exposes nvidia.com/gpu (pool gpu)",),
    ),
    # GPU instances asked for by their labels only (Auto Mode): the names cannot be worked out.
    Case(
        EXPOSED,
        "karpenter-gpu-by-labels-not-judged",
        (*karpenter("eks-auto"), plugin_release(), workload("nvidia.com/mig-1g.10gb")),
    ),
]


@pytest.mark.parametrize("case", KARPENTER_CASES, ids=lambda c: c.id)
def test_karpenter_pools_expose_what_their_instances_have(case: Case) -> None:
    assert_case(case)
