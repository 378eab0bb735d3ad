"""Whether a pod's tolerations tolerate a taint, as the scheduler matches them.

Kubernetes "Taints and Tolerations": ``Exists`` on the taint's key, or ``Equal`` (the default
operator) with its value; an empty effect matches every effect; a key-less ``Exists``
matches every taint.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gpu_facts.scheduling import GPU_TAINT_EFFECT, GPU_TAINT_KEY, Taint
from gpu_facts.vendors import resource_vendor

from .props import text


def vendor_keys(resources: Iterable[str]) -> frozenset[str]:
    """Taint keys that mark the pod's GPU nodes: each vendor's whose GPUs it asks for
    (``nvidia.com/gpu`` for NVIDIA's and ACK's resources, ``amd.com/gpu`` for AMD's, partitions
    included); ``nvidia.com/gpu`` when none is known."""
    keys = {vendor.taint_key for r in resources if (vendor := resource_vendor(r)) is not None}
    return frozenset(keys or {GPU_TAINT_KEY})


def tolerates_taint(toleration: Mapping[str, Any], taint: Taint) -> bool:
    """Whether one toleration tolerates ``taint``, as the scheduler matches them. An empty
    taint value stands for "any value" (the config's ``requiredTaintValue: ""``)."""
    effect = text(toleration.get("effect")) or ""
    if effect not in ("", taint.effect):
        return False
    key = text(toleration.get("key")) or ""
    operator = text(toleration.get("operator")) or "Equal"
    if operator == "Exists":
        return key in ("", taint.key)
    if operator != "Equal" or key != taint.key:
        return False
    return taint.value == "" or toleration.get("value") == taint.value


def tolerates(toleration: Mapping[str, Any], keys: frozenset[str], value: str) -> bool:
    """Whether one toleration tolerates a GPU taint with one of ``keys`` and ``value``."""
    return any(tolerates_taint(toleration, Taint(k, value, GPU_TAINT_EFFECT)) for k in keys)


HARD_EFFECTS: frozenset[str] = frozenset({"NoSchedule", "NoExecute"})
"""Taint effects that keep a pod off a node; ``PreferNoSchedule`` only steers the scheduler."""


def untolerated(tolerations: Iterable[Mapping[str, Any]], taints: Iterable[Taint]) -> list[Taint]:
    """The taints among ``taints`` that keep a pod with ``tolerations`` off the node."""
    held = list(tolerations)
    return [
        taint
        for taint in taints
        if taint.effect in HARD_EFFECTS and not any(tolerates_taint(t, taint) for t in held)
    ]


def may_schedule(tolerations: Iterable[Mapping[str, Any]], taints: Iterable[Taint]) -> bool:
    """Whether a pod with ``tolerations`` may land on a node with ``taints``: every NoSchedule
    and NoExecute taint tolerated. With no tolerations: the node has no such taint."""
    return not untolerated(tolerations, taints)


def describe_tolerations(tolerations: Sequence[Mapping[str, Any]]) -> str:
    """Tolerations as messages show them: ``nvidia.com/gpu Exists NoSchedule; ...``."""
    if not tolerations:
        return "nothing"
    parts = []
    for t in tolerations:
        operator = text(t.get("operator")) or "Equal"
        value = f' "{t.get("value")}"' if operator == "Equal" else ""
        effect = text(t.get("effect")) or "any effect"
        parts.append(f"{text(t.get('key')) or '<any key>'} {operator}{value} {effect}")
    return "; ".join(parts)
