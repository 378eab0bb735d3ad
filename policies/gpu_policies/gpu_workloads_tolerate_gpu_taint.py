"""Every GPU workload tolerates the GPU nodes' taint."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import GPU_TAINT_EFFECT, GPU_TAINT_KEY, GPU_TAINT_VALUE

from .building import Config, PolicyInfo, Report, resource_policy
from .pod_specs import pod_gpu_resources, pod_spec
from .props import mappings, text

INFO = PolicyInfo(
    name="gpu-workloads-tolerate-gpu-taint",
    description=(
        f"Every pod-bearing resource that asks for a GPU resource tolerates the taint "
        f"{GPU_TAINT_KEY}:{GPU_TAINT_EFFECT} (operator Exists, or Equal with the taint's value), "
        f"or it never schedules on a GPU node."
    ),
    practices=("BP-02", "BP-04"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Add to the pod spec: tolerations: [{{key: {GPU_TAINT_KEY}, operator: Exists, "
        f"effect: {GPU_TAINT_EFFECT}}}]."
    ),
)


def taint_keys(resources: set[str]) -> frozenset[str]:
    """Taint keys that mark the pod's GPU nodes: ours, and a vendor's whole-GPU resource
    (``amd.com/gpu``) when the pod asks for one, since vendors taint with that name."""
    return frozenset({GPU_TAINT_KEY, *(r for r in resources if r.endswith("/gpu"))})


def tolerates(toleration: Mapping[str, Any], keys: frozenset[str], value: str) -> bool:
    """Whether one toleration tolerates a GPU taint (Kubernetes' matching rules)."""
    effect = text(toleration.get("effect")) or ""
    if effect not in ("", GPU_TAINT_EFFECT):
        return False
    key = text(toleration.get("key")) or ""
    operator = text(toleration.get("operator")) or "Equal"
    if operator == "Exists":
        return key == "" or key in keys
    return operator == "Equal" and key in keys and toleration.get("value") == value


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    spec = pod_spec(args.resource_type, args.props)
    if spec is None:
        return
    resources = pod_gpu_resources(spec)
    if not resources:
        return
    keys = taint_keys(resources)
    tolerations = mappings(spec.get("tolerations"))
    if not any(tolerates(t, keys, GPU_TAINT_VALUE) for t in tolerations):
        report(
            f"'{args.name}' asks for {', '.join(sorted(resources))} but does not tolerate the "
            f"GPU taint {GPU_TAINT_KEY}:{GPU_TAINT_EFFECT}."
        )


POLICY = resource_policy(INFO, check)
