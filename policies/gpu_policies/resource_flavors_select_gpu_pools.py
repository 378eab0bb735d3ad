"""Every Kueue ResourceFlavor a ClusterQueue gives GPU quota selects a GPU pool of the program.

Kueue writes a flavour's ``nodeLabels`` into the ``nodeSelector`` of the pods it admits to it;
labels no GPU pool's nodes carry leave every such pod Pending, with its quota taken. A flavour
with no ``nodeLabels`` selects every node. Only the labels the program gives its pools count:
labels added at run time (GPU Feature Discovery's) are not known at preview, so a flavour that
selects by one is reported (exempt it by name). Not judged: a stack without GPU pools.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_policy_support.node_pools import stack_gpu_pools
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, is_exempt, stack_policy
from gpu_policy_support.queues import Queues, labels_match
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


def check(args: StackValidationArgs, config: Config, report: Report) -> None:
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
        if any(labels_match(flavor.node_labels, pool.labels) for pool in pools):
            continue
        labels = ", ".join(f"{k}={v}" for k, v in flavor.node_labels.items())
        known = "; ".join(
            f"{pool.name}: {', '.join(f'{k}={v}' for k, v in pool.labels.items()) or 'none'}"
            for pool in pools
        )
        report(
            f"ResourceFlavor '{name}' (GPU quota in ClusterQueue '{queue}') selects nodes "
            f"labelled {labels}, which no GPU pool of the stack carries (pools' labels: {known}): "
            "Kueue would admit GPU pods that never schedule.",
            flavor.resource.urn,
        )


POLICY = stack_policy(INFO, check)
