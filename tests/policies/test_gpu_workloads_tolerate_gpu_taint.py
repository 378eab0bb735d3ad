"""gpu-workloads-tolerate-gpu-taint: GPU pods tolerate the GPU taint, on every pod-bearing kind."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.scheduling import GPU_TAINT, POOL_LABEL

from .claim_fixtures import claim_policy_cases, claim_workload, run_recorded, unknown_claim_name
from .cloud_fixtures import EKS_TAINT_TRUE, GKE_CLUSTER, eks, eks_self_managed, gke
from .crd_fixtures import NIM_KINDS, OPERATOR_TOLERATES
from .harness import Case, Res, assert_case, messages
from .platform_fixtures import (
    T4_POOL,
    aks_pool,
    amd_pool,
    amd_tolerations,
    many_workloads_stack,
    workload,
)
from .pod_fixtures import (
    Change,
    container,
    gpu_pod_spec,
    mutated,
    pod_policy_cases,
    set_spec,
    wrap,
)
from .queue_fixtures import (
    KUEUE_KINDS,
    cluster_queue,
    flavor,
    local_queue,
    queued,
    queued_by_pods,
    queues,
    untolerated_spec,
)
from .stack_fixtures import walks_once

POLICY = "gpu-workloads-tolerate-gpu-taint"

# (id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, Change, str]] = [
    ("no-tolerations", set_spec("tolerations", []), "does not tolerate"),
    (
        "wrong-effect",
        set_spec(
            "tolerations", [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute"}]
        ),
        "does not tolerate",
    ),
    (
        "equal-wrong-value",
        set_spec("tolerations", [{"key": "nvidia.com/gpu", "operator": "Equal", "value": "true"}]),
        "does not tolerate",
    ),
    (
        "other-key",
        set_spec("tolerations", [{"key": "sku", "operator": "Exists", "effect": "NoSchedule"}]),
        "does not tolerate",
    ),
]

EXISTS = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def operator_pod(kind: str, resource: str | None, tolerations: Any = ()) -> Res:
    """``kind``'s GPU pod asking one unit of ``resource`` (None: no GPU resource written)."""

    def change(spec: dict[str, Any]) -> None:
        limits = {resource: 1} if resource else {"cpu": "4"}
        container(spec)["resources"] = {"limits": limits}
        spec["tolerations"] = list(tolerations)

    return mutated(kind, change)


def nim_inline_claim(tolerations: list[dict[str, str]]) -> Res:
    """A NIMService that claims one GPU inline: a device of the default class, no count."""
    spec = {
        "image": {"repository": "nvcr.io/nim/meta/llama-3.1-8b-instruct", "tag": "1.3.3"},
        "authSecret": "ngc-api-secret",
        "storage": {"pvc": {"name": "model"}},
        "draResources": [{"claimCreationSpec": {"devices": [{"name": "gpu"}]}}],
        "tolerations": tolerations,
    }
    return Res(
        "kubernetes:apps.nvidia.com/v1alpha1:NIMService",
        "llama",
        {"metadata": {"name": "llama", "namespace": "gpu-inference"}, "spec": spec},
    )


def amd_workload(resource: str = "amd.com/gpu", tolerations: Any = None) -> Res:
    res = workload(resource)
    spec = res.props["spec"]["template"]["spec"]
    spec["tolerations"] = amd_tolerations() if tolerations is None else tolerations
    return res


# Queued by Kueue (Kueue's GPU examples): the flavour adds the toleration at admission.
QUEUED = "(admitted by Kueue to flavour 't4' of ClusterQueue 'training') asks for nvidia.com/gpu"
TRUE_TAINTED = Res(
    "azure-native:containerservice:AgentPool",
    "pool-a100",
    {
        **aks_pool("a100").props,
        "nodeTaints": ["nvidia.com/gpu=true:NoSchedule"],
    },
)
PRESENT_ONLY = {
    **gpu_pod_spec(),
    "tolerations": [
        {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"}
    ],
}
SPOT = {"key": "spot", "value": "true", "effect": "NoSchedule"}


def two_flavours(a100_taint: dict[str, str] | None = None) -> tuple[Res, ...]:
    """A ClusterQueue with GPU quota on t4 (its flavour tolerates the GPU taint) and on a100
    (its flavour tolerates nothing; ``a100_taint`` in its nodeTaints), and its LocalQueue."""
    a100 = flavor("a100", tolerations=[])
    if a100_taint is not None:
        a100.props["spec"]["nodeTaints"] = [a100_taint]
    quota = cluster_queue(quotas={"t4": {"nvidia.com/gpu": 4}, "a100": {"nvidia.com/gpu": 8}})
    return (flavor(), a100, quota, local_queue())


def pinned_to(pool: str) -> dict[str, Any]:
    """A GPU pod that tolerates nothing, its required node affinity on pool ``pool``."""
    spec = untolerated_spec()
    term = {"matchExpressions": [{"key": POOL_LABEL, "operator": "In", "values": [pool]}]}
    spec["affinity"] = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}
        }
    }
    return spec


def tolerating_spot() -> dict[str, Any]:
    spec = untolerated_spec()
    spec["tolerations"] = [{"key": "spot", "operator": "Exists", "effect": "NoSchedule"}]
    return spec


QUEUED_CASES: list[Case] = [
    *(
        Case(POLICY, f"{kind}-queued-to-a-tolerating-flavour", (T4_POOL, *queues(), queued(kind)))
        for kind in KUEUE_KINDS
    ),
    *(
        Case(
            POLICY,
            f"{kind}-queued-to-a-flavour-without-the-toleration",
            (T4_POOL, flavor(tolerations=[]), cluster_queue(), local_queue(), queued(kind)),
            (QUEUED,),
        )
        for kind in KUEUE_KINDS
    ),
    *(
        Case(
            POLICY,
            f"{kind}-queued-to-a-queue-the-program-lacks",
            (T4_POOL, queued(kind)),
            ("asks for nvidia.com/gpu but does not tolerate",),
        )
        for kind in KUEUE_KINDS
    ),
    # A Deployment whose pods alone name the queue: Kueue admits each pod to a flavour.
    Case(
        POLICY,
        "deployment-pods-queued-to-a-tolerating-flavour",
        (T4_POOL, *queues(), queued_by_pods("Deployment")),
    ),
    Case(
        POLICY,
        "deployment-pods-queued-to-a-flavour-without-the-toleration",
        (
            T4_POOL,
            flavor(tolerations=[]),
            cluster_queue(),
            local_queue(),
            queued_by_pods("Deployment"),
        ),
        (QUEUED,),
    ),
    # LocalQueue defaulting: a Job naming no queue in a namespace whose LocalQueue is 'default'
    # is admitted to that queue's flavours.
    Case(
        POLICY,
        "defaulted-to-a-tolerating-flavour",
        (T4_POOL, *queues()[:2], local_queue(name="default"), queued("Job", queue=None)),
    ),
    Case(
        POLICY,
        "defaulted-to-a-flavour-without-the-toleration",
        (
            T4_POOL,
            flavor(tolerations=[]),
            cluster_queue(),
            local_queue(name="default"),
            queued("Job", queue=None),
        ),
        (QUEUED,),
    ),
    # NVIDIA's NIM operator adds no toleration: a NIMService whose spec.labels name a queue gets
    # its flavour's, as Kueue admits the pods; one that names none is judged as written.
    *(
        Case(POLICY, f"{kind}-queued-to-a-tolerating-flavour", (T4_POOL, *queues(), queued(kind)))
        for kind in sorted(NIM_KINDS)
    ),
    *(
        Case(
            POLICY,
            f"{kind}-not-queued-tolerates-nothing",
            (T4_POOL, *queues(), queued(kind, queue=None)),
            ("asks for nvidia.com/gpu but does not tolerate",),
        )
        for kind in sorted(NIM_KINDS)
    ),
    # A flavour's nodeLabels count for placement: the pod tolerates t4's taint, not a100's,
    # and its queue admits it to a100 only.
    Case(
        POLICY,
        "flavour-places-the-pod-on-a-pool-it-does-not-tolerate",
        (
            T4_POOL,
            TRUE_TAINTED,
            flavor("a100", tolerations=[]),
            cluster_queue(quotas={"a100": {"nvidia.com/gpu": 8}}),
            local_queue(),
            queued("Job", PRESENT_ONLY),
        ),
        ("nvidia.com/gpu=true:NoSchedule (pool a100)",),
    ),
    Case(
        POLICY,
        "unqueued-the-same-pod-may-land-on-the-pool-it-tolerates",
        (T4_POOL, TRUE_TAINTED, queued("Job", PRESENT_ONLY, queue=None)),
    ),
    # Kueue assigns a flavour only where the pod's own required node affinity (on the flavour's
    # label keys) admits its nodeLabels: a pod pinned to t4 is never admitted to a100.
    Case(
        POLICY,
        "affinity-keeps-the-pod-off-a-flavour-without-the-toleration",
        (T4_POOL, TRUE_TAINTED, *two_flavours(), queued("Job", pinned_to("t4"))),
    ),
    Case(
        POLICY,
        "affinity-picks-the-flavour-without-the-toleration",
        (T4_POOL, TRUE_TAINTED, *two_flavours(), queued("Job", pinned_to("a100"))),
        ("(admitted by Kueue to flavour 'a100' of ClusterQueue 'training')",),
    ),
    # ... and only where the pod's and the flavour's tolerations cover its nodeTaints.
    Case(
        POLICY,
        "flavour-taint-keeps-the-pod-off",
        (T4_POOL, TRUE_TAINTED, *two_flavours(SPOT), queued("Job")),
    ),
    Case(
        POLICY,
        "flavour-taint-tolerated-admits-the-pod-there",
        (T4_POOL, TRUE_TAINTED, *two_flavours(SPOT), queued("Job", tolerating_spot())),
        ("(admitted by Kueue to flavour 'a100' of ClusterQueue 'training')",),
    ),
]


CASES: list[Case] = [
    *pod_policy_cases(POLICY, VIOLATIONS, moot_on=OPERATOR_TOLERATES),
    # GPUs through claims (DRA): inline, by template, by name.
    *claim_policy_cases(POLICY, VIOLATIONS[:1], moot_on=OPERATOR_TOLERATES),
    # AMD pools carry amd.com/gpu: AMD workloads tolerate that key, partitions included.
    Case(POLICY, "amd-pool-amd-toleration", (amd_pool(), amd_workload())),
    Case(POLICY, "amd-partition", (amd_pool(), amd_workload("amd.com/cpx_nps4"))),
    Case(
        POLICY,
        "amd-pool-nvidia-toleration",
        (amd_pool(), amd_workload(tolerations=[dict(EXISTS)])),
        (
            "does not tolerate the GPU taint of its nodes, "
            "amd.com/gpu=present:NoSchedule (pool mi300x)",
        ),
    ),
    Case(
        POLICY,
        "mixed-stack-amd-pod-with-nvidia-toleration",
        (amd_pool(), T4_POOL, amd_workload(tolerations=[dict(EXISTS)])),
        ("amd.com/gpu=present:NoSchedule (pool mi300x)",),
    ),
    Case(
        POLICY,
        "mixed-stack-each-pod-tolerates-its-vendor",
        (amd_pool(), T4_POOL, workload("nvidia.com/gpu"), amd_workload()),
    ),
    *QUEUED_CASES,
    # KAITO adds NVIDIA's toleration to every pod, and only NVIDIA's: a template that asks for
    # AMD's GPUs still fails on an AMD pool.
    *(
        Case(
            POLICY,
            f"{kind}-amd-template",
            (amd_pool(), operator_pod(kind, "amd.com/gpu")),
            (
                "does not tolerate the GPU taint of its nodes, amd.com/gpu=present:NoSchedule "
                "(pool mi300x): it tolerates nvidia.com/gpu Exists NoSchedule; sku Equal "
                '"gpu" NoSchedule',
            ),
        )
        for kind in sorted(OPERATOR_TOLERATES)
    ),
    # A NIMService claiming its GPU inline (draResources[].claimCreationSpec: the operator
    # makes the template, class gpu.nvidia.com by default) is a GPU pod too.
    *(
        Case(
            POLICY,
            f"nimservice-inline-claim-{'tolerated' if tolerations else 'untolerated'}",
            (nim_inline_claim(tolerations),),
            () if tolerations else ("claims gpu.nvidia.com (the claim the operator creates)",),
        )
        for tolerations in ([EXISTS], [])
    ),
    # A NIMService gets no toleration from its operator, and a GPU it does not ask for: one
    # served from a NIMCache without the toleration fails however it writes its resources.
    Case(
        POLICY,
        "nimservice-gpu-added-by-the-operator",
        (operator_pod("NIMService.apps.nvidia.com", None, tolerations=[]),),
        ("'trainer-nimservice-apps-nvidia-com' (spec) asks for nvidia.com/gpu but does not",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


@pytest.mark.parametrize(
    "toleration",
    [
        {"key": "nvidia.com/gpu", "operator": "Exists"},
        {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
        {"key": "nvidia.com/gpu", "value": "present"},
        {"operator": "Exists"},
    ],
)
def test_tolerations_that_match_the_gpu_taint(toleration: dict[str, Any]) -> None:
    res = mutated("Deployment", set_spec("tolerations", [toleration]))
    assert messages(Case(POLICY, "t", (res,))) == []


def test_amd_gpu_pods_may_tolerate_the_amd_taint() -> None:
    def amd(spec: dict[str, Any]) -> None:
        container(spec)["resources"] = {"limits": {"amd.com/gpu": 1}}
        spec["tolerations"] = [{"key": "amd.com/gpu", "operator": "Exists"}]

    assert messages(Case(POLICY, "amd", (mutated("Pod", amd),))) == []
    nvidia = mutated("Pod", set_spec("tolerations", [{"key": "amd.com/gpu", "operator": "Exists"}]))
    assert len(messages(Case(POLICY, "nv", (nvidia,)))) == 1


def test_older_api_versions_are_checked_too() -> None:
    spec = gpu_pod_spec()
    spec["tolerations"] = []
    res = Res("kubernetes:batch/v1beta1:CronJob", "old", wrap("CronJob", spec).props)
    assert len(messages(Case(POLICY, "old", (res,)))) == 1


# --- The taint the stack's GPU pools really carry (EKS, AKS, GKE) ----------------------------

EQUAL_TRUE = [{"key": "nvidia.com/gpu", "operator": "Equal", "value": "true"}]


def pod(tolerations: list[dict[str, Any]], **spec: Any) -> Res:
    return mutated("Deployment", lambda s: s.update(tolerations=tolerations, **spec))


def affinity(key: str, value: str) -> dict[str, Any]:
    """Required node affinity: ``key In [value]``."""
    term = {"matchExpressions": [{"key": key, "operator": "In", "values": [value]}]}
    required = {"nodeSelectorTerms": [term]}
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}


AKS_PRESENT = Res(
    "azure-native:containerservice:AgentPool",
    "t4",
    {
        "agentPoolName": "t4",
        "vmSize": "Standard_NC4as_T4_v3",
        "nodeTaints": [GPU_TAINT],
        "nodeLabels": {"gpu-platform.io/pool": "t4"},
    },
)

POOL_CASES = [
    Case(POLICY, "eks-true-tolerated-equal-true", (*eks(taints=[EKS_TAINT_TRUE]), pod(EQUAL_TRUE))),
    Case(POLICY, "eks-true-tolerated-exists", (*eks(taints=[EKS_TAINT_TRUE]), pod([EXISTS]))),
    Case(POLICY, "eks-self-managed-map-taint", (*eks_self_managed(), pod([EXISTS]))),
    Case(POLICY, "gke-pool-untolerated", (*gke(), pod([]))),
    Case(POLICY, "gke-cluster-only", (Res(GKE_CLUSTER, "gke", {"name": "gke"}), pod([]))),
    # An untainted GPU pool (BP-01 reports it) excuses no pod: the taint it must carry counts.
    Case(
        POLICY,
        "untainted-pool-excuses-nothing",
        (*eks(taints=None), pod([])),
        (
            "does not tolerate the GPU taint of its nodes, nvidia.com/gpu=present:NoSchedule "
            "(pool gpu, untainted, must carry it): it tolerates nothing",
        ),
    ),
    Case(POLICY, "untainted-pool-tolerated", (*eks(taints=None), pod([EXISTS]))),
    Case(
        POLICY,
        "untainted-pool-teams-value",
        (*eks(taints=None), pod(EQUAL_TRUE)),
        config={"requiredTaintValue": "true"},
    ),
    Case(
        POLICY,
        "untainted-pool-beside-a-tainted-one",
        (AKS_PRESENT, *eks(taints=None), pod([], nodeSelector={"workload": "gpu"})),
        ("(pool gpu, untainted, must carry it)",),
    ),
    Case(
        POLICY,
        "node-selector-picks-the-true-pool",
        (
            AKS_PRESENT,
            *eks(taints=[EKS_TAINT_TRUE]),
            pod(EQUAL_TRUE, nodeSelector={"workload": "gpu"}),
        ),
    ),
    Case(
        POLICY,
        "eks-present-tolerated-equal-true",
        (*eks(), pod(EQUAL_TRUE)),
        (
            "does not tolerate the GPU taint of its nodes, nvidia.com/gpu=present:NoSchedule "
            '(pool gpu): it tolerates nvidia.com/gpu Equal "true" any effect',
        ),
    ),
    Case(
        POLICY,
        "aks-present-node-selector-excludes-the-true-pool",
        (
            AKS_PRESENT,
            *eks(taints=[EKS_TAINT_TRUE]),
            pod(EQUAL_TRUE, nodeSelector={"gpu-platform.io/pool": "t4"}),
        ),
        ("(pool t4)",),
    ),
    Case(
        POLICY,
        "required-node-affinity-picks-the-true-pool",
        (
            AKS_PRESENT,
            *eks(taints=[EKS_TAINT_TRUE]),
            pod(EQUAL_TRUE, affinity=affinity("workload", "gpu")),
        ),
    ),
    Case(
        POLICY,
        "required-node-affinity-picks-the-present-pool",
        (
            AKS_PRESENT,
            *eks(taints=[EKS_TAINT_TRUE]),
            pod(EQUAL_TRUE, affinity=affinity("gpu-platform.io/pool", "t4")),
        ),
        ("(pool t4)",),
    ),
    Case(
        POLICY, "eks-untolerated", (*eks(taints=[EKS_TAINT_TRUE]), pod([])), ("tolerates nothing",)
    ),
    Case(
        POLICY,
        "no-pools-config-value-true",
        (pod(EQUAL_TRUE),),
        config={"requiredTaintValue": "true"},
    ),
    Case(
        POLICY,
        "no-pools-default-value",
        (pod(EQUAL_TRUE),),
        ("taint of its nodes, nvidia.com/gpu=present:NoSchedule: it tolerates",),
    ),
]


@pytest.mark.parametrize("case", POOL_CASES, ids=lambda c: c.id)
def test_tolerations_follow_the_pools_taint(case: Case) -> None:
    assert_case(case)


def test_message_ends_with_the_toleration_to_add() -> None:
    (message,) = messages(Case(POLICY, "m", (*eks(), pod([]))))
    assert message.endswith(
        "Fix: Add to the pod spec: tolerations: [{key: nvidia.com/gpu, operator: Exists, "
        "effect: NoSchedule}] (or operator Equal with the taint's value)."
    )


def test_walks_the_resources_once() -> None:
    walks_once(POLICY, many_workloads_stack())


def test_the_issues_leader_worker_set_queued_to_a_gpu_flavour_is_not_flagged() -> None:
    """Kueue's GPU example: a LeaderWorkerSet queued to a flavour carrying nvidia.com/gpu's
    toleration, its pods tolerating nothing themselves."""
    lws = queued("LeaderWorkerSet.leaderworkerset.x-k8s.io")
    assert "tolerations" not in lws.props["spec"]["leaderWorkerTemplate"]["workerTemplate"]["spec"]
    assert messages(Case(POLICY, "lws", (T4_POOL, *queues(), lws))) == []
    # Without a GPU pool in the program (a team's workload program) too.
    assert messages(Case(POLICY, "lws-alone", (*queues(), lws))) == []


def test_a_claim_pod_is_named_with_its_claim() -> None:
    case = Case(POLICY, "x", claim_workload("Deployment", "named", set_spec("tolerations", [])))
    (message,) = messages(case)
    assert "claims gpu.nvidia.com (claim 'gpu-h100') but does not tolerate" in message


def test_a_claim_on_no_gpu_class_needs_no_toleration() -> None:
    resources = claim_workload(
        "Deployment", "template", set_spec("tolerations", []), device_class="nic.example.com"
    )
    assert messages(Case(POLICY, "x", resources)) == []


def test_a_claim_the_program_does_not_declare_is_not_judged() -> None:
    workload, _ = claim_workload("Job", "template", set_spec("tolerations", []))
    assert messages(Case(POLICY, "x", (workload,))) == []


def test_one_unknown_claim_does_not_blind_the_policy_to_the_stack() -> None:
    """A workload whose claim names an auto-named template (known only after apply) cannot be
    judged, and the analyzer's advisory names it; every other GPU workload still is: a Job that
    tolerates nothing fails the preview (it passed when the unknown stopped the whole policy)."""
    unknown = claim_workload("Deployment", change=unknown_claim_name)
    untolerated = mutated("Job", set_spec("tolerations", []))
    found = run_recorded(POLICY, (*unknown, untolerated))
    assert [(v.enforcement, v.urn) for v in found] == [
        ("mandatory", untolerated.urn),
        ("advisory", None),
    ]
    assert found[1].message.startswith("can't run policy during preview")
    assert f"'{unknown[0].name}'" in found[1].message
