"""GPU workloads that get their GPU through claims (DRA), of every pod-bearing kind, in the wire
shape policies see, with the claim they reference in each of its shapes:

- ``template``: a ResourceClaimTemplate of the program (``resourceClaimTemplateName``), one
  claim per pod;
- ``named``: a ResourceClaim of the program (``resourceClaimName``), shared by the pods that
  name it;
- ``inline``: the template declared in the same manifest as the workload, as NVIDIA's quickstart
  specs are (both rendered by one ``yaml/v2`` ConfigGroup), in the older ``v1beta1`` shape
  (the class on the request itself).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import Any

from pulumi_policy.proxy import UNKNOWN_STRING_VALUE

from gpu_platform.offline_preview import RecordedResource, Violation, run_policies

from .crd_fixtures import CLUSTER_SCOPED, Inexpressible
from .harness import Case, Res, policy_named
from .pod_fixtures import KINDS, Change, wrap

CLAIM_SHAPES: tuple[str, ...] = ("template", "named", "inline")
CLAIM = "gpu"
SOURCE = "gpu-h100"
MANIFEST = "quickstart"
"""The ConfigGroup that renders an inline claim beside its workload."""
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def claim_pod_spec(shape: str = "template") -> dict[str, Any]:
    """A GPU pod spec that asks for no GPU resource, only for its claim."""
    ref = "resourceClaimName" if shape == "named" else "resourceClaimTemplateName"
    return {
        "containers": [
            {
                "name": "train",
                "image": "nvidia/cuda:12.1.1-base-ubuntu22.04",
                "resources": {"requests": {"cpu": "2"}, "claims": [{"name": CLAIM}]},
                "securityContext": {"privileged": False},
            }
        ],
        "resourceClaims": [{"name": CLAIM, ref: SOURCE}],
        "tolerations": [dict(GPU_TOLERATION)],
    }


def claim_object(
    shape: str, namespace: str = "gpu-training", device_class: str = "gpu.nvidia.com"
) -> Res:
    """The claim (or template) a claim pod of ``shape`` references."""
    metadata = {"name": SOURCE, "namespace": namespace}
    if shape == "inline":
        devices = {"requests": [{"name": "gpu", "deviceClassName": device_class}]}
        spec = {"spec": {"devices": devices}}
        return Res(
            "kubernetes:resource.k8s.io/v1beta1:ResourceClaimTemplate",
            f"{MANIFEST}:{namespace}/{SOURCE}",
            {"metadata": metadata, "spec": spec},
            parent=MANIFEST,
        )
    devices = {"requests": [{"name": "gpu", "exactly": {"deviceClassName": device_class}}]}
    if shape == "named":
        return Res(
            "kubernetes:resource.k8s.io/v1:ResourceClaim",
            SOURCE,
            {"metadata": metadata, "spec": {"devices": devices}},
        )
    return Res(
        "kubernetes:resource.k8s.io/v1:ResourceClaimTemplate",
        SOURCE,
        {"metadata": metadata, "spec": {"spec": {"devices": devices}}},
    )


def claim_workload(
    kind: str,
    shape: str = "template",
    change: Change | None = None,
    namespace: str = "gpu-training",
    device_class: str = "gpu.nvidia.com",
    *,
    pod_labels: dict[str, str] | None = None,
) -> tuple[Res, ...]:
    """A workload of ``kind`` getting its GPU from a claim of ``shape``, with the claim (and,
    inline, the manifest that renders both); its pods labelled as ``wrap`` labels them, with
    ``pod_labels``. Raises ``Inexpressible`` like ``wrap``."""
    spec = copy.deepcopy(claim_pod_spec(shape))
    if change is not None:
        change(spec)
    workload = wrap(kind, spec, namespace, pod_labels)
    claim = claim_object(shape, namespace, device_class)
    if shape != "inline":
        return (workload, claim)
    manifest = Res("kubernetes:yaml/v2:ConfigGroup", MANIFEST, {})
    rendered = Res(
        workload.type,
        f"{MANIFEST}:{namespace}/{workload.name}",
        workload.props,
        parent=MANIFEST,
    )
    return (manifest, rendered, claim)


def claim_policy_cases(
    policy: str,
    violations: Iterable[tuple[str, Change, str]],
    context: tuple[Res, ...] = (),
    moot_on: frozenset[str] = frozenset(),
) -> list[Case]:
    """A pod policy's cases on claim pods of every pod-bearing kind and every claim shape: the
    compliant workload passes, each violation fails (where the kind has a field for it; on a
    kind of ``moot_on`` the operator undoes it, and the case passes).
    ``context``: resources every case adds (the workload namespace's governance)."""
    violations = list(violations)
    cases = []
    # A cluster-wide runtime's claims resolve in the namespace of what uses it: not here.
    for kind in (k for k in KINDS if k not in CLUSTER_SCOPED):
        for shape in CLAIM_SHAPES:
            try:
                compliant = claim_workload(kind, shape)
            except Inexpressible:
                continue
            cases.append(Case(policy, f"{kind}-claim-{shape}-compliant", (*context, *compliant)))
            for case_id, change, fragment in violations:
                try:
                    resources = claim_workload(kind, shape, change)
                except Inexpressible:
                    continue
                cases.append(
                    Case(
                        policy,
                        f"{kind}-claim-{shape}-{case_id}",
                        (*context, *resources),
                        () if kind in moot_on else (fragment,),
                    )
                )
    return cases


def every_claim_workload(namespace: str) -> Iterator[tuple[str, str, tuple[Res, ...]]]:
    """(kind, claim shape, resources) of the compliant claim workload of every namespaced
    kind and every shape, in ``namespace``."""
    for kind in KINDS:
        if kind in CLUSTER_SCOPED:
            continue
        for shape in CLAIM_SHAPES:
            try:
                yield kind, shape, claim_workload(kind, shape, namespace=namespace)
            except Inexpressible:
                continue


def unknown_claim_name(spec: dict[str, Any]) -> None:
    """The claim's template name an output known only after apply (``Change``)."""
    spec["resourceClaims"][0]["resourceClaimTemplateName"] = UNKNOWN_STRING_VALUE


def run_recorded(policy: str, resources: Iterable[Res]) -> list[Violation]:
    """``policy`` run on ``resources`` as the offline preview records them (unknowns and all)."""
    recorded = [
        RecordedResource(r.urn, r.type, r.name, True, None, r.props, dict(r.props))
        for r in resources
    ]
    return run_policies(recorded, [policy_named(policy)])
