"""GpuWorkloadNamespace: one isolated namespace per workload type (BP-07, BP-08, BP-09).

The namespace carries its workload type, Pod Security Admission labels and the label that
puts it under the GPU admission policy. Traffic is denied both ways by default; named
policies open only what the config grants. A ResourceQuota caps the GPU resources the
namespace's pools expose, NVIDIA's or AMD's (and pins every other GPU resource of the cluster,
``amd.com/gpu`` included, at 0), and a LimitRange gives containers without requests defaults
that fit the quota. The LimitRange names no GPU resource, on purpose: a ``max`` without a
``default`` becomes the default limit (Kubernetes ``SetDefaults_LimitRangeItem``), which would
hand every container of the namespace GPUs; GPUs are asked for explicitly (BP-03).

On DRA pools GPUs come through claims: the namespace gets a ResourceClaimTemplate per GPU shape
its pools offer (``plan.dra_claims``: a whole GPU of each family, each MIG profile), its quota
caps every GPU DeviceClass of the cluster (``<class>.deviceclass.resource.k8s.io/devices``, 0 for
the classes its pools do not publish), and a label per class names them for the admission
policy, which refuses claims on any other (an uncapped) class.
"""

from functools import cache
from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_kubernetes.core import v1 as core
from pulumi_kubernetes.meta.v1 import LabelSelectorArgs, ObjectMetaArgs
from pulumi_kubernetes.networking import v1 as net
from pulumi_kubernetes.resource import v1 as dra
from pydantic import TypeAdapter, ValidationError

from gpu_facts.dra import QUOTA_DEVICE_CLASS_LABEL_VALUE, quota_device_class_label
from gpu_facts.name_rules import DNS1123_LABEL
from gpu_facts.network_policy import NAMESPACE_NAME_LABEL
from gpu_platform.plan.dra_claims import (
    ClaimShape,
    claim_quota,
    claim_shapes,
    quota_device_classes,
)
from gpu_platform.plan.namespaces import gpu_quota, namespace_labels, workload_problems
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.settings import WorkloadSettings
from gpu_platform.settings.base import WholeNumber

from .errors import raise_if_any, shape_problems, validation_problems
from .outputs import known_after
from .pool_args import DEFAULT_CLOUD, GpuPoolArgs, validate_gpu_pools_args
from .recorded_inputs import recorded_inputs
from .type_tokens import formerly, type_token

DNS_NAMESPACE = "kube-system"
DENY_ALL_POLICY = "default-deny-all"


def deny_all_spec() -> net.NetworkPolicySpecArgs:
    """The guide's deny-all (BP-08): every pod, both directions, no rules."""
    return net.NetworkPolicySpecArgs(
        pod_selector=LabelSelectorArgs(), policy_types=["Ingress", "Egress"]
    )


class GpuWorkloadComputeQuotaArgs(TypedDict):
    """CPU, memory and pod quota of a GPU workload namespace."""

    cpu: NotRequired[str]
    """Total CPU requests, a Kubernetes quantity (default ``64``)."""
    memory: NotRequired[str]
    """Total memory requests, a Kubernetes quantity (default ``512Gi``)."""
    pods: NotRequired[int]
    """Most pods, at least 1 (default 100)."""


class GpuWorkloadContainerDefaultsArgs(TypedDict):
    """LimitRange defaults for containers that set no requests or limits."""

    cpu: NotRequired[str]
    """Default CPU request and limit (default ``500m``)."""
    memory: NotRequired[str]
    """Default memory request and limit (default ``1Gi``)."""


class GpuWorkloadTrafficArgs(TypedDict):
    """Traffic allowed past the namespace's deny-all NetworkPolicy (BP-08)."""

    dns: NotRequired[bool]
    """Allow DNS egress to kube-system (default true)."""
    egress_cidrs: NotRequired[list[str]]
    """CIDRs pods may reach (a dataset store)."""
    egress_namespaces: NotRequired[list[str]]
    """Namespaces pods may reach."""
    ingress_namespaces: NotRequired[list[str]]
    """Namespaces that may reach the pods (an inference gateway)."""
    same_namespace: NotRequired[bool]
    """Allow traffic between pods of the namespace (distributed training workers; default
    false)."""


class GpuWorkloadLoggingArgs(TypedDict):
    """Labels and annotations the cluster's log and audit pipelines select on."""

    labels: NotRequired[dict[str, str]]
    """Namespace labels the cluster's log pipeline selects on."""
    annotations: NotRequired[dict[str, str]]
    """Namespace annotations for the log/audit pipeline."""


class GpuWorkloadNamespaceArgs(TypedDict):
    """One GPU workload namespace: name, type, GPU quota, the pools it may use, Pod Security,
    compute quota, container defaults, traffic and logging."""

    name: str
    """Namespace name (a DNS label), e.g. ``gpu-training``."""
    type: str
    """``training``, ``inference`` or a custom type; becomes the ``workload`` label."""
    pools: list[GpuPoolArgs]
    """The GPU pools the namespace may use; its GPU quota covers the resources they expose."""
    gpu_quota: NotRequired[int]
    """GPU quota for every GPU resource the pools expose; give this or
    ``gpuQuotaPerResource``."""
    gpu_quota_per_resource: NotRequired[dict[str, int]]
    """GPU quota per resource name (``nvidia.com/gpu``); resources it does not name get 0.
    Give this or ``gpuQuota``."""
    cluster_gpu_resources: NotRequired[list[str]]
    """Every GPU resource the cluster's pools expose; those the namespace may not use get a
    quota of 0, so it cannot take GPUs from a pool it was not given (a shared pool is one
    trust domain: BP-15)."""
    cluster_device_classes: NotRequired[list[str]]
    """Every GPU DeviceClass the cluster's DRA driver ships; those the namespace's DRA pools do
    not publish get a quota of 0 (a class without a quota key would be uncapped)."""
    cloud: NotRequired[str]
    """Cloud of the pools: ``aks``, ``ack`` or ``existing`` (default): decides what a
    pool's ``sharing.mode`` means."""
    pod_security: NotRequired[str]
    """Pod Security ``enforce`` level: ``privileged``, ``baseline`` or ``restricted``; unset:
    restricted for inference, privileged on ACK MPS pools (hostIPC; the admission policy
    enforces the rest of baseline), else baseline."""
    quota: NotRequired[GpuWorkloadComputeQuotaArgs]
    """CPU, memory and pod quota."""
    defaults: NotRequired[GpuWorkloadContainerDefaultsArgs]
    """LimitRange defaults for containers that set none."""
    traffic: NotRequired[GpuWorkloadTrafficArgs]
    """Traffic allowed past the deny-all NetworkPolicy."""
    logging: NotRequired[GpuWorkloadLoggingArgs]
    """Log/audit labels and annotations."""
    local_queue: NotRequired[str]
    """The namespace's Kueue LocalQueue, when its GPU workloads are queued (``GpuQueues``):
    the label ``gpu-platform.io/local-queue`` names it, which the admission policies read."""


QUOTA_ARGS: dict[str, Any] = {
    "gpu_quota": WholeNumber,
    "gpu_quota_per_resource": dict[str, WholeNumber],
}
"""The two quota args and their types (one number, or one per GPU resource)."""


@cache
def _quota_adapter(key: str) -> TypeAdapter[Any]:
    """The validator of the quota arg ``key``, built on first use, not at import."""
    return TypeAdapter(QUOTA_ARGS[key])


def validate_workload_namespace_args(
    name: str, args: GpuWorkloadNamespaceArgs
) -> tuple[WorkloadSettings, list[PoolFacts]]:
    """The args as workload settings and pool facts, or one ``InputPropertiesError`` naming
    every bad property."""
    # A wrong shape (an unknown or missing property) makes the rest meaningless.
    raise_if_any("GpuWorkloadNamespace", name, shape_problems(args, GpuWorkloadNamespaceArgs))
    pools, problems = validate_gpu_pools_args(
        args.get("cloud", DEFAULT_CLOUD), args["pools"], "pools"
    )
    # The settings take one number or a map in ``gpu_quota``: validate the one given here, so
    # a problem names the property the caller set.
    given = [key for key in QUOTA_ARGS if key in args]
    quota: int | dict[str, int] = 0
    if len(given) != 1:
        problems.append(("gpuQuota", "give gpuQuota or gpuQuotaPerResource (exactly one)"))
    else:
        try:
            quota = _quota_adapter(given[0]).validate_python(dict(args)[given[0]])
        except ValidationError as err:
            problems += validation_problems(err, given[0])
    fields = {
        k: v
        for k, v in args.items()
        if k
        not in (
            *QUOTA_ARGS,
            "pools",
            "cluster_gpu_resources",
            "cluster_device_classes",
            "cloud",
            "local_queue",
        )
    }
    workload: WorkloadSettings | None = None
    try:
        workload = WorkloadSettings.model_validate({**fields, "gpu_quota": quota})
    except ValidationError as err:
        problems += validation_problems(err)
    if workload is not None:
        problems += workload_problems(workload, pools)
    local_queue = args.get("local_queue")
    if local_queue is not None and (refusal := DNS1123_LABEL.refusal(local_queue)) is not None:
        problems.append(("localQueue", refusal))
    raise_if_any("GpuWorkloadNamespace", name, problems)
    assert workload is not None
    return workload, pools


def _namespace_peer(namespace: str) -> net.NetworkPolicyPeerArgs:
    return net.NetworkPolicyPeerArgs(
        namespace_selector=LabelSelectorArgs(match_labels={NAMESPACE_NAME_LABEL: namespace})
    )


def dns_egress_rule() -> net.NetworkPolicyEgressRuleArgs:
    """DNS (UDP and TCP 53) to the cluster DNS in kube-system."""
    return net.NetworkPolicyEgressRuleArgs(
        to=[_namespace_peer(DNS_NAMESPACE)],
        ports=[
            net.NetworkPolicyPortArgs(protocol=protocol, port=53) for protocol in ("UDP", "TCP")
        ],
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
            egress=[dns_egress_rule()],
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


def claim_template_spec(shape: ClaimShape) -> dra.ResourceClaimTemplateSpecArgs:
    """One device of the shape's class, picked by its selector."""
    request = dra.ExactDeviceRequestArgs(
        device_class_name=shape.device_class,
        allocation_mode="ExactCount",
        count=1,
        selectors=[
            dra.DeviceSelectorArgs(cel=dra.CELDeviceSelectorArgs(expression=shape.selector))
        ],
    )
    return dra.ResourceClaimTemplateSpecArgs(
        spec=dra.ResourceClaimSpecArgs(
            devices=dra.DeviceClaimArgs(
                requests=[dra.DeviceRequestArgs(name=shape.request, exactly=request)]
            )
        )
    )


class GpuWorkloadNamespace(pulumi.ComponentResource):
    """A GPU workload namespace: labels, deny-all traffic, GPU quota and container defaults."""

    namespace: pulumi.Output[str]
    """Name of the namespace."""
    gpu_quota: pulumi.Output[dict[str, str]]
    """The ResourceQuota's ``hard`` limits."""
    network_policies: pulumi.Output[list[str]]
    """Names of the NetworkPolicies, deny-all first."""
    claim_templates: pulumi.Output[list[str]]
    """Names of the ResourceClaimTemplates (one per GPU shape of its DRA pools)."""

    def __init__(
        self, name: str, args: GpuWorkloadNamespaceArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        # Validate before registering anything: bad input changes nothing.
        workload, pools = validate_workload_namespace_args(name, args)
        claims_hard = claim_quota(workload, pools, args.get("cluster_device_classes", ()))
        labels = namespace_labels(workload, pools, args.get("local_queue"))
        for device_class in quota_device_classes(claims_hard):
            labels[quota_device_class_label(device_class)] = QUOTA_DEVICE_CLASS_LABEL_VALUE
        super().__init__(
            type_token("GpuWorkloadNamespace"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:workloads:GpuWorkloadNamespace", opts),
        )
        ns = core.Namespace(
            f"{name}-namespace",
            metadata=ObjectMetaArgs(
                name=workload.name,
                labels=labels,
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
            **claims_hard,
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

        shapes = claim_shapes(pools)
        for shape in shapes:
            dra.ResourceClaimTemplate(
                f"{name}-claim-{shape.name}",
                metadata=meta(shape.name),
                spec=claim_template_spec(shape),
                opts=child,
            )

        self.namespace = known_after(workload.name, ns)
        self.gpu_quota = pulumi.Output.from_input(hard)
        self.network_policies = pulumi.Output.from_input(list(policies))
        self.claim_templates = pulumi.Output.from_input([shape.name for shape in shapes])
        self.register_outputs(
            {
                "namespace": self.namespace,
                "gpuQuota": self.gpu_quota,
                "networkPolicies": self.network_policies,
                "claimTemplates": self.claim_templates,
            }
        )
