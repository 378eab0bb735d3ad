"""A stack that creates GPU node pools also checks each pool's driver.

A preview cannot see a node's driver; it can see whether the stack deploys a check that will:
a Job or CronJob that runs the pool's vendor's tool (``nvidia-smi``; ``amd-smi`` on AMD pools),
tolerates that vendor's GPU taint and is pinned by its ``nodeSelector`` to one pool's nodes
(our checks use the ``gpu-platform.io/pool`` label).

Only pools that always have a node need a check: those whose minimum node count is at least 1.
Why a pool that can be empty needs none, and what checks it instead: docs/device-plugin.md,
"Which pools get a check". The policy reads a pool as able to be empty when it is:

- fixed at zero: an AKS pool with ``count: 0`` and no autoscaling, or an ACK pool with
  ``desiredSize: "0"`` (or the deprecated ``nodeCount: 0``) and no enabled ``scalingConfig``;
- autoscaled from zero: AKS ``enableAutoScaling`` with ``minCount: 0`` (an AgentPool or a
  ManagedCluster's ``agentPoolProfiles`` entry; pulumi-azure ``autoScalingEnabled``), ACK
  ``scalingConfig.enable`` with ``minSize: 0``; an autoscaled pool whose minimum is missing or
  not a number counts as one that can be empty;
- a Karpenter NodePool, which starts nodes for pending pods and removes them when empty,
  unless it is a static NodePool (``spec.replicas``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.karpenter import NODE_POOL_LABEL
from gpu_facts.scheduling import AMD_TAINT_KEY, GPU_TAINT_EFFECT, GPU_TAINT_KEY, POOL_LABEL
from gpu_facts.vendors import AMD
from gpu_policy_support.driver_checks import (
    CHECK_KINDS,
    DRIVER_CHECK_TOOL,
    driver_check,
)
from gpu_policy_support.node_pools import NodePool, gpu_node_pools
from gpu_policy_support.pod_specs import kubernetes_kind, pod_spec
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, exempt_names, stack_policy
from gpu_policy_support.resource_types import POOL_TYPES
from gpu_policy_support.stack_index import index_by_type

INFO = PolicyInfo(
    name="gpu-pools-have-driver-check",
    description=(
        f"Every GPU node pool whose minimum node count is at least 1 has a Job or CronJob that "
        f"runs {DRIVER_CHECK_TOOL}, tolerates the {GPU_TAINT_KEY} taint (AMD pools: {AMD.smi} and "
        f"{AMD_TAINT_KEY}) and whose nodeSelector picks that pool's nodes and no other pool's "
        f"(e.g. {POOL_LABEL}: <pool>). Pools that can be empty (fixed at zero, or autoscaled from "
        "zero) need none."
    ),
    practices=("BP-05",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Add a driver-check Job per GPU pool with at least one node (our DriverCheck): "
        f"nodeSelector {POOL_LABEL}: <pool>, a toleration for {GPU_TAINT_KEY}, one unit of the "
        f"pool's GPU resource and a container that runs {DRIVER_CHECK_TOOL}; or exempt the pool "
        "by name when it is checked another way."
    ),
    exemptions="names",
)


def _selectors(
    index: Mapping[str, list[PolicyResource]],
) -> Iterator[tuple[dict[str, str], frozenset[str]]]:
    """Each driver check's nodeSelector, with the vendors whose driver it checks."""
    for resource_type, resources in index.items():
        if kubernetes_kind(resource_type) not in CHECK_KINDS:
            continue
        for resource in resources:
            spec = pod_spec(resource_type, resource.props)
            check = driver_check(spec) if spec is not None else None
            if check is not None:
                yield check


def may_be_empty(pool: NodePool) -> bool:
    """Whether the pool can have no node (so it needs no check Job): fixed at zero, or
    autoscaled with a minimum of 0 (or no readable minimum); a Karpenter NodePool that is not
    static. A fixed pool whose size cannot be read is taken as having nodes. The minimum is
    the pool reader's (``NodePool.min_nodes``): AKS ``minCount`` or ``count`` (1 when unset),
    pulumi-azure ``minCount`` or ``nodeCount``, ACK ``scalingConfig.minSize``, ``desiredSize``
    or the deprecated ``nodeCount``, EKS ``scalingConfig.minSize`` / ``minSize``, GKE
    ``autoscaling.minNodeCount`` / ``totalMinNodeCount`` / ``nodeCount`` /
    ``initialNodeCount``, Karpenter ``spec.replicas``, else 0."""
    minimum = pool.min_nodes
    if pool.autoscaling:
        return minimum is None or minimum < 1
    return minimum == 0


def _gpu_pools(resource: PolicyResource) -> Iterator[NodePool]:
    """The GPU pools a resource declares."""
    return gpu_node_pools(resource.resource_type, resource.name, resource.props)


def label_index(pools: Iterable[NodePool]) -> dict[tuple[str, str], set[int]]:
    """Pool positions by each (label key, value) they carry: every pool's labels read once.
    Positions, not names: two clusters may both have a pool called ``gpu``."""
    index: dict[tuple[str, str], set[int]] = defaultdict(set)
    for position, pool in enumerate(pools):
        for label in pool.labels.items():
            index[label].add(position)
    return index


def selected(selector: Mapping[str, str], index: Mapping[tuple[str, str], set[int]]) -> set[int]:
    """The pools carrying every label of a (non-empty) selector: the sets intersected."""
    groups = sorted((index.get(label, set()) for label in selector.items()), key=len)
    return set(groups[0]).intersection(*groups[1:]) if groups else set()


def pool_selector(pool: NodePool) -> tuple[str, str]:
    """A label that picks the pool's nodes alone, for messages: the cloud's own node-pool
    label where it puts one (GKE, EKS), else ours. (Read from the name, not the labels, so a
    report reads no pool's labels again.)"""
    own = pool.name.rsplit("[", 1)[-1].rstrip("]")
    if pool.origin == "karpenter":  # (Karpenter runs on EKS and AKS, not GKE)
        return NODE_POOL_LABEL, own
    return pool.on.own_pool_label or POOL_LABEL, own


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    pools: list[tuple[NodePool, PolicyResource]] = [
        (pool, resource)
        for resource_type in POOL_TYPES
        for resource in index.get(resource_type, ())
        for pool in _gpu_pools(resource)
        if not may_be_empty(pool)
    ]
    if not pools:
        return
    by_label = label_index(pool for pool, _ in pools)
    checked: set[str] = set()
    for selector, vendors in _selectors(index):
        matching = selected(selector, by_label)
        if len(matching) == 1:  # a check that may land on several pools checks none of them
            pool = pools[matching.pop()][0]
            if pool.vendor.name in vendors:  # nvidia-smi reads no AMD driver, nor amd-smi NVIDIA's
                checked.add(pool.name)
    skip = exempt_names(config)
    for pool, resource in pools:
        if pool.name in checked or pool.name in skip or resource.name in skip:
            continue
        label, value = pool_selector(pool)
        vendor = pool.vendor
        report(
            f"GPU node pool '{pool.name}' has no driver check: no Job or CronJob of the stack "
            f"runs {vendor.smi} on its nodes alone (nodeSelector, e.g. "
            f"{label}: {value}, and a {vendor.taint_key}:{GPU_TAINT_EFFECT} toleration); "
            "the pool's minimum node count is at least 1, so it always has a node to check.",
            resource.urn,
        )


POLICY = stack_policy(INFO, validate)
