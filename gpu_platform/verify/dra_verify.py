"""``make verify`` on the DRA pools: read NVIDIA's DRA driver once (its kubelet plugin's
DaemonSet and pods, the driver's ResourceSlices, the DeviceClasses: read-only list calls, and
each DRA node's pods), then run ``dra_checks`` on the pools' nodes (read with every pool's in
the snapshot) and the workload namespaces' quotas (read there too). No exec: the driver version
is the devices' ``driverVersion`` attribute.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .checks import daemonset_status, pool_size
from .cluster import ClusterReader, Obj
from .daemons import daemon_pods
from .dra_checks import claim_quota, device_class, dra_node_rows, node_devices
from .dra_expectations import DraExpectation
from .objects import name_of
from .results import CheckResult

Step = Callable[[str], None]
PLUGIN_TITLE = "DRA kubelet plugin"


def verify_dra(
    reader: ClusterReader,
    dra: DraExpectation,
    step: Step,
    *,
    pool_nodes: Mapping[str, list[Obj]],
    quotas: Mapping[str, list[Obj]],
) -> list[CheckResult]:
    """Every DRA row: per pool its size, per node its checks; the kubelet plugin DaemonSet; each
    DeviceClass; each workload namespace's claim quota. ``pool_nodes``: each pool's nodes and
    ``quotas``: each workload namespace's ResourceQuotas, as the snapshot read them."""
    step(f"daemonsets in {dra.namespace}")
    plugin = [ds for ds in reader.daemonsets(dra.namespace) if name_of(ds) == dra.daemonset]
    step(f"pods in {dra.namespace}")
    pods = daemon_pods(reader.pods(dra.namespace))
    step(f"resourceslices of {dra.driver}")
    slices = reader.resource_slices(dra.driver)
    step("deviceclasses")
    classes = {name_of(c): c for c in reader.device_classes()}

    results: list[CheckResult] = []
    for pool in dra.pools:
        nodes = sorted(pool_nodes.get(pool.pool.name, []), key=name_of)
        results.append(pool_size(pool.pool, nodes))
        for node in nodes:
            name = name_of(node)
            step(f"pods on node {name}")
            devices = node_devices(slices, name, dra.driver)
            results += dra_node_rows(
                pool,
                node,
                plugin=plugin,
                pods=pods,
                devices=devices,
                node_pods=reader.node_pods(name),
            )
    if plugin:
        results.append(daemonset_status(PLUGIN_TITLE, plugin[0]))
    results += [device_class(name, classes) for name in dra.device_classes]
    for namespace, keys in dra.claim_quotas.items():
        if namespace in quotas:  # a missing namespace has its own failing row
            results.append(claim_quota(namespace, keys, quotas[namespace]))
    return results
