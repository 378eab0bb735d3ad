"""The NetworkPolicies of a system chart's namespace, and the release installed in it.

Every system chart (the device plugin, the DRA driver, the GPU operators, dcgm-exporter,
cert-manager, Kueue) lives in its own namespace that denies all traffic, and is allowed exactly
what its pods need: egress to the API server, ingress to its webhooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import pulumi
import pulumi_kubernetes as k8s
from pulumi_kubernetes.meta.v1 import LabelSelectorArgs, ObjectMetaArgs
from pulumi_kubernetes.networking import v1 as net

from gpu_facts.network_policy import API_SERVER_PORTS

from .gpu_workload_namespace import DENY_ALL_POLICY, deny_all_spec
from .helm_release import pinned_release, system_namespace

API_SERVER_POLICY = "allow-api-server-egress"


def api_server_egress_spec(cloud: str, pods: Mapping[str, str]) -> net.NetworkPolicySpecArgs:
    """Egress of the pods labelled ``pods`` (``{}``: every pod of the namespace) to the API
    server: what a system chart's controllers, plugins and webhooks need.

    A managed cluster's API server is no pod and its address is not ours to know, so the rule
    names its ports (``API_SERVER_PORTS``) and no peer: the one form every engine we support
    reads the same way. An ``ipBlock`` would not do: Cilium gives the API server the
    ``kube-apiserver`` identity, which no CIDR rule matches, and Cilium's own entity is no
    Kubernetes NetworkPolicy. The cost: those ports are open to any address, not only the API
    server's.
    """
    return net.NetworkPolicySpecArgs(
        pod_selector=LabelSelectorArgs(match_labels=dict(pods)),
        policy_types=["Egress"],
        egress=[
            net.NetworkPolicyEgressRuleArgs(
                ports=[
                    net.NetworkPolicyPortArgs(protocol="TCP", port=port)
                    for port in API_SERVER_PORTS[cloud]
                ]
            )
        ],
    )


def system_policies(cloud: str, pods: Mapping[str, str]) -> dict[str, net.NetworkPolicySpecArgs]:
    """What every system chart's namespace starts from (BP-08 for our own namespaces too): deny
    all, then egress of the pods labelled ``pods`` (``{}``: every pod) to the API server."""
    return {
        DENY_ALL_POLICY: deny_all_spec(),
        API_SERVER_POLICY: api_server_egress_spec(cloud, pods),
    }


def webhook_ingress_spec(pods: Mapping[str, str], port: int) -> net.NetworkPolicySpecArgs:
    """Ingress to a webhook server's pods (labelled ``pods``) on its port: the API server calls
    it, and no peer names the API server (as for ``api_server_egress_spec``)."""
    return net.NetworkPolicySpecArgs(
        pod_selector=LabelSelectorArgs(match_labels=dict(pods)),
        policy_types=["Ingress"],
        ingress=[
            net.NetworkPolicyIngressRuleArgs(
                ports=[net.NetworkPolicyPortArgs(protocol="TCP", port=port)]
            )
        ],
    )


def namespace_policies(
    parent: pulumi.Resource,
    name: str,
    namespace: tuple[str, pulumi.Resource],
    specs: dict[str, net.NetworkPolicySpecArgs],
) -> None:
    """One NetworkPolicy per spec, named by its key, in the namespace (its name, and the
    Namespace resource they wait for)."""
    namespace_name, created = namespace
    for policy, spec in specs.items():
        net.NetworkPolicy(
            f"{name}-{policy}",
            metadata=ObjectMetaArgs(name=policy, namespace=namespace_name),
            spec=spec,
            opts=pulumi.ResourceOptions(parent=parent, depends_on=[created]),
        )


def release_in_own_namespace(
    parent: pulumi.Resource,
    name: str,
    *,
    namespace: str,
    pod_security: Literal["privileged", "baseline", "restricted"],
    policies: dict[str, net.NetworkPolicySpecArgs],
    chart: str,
    repo: str,
    version: str,
    values: dict[str, Any],
) -> tuple[k8s.core.v1.Namespace, k8s.helm.v3.Release]:
    """A chart's namespace at ``pod_security``, its NetworkPolicies (``namespace_policies``) and
    the pinned release in it: how the platform installs a system chart."""
    created = system_namespace(f"{name}-namespace", namespace, parent, pod_security)
    namespace_policies(parent, name, (namespace, created), policies)
    release = pinned_release(
        f"{name}-release",
        chart=chart,
        repo=repo,
        version=version,
        namespace=namespace,
        after=created,
        values=values,
        parent=parent,
    )
    return created, release
