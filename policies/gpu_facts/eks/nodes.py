"""EKS node groups as Kubernetes sees them: the label EKS puts on a managed node group's nodes,
and how EKS's API spells taint effects.

Sources: "Amazon EKS managed node groups" (the ``eks.amazonaws.com/nodegroup`` label,
https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html) and the EKS API's
``Taint.effect`` (``NO_SCHEDULE | NO_EXECUTE | PREFER_NO_SCHEDULE``,
https://docs.aws.amazon.com/eks/latest/APIReference/API_Taint.html; GKE's ``NodeTaint`` spells
them the same way)."""

from __future__ import annotations

from collections.abc import Mapping

EKS_NODE_GROUP_LABEL = "eks.amazonaws.com/nodegroup"
"""Label EKS puts on the nodes of a managed node group: the node group's name."""
API_TAINT_EFFECTS: Mapping[str, str] = {
    "NoSchedule": "NO_SCHEDULE",
    "NoExecute": "NO_EXECUTE",
    "PreferNoSchedule": "PREFER_NO_SCHEDULE",
}
"""Kubernetes' taint effect -> the EKS (and GKE) API's spelling of it."""
