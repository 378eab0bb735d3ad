"""The kube-state-metrics names and joins every GPU rule shares, whichever exporter it reads:
a namespace's workload type, a node's pool (``plan.prometheus_rules`` for NVIDIA's dcgm-exporter,
``plan.amd.prometheus_rules`` for AMD's device-metrics-exporter)."""

from __future__ import annotations

from typing import Any

from gpu_facts.scheduling import POOL_LABEL, WORKLOAD_TYPE_LABEL


def ksm_resource(name: str) -> str:
    """kube-state-metrics' ``resource`` label of an extended resource: every character
    outside ``[a-zA-Z0-9_]`` as ``_`` (``nvidia.com/gpu`` -> ``nvidia_com_gpu``)."""
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def ksm_label(key: str) -> str:
    """kube-state-metrics' name of a Kubernetes label: ``label_`` and the key sanitized the
    same way."""
    return "label_" + ksm_resource(key)


WORKLOAD = ksm_label(WORKLOAD_TYPE_LABEL)
POOL = ksm_label(POOL_LABEL)
ATTRIBUTED = '{namespace!=""}'
"""A series held by a pod: both exporters label it with the pod's namespace."""
BY_WORKLOAD = (
    f"* on (namespace) group_left (workload) "
    f'label_replace(kube_namespace_labels{{{WORKLOAD}!=""}}, '
    f'"workload", "$1", "{WORKLOAD}", "(.+)")'
)
"""Join a namespace's series with its workload type."""


def by_pool(hostname_label: str) -> str:
    """Join a node's series (its name in ``hostname_label``) with its pool."""
    return (
        f"* on ({hostname_label}) group_left (pool) "
        f'label_replace(label_replace(kube_node_labels{{{POOL}!=""}}, "{hostname_label}", "$1", '
        f'"node", "(.+)"), "pool", "$1", "{POOL}", "(.+)")'
    )


def alert(name: str, expr: str, for_: str, severity: str, summary: str) -> dict[str, Any]:
    """One alerting rule in the rule-file shape."""
    return {
        "alert": name,
        "expr": expr,
        "for": for_,
        "labels": {"severity": severity},
        "annotations": {"summary": summary},
    }
