"""Kueue's ClusterQueues promise no more GPUs than the program's pools hold.

Per ResourceFlavor and GPU resource, the nominal quotas of every ClusterQueue add up to at most
what the GPU pools the flavour selects (by its ``nodeLabels``) hold at their largest: what a
node advertises per GPU as the capacity model counts it (the device plugin's config, MIG,
sharing), times the most GPUs the pool can have: its largest machine type's GPUs times its most
nodes, or a Karpenter NodePool's ``spec.limits`` on its vendor's GPUs, whichever is less. A GPU
DeviceClass's devices (``<class>.deviceclass.resource.k8s.io/devices``, the quota resource
Kueue's ``deviceClassMappings`` charge claims to) count what NVIDIA's DRA driver publishes on
the pools its GPU kubelet plugin serves, by the same capacity model: a pool's GPUs as
``gpu.nvidia.com``, or its MIG devices as ``mig.nvidia.com`` (a GPU in MIG mode publishes no
``gpu`` device); none on a pool no release's plugin serves. Past
that, Kueue admits workloads whose pods then wait for GPUs that do not exist, and the quotas no
longer say who gets what. Not judged: a stack without GPU pools, a flavour that selects no pool
(``resource-flavors-select-gpu-pools`` says so), a pool whose size or advertised resources the
program does not show (GKE's per-zone counts, a Karpenter NodePool without a GPU limit or
replicas), quotas the pack cannot read as numbers; a DeviceClass quota where NVIDIA's DRA driver
runs outside the program, or of a class the model does not count (AMD's, VFIO passthrough).
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.capacity import DRA_COUNTED_CLASSES
from gpu_facts.dra import quota_key_device_class
from gpu_policy_support.dra_drivers import DraDriverRelease, dra_driver_releases
from gpu_policy_support.exposed_gpu_resources import (
    Exposure,
    dra_devices_per_node,
    most_gpus_per_node,
    pool_gpus,
    stack_exposure,
)
from gpu_policy_support.node_pools import NodePool
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.queues import Queues, is_queue_gpu_resource
from gpu_policy_support.stack_index import index_by_type

INFO = PolicyInfo(
    name="cluster-queue-quota-within-pools",
    description=(
        "Per Kueue ResourceFlavor and GPU resource, the ClusterQueues' nominal quotas add up to "
        "no more than the GPU pools the flavour selects hold at their largest, so every "
        "admitted workload can be scheduled."
    ),
    practices=("BP-09",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Lower the ClusterQueues' nominalQuota for the flavour and resource to what its pools "
        "hold (let the queues borrow the rest in their cohort), or grow the pools."
    ),
)


def _number(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else str(value)


def _most(pool: NodePool, per_node: int) -> Decimal | None:
    """``per_node`` of a resource on every node of the pool at its largest: per GPU, times the
    most GPUs the pool can have; None when its size is unknown."""
    gpus, most = pool_gpus(pool), most_gpus_per_node(pool)
    if gpus is None or most is None:
        return None
    bounds = []
    if pool.max_nodes is not None:
        bounds.append(Decimal(str(pool.max_nodes)) * most)
    limit = (pool.resource_limits or {}).get(pool.vendor.gpu_resource)
    if limit is not None:  # Karpenter counts a node's GPUs as its machine type has them
        bounds.append(Decimal(str(limit)))
    return Decimal(per_node) * min(bounds) / gpus[1] if bounds else None


def holds(pool: NodePool, exposure: Exposure, resource: str) -> Decimal | None:
    """The most of ``resource`` the pool's nodes advertise together: 0 when they advertise none;
    None when the pool's size, or what a node advertises, is unknown."""
    if resource not in exposure.resources:
        return Decimal(0)
    per_node = exposure.per_node.get(resource)
    return None if per_node is None else _most(pool, per_node)


def devices_held(
    pool: NodePool, drivers: list[DraDriverRelease], device_class: str
) -> Decimal | None:
    """The most devices of ``device_class`` NVIDIA's DRA driver publishes on the pool's nodes
    together: 0 where no release's GPU kubelet plugin runs; None when unknown."""
    if not any(driver.serves(pool) for driver in drivers):
        return Decimal(0)
    per_node = dra_devices_per_node(pool)
    if per_node is None:
        return None
    count = per_node.get(device_class, 0)
    return _most(pool, count) if count else Decimal(0)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    queues = Queues.of(index)
    if not queues.cluster_queues:
        return
    stack = stack_exposure(index)
    if stack is None:
        return
    drivers = list(dra_driver_releases(index))
    promised: dict[tuple[str, str], list[tuple[str, Decimal]]] = defaultdict(list)
    for queue in queues.cluster_queues.values():
        for flavor, resources in queue.quotas.items():
            for resource, quota in resources.items():
                if is_queue_gpu_resource(resource) and quota.nominal:
                    promised[(flavor, resource)].append((queue.name, quota.nominal))
    for (name, resource), given in sorted(promised.items()):
        flavor = queues.flavors.get(name)
        if flavor is None:
            continue
        selected = [
            (pool, exposure) for pool, exposure in stack.pools if pool.may_carry(flavor.node_labels)
        ]
        device_class = quota_key_device_class(resource)
        if device_class is None:
            if not stack.judged(resource):
                continue
            each = [holds(pool, exposure, resource) for pool, exposure in selected]
        else:  # a DeviceClass's devices (deviceClassMappings): what the DRA driver publishes
            if not drivers or device_class not in DRA_COUNTED_CLASSES:
                continue  # the driver runs outside the program, or not one the model counts
            each = [devices_held(pool, drivers, device_class) for pool, _ in selected]
        if not selected or None in each:
            continue
        held = sum((n for n in each if n is not None), Decimal(0))
        total = sum((n for _, n in given), Decimal(0))
        if total <= held:
            continue
        queues_named = ", ".join(f"'{q}' {_number(n)}" for q, n in given)
        pools_named = ", ".join(f"'{p.name}'" for p, _ in selected)
        first = queues.cluster_queues[given[0][0]]
        report(
            f"ClusterQueues {queues_named} promise {_number(total)} {resource} on flavour "
            f"'{name}', whose pools ({pools_named}) hold {_number(held)} at their largest: "
            "admitted workloads "
            "would wait for GPUs that do not exist.",
            first.resource.urn,
        )


POLICY = stack_policy(INFO, validate)
