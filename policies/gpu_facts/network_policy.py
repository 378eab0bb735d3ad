"""What a deny-all NetworkPolicy is (BP-08), for the pack, the program and ``readiness``.

Kubernetes API reference, NetworkPolicySpec: an empty ``podSelector`` selects every pod of the
namespace; a direction listed in ``policyTypes`` with no rules allows no traffic that way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

DENY_ALL_POLICY_TYPES: frozenset[str] = frozenset({"Ingress", "Egress"})


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _items(value: Any) -> Sequence[Any]:
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return value
    return ()


def is_deny_all(network_policy: Mapping[str, Any]) -> bool:
    """Whether a NetworkPolicy object (its props, or the live object) selects every pod of its
    namespace, covers Ingress and Egress, and allows nothing.

    Accepts plain dicts and the analyzer's Mapping/Sequence proxies; never assumes a shape.
    """
    spec = _mapping(network_policy.get("spec"))
    selector = _mapping(spec.get("podSelector"))
    selects_all = not _items(selector.get("matchExpressions")) and not _mapping(
        selector.get("matchLabels")
    )
    types = {str(t) for t in _items(spec.get("policyTypes"))}
    no_rules = not _items(spec.get("ingress")) and not _items(spec.get("egress"))
    return selects_all and types >= DENY_ALL_POLICY_TYPES and no_rules
