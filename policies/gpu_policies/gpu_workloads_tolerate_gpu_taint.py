"""Every GPU workload tolerates the GPU taint its nodes really carry.

A stack policy, so that it can read the taint from the stack's own GPU pools: a pod tolerates
a taint as the scheduler matches it (Kubernetes "Taints and Tolerations": ``Exists`` on the
key, or ``Equal`` with the taint's value; an empty effect matches every effect; a key-less
``Exists`` matches every taint). Pods whose nodeSelector picks some of the pools must tolerate
one of those pools' GPU taints; a stack without GPU pools (a team's workload program) is
judged against the taint in the config (``requiredTaintValue``, shared with
``gpu-node-pools-tainted``). GKE taints its GPU nodes and adds the toleration to GPU pods
itself, so a pod that may land on a GKE pool needs none of its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gpu_policy_support.node_pools import NodePool, stack_gpu_pools
from gpu_policy_support.pod_specs import (
    POD_SPEC_PATHS,
    kubernetes_kind,
    pod_gpu_resources,
    pod_spec,
)
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, is_exempt, stack_policy
from gpu_policy_support.props import mapping, mappings
from gpu_policy_support.resource_types import GKE_CLUSTER
from gpu_policy_support.stack_index import index_by_type
from gpu_policy_support.tolerations import (
    describe_tolerations,
    tolerates,
    tolerates_taint,
    vendor_keys,
)
from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.scheduling import GPU_TAINT_EFFECT, GPU_TAINT_KEY, GPU_TAINT_VALUE, Taint

REQUIRED_VALUE = "requiredTaintValue"
"""Config key shared with ``gpu-node-pools-tainted``: the GPU taint's value."""

INFO = PolicyInfo(
    name="gpu-workloads-tolerate-gpu-taint",
    description=(
        f"Every pod-bearing resource that asks for a GPU resource tolerates the GPU taint of "
        f"the nodes it can run on ({GPU_TAINT_KEY} or the vendor's key, effect "
        f"{GPU_TAINT_EFFECT}; operator Exists, or Equal with the taint's value as the stack's "
        f"GPU pools set it), or it never schedules on a GPU node; on GKE the platform adds it."
    ),
    practices=("BP-02", "BP-04"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Add to the pod spec: tolerations: [{{key: {GPU_TAINT_KEY}, operator: Exists, "
        f"effect: {GPU_TAINT_EFFECT}}}]."
    ),
    config={
        REQUIRED_VALUE: {
            "type": "string",
            "default": GPU_TAINT_VALUE,
            "description": (
                "The GPU taint's value when the stack declares no GPU pool (set it as in "
                "gpu-node-pools-tainted); empty: any value."
            ),
        }
    },
)


def gpu_taints(pool: NodePool, keys: frozenset[str]) -> tuple[Taint, ...]:
    """The pool's NoSchedule taints on a GPU vendor key."""
    return tuple(t for t in pool.taints if t.key in keys and t.effect == GPU_TAINT_EFFECT)


@dataclass(frozen=True, slots=True)
class GpuPools:
    """The stack's GPU pools, and whether it declares a GKE cluster."""

    pools: tuple[NodePool, ...]
    gke: bool

    def candidates(self, node_selector: Mapping[str, str]) -> tuple[NodePool, ...]:
        """The pools a pod's nodeSelector admits; every pool when it admits none of them (its
        labels may come from elsewhere, e.g. GPU Feature Discovery)."""
        admitted = tuple(
            p for p in self.pools if all(p.labels.get(k) == v for k, v in node_selector.items())
        )
        return admitted or self.pools


def _gpu_pools(index: Mapping[str, list[PolicyResource]]) -> GpuPools:
    pools = tuple(pool for pool, _ in stack_gpu_pools(index))
    return GpuPools(pools, gke=bool(index.get(GKE_CLUSTER)))


def problem(spec: Mapping[str, Any], stack: GpuPools, config: Config) -> str | None:
    """Why the pod does not tolerate its GPU nodes' taint, None when it does."""
    resources = pod_gpu_resources(spec)
    keys = vendor_keys(resources)
    tolerations = list(mappings(spec.get("tolerations")))
    selector = {str(k): str(v) for k, v in mapping(spec.get("nodeSelector")).items()}
    if stack.pools:
        candidates = stack.candidates(selector)
        if any(p.provider_taints_gpu_nodes for p in candidates):
            return None
        taints = [(p, gpu_taints(p, keys)) for p in candidates]
        if any(
            all(any(tolerates_taint(t, x) for t in tolerations) for x in ts) for _, ts in taints
        ):
            return None  # a pool whose every GPU taint is tolerated (or that has none)
        wanted = "; ".join(
            f"{', '.join(str(x) for x in ts)} (pool {p.name})" for p, ts in taints if ts
        )
    else:
        if stack.gke:
            return None
        value = str(config.get(REQUIRED_VALUE) or "")
        if any(tolerates(t, keys, value) for t in tolerations):
            return None
        wanted = f"{GPU_TAINT_KEY}{'=' + value if value else ''}:{GPU_TAINT_EFFECT}"
    return (
        f"asks for {', '.join(sorted(resources))} but does not tolerate the GPU taint of its "
        f"nodes, {wanted}: it tolerates {describe_tolerations(tolerations)}"
    )


def fix(spec: Mapping[str, Any]) -> str:
    key = sorted(vendor_keys(pod_gpu_resources(spec)) - {GPU_TAINT_KEY}) or [GPU_TAINT_KEY]
    return (
        f"Add to the pod spec: tolerations: [{{key: {key[0]}, operator: Exists, effect: "
        f"{GPU_TAINT_EFFECT}}}] (or operator Equal with the taint's value)."
    )


def _workloads(
    index: Mapping[str, list[PolicyResource]],
) -> Iterator[tuple[PolicyResource, Mapping[str, Any]]]:
    for resource_type, resources in index.items():
        if kubernetes_kind(resource_type) not in POD_SPEC_PATHS:
            continue
        for resource in resources:
            spec = pod_spec(resource_type, resource.props)
            if spec is not None and pod_gpu_resources(spec):
                yield resource, spec


def check(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    stack = _gpu_pools(index)
    for resource, spec in _workloads(index):
        if is_exempt(resource.name, resource.props, config):
            continue
        found = problem(spec, stack, config)
        if found is not None:
            report(f"'{resource.name}' {found}.", resource.urn, fix=fix(spec))


POLICY = stack_policy(INFO, check)
