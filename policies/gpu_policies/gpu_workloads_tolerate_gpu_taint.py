"""Every GPU workload tolerates the GPU taint its nodes really carry, or must carry.

A stack policy, so that it can read the taint from the stack's own GPU pools: a pod tolerates
a taint as the scheduler matches it (Kubernetes "Taints and Tolerations": ``Exists`` on the
key, or ``Equal`` with the taint's value; an empty effect matches every effect; a key-less
``Exists`` matches every taint). Pods whose nodeSelector picks some of the pools must tolerate
one of those pools' GPU taints. A GPU pool left untainted (``gpu-node-pools-tainted`` reports
it) excuses no pod: the pod is judged against the taint the pool must carry, as is every pod of
a stack without GPU pools (a team's workload program): the taint in the config
(``requiredTaintValue``, shared with ``gpu-node-pools-tainted``). Pods of custom resources count
as Deployments' do, with the tolerations and nodeSelector their runtime adds
(``pod_runtimes``). GKE taints its GPU nodes and adds the toleration to GPU pods itself, so a
pod that may land on a GKE pool needs none of its own. A pod queued by Kueue to a ClusterQueue the
program declares is judged as Kueue admits it to each flavour it may get: with the flavour's
tolerations added and its nodeLabels in its nodeSelector (``gpu_policy_support.queues``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.scheduling import GPU_TAINT_EFFECT, GPU_TAINT_KEY, GPU_TAINT_VALUE, Taint
from gpu_policy_support.claims import GpuDemand
from gpu_policy_support.node_pools import NodePool, admitted_pools, stack_gpu_pools
from gpu_policy_support.pod_runtimes import scheduling_spec
from gpu_policy_support.pod_specs import PodSite
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.props import mappings
from gpu_policy_support.queues import Queues, admitted_specs, demand_resources
from gpu_policy_support.resource_types import GKE_CLUSTER
from gpu_policy_support.stack_index import index_by_type, judge_gpu_pods
from gpu_policy_support.tolerations import (
    describe_tolerations,
    tolerates,
    tolerates_taint,
)

REQUIRED_VALUE = "requiredTaintValue"
"""Config key shared with ``gpu-node-pools-tainted``: the GPU taint's value."""

INFO = PolicyInfo(
    name="gpu-workloads-tolerate-gpu-taint",
    description=(
        f"Every pod-bearing resource that asks for a GPU resource, or claims a GPU DeviceClass, "
        f"tolerates the GPU taint of "
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
                "The GPU taint's value on a GPU pool that carries none, and when the stack "
                "declares no GPU pool (set it as in gpu-node-pools-tainted); empty: any value."
            ),
        }
    },
)


def required_taints(pool: NodePool, keys: frozenset[str], value: str) -> tuple[Taint, ...]:
    """The GPU taints a pod on ``pool`` must tolerate: the pool's NoSchedule taints on a GPU
    vendor key; on a pool that carries none, the taint it must carry (``gpu-node-pools-tainted``
    reports the pool; a pod is not excused by it)."""
    carried = tuple(t for t in pool.taints if t.key in keys and t.effect == GPU_TAINT_EFFECT)
    return carried or (Taint(pool.vendor.taint_key, value, GPU_TAINT_EFFECT),)


def _wanted(pool: NodePool, taints: tuple[Taint, ...], carried: bool) -> str:
    where = f"pool {pool.name}" if carried else f"pool {pool.name}, untainted, must carry it"
    return f"{', '.join(str(x) for x in taints)} ({where})"


@dataclass(frozen=True, slots=True)
class GpuPools:
    """The stack's GPU pools, and whether it declares a GKE cluster."""

    pools: tuple[NodePool, ...]
    gke: bool


def _gpu_pools(index: Mapping[str, list[PolicyResource]]) -> GpuPools:
    pools = tuple(pool for pool, _ in stack_gpu_pools(index))
    return GpuPools(pools, gke=bool(index.get(GKE_CLUSTER)))


def problem(
    spec: Mapping[str, Any], stack: GpuPools, config: Config, demand: GpuDemand
) -> str | None:
    """Why the pod does not tolerate its GPU nodes' taint, None when it does."""
    keys = demand.taint_keys
    tolerations = list(mappings(spec.get("tolerations")))
    value = str(config.get(REQUIRED_VALUE) or "")
    if stack.pools:
        admitted = admitted_pools(stack.pools, spec)
        # The pools of the vendors whose GPUs it asks for (a pod asking amd.com/gpu lands on
        # AMD's nodes only); pools of no such vendor leave the question to the exposure policy.
        candidates = tuple(p for p in admitted if p.vendor.taint_key in keys) or admitted
        if any(p.provider_taints_gpu_nodes for p in candidates):
            return None
        taints = [(p, required_taints(p, keys, value)) for p in candidates]
        if any(
            all(any(tolerates_taint(t, x) for t in tolerations) for x in ts) for _, ts in taints
        ):
            return None  # a pool whose every GPU taint is tolerated
        wanted = "; ".join(_wanted(p, ts, carried=ts[0] in p.taints) for p, ts in taints)
    else:
        if stack.gke:
            return None
        if any(tolerates(t, keys, value) for t in tolerations):
            return None
        wanted = f"{GPU_TAINT_KEY}{'=' + value if value else ''}:{GPU_TAINT_EFFECT}"
    return (
        f"{demand.describe()} but does not tolerate the GPU taint of its "
        f"nodes, {wanted}: it tolerates {describe_tolerations(tolerations)}"
    )


def fix(demand: GpuDemand) -> str:
    key = sorted(demand.taint_keys - {GPU_TAINT_KEY}) or [GPU_TAINT_KEY]
    return (
        f"Add to the pod spec: tolerations: [{{key: {key[0]}, operator: Exists, effect: "
        f"{GPU_TAINT_EFFECT}}}] (or operator Equal with the taint's value)."
    )


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    stack = _gpu_pools(index)
    queues = Queues.of(index)

    def judge(resource: PolicyResource, site: PodSite, demand: GpuDemand) -> None:
        spec = scheduling_spec(site, resource, index)  # with what its runtime adds
        # Queued: as Kueue admits it to each flavour it may get (its labels, its tolerations).
        for admitted in admitted_specs(spec, resource, queues, demand_resources(demand), site):
            found = problem(admitted.spec, stack, config, demand)
            if found is not None:
                flavor = admitted.flavor
                also = (
                    f" Or add it to ResourceFlavor '{flavor.name}''s tolerations, which Kueue "
                    "adds to the pods it admits there."
                    if flavor is not None
                    else ""
                )
                report(
                    f"{site.named(resource.name)}{admitted.where()} {found}.",
                    resource.urn,
                    fix=fix(demand) + also,
                )
                break

    # Resource by resource: a value unknown at preview in one workload (its tolerations, a
    # claim's name) leaves that one to the analyzer's advisory, never the rest of the stack.
    judge_gpu_pods(index, config, judge)


POLICY = stack_policy(INFO, validate)
