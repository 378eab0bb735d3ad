"""Labels and tags of GPU nodes, per cloud: what the device plugin, GFD, NFD, the driver
checks, the cluster autoscaler and ``make verify`` select on. AMD pools carry our labels only:
AMD's GPU Operator selects their nodes by the pool label, NVIDIA's components never see them."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_facts.scheduling import (
    ACK_DEVICE_PLUGIN_OFF,
    ACK_GPU_SCHEDULE_LABEL,
    ACK_GPU_SCHEDULE_VALUES,
    DEVICE_PLUGIN_CONFIG_LABEL,
    GPU_PRESENT_LABEL,
    WORKLOAD_LABEL_PREFIX,
)

from .clouds import cloud_plan
from .nvidia.device_plugin import config_label
from .platform import ResolvedPlatform
from .pools import PoolFacts, pool_placement

AUTOSCALER_RESOURCE_TAG = "k8s.io_cluster-autoscaler_node-template_resources_"
"""Prefix of the scale-set tags that tell the cluster autoscaler what the nodes of an empty
pool will offer, with ``/`` in the resource name written ``_`` (kubernetes/autoscaler,
cloudprovider/azure/azure_template.go: ``extractAllocatableResourcesFromScaleSet``). Without
them it sizes an empty pool from its VM size alone (``nvidia.com/gpu`` only). AKS copies a
pool's tags to its scale set."""


def nvidia_plugin_labels(pool: PoolFacts) -> dict[str, str]:
    """The labels NVIDIA's device plugin, GFD, NFD worker and dcgm-exporter select on: on the
    pools it serves, never on an AMD pool (AMD's operator selects those by our pool label)."""
    if pool.is_amd:
        return {}
    if pool.uses_dra:
        # No config label: the device plugin, GFD and the NFD worker require it, so they stay
        # off the pool, and NVIDIA's DRA driver never runs beside a device plugin.
        return {GPU_PRESENT_LABEL: "true"}
    # The per-pool device-plugin config is named after the pool.
    return {GPU_PRESENT_LABEL: "true", DEVICE_PLUGIN_CONFIG_LABEL: pool.name}


def aks_node_labels(pool: PoolFacts, workload_types: Sequence[str]) -> dict[str, str]:
    """Labels of every node of an AKS GPU pool; ours win over user labels of the same key."""
    ours = {
        **nvidia_plugin_labels(pool),
        **pool_placement(pool).labels,
        **{f"{WORKLOAD_LABEL_PREFIX}{t}": "true" for t in sorted(set(workload_types))},
    }
    return {**pool.pool.labels, **ours}


def autoscaler_tags(pool: PoolFacts) -> dict[str, str]:
    """Tags of an autoscaled AKS pool: every GPU resource a node advertises (capacity model).

    A pod asking ``nvidia.com/gpu.shared`` (a renamed time-sliced or MPS pool) would
    otherwise never bring up the first node of a pool scaled to zero: the autoscaler would
    see no node that offers it."""
    if pool.pool.autoscale is None:
        return {}
    return {
        AUTOSCALER_RESOURCE_TAG + resource.replace("/", "_"): str(count)
        for resource, count in sorted(pool.capacity.per_node.items())
    }


def ack_node_labels(pool: PoolFacts) -> dict[str, str]:
    """Node labels of an ACK GPU pool; ours win over user labels with the same key."""
    labels = {**pool.pool.labels, **pool_placement(pool).labels}
    if pool.uses_device_plugin:
        # The NVIDIA device plugin, GFD and the NFD worker select on it: pools shared by ACK's
        # own plugin must not carry it, or two plugins would advertise the same GPUs.
        labels[GPU_PRESENT_LABEL] = "true"
        # The NVIDIA device plugin has one named config per pool.
        labels[DEVICE_PLUGIN_CONFIG_LABEL] = pool.name
        # ...and ACK's own plugin stays off these nodes (ACK would label them ``default``).
        labels[ACK_GPU_SCHEDULE_LABEL] = ACK_DEVICE_PLUGIN_OFF
    elif pool.uses_dra:
        # ACK's own plugin stays off (ACK's "Schedule GPUs with DRA" guide); our DRA driver's
        # kubelet plugin selects the pool by its pool label.
        labels[GPU_PRESENT_LABEL] = "true"
        labels[ACK_GPU_SCHEDULE_LABEL] = ACK_DEVICE_PLUGIN_OFF
    else:
        # ACK's sharing plugins and (for MPS) the MPS control daemon select on this label.
        labels[ACK_GPU_SCHEDULE_LABEL] = ACK_GPU_SCHEDULE_VALUES[pool.sharing or ""]
    return labels


def existing_node_labels(pool: PoolFacts) -> dict[str, str]:
    """Labels an existing cluster's GPU nodes must carry (we do not create them): the ones the
    device plugin and the checks rely on, plus the configured extra labels."""
    ours = dict(pool_placement(pool).labels)
    if not pool.is_amd:
        ours[GPU_PRESENT_LABEL] = "true"
    if pool.uses_device_plugin:
        ours.update(config_label(pool))
    return {**pool.pool.labels, **ours}


def node_labels(platform: ResolvedPlatform, pool: PoolFacts) -> dict[str, str]:
    """The labels the stack gives (or, on an existing cluster, expects on) a pool's nodes."""
    workload_types = platform.pool_workload_types()[pool.name]
    return cloud_plan(platform.settings.cloud).node_labels(pool, workload_types)
