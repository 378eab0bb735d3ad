"""Compliant GPU workloads of every pod-bearing kind, in the wire shape policies see."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from .harness import Res

KINDS: dict[str, str] = {
    "Pod": "kubernetes:core/v1:Pod",
    "Deployment": "kubernetes:apps/v1:Deployment",
    "StatefulSet": "kubernetes:apps/v1:StatefulSet",
    "DaemonSet": "kubernetes:apps/v1:DaemonSet",
    "ReplicaSet": "kubernetes:apps/v1:ReplicaSet",
    "Job": "kubernetes:batch/v1:Job",
    "CronJob": "kubernetes:batch/v1:CronJob",
}

GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def gpu_pod_spec() -> dict[str, Any]:
    """A GPU pod spec that every pod policy accepts."""
    return {
        "containers": [
            {
                "name": "train",
                "image": "nvidia/cuda:12.1.1-base-ubuntu22.04",
                "env": [{"name": "EPOCHS", "value": "3"}],
                "resources": {"limits": {"nvidia.com/gpu": 1}, "requests": {"cpu": "2"}},
                "securityContext": {"privileged": False},
            }
        ],
        "tolerations": [dict(GPU_TOLERATION)],
    }


def wrap(kind: str, spec: dict[str, Any], namespace: str | None = "gpu-training") -> Res:
    """``spec`` as the pod spec of a ``kind`` resource."""
    metadata: dict[str, Any] = {"name": f"trainer-{kind.lower()}"}
    if namespace is not None:
        metadata["namespace"] = namespace
    labels = {"app": "trainer"}
    template = {"metadata": {"labels": labels}, "spec": spec}
    props: dict[str, Any] = {"metadata": metadata}
    if kind == "Pod":
        props["spec"] = spec
    elif kind == "CronJob":
        props["spec"] = {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": template}}}
    elif kind == "Job":
        props["spec"] = {"template": template}
    else:
        props["spec"] = {"selector": {"matchLabels": labels}, "template": template}
    return Res(KINDS[kind], f"trainer-{kind.lower()}", props)


def mutated(
    kind: str, change: Callable[[dict[str, Any]], None], namespace: str | None = "gpu-training"
) -> Res:
    """The compliant workload of ``kind`` with one change made to its pod spec."""
    spec = copy.deepcopy(gpu_pod_spec())
    change(spec)
    return wrap(kind, spec, namespace)


def container(spec: dict[str, Any]) -> dict[str, Any]:
    first: dict[str, Any] = spec["containers"][0]
    return first
