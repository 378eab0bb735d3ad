"""Cross-layer stack policies: GPU resources the pools expose (BP-13), shared GPUs renamed
(BP-15), a driver check per pool (BP-05), the NVMe cache as ephemeral volumes (BP-18)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import replace

import pytest
from pulumi_policy import PolicyResource, StackValidationArgs, StackValidationPolicy
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, UnknownValueError, unknown_checking_proxy

from components.nvidia_device_plugin import gpu_node_affinity
from gpu_facts.scheduling import GPU_PRESENT_LABEL, POOL_LABEL
from gpu_policies import gpu_pools_have_driver_check
from gpu_policies.device_plugin_configs import parse_config

from .harness import Case, Res, assert_case, messages, opts, policy_named, violations
from .platform_fixtures import (
    A100_MIG_SIZE,
    ack_pool,
    aks_pool,
    cache_workload,
    dev_like_stack,
    driver_check,
    plain,
    plugin_release,
    pvc,
    shared,
    stateful_set_with_claim,
    storage_class,
    workload,
)
from .pod_fixtures import KINDS

EXPOSED = "pod-gpu-resources-exposed-by-pools"
SHARED = "shared-gpus-renamed-and-single-request"
DRIVER = "gpu-pools-have-driver-check"
NVME = "nvme-cache-volumes-ephemeral"
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
NEW_STACK_POLICIES = (EXPOSED, SHARED, DRIVER, NVME)

MIG_1G = "nvidia.com/mig-1g.5gb"
NOT_EXPOSED = "which no GPU pool of the stack exposes"
MIG_POOL = aks_pool("a100mig", A100_MIG_SIZE, "MIG1g")
T4_POOL = aks_pool("t4")


def mig_stack(strategy: str = "mixed", global_mig: str | None = None) -> tuple[Res, ...]:
    release = plugin_release({"plain-default": plain(), "a100mig": plain(strategy)})
    if global_mig is not None:
        release.props["values"]["migStrategy"] = global_mig
    return (MIG_POOL, release)


def t4_stack(config: dict[str, object]) -> tuple[Res, ...]:
    return (T4_POOL, plugin_release({"plain-default": plain(), "t4": config}))


def required_affinity(*terms: list[dict[str, object]]) -> dict[str, object]:
    """A required node affinity: ``terms`` ORed, each one's expressions ANDed."""
    selector = {"nodeSelectorTerms": [{"matchExpressions": term} for term in terms]}
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": selector}}


OUR_AFFINITY_RELEASE = plugin_release(
    {"plain-default": plain(), "t4": plain()}, affinity=gpu_node_affinity()
)


def _exposed_cases() -> list[Case]:
    cases = [
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
        Case(EXPOSED, "amd-not-judged", (*mig_stack(), workload("amd.com/gpu"))),
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
                plugin_release(
                    {"plain-default": plain(), "a100mig": shared("mps", strategy="mixed")}
                ),
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
    ]
    for kind in KINDS:
        cases.append(
            Case(
                EXPOSED, f"{kind}-exposed", (*mig_stack(), workload("nvidia.com/mig-1g.5gb", kind))
            )
        )
        cases.append(
            Case(
                EXPOSED,
                f"{kind}-not-exposed",
                (*mig_stack(), workload("nvidia.com/mig-2g.10gb", kind)),
                (f"'trainer-{kind.lower()}' asks for nvidia.com/mig-2g.10gb",),
            )
        )
    return cases


SHARED_CASES = [
    Case(SHARED, "renamed-single-request", t4_stack(shared())),
    Case(SHARED, "mps-renamed", t4_stack(shared("mps", fail=None))),
    Case(SHARED, "no-sharing", t4_stack(plain())),
    Case(
        SHARED,
        "every-resource-renamed",
        t4_stack(shared(rename=None, resource_rename="nvidia.com/t4-slice")),
    ),
    Case(SHARED, "exempt-config", t4_stack(shared(rename=False)), config={"exemptNames": ["t4"]}),
    Case(SHARED, "not-renamed", t4_stack(shared(rename=False)), ("config 't4' (timeSlicing)",)),
    Case(SHARED, "rename-unset", t4_stack(shared(rename=None)), ("renameByDefault: true",)),
    Case(
        SHARED, "many-per-container", t4_stack(shared(fail=False)), ("failRequestsGreaterThanOne",)
    ),
    Case(
        SHARED,
        "neither",
        t4_stack(shared(rename=False, fail=None)),
        ("renameByDefault", "failRequestsGreaterThanOne"),
    ),
    Case(SHARED, "mps-not-renamed", t4_stack(shared("mps", rename=False)), ("(mps)",)),
    Case(
        SHARED,
        "v4-chart",
        (
            Res(
                "kubernetes:helm.sh/v4:Chart",
                "p",
                plugin_release({"t4": shared(rename=False)}).props,
            ),
        ),
        ("renameByDefault",),
    ),
]


def sized(pool: Res, **changes: object) -> Res:
    """``pool`` with its sizing props changed (``None`` drops a prop)."""
    props = {**pool.props, **changes}
    return replace(pool, props={k: v for k, v in props.items() if v is not None})


def inline_gpu_pool(**changes: object) -> Res:
    """A ManagedCluster with a system pool and the t4 GPU pool inline, the latter ``changes``d."""
    gpu = {k: v for k, v in T4_POOL.props.items() if k not in ("resourceGroupName", "resourceName")}
    gpu.pop("agentPoolName")
    gpu = {"name": "t4", "mode": "User", **gpu, **changes}
    system = {"name": "system", "mode": "System", "vmSize": "Standard_D4s_v5", "count": 0}
    return Res(MANAGED_CLUSTER, "aks", {"agentPoolProfiles": [system, gpu]})


AUTOSCALED = {"enableAutoScaling": True, "minCount": 0, "maxCount": 3}
ACK_SCALING = {"scalingConfig": {"enable": True, "minSize": 0, "maxSize": 2, "type": "gpu"}}
ACK_A10 = ack_pool("a10", "mps")

# A pool that can be empty has nothing to check for sure: fixed at zero (a check Job could
# never schedule) or autoscaled from zero (the scale-from-zero template may not know the
# pool's GPU resource; where it does, a check would power up a node).
MAY_BE_EMPTY_CASES = [
    Case(DRIVER, "aks-count-0", (sized(T4_POOL, count=0),)),
    Case(DRIVER, "aks-count-0-as-the-engine-sends-it", (sized(T4_POOL, count=0.0),)),
    Case(DRIVER, "aks-autoscaling-off", (sized(T4_POOL, count=0, enableAutoScaling=False),)),
    Case(DRIVER, "aks-inline-count-0", (inline_gpu_pool(count=0),)),
    Case(DRIVER, "ack-desired-size-0", (sized(ACK_A10, desiredSize="0"),)),
    Case(DRIVER, "ack-deprecated-node-count-0", (sized(ACK_A10, nodeCount=0),)),
    Case(
        DRIVER,
        "ack-scaling-config-off",
        (sized(ACK_A10, desiredSize="0", scalingConfig={"enable": False}),),
    ),
    # The zero pool cannot take the check: a selector on both pools checks the other one.
    Case(
        DRIVER,
        "zero-pool-beside-a-checked-pool",
        (
            sized(T4_POOL, count=0),
            MIG_POOL,
            driver_check("any", selector={GPU_PRESENT_LABEL: "true"}),
        ),
    ),
    Case(DRIVER, "aks-autoscaled-from-0", (sized(T4_POOL, count=0, **AUTOSCALED),)),
    Case(DRIVER, "aks-autoscaled-from-0-with-count-1", (sized(T4_POOL, **AUTOSCALED),)),
    Case(
        DRIVER,
        "aks-autoscaled-without-min",
        (sized(T4_POOL, **{**AUTOSCALED, "minCount": None}),),
    ),
    Case(DRIVER, "aks-inline-autoscaled-from-0", (inline_gpu_pool(count=0, **AUTOSCALED),)),
    Case(DRIVER, "ack-autoscaled-from-0", (sized(ACK_A10, desiredSize="0", **ACK_SCALING),)),
    Case(DRIVER, "ack-autoscaled-from-0-size-missing", (sized(ACK_A10, **ACK_SCALING),)),
    # Pools that always have a node need their check.
    Case(DRIVER, "aks-count-1", (sized(T4_POOL, count=1),), ("'t4'",)),
    Case(DRIVER, "aks-count-missing-defaults-to-1", (sized(T4_POOL, count=None),), ("'t4'",)),
    Case(
        DRIVER,
        "aks-autoscaled-from-1",
        (sized(T4_POOL, count=0, **{**AUTOSCALED, "minCount": 1}),),
        ("'t4'",),
    ),
    Case(
        DRIVER,
        "aks-autoscaled-from-1-as-the-engine-sends-it",
        (sized(T4_POOL, **{**AUTOSCALED, "minCount": 1.0}),),
        ("minimum node count is at least 1",),
    ),
    Case(DRIVER, "aks-count-not-a-number", (sized(T4_POOL, count="zero"),), ("'t4'",)),
    Case(
        DRIVER,
        "aks-inline-count-2",
        (inline_gpu_pool(count=2),),
        ("'aks/agentPoolProfiles[t4]'",),
    ),
    Case(
        DRIVER,
        "aks-inline-autoscaled-from-2",
        (inline_gpu_pool(count=0, **{**AUTOSCALED, "minCount": 2}),),
        ("'aks/agentPoolProfiles[t4]'",),
    ),
    Case(DRIVER, "ack-desired-size-2", (sized(ACK_A10, desiredSize="2"),), ("'a10'",)),
    Case(DRIVER, "ack-size-missing", (ACK_A10,), ("'a10'",)),
    Case(
        DRIVER,
        "ack-autoscaled-from-1",
        (
            sized(
                ACK_A10,
                desiredSize="0",
                scalingConfig={**ACK_SCALING["scalingConfig"], "minSize": 1},
            ),
        ),
        ("'a10'",),
    ),
    Case(
        DRIVER,
        "ack-sizes-disagree",
        (sized(ACK_A10, desiredSize="1", nodeCount=0),),
        ("'a10'",),
    ),
]

DRIVER_CASES = [
    *MAY_BE_EMPTY_CASES,
    Case(DRIVER, "dev-like", dev_like_stack()),
    Case(DRIVER, "cronjob-check", (T4_POOL, driver_check("t4", "CronJob"))),
    Case(DRIVER, "workloads-without-pools", (workload("nvidia.com/gpu"),)),
    Case(DRIVER, "exempt-pool", (T4_POOL,), config={"exemptNames": ["t4"]}),
    Case(
        DRIVER,
        "ack-pool",
        (ack_pool("a10", "mps"), driver_check("a10")),
    ),
    Case(DRIVER, "missing", (T4_POOL,), ("GPU node pool 't4' has no driver check",)),
    Case(DRIVER, "ack-missing", (ack_pool("a10", "mps"),), ("'a10'",)),
    Case(DRIVER, "not-tolerated", (T4_POOL, driver_check("t4", tolerate=False)), ("'t4'",)),
    Case(DRIVER, "no-nvidia-smi", (T4_POOL, driver_check("t4", command="true")), ("'t4'",)),
    Case(DRIVER, "other-pool", (T4_POOL, MIG_POOL, driver_check("t4")), ("'a100mig'",)),
    Case(
        DRIVER,
        "a-deployment-is-no-check",
        (T4_POOL, Res("kubernetes:apps/v1:Deployment", "d", driver_check("t4").props)),
        ("'t4'",),
    ),
    Case(
        DRIVER,
        "selector-on-every-pool",
        (T4_POOL, MIG_POOL, driver_check("any", selector={GPU_PRESENT_LABEL: "true"})),
        ("'t4'", "'a100mig'"),
    ),
]

NVME_CASES = [
    *(
        Case(NVME, f"{kind}-ephemeral-volume", (storage_class(), cache_workload(kind)))
        for kind in KINDS
    ),
    Case(NVME, "pvc-on-another-class", (storage_class(), pvc("managed-csi"))),
    Case(NVME, "pvc-without-class-default-elsewhere", (storage_class(), pvc(None))),
    Case(NVME, "no-nvme-class", (storage_class(provisioner="disk.csi.azure.com"), pvc())),
    Case(NVME, "exempt-claim", (storage_class(), pvc()), config={"exemptNames": ["cache"]}),
    Case(
        NVME,
        "pvc",
        (storage_class(), pvc()),
        ("PersistentVolumeClaim 'cache' claims the local NVMe cache, which its data is lost",),
    ),
    Case(
        NVME,
        "stateful-set-claim",
        (storage_class(), stateful_set_with_claim()),
        ("volumeClaimTemplate 'cache'",),
    ),
    Case(NVME, "default-class", (storage_class(default=True), pvc(None)), ("'cache'",)),
    Case(
        NVME,
        "class-named-in-config",
        (pvc("team-nvme"),),
        ("'cache'",),
        config={"nvmeStorageClasses": ["team-nvme"]},
    ),
]

BAD_REQUEST = workload("nvidia.com/mig-1g.10gb")
EXEMPTION_CASES = [
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
    Case(DRIVER, "exempt-pool-by-pulumi-name", (T4_POOL,), config={"exemptNames": ["pool-t4"]}),
    Case(
        SHARED,
        "exempt-release",
        t4_stack(shared(rename=False)),
        config={"exemptNames": ["device-plugin"]},
    ),
    Case(
        NVME,
        "exempt-namespace",
        (storage_class(), pvc()),
        config={"exemptNamespaces": ["gpu-training"]},
    ),
]

CASES: list[Case] = [
    *_exposed_cases(),
    *SHARED_CASES,
    *DRIVER_CASES,
    *NVME_CASES,
    *EXEMPTION_CASES,
]
"""Declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.policy}/{c.id}")
def test_case(case: Case) -> None:
    assert_case(case)


def test_violations_point_at_the_offending_resource() -> None:
    bad = workload("nvidia.com/mig-1g.10gb")
    assert [urn for _, urn in violations(policy_named(EXPOSED), (*mig_stack(), bad))] == [bad.urn]
    release = plugin_release({"t4": shared(rename=False)})
    assert [urn for _, urn in violations(policy_named(SHARED), (T4_POOL, release))] == [release.urn]
    assert [urn for _, urn in violations(policy_named(DRIVER), (T4_POOL,))] == [T4_POOL.urn]
    claim = pvc()
    assert [urn for _, urn in violations(policy_named(NVME), (storage_class(), claim))] == [
        claim.urn
    ]


@pytest.mark.parametrize(
    "document",
    ["", "[1, 2]", "version: v1\nsharing:\n  timeSlicing: {}\n  mps: {}\n", "{", 7],
)
def test_configs_the_plugin_cannot_use_are_marked_not_raised(document: object) -> None:
    config = parse_config("x", document)
    assert config.error is not None


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


def test_an_unknown_config_raises_the_analyzers_error_not_a_crash() -> None:
    release = plugin_release({"t4": UNKNOWN_STRING_VALUE})
    with pytest.raises(UnknownValueError):
        violations(policy_named(EXPOSED), (T4_POOL, release, workload("nvidia.com/gpu")))


class CountingList(list[PolicyResource]):
    """A resource list that counts how often a policy walks it."""

    walks = 0

    def __iter__(self) -> Iterator[PolicyResource]:
        self.walks += 1
        return super().__iter__()


@pytest.mark.parametrize("name", NEW_STACK_POLICIES)
def test_new_stack_policies_walk_the_resources_once(name: str) -> None:
    """Linear time: each policy indexes the stack by type in one pass, then looks things up."""
    resources = list(dev_like_stack())
    for i in range(100):
        res = workload("nvidia.com/mig-1g.5gb")
        resources.append(Res(res.type, f"w{i}", res.props))
    counted = CountingList(
        PolicyResource(
            r.type,
            unknown_checking_proxy(r.props),
            r.urn,
            r.name,
            opts(delete_before_replace=r.delete_before_replace),
            None,
            None,
            [],
            {},
        )
        for r in resources
    )
    found: list[str] = []
    policy = policy_named(name)
    assert isinstance(policy, StackValidationPolicy)
    assert policy.validate is not None

    def report(message: str, urn: str | None = None) -> None:
        found.append(message)

    policy.validate(StackValidationArgs(counted, config={}), report)
    assert found == []
    assert counted.walks == 1


POOLS_WITH_PROPS = gpu_pools_have_driver_check._pools_with_props


class CountingLabels(Mapping[str, str]):
    """A pool's labels that count every read into a shared counter, by pool."""

    def __init__(self, pool: str, labels: Mapping[str, str], reads: Counter[str]) -> None:
        self._pool, self._labels, self._reads = pool, dict(labels), reads

    def __getitem__(self, key: str) -> str:
        self._reads[self._pool] += 1
        return self._labels[key]

    def __iter__(self) -> Iterator[str]:
        self._reads[self._pool] += 1
        return iter(self._labels)

    def __len__(self) -> int:
        self._reads[self._pool] += 1
        return len(self._labels)


def _label_reads(checks: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], int]:
    """Label reads per pool, and violations, for 20 pools and ``checks`` driver checks."""
    reads: Counter[str] = Counter()

    def counted(resource_type: str, resource: PolicyResource) -> Iterator[tuple[object, object]]:
        for pool, props in POOLS_WITH_PROPS(resource_type, resource):
            yield replace(pool, labels=CountingLabels(pool.name, pool.labels, reads)), props

    monkeypatch.setattr(gpu_pools_have_driver_check, "_pools_with_props", counted)
    pools = [aks_pool(f"p{i}") for i in range(20)]
    jobs = [driver_check(f"p{i % 20}") for i in range(checks)]
    jobs = [replace(job, name=f"{job.name}-{i}") for i, job in enumerate(jobs)]
    found = violations(policy_named(DRIVER), (*pools, *jobs))
    return reads, len(found)


def test_driver_check_reads_each_pool_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pools are indexed by label once: more check Jobs do not read any pool's labels again."""
    one_check, one_found = _label_reads(1, monkeypatch)
    many_checks, many_found = _label_reads(200, monkeypatch)
    assert (one_found, many_found) == (19, 0)
    assert set(many_checks) == {f"p{i}" for i in range(20)}
    assert many_checks == one_check


def test_dev_like_stack_passes_every_policy() -> None:
    from gpu_policies.registry import policies

    for policy in policies():
        assert messages(Case(policy.name, "dev-like", dev_like_stack())) == [], policy.name
