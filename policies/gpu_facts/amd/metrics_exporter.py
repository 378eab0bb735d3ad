"""Facts about AMD's device-metrics-exporter, which the GPU Operator runs on every node its
DeviceConfig selects (``metricsExporter.enable``): the series our rules read and their labels.

Sources: ROCm/device-metrics-exporter ``docs/configuration/metricslist.md`` (fields and units),
``docs/configuration/configmap.md`` (labels: ``POD``, ``NAMESPACE``, ``CONTAINER``, ``GPU_ID``,
``HOSTNAME``, ``CARD_MODEL``... "are always set and cannot be removed"), its README (node
labels of unhealthy GPUs), the exporter's
``gpuagent`` collector (``gpu_health``: 1 healthy, 0 unhealthy, only where the health service
has a state), and ROCm/gpu-operator ``docs/metrics/health.md`` (a GPU with an uncorrectable ECC
error turns unhealthy and leaves the node's allocatable ``amd.com/gpu``).
"""

from __future__ import annotations

from collections.abc import Mapping

GFX_ACTIVITY = "gpu_gfx_activity"
"""Graphics engine use, percent (0..100), for an unpartitioned GPU (MI300X on AKS is modelled
unpartitioned: ``capacity``)."""
USED_VRAM = "gpu_used_vram"
TOTAL_VRAM = "gpu_total_vram"
"""VRAM in MB."""
VRAM_BYTES_PER_UNIT = 1048576
"""The exporter's MB, as our byte rules count them (the same factor as dcgm-exporter's MiB)."""
ECC_UNCORRECTABLE = "gpu_ecc_uncorrect_total"
"""Uncorrectable ECC errors, a running total."""
HEALTH = "gpu_health"
"""1 healthy, 0 unhealthy."""
JUNCTION_TEMPERATURE = "gpu_junction_temperature"
"""Hotspot temperature in °C (MI3xx)."""
POD_LABEL = "pod"
NAMESPACE_LABEL = "namespace"
GPU_LABEL = "gpu_id"
HOSTNAME_LABEL = "hostname"
"""The node's name (the exporter's ``DS_NODE_NAME``, the pod's ``spec.nodeName``)."""

UNHEALTHY_LABEL_PREFIX = "metricsexporter.amd.com.gpu."
UNHEALTHY_LABEL_SUFFIX = ".state"
UNHEALTHY = "unhealthy"
"""The exporter labels a node ``metricsexporter.amd.com.gpu.<gpu id>.state=unhealthy`` for each
unhealthy GPU; a healthy GPU has no label (ROCm/device-metrics-exporter README)."""


def unhealthy_gpus(labels: Mapping[str, str]) -> list[str]:
    """The GPU ids a node's labels mark unhealthy, in label order."""
    return [
        key[len(UNHEALTHY_LABEL_PREFIX) : -len(UNHEALTHY_LABEL_SUFFIX)]
        for key, value in labels.items()
        if key.startswith(UNHEALTHY_LABEL_PREFIX)
        and key.endswith(UNHEALTHY_LABEL_SUFFIX)
        and value == UNHEALTHY
    ]
