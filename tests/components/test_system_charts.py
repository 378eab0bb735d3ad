"""A system chart's namespace policies and its release (components/system_charts.py)."""

from __future__ import annotations

import pulumi

from gpu_facts.network_policy import API_SERVER_PORTS
from gpu_platform.components.gpu_workload_namespace import DENY_ALL_POLICY
from gpu_platform.components.helm_release import PSA_ENFORCE
from gpu_platform.components.system_charts import (
    API_SERVER_POLICY,
    api_server_egress_spec,
    release_in_own_namespace,
    system_policies,
    webhook_ingress_spec,
)
from tests.conftest import by_type, one, run


class _Parent(pulumi.ComponentResource):
    def __init__(self) -> None:
        super().__init__("test:index:Parent", "parent")


def test_api_server_egress_names_the_clouds_ports_and_no_peer() -> None:
    """Egress only, to the cloud's API server ports, from the pods named (``{}``: all)."""
    for cloud, ports in API_SERVER_PORTS.items():
        spec = api_server_egress_spec(cloud, {})
        assert spec.policy_types == ["Egress"] and spec.pod_selector.match_labels == {}
        (rule,) = spec.egress
        assert rule.to is None
        assert [(p.protocol, p.port) for p in rule.ports] == [("TCP", port) for port in ports]
    only = api_server_egress_spec("aks", {"app": "plugin"})
    assert only.pod_selector.match_labels == {"app": "plugin"}


def test_a_system_namespace_denies_all_then_lets_its_pods_reach_the_api_server() -> None:
    policies = system_policies("ack", {"app": "plugin"})
    assert list(policies) == [DENY_ALL_POLICY, API_SERVER_POLICY]  # in this order, everywhere
    deny, egress = policies.values()
    assert deny.pod_selector.match_labels is None and deny.ingress is None and deny.egress is None
    assert egress.pod_selector.match_labels == {"app": "plugin"}
    assert [p.port for p in egress.egress[0].ports] == list(API_SERVER_PORTS["ack"])


def test_webhook_ingress_is_the_webhooks_port_from_anywhere() -> None:
    spec = webhook_ingress_spec({"app": "webhook"}, 9443)
    assert spec.policy_types == ["Ingress"]
    assert spec.pod_selector.match_labels == {"app": "webhook"}
    (rule,) = spec.ingress
    assert rule.from_ is None
    assert [(p.protocol, p.port) for p in rule.ports] == [("TCP", 9443)]


def test_a_release_in_its_own_namespace_after_the_namespace_and_its_policies() -> None:
    def program() -> None:
        release_in_own_namespace(
            _Parent(),
            "kueue",
            namespace="kueue-system",
            pod_security="baseline",
            policies={API_SERVER_POLICY: api_server_egress_spec("ack", {})},
            chart="kueue",
            repo="oci://registry.k8s.io/kueue/charts",
            version="0.19.2",
            values={"replicas": 1},
        )

    result = run(program)
    namespace = one(result, "kubernetes:core/v1:Namespace")
    assert namespace.inputs["metadata"]["name"] == "kueue-system"
    assert namespace.inputs["metadata"]["labels"][PSA_ENFORCE] == "baseline"
    (policy,) = by_type(result, "kubernetes:networking.k8s.io/v1:NetworkPolicy")
    assert policy.name == f"kueue-{API_SERVER_POLICY}"
    assert policy.inputs["metadata"] == {"name": API_SERVER_POLICY, "namespace": "kueue-system"}
    assert policy.inputs["spec"]["egress"] == [{"ports": [{"protocol": "TCP", "port": 6443}]}]
    assert namespace.urn in policy.dependencies
    release = one(result, "kubernetes:helm.sh/v3:Release")
    assert (release.name, release.inputs["namespace"], release.inputs["version"]) == (
        "kueue-release",
        "kueue-system",
        "0.19.2",
    )
    assert namespace.urn in release.dependencies
    assert {namespace.parent, policy.parent, release.parent} == {release.parent}
