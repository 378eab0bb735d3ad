"""GpuWorkloadNamespace: one isolated namespace per workload type (BP-07, BP-08, BP-09).

The namespace carries its workload type, Pod Security Admission labels and the label that
puts it under the GPU admission policy. Traffic is denied both ways by default; named
policies open only what the config grants. A ResourceQuota caps the GPU resources the
namespace's pools expose (and pins every other GPU resource of the cluster at 0), and a
LimitRange gives containers without requests defaults that fit the quota.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NotRequired, TypedDict

import pulumi
from pulumi_kubernetes.core import v1 as core
from pulumi_kubernetes.meta.v1 import LabelSelectorArgs, ObjectMetaArgs
from pulumi_kubernetes.networking import v1 as net

from gpu_facts.scheduling import (
    ALIYUN_GPU_MEM,
    GPU_NAMESPACE_LABEL,
    MPS_HOST_IPC_ALLOWED,
    MPS_HOST_IPC_LABEL,
    MPS_HOST_IPC_REQUIRED,
    WORKLOAD_TYPE_LABEL,
)
from stack_config.models import Workload
from stack_config.pools import PoolFacts
from stack_config.rules import workload_problems

from .outputs import known_after

PodSecurityLevel = Literal["privileged", "baseline", "restricted"]

PSA_PREFIX = "pod-security.kubernetes.io/"
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
    workload: Workload
    """The validated ``workloads`` entry."""
    pools: Sequence[PoolFacts]
    """The GPU pools the namespace may use (``Platform.workload_pools``)."""
    cluster_gpu_resources: NotRequired[Sequence[str]]
    """Every GPU resource the cluster's pools expose; those the namespace may not use get a
    quota of 0, so it cannot take GPUs from a pool it was not given (a shared pool is one
    trust domain: BP-15)."""


def pod_security_level(workload: Workload, pools: Sequence[PoolFacts]) -> PodSecurityLevel:
    """The PSA ``enforce`` level: configured, else by pool and type."""
    if workload.pod_security is not None:
        return workload.pod_security
    if mps_host_ipc(pools) is not None:
        # Pod Security cannot exempt hostIPC alone; the admission policy keeps the rest of
        # baseline in force in this namespace.
        return "privileged"
    return "restricted" if workload.type == "inference" else "baseline"


def mps_host_ipc(pools: Sequence[PoolFacts]) -> str | None:
    """The MPS exception label value: ``required`` when every gpu-mem pool is MPS (pods
    without hostIPC cannot start), ``allowed`` when only some are, None without MPS."""
    gpu_mem = [pf for pf in pools if ALIYUN_GPU_MEM in pf.capacity.per_node]
    mps = [pf for pf in gpu_mem if pf.is_ack_mps]
    if not mps:
        return None
    return MPS_HOST_IPC_REQUIRED if len(mps) == len(gpu_mem) else MPS_HOST_IPC_ALLOWED


def namespace_labels(workload: Workload, pools: Sequence[PoolFacts]) -> dict[str, str]:
    """Logging labels first, so ours win (the config rules refuse collisions anyway)."""
    labels = dict(workload.logging.labels)
    labels[WORKLOAD_TYPE_LABEL] = workload.type
    labels[GPU_NAMESPACE_LABEL] = "true"
    labels[f"{PSA_PREFIX}enforce"] = pod_security_level(workload, pools)
    for mode in ("warn", "audit"):
        labels[f"{PSA_PREFIX}{mode}"] = "restricted"
    for mode in ("enforce", "warn", "audit"):
        labels[f"{PSA_PREFIX}{mode}-version"] = "latest"
    exception = mps_host_ipc(pools)
    if exception is not None:
        labels[MPS_HOST_IPC_LABEL] = exception
    return labels


def gpu_quota(
    workload: Workload, pools: Sequence[PoolFacts], cluster_gpu_resources: Sequence[str] = ()
) -> dict[str, str]:
    """``requests.<resource>`` quota keys (the only form Kubernetes takes for extended
    resources): the configured number for what the pools expose, 0 for the rest."""
    offered = sorted({r for pf in pools for r in pf.capacity.per_node})
    if isinstance(workload.gpu_quota, int):
        amounts = dict.fromkeys(offered, workload.gpu_quota)
    else:
        # A per-resource map is explicit: resources it does not name get nothing.
        amounts = {r: workload.gpu_quota.get(r, 0) for r in offered}
        amounts.update(workload.gpu_quota)
    for resource in cluster_gpu_resources:
        amounts.setdefault(resource, 0)
    return {f"requests.{r}": str(n) for r, n in sorted(amounts.items())}


def _namespace_peer(namespace: str) -> net.NetworkPolicyPeerArgs:
    return net.NetworkPolicyPeerArgs(
        namespace_selector=LabelSelectorArgs(match_labels={NAMESPACE_NAME_LABEL: namespace})
    )


def allow_policies(workload: Workload) -> dict[str, net.NetworkPolicySpecArgs]:
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
