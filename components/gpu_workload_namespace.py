"""GpuWorkloadNamespace: one isolated namespace per workload type (BP-07, BP-08, BP-09).

The namespace carries its workload type, Pod Security Admission labels and the label that
puts it under the GPU admission policy. Traffic is denied both ways by default; named
policies open only what the config grants. A ResourceQuota caps the GPU resources the
namespace's pools expose (and pins every other GPU resource of the cluster at 0), and a
LimitRange gives containers without requests defaults that fit the quota.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict

import pulumi
from pulumi_kubernetes.core import v1 as core
from pulumi_kubernetes.meta.v1 import LabelSelectorArgs, ObjectMetaArgs
from pulumi_kubernetes.networking import v1 as net

from plan.namespaces import gpu_quota, namespace_labels, workload_problems
from plan.pools import PoolFacts
from settings import WorkloadSettings

from .outputs import known_after

NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"
"""Set by Kubernetes on every namespace: how a NetworkPolicy selects a namespace by name."""
DNS_NAMESPACE = "kube-system"
DENY_ALL_POLICY = "default-deny-all"


def deny_all_spec() -> net.NetworkPolicySpecArgs:
    """The guide's deny-all (BP-08): every pod, both directions, no rules."""
    return net.NetworkPolicySpecArgs(
        pod_selector=LabelSelectorArgs(), policy_types=["Ingress", "Egress"]
    )


class GpuWorkloadNamespaceArgs(TypedDict):
    workload: WorkloadSettings
    """The validated ``workloads`` entry."""
    pools: Sequence[PoolFacts]
    """The GPU pools the namespace may use (``ResolvedPlatform.workload_pools``)."""
    cluster_gpu_resources: NotRequired[Sequence[str]]
    """Every GPU resource the cluster's pools expose; those the namespace may not use get a
    quota of 0, so it cannot take GPUs from a pool it was not given (a shared pool is one
    trust domain: BP-15)."""


def _namespace_peer(namespace: str) -> net.NetworkPolicyPeerArgs:
    return net.NetworkPolicyPeerArgs(
        namespace_selector=LabelSelectorArgs(match_labels={NAMESPACE_NAME_LABEL: namespace})
    )


def allow_policies(workload: WorkloadSettings) -> dict[str, net.NetworkPolicySpecArgs]:
    """The named allow policies the config grants, by policy name."""
    traffic = workload.traffic
    every_pod = LabelSelectorArgs()
    policies: dict[str, net.NetworkPolicySpecArgs] = {}
    if traffic.dns:
        policies["allow-dns-egress"] = net.NetworkPolicySpecArgs(
            pod_selector=every_pod,
            policy_types=["Egress"],
            egress=[
                net.NetworkPolicyEgressRuleArgs(
                    to=[_namespace_peer(DNS_NAMESPACE)],
                    ports=[
                        net.NetworkPolicyPortArgs(protocol=protocol, port=53)
                        for protocol in ("UDP", "TCP")
                    ],
                )
            ],
        )
    if traffic.same_namespace:
        same = [net.NetworkPolicyPeerArgs(pod_selector=LabelSelectorArgs())]
        policies["allow-same-namespace"] = net.NetworkPolicySpecArgs(
            pod_selector=every_pod,
            policy_types=["Ingress", "Egress"],
            ingress=[net.NetworkPolicyIngressRuleArgs(from_=same)],
            egress=[net.NetworkPolicyEgressRuleArgs(to=same)],
        )
    if traffic.egress_cidrs:
        policies["allow-egress-cidrs"] = net.NetworkPolicySpecArgs(
            pod_selector=every_pod,
            policy_types=["Egress"],
            egress=[
                net.NetworkPolicyEgressRuleArgs(
                    to=[
                        net.NetworkPolicyPeerArgs(ip_block=net.IPBlockArgs(cidr=cidr))
                        for cidr in traffic.egress_cidrs
                    ]
                )
            ],
        )
    if traffic.egress_namespaces:
        policies["allow-egress-namespaces"] = net.NetworkPolicySpecArgs(
            pod_selector=every_pod,
            policy_types=["Egress"],
            egress=[
                net.NetworkPolicyEgressRuleArgs(
                    to=[_namespace_peer(ns) for ns in traffic.egress_namespaces]
                )
            ],
        )
    if traffic.ingress_namespaces:
        policies["allow-ingress-namespaces"] = net.NetworkPolicySpecArgs(
            pod_selector=every_pod,
            policy_types=["Ingress"],
            ingress=[
                net.NetworkPolicyIngressRuleArgs(
                    from_=[_namespace_peer(ns) for ns in traffic.ingress_namespaces]
                )
            ],
        )
    return policies


class GpuWorkloadNamespace(pulumi.ComponentResource):
    """A GPU workload namespace: labels, deny-all traffic, GPU quota and container defaults."""

    namespace: pulumi.Output[str]
    """Name of the namespace."""
    gpu_quota: pulumi.Output[Mapping[str, str]]
    """The ResourceQuota's ``hard`` limits."""
    network_policies: pulumi.Output[list[str]]
    """Names of the NetworkPolicies, deny-all first."""

    def __init__(
        self, name: str, args: GpuWorkloadNamespaceArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        workload, pools = args["workload"], list(args["pools"])
        problems = workload_problems(workload, pools, "workload")
        if problems:
            details = "; ".join(f"{path}: {message}" for path, message in problems)
            raise ValueError(f"GpuWorkloadNamespace {name!r}: {details}")
        super().__init__("gpu-platform:workloads:GpuWorkloadNamespace", name, None, opts)
        ns = core.Namespace(
            f"{name}-namespace",
            metadata=ObjectMetaArgs(
                name=workload.name,
                labels=namespace_labels(workload, pools),
                annotations=dict(workload.logging.annotations) or None,
            ),
            opts=pulumi.ResourceOptions(parent=self),
        )
        # The configured name, not the Namespace's output: known on a new cluster's first
        # preview, so the policy pack can judge every object here (components/helm_release.py).
        child = pulumi.ResourceOptions(parent=self, depends_on=[ns])

        def meta(object_name: str) -> ObjectMetaArgs:
            return ObjectMetaArgs(name=object_name, namespace=workload.name)

        policies = {DENY_ALL_POLICY: deny_all_spec(), **allow_policies(workload)}
        for policy_name, spec in policies.items():
            net.NetworkPolicy(
                f"{name}-{policy_name}", metadata=meta(policy_name), spec=spec, opts=child
            )

        hard = {
            **gpu_quota(workload, pools, args.get("cluster_gpu_resources", ())),
            "requests.cpu": workload.quota.cpu,
            "requests.memory": workload.quota.memory,
            "pods": str(workload.quota.pods),
        }
        core.ResourceQuota(
            f"{name}-quota",
            metadata=meta("gpu-quota"),
            spec=core.ResourceQuotaSpecArgs(hard=hard),
            opts=child,
        )
        defaults = {"cpu": workload.defaults.cpu, "memory": workload.defaults.memory}
        core.LimitRange(
            f"{name}-limits",
            metadata=meta("container-defaults"),
            spec=core.LimitRangeSpecArgs(
                limits=[
                    core.LimitRangeItemArgs(
                        type="Container", default=defaults, default_request=defaults
                    )
                ]
            ),
            opts=child,
        )

        self.namespace = known_after(workload.name, ns)
        self.gpu_quota = pulumi.Output.from_input(hard)
        self.network_policies = pulumi.Output.from_input(list(policies))
        self.register_outputs(
            {
                "namespace": self.namespace,
                "gpuQuota": self.gpu_quota,
                "networkPolicies": self.network_policies,
            }
        )
