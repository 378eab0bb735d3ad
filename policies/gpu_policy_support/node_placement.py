"""Which nodes a chart's pods may run on, from its ``values.nodeSelector`` and ``values.affinity``.

Only the required node affinity counts (``requiredDuringSchedulingIgnoredDuringExecution``):
its ``nodeSelectorTerms`` are ORed, each term's ``matchExpressions`` ANDed, and an empty term
matches no node (Kubernetes API reference, NodeSelector). ``matchFields`` select nodes by name,
which a preview cannot know, so a term with them is taken as matching (never a false alarm).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .props import items, mapping, mappings, path, text


@dataclass(frozen=True, slots=True)
class Requirement:
    """One ``matchExpressions`` entry."""

    key: str
    operator: str
    values: tuple[str, ...]

    def matches(self, labels: Mapping[str, str]) -> bool:
        value = labels.get(self.key)
        if self.operator == "In":
            return value is not None and value in self.values
        if self.operator == "NotIn":
            return value is None or value not in self.values
        if self.operator == "Exists":
            return value is not None
        if self.operator == "DoesNotExist":
            return value is None
        if self.operator in ("Gt", "Lt") and value is not None and len(self.values) == 1:
            try:
                have, bound = int(value), int(self.values[0])
            except ValueError:
                return False
            return have > bound if self.operator == "Gt" else have < bound
        return False  # an operator the API server would refuse selects nothing

    def __str__(self) -> str:
        if self.operator in ("Exists", "DoesNotExist"):
            return f"{self.key} {self.operator}"
        return f"{self.key} {self.operator} [{', '.join(self.values)}]"


@dataclass(frozen=True, slots=True)
class Term:
    """One ``nodeSelectorTerms`` entry: all of its requirements."""

    requirements: tuple[Requirement, ...]
    by_field: bool
    """The term has ``matchFields`` (node names), unknowable at preview."""

    def matches(self, labels: Mapping[str, str]) -> bool:
        if not self.requirements and not self.by_field:
            return False
        return all(r.matches(labels) for r in self.requirements)


@dataclass(frozen=True, slots=True)
class NodePlacement:
    """A pod's node constraints: the ``nodeSelector`` AND any of the required terms."""

    node_selector: Mapping[str, str]
    terms: tuple[Term, ...] | None
    """None when the pod has no required node affinity."""

    def admits(self, labels: Mapping[str, str]) -> bool:
        """Whether a node with ``labels`` may run the pod."""
        if any(labels.get(k) != v for k, v in self.node_selector.items()):
            return False
        return self.terms is None or any(term.matches(labels) for term in self.terms)

    def unmet(self, labels: Mapping[str, str]) -> str:
        """The constraints a node with ``labels`` fails, for messages (empty when it may run
        the pod): ``nodeSelector a=b`` and the failed requirements of each required term."""
        parts = [
            f"nodeSelector {key}={value}"
            for key, value in self.node_selector.items()
            if labels.get(key) != value
        ]
        if self.terms is not None and not any(term.matches(labels) for term in self.terms):
            failed = [
                " and ".join(str(r) for r in term.requirements if not r.matches(labels))
                or "an empty term"
                for term in self.terms
            ]
            parts.append(f"required node affinity {' or '.join(failed) or '(no term)'}")
        return "; ".join(parts)

    def describe(self) -> str:
        """The constraints, for messages."""
        parts = [f"nodeSelector {dict(self.node_selector)}"] if self.node_selector else []
        if self.terms is not None:
            parts.append("required node affinity")
        return " and ".join(parts) or "no node constraint"


ANYWHERE = NodePlacement({}, None)


def requirement(expr: Mapping[str, Any]) -> Requirement:
    """One node-selector requirement (``{key, operator, values}``): a ``matchExpressions``
    entry, or a Karpenter NodePool's ``requirements`` entry."""
    return Requirement(
        text(expr.get("key")) or "",
        text(expr.get("operator")) or "",
        tuple(str(v) for v in items(expr.get("values"))),
    )


def _term(term: Mapping[str, Any]) -> Term:
    requirements = tuple(requirement(expr) for expr in mappings(term.get("matchExpressions")))
    return Term(requirements, by_field=bool(items(term.get("matchFields"))))


def node_placement(values: Mapping[str, Any]) -> NodePlacement:
    """The placement a chart's ``values`` give its pods (``nodeSelector``, ``affinity``)."""
    selector = {str(k): str(v) for k, v in mapping(values.get("nodeSelector")).items()}
    required = path(
        values, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"
    )
    terms = (
        tuple(_term(term) for term in mappings(mapping(required).get("nodeSelectorTerms")))
        if isinstance(required, Mapping)
        else None
    )
    return NodePlacement(selector, terms)
