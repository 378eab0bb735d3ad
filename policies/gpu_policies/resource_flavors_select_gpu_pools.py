"""Every Kueue ResourceFlavor a ClusterQueue gives GPU quota selects a GPU pool of the program.

Kueue writes a flavour's ``nodeLabels`` into the ``nodeSelector`` of the pods it admits to it;
labels no GPU pool's nodes carry leave every such pod Pending, with its quota taken. A flavour
with no ``nodeLabels`` selects every node. Pools are read however the program declares them
(``gpu_policy_support.node_pools``: azure-native at any API version, pulumi-azure, Karpenter
NodePools, whose nodes may carry any value a requirement allows). Only the labels the program
gives its pools count:
labels added at run time (GPU Feature Discovery's) are not known at preview, so a flavour that
selects by one is reported (exempt it by name). Not judged: a stack without GPU pools.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_policy_support.node_pools import NodePool, stack_gpu_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, is_exempt, stack_policy
from gpu_policy_support.queues import Queues
from gpu_policy_support.stack_index import index_by_type

INFO = PolicyInfo(
    name="resource-flavors-select-gpu-pools",
    description=(
        "Every Kueue ResourceFlavor a ClusterQueue gives GPU quota has nodeLabels that the "
        "nodes of one of the program's GPU pools carry, so the pods Kueue admits to it can "
        "schedule."
    ),
    practices=("BP-09",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Give the flavour the nodeLabels of the GPU pool it stands for (the platform's "
        "gpu-platform.io/pool: <pool>), or label that pool's nodes with them."
    ),
)


def _carried(pool: NodePool) -> str:
    """A pool's labels for messages, and the values a Karpenter requirement lets its nodes
    carry (``karpenter.k8s.aws/instance-gpu-name In [a10g, l4]``)."""
    labels = [f"{k}={v}" for k, v in pool.labels.items()]
    allowed = [str(r) for r in pool.requirements if r.operator == "In" and r.key not in pool.labels]
    return ", ".join([*labels, *allowed]) or "none"


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    queues = Queues.of(index)
    pools = [pool for pool, _ in stack_gpu_pools(index)]
    if not pools or not queues.flavors:
        return
    used = {}
    for queue in queues.cluster_queues.values():
        for name in queue.gpu_flavors():
            used.setdefault(name, queue.name)
    for name, queue in used.items():
        flavor = queues.flavors.get(name)
        if flavor is None or is_exempt(flavor.resource.name, flavor.resource.props, config):
            continue
        if any(pool.may_carry(flavor.node_labels) for pool in pools):
            continue
        labels = ", ".join(f"{k}={v}" for k, v in flavor.node_labels.items())
        known = "; ".join(f"{pool.name}: {_carried(pool)}" for pool in pools)
        report(
            f"ResourceFlavor '{name}' (GPU quota in ClusterQueue '{queue}') selects nodes "
            f"labelled {labels}, which no GPU pool of the stack carries (pools' labels: {known}): "
            "Kueue would admit GPU pods that never schedule.",
            flavor.resource.urn,
        )


POLICY = stack_policy(INFO, validate)
