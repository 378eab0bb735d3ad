"""Compliant GPU workloads of every pod-bearing kind, in the wire shape policies see: Kubernetes'
own workloads and the operators' custom resources (``crd_fixtures``)."""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .crd_fixtures import (
    CLUSTER_SCOPED,
    CUSTOM_RESOURCES,
    GPU_FREE,
    Inexpressible,
    custom_resource,
)
from .harness import Case, Res

BUILTIN_KINDS: dict[str, str] = {
    "Pod": "kubernetes:core/v1:Pod",
    "Deployment": "kubernetes:apps/v1:Deployment",
    "StatefulSet": "kubernetes:apps/v1:StatefulSet",
    "DaemonSet": "kubernetes:apps/v1:DaemonSet",
    "ReplicaSet": "kubernetes:apps/v1:ReplicaSet",
    "Job": "kubernetes:batch/v1:Job",
    "CronJob": "kubernetes:batch/v1:CronJob",
}
KINDS: dict[str, str] = {
    **BUILTIN_KINDS,
    **{label: type_token for label, (type_token, _) in CUSTOM_RESOURCES.items()},
}
"""Every pod-bearing kind: its label (``Deployment``, ``RayCluster.ray.io``) -> type token."""

GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def gpu_pod_spec() -> dict[str, Any]:
    """A GPU pod spec that every pod policy accepts."""
    return {
        "containers": [
            {
                "name": "train",
                "image": "nvidia/cuda:12.1.1-base-ubuntu22.04",
                "env": [{"name": "EPOCHS", "value": "3"}],
                "resources": {"limits": {"nvidia.com/gpu": 1}, "requests": {"cpu": "2"}},
                "securityContext": {"privileged": False},
            }
        ],
        "tolerations": [dict(GPU_TOLERATION)],
    }


def workload_name(kind: str) -> str:
    """The name of the compliant workload of ``kind``: ``trainer-raycluster-ray-io``."""
    return f"trainer-{kind.lower().replace('.', '-')}"


def wrap(
    kind: str,
    spec: dict[str, Any],
    namespace: str | None = "gpu-training",
    pod_labels: dict[str, str] | None = None,
) -> Res:
    """``spec`` as the pod spec of a ``kind`` resource, the pod labelled ``app: trainer``,
    ``workload: training`` (BP-07) and ``pod_labels``; a custom resource raises
    ``Inexpressible`` when its kind has no field for part of the pod."""
    metadata: dict[str, Any] = {"name": workload_name(kind)}
    if namespace is not None and kind not in CLUSTER_SCOPED:
        metadata["namespace"] = namespace
    labels = {"app": "trainer", "workload": "training", **(pod_labels or {})}
    template = {"metadata": {"labels": labels}, "spec": spec}
    if kind in CUSTOM_RESOURCES:
        return custom_resource(kind, template, metadata)
    props: dict[str, Any] = {"metadata": metadata}
    if kind == "Pod":
        metadata["labels"] = labels
        props["spec"] = spec
    elif kind == "CronJob":
        props["spec"] = {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": template}}}
    elif kind == "Job":
        props["spec"] = {"template": template}
    else:
        props["spec"] = {"selector": {"matchLabels": labels}, "template": template}
    return Res(KINDS[kind], workload_name(kind), props)


def mutated(
    kind: str,
    change: Callable[[dict[str, Any]], None],
    namespace: str | None = "gpu-training",
    pod_labels: dict[str, str] | None = None,
) -> Res:
    """The compliant workload of ``kind`` with one change made to its pod spec."""
    spec = copy.deepcopy(gpu_pod_spec())
    change(spec)
    return wrap(kind, spec, namespace, pod_labels)


def container(spec: dict[str, Any]) -> dict[str, Any]:
    first: dict[str, Any] = spec["containers"][0]
    return first


Change = Callable[[dict[str, Any]], None]
"""A change to the compliant pod spec."""


def set_spec(key: str, value: Any) -> Change:
    return lambda spec: spec.__setitem__(key, value)


def set_container(key: str, value: Any) -> Change:
    return lambda spec: container(spec).__setitem__(key, value)


def set_limits(limits: dict[str, Any], requests: dict[str, Any] | None = None) -> Change:
    resources: dict[str, Any] = {"limits": limits}
    if requests is not None:
        resources["requests"] = requests
    return set_container("resources", resources)


def add_env(name: str, value: str) -> Change:
    return lambda spec: container(spec)["env"].append({"name": name, "value": value})


def in_init_container(change: Change) -> Change:
    """Move the GPU container to initContainers and apply ``change`` there."""

    def apply(spec: dict[str, Any]) -> None:
        change(spec)
        spec["initContainers"] = spec.pop("containers")
        spec["containers"] = [{"name": "sidecar", "image": "busybox:1.36"}]

    return apply


def without_gpus(spec: dict[str, Any]) -> None:
    """The pod of a kind that asks for no GPU: its containers' GPU resources dropped."""
    for c in spec.get("containers", []):
        limits = c.get("resources", {}).get("limits", {})
        for name in [n for n in limits if "/" in n]:
            del limits[name]
        c["resources"]["limits"].update(cpu="2", memory="4Gi")
        c["resources"].pop("requests", None)


NO_FIELD: defaultdict[str, set[str]] = defaultdict(set)
"""Policy -> the kinds on which none of its violations can be written (``Inexpressible``: a
NIMService has no ``securityContext``, a NIMCache no ``hostIPC``): filled by
``pod_policy_cases``, read by the meta-test, which holds it to ``KINDS_WITHOUT_THE_FIELD``."""

_NIM_KINDS = ("NIMService.apps.nvidia.com", "NIMPipeline.apps.nvidia.com")
KINDS_WITHOUT_THE_FIELD: dict[str, frozenset[str]] = {
    # NIMServiceSpec, NIMContainerSpec and NIMCacheSpec have no securityContext of any kind
    # (NVIDIA/k8s-nim-operator v3.1.2 api/apps/v1alpha1/{nimservice,common,nimcache}_types.go).
    "no-privileged-gpu-containers": frozenset({*_NIM_KINDS, "NIMCache.apps.nvidia.com"}),
    # NIMCacheSpec has no hostIPC, and its pod asks for no GPU memory share either.
    "host-ipc-only-for-gpu-mem-pods": frozenset({"NIMCache.apps.nvidia.com"}),
    # NIMCacheSpec has no command: its Job runs the model puller as the operator starts it.
    "mps-control-daemon-system-node-critical": frozenset({"NIMCache.apps.nvidia.com"}),
}
"""Policy -> the kinds the meta-test lets go without a failing case because their type has no
field to break the policy with, each with its source: declared here, so a fixture that cannot
write a case it should (a builder raising ``Inexpressible`` by mistake) fails the meta-test
instead of dropping the kind's failing case unnoticed."""


def pod_policy_cases(
    policy: str,
    violations: Iterable[tuple[str, Change, str]],
    moot_on: frozenset[str] = frozenset(),
    *,
    gpu_only: bool = True,
) -> list[Case]:
    """A pod policy's cases on every pod-bearing kind: the compliant workload passes, and each
    violation (id, change to the compliant pod spec, expected message fragment) fails, on every
    kind that has a field for it. A GPU-free kind (``GPU_FREE``) starts from the compliant pod
    without its GPUs: a policy about GPU pods (``gpu_only``) passes each violation there, one
    that judges every pod fails it. On a kind of ``moot_on`` the operator undoes the violations
    (KAITO adds the GPU toleration): each is a passing case there, which is the point."""
    violations = list(violations)
    cases = []
    for kind in KINDS:
        base: Change = without_gpus if kind in GPU_FREE else (lambda _: None)
        cases.append(Case(policy, f"{kind}-compliant", (mutated(kind, base),)))
        written = 0
        for case_id, change, fragment in violations:

            def both(spec: dict[str, Any], change: Change = change, base: Change = base) -> None:
                base(spec)
                change(spec)

            try:
                res = mutated(kind, both)
            except Inexpressible:
                continue
            written += 1
            moot = kind in moot_on or (gpu_only and kind in GPU_FREE)
            expected = () if moot else (fragment,)
            cases.append(Case(policy, f"{kind}-{case_id}", (res,), expected))
        if violations and not written:
            NO_FIELD[policy].add(kind)
    return cases
