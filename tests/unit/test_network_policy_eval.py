"""gpu_facts.network_policy.allows: the NetworkPolicy API's semantics, one rule at a time."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_facts.network_policy import Endpoint, allows

NS = "apps"
WEB = Endpoint(namespace=NS, labels={"app": "web"})
DB = Endpoint(namespace=NS, labels={"app": "db"})
DNS = Endpoint(namespace="kube-system", labels={"k8s-app": "kube-dns"})
OUTSIDE = Endpoint(ip="203.0.113.7")


def policy(spec: dict[str, Any], namespace: str = NS) -> dict[str, Any]:
    return {"metadata": {"name": "p", "namespace": namespace}, "spec": spec}


DENY_ALL = policy({"podSelector": {}, "policyTypes": ["Ingress", "Egress"]})


def test_a_pod_no_policy_selects_is_open() -> None:
    assert allows([], WEB, "Egress", OUTSIDE, port=443)
    # A policy of another namespace, or one selecting other pods, does not isolate it.
    assert allows([policy({"podSelector": {}}, "other")], WEB, "Ingress", DB, port=80)
    only_db = policy({"podSelector": {"matchLabels": {"app": "db"}}, "policyTypes": ["Egress"]})
    assert allows([only_db], WEB, "Egress", OUTSIDE, port=443)
    assert not allows([only_db], DB, "Egress", OUTSIDE, port=443)


def test_deny_all_denies_both_ways() -> None:
    for direction in ("Ingress", "Egress"):
        for other in (DB, DNS, OUTSIDE):
            assert not allows([DENY_ALL], WEB, direction, other, port=443)


def test_policy_types_default_to_ingress_and_egress_when_rules_say_so() -> None:
    ingress_only = policy({"podSelector": {}})
    assert not allows([ingress_only], WEB, "Ingress", DB, port=80)
    assert allows([ingress_only], WEB, "Egress", DB, port=80)
    with_egress = policy({"podSelector": {}, "egress": [{"ports": [{"port": 53}]}]})
    assert not allows([with_egress], WEB, "Egress", DB, port=80)


def test_rules_of_all_selecting_policies_add_up() -> None:
    dns = policy(
        {
            "podSelector": {},
            "policyTypes": ["Egress"],
            "egress": [
                {
                    "to": [
                        {
                            "namespaceSelector": {
                                "matchLabels": {"kubernetes.io/metadata.name": "kube-system"}
                            },
                            "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}},
                        }
                    ],
                    "ports": [{"protocol": "UDP", "port": 53}],
                }
            ],
        }
    )
    assert allows([DENY_ALL, dns], WEB, "Egress", DNS, port=53, protocol="UDP")
    assert not allows([DENY_ALL, dns], WEB, "Egress", DNS, port=53, protocol="TCP")
    assert not allows([DENY_ALL, dns], WEB, "Egress", DB, port=53, protocol="UDP")
    assert not allows([DENY_ALL, dns], WEB, "Egress", OUTSIDE, port=53, protocol="UDP")


def test_a_port_only_rule_allows_that_port_to_any_peer() -> None:
    api = policy(
        {"podSelector": {}, "policyTypes": ["Egress"], "egress": [{"ports": [{"port": 443.0}]}]}
    )
    for other in (OUTSIDE, Endpoint(ip="10.0.0.1"), DB, DNS):
        assert allows([DENY_ALL, api], WEB, "Egress", other, port=443)
    assert not allows([DENY_ALL, api], WEB, "Egress", OUTSIDE, port=6443)
    assert not allows([DENY_ALL, api], WEB, "Egress", OUTSIDE, port=443, protocol="UDP")


def test_a_pod_selector_alone_means_this_namespace() -> None:
    same = policy({"podSelector": {}, "ingress": [{"from": [{"podSelector": {}}]}]})
    assert allows([same], WEB, "Ingress", DB, port=80)
    assert not allows([same], WEB, "Ingress", DNS, port=80)


def test_ip_blocks_with_exceptions_match_addresses_not_pods() -> None:
    block = policy(
        {
            "podSelector": {},
            "policyTypes": ["Egress"],
            "egress": [{"to": [{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.1.0.0/16"]}}]}],
        }
    )
    assert allows([block], WEB, "Egress", Endpoint(ip="10.2.3.4"), port=1)
    assert not allows([block], WEB, "Egress", Endpoint(ip="10.1.3.4"), port=1)
    assert not allows([block], WEB, "Egress", OUTSIDE, port=1)
    assert not allows([block], WEB, "Egress", Endpoint(ip="fd00::1"), port=1)
    assert not allows([block], WEB, "Egress", DB, port=1)


def test_port_ranges_and_named_ports() -> None:
    ranged = policy(
        {
            "podSelector": {},
            "policyTypes": ["Egress"],
            "egress": [{"ports": [{"port": 8000, "endPort": 8080}, {"port": "http"}]}],
        }
    )
    assert allows([ranged], WEB, "Egress", OUTSIDE, port=8080)
    assert not allows([ranged], WEB, "Egress", OUTSIDE, port=8081)
    assert not allows([ranged], WEB, "Egress", OUTSIDE, port=80)


def test_match_expressions() -> None:
    spec = {
        "podSelector": {
            "matchExpressions": [
                {"key": "app", "operator": "In", "values": ["web", "api"]},
                {"key": "tier", "operator": "NotIn", "values": ["test"]},
                {"key": "team", "operator": "Exists"},
                {"key": "legacy", "operator": "DoesNotExist"},
            ]
        },
        "policyTypes": ["Egress"],
    }
    selected = Endpoint(namespace=NS, labels={"app": "web", "team": "a"})
    assert not allows([policy(spec)], selected, "Egress", OUTSIDE, port=1)
    for labels in (
        {"app": "db", "team": "a"},
        {"app": "web", "team": "a", "tier": "test"},
        {"app": "web"},
        {"app": "web", "team": "a", "legacy": "1"},
    ):
        assert allows(
            [policy(spec)], Endpoint(namespace=NS, labels=labels), "Egress", OUTSIDE, port=1
        )


def test_bad_use_is_refused() -> None:
    with pytest.raises(ValueError, match="Ingress or Egress"):
        allows([], WEB, "Both", DB, port=1)
    with pytest.raises(ValueError, match="a pod"):
        Endpoint(namespace="a", ip="10.0.0.1")
