"""What a deny-all NetworkPolicy is (BP-08), for the pack, the program and ``make verify``.

Kubernetes API reference, NetworkPolicySpec: an empty ``podSelector`` selects every pod of the
namespace; a direction listed in ``policyTypes`` with no rules allows no traffic that way.
"""

from __future__ import annotations

import ipaddress
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


# --- what a set of NetworkPolicies lets through (Kubernetes API reference, NetworkPolicySpec,
# NetworkPolicyPeer, NetworkPolicyPort, LabelSelector) --------------------------------------

NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"
"""Set by Kubernetes on every namespace (how a policy selects a namespace by its name)."""

API_SERVER_PORTS: Mapping[str, tuple[int, ...]] = {
    "aks": (443,),
    "ack": (6443,),
    "existing": (443, 6443),
}
"""TCP ports of the API server's endpoints as a pod's packets reach them, by cloud.

NetworkPolicy engines (Cilium, Azure NPM, Calico, Terway) judge a connection after the
``kubernetes`` Service's ClusterIP is translated to an endpoint, so the port that counts is
the endpoint's. AKS: the API server (its FQDN, or the private endpoint) listens on 443 (AKS
docs, "Outbound network and FQDN rules": ``*.hcp.<region>.azmk8s.io`` HTTPS 443). ACK: the
API server's internal SLB listens on 6443 (ACK docs, cluster API server endpoint). Other
clusters: 443 (EKS, GKE) or kubeadm's default 6443."""


def _matches(selector: Any, labels: Mapping[str, str]) -> bool:
    """Whether a LabelSelector (matchLabels, matchExpressions) selects ``labels``; an empty
    selector selects everything."""
    selector = _mapping(selector)
    for key, value in _mapping(selector.get("matchLabels")).items():
        if labels.get(key) != value:
            return False
    for expr in _items(selector.get("matchExpressions")):
        expr = _mapping(expr)
        key, op = str(expr.get("key")), str(expr.get("operator"))
        values = {str(v) for v in _items(expr.get("values"))}
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and key in labels and labels[key] in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


class Endpoint:
    """One end of a connection: a pod (namespace and labels) or an address outside any pod
    (``ip``: the API server of a managed cluster, a registry, the internet)."""

    __slots__ = ("ip", "labels", "namespace", "namespace_labels")

    def __init__(
        self,
        *,
        namespace: str | None = None,
        labels: Mapping[str, str] | None = None,
        namespace_labels: Mapping[str, str] | None = None,
        ip: str | None = None,
    ) -> None:
        if (namespace is None) == (ip is None):
            raise ValueError("an endpoint is a pod (namespace) or an address (ip)")
        self.namespace = namespace
        self.labels = dict(labels or {})
        self.namespace_labels = (
            {**(namespace_labels or {}), NAMESPACE_NAME_LABEL: namespace}
            if namespace is not None
            else {}
        )
        self.ip = ip

    def __repr__(self) -> str:
        return f"pod {self.namespace}/{self.labels}" if self.ip is None else f"address {self.ip}"


def _in_block(ip: str, block: Mapping[str, Any]) -> bool:
    address = ipaddress.ip_address(ip)

    def contains(cidr: Any) -> bool:
        net = ipaddress.ip_network(str(cidr), strict=False)
        return address.version == net.version and address in net

    return contains(block.get("cidr")) and not any(contains(c) for c in _items(block.get("except")))


def _peer_matches(peer: Mapping[str, Any], other: Endpoint, policy_namespace: str) -> bool:
    block = _mapping(peer.get("ipBlock"))
    if block:
        # Pod IPs in an ipBlock are left to the implementation: count addresses only.
        return other.ip is not None and _in_block(other.ip, block)
    if other.namespace is None:
        return False
    if "namespaceSelector" in peer:
        if not _matches(peer.get("namespaceSelector"), other.namespace_labels):
            return False
    elif other.namespace != policy_namespace:
        return False
    return _matches(peer.get("podSelector"), other.labels)


def _port_matches(rule_port: Mapping[str, Any], port: int, protocol: str) -> bool:
    if str(rule_port.get("protocol", "TCP")) != protocol:
        return False
    if rule_port.get("port") is None:
        return True
    start = rule_port["port"]
    if not isinstance(start, int | float):  # a named port: not modelled, never matches here
        return False
    end = rule_port.get("endPort", start)
    return int(start) <= port <= int(end)


def _policy_types(spec: Mapping[str, Any]) -> set[str]:
    given = {str(t) for t in _items(spec.get("policyTypes"))}
    if given:
        return given
    # Unset: Ingress always, Egress when the policy has egress rules.
    return {"Ingress", *(["Egress"] if _items(spec.get("egress")) else [])}


def allows(
    policies: Sequence[Mapping[str, Any]],
    pod: Endpoint,
    direction: str,
    other: Endpoint,
    *,
    port: int,
    protocol: str = "TCP",
) -> bool:
    """Whether NetworkPolicies (objects with ``metadata.namespace`` and ``spec``) let ``pod``
    send to (``Egress``) or receive from (``Ingress``) ``other`` on ``port``.

    The API's semantics: a pod no policy selects for a direction is open that way; once one
    does, only what some rule of those policies allows passes. The other end's own policies
    are not consulted (ask again from its side). Not modelled: named ports, and traffic from
    the pod's own node (kubelet probes), which every engine always allows.
    """
    if direction not in DENY_ALL_POLICY_TYPES:
        raise ValueError(f"direction is Ingress or Egress, not {direction!r}")
    key, peers_key = ("egress", "to") if direction == "Egress" else ("ingress", "from")
    isolating = [
        (spec, str(_mapping(p.get("metadata")).get("namespace")))
        for p in policies
        for spec in [_mapping(p.get("spec"))]
        if _mapping(p.get("metadata")).get("namespace") == pod.namespace
        and _matches(spec.get("podSelector"), pod.labels)
        and direction in _policy_types(spec)
    ]
    if not isolating:
        return True
    for spec, namespace in isolating:
        for rule in _items(spec.get(key)):
            rule = _mapping(rule)
            ports = _items(rule.get("ports"))
            if ports and not any(_port_matches(_mapping(p), port, protocol) for p in ports):
                continue
            peers = _items(rule.get(peers_key))
            if not peers or any(_peer_matches(_mapping(p), other, namespace) for p in peers):
                return True
    return False
