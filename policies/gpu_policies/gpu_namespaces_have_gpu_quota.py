"""Every GPU workload namespace has a ResourceQuota on a GPU resource, and on every GPU
DeviceClass its pods claim."""

from __future__ import annotations

from collections import defaultdict

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.dra import device_class_quota_key, quota_key_device_class
from gpu_facts.scheduling import NVIDIA_GPU, is_gpu_resource
from gpu_policy_support.claims import StackClaims, stack_claims
from gpu_policy_support.driver_checks import is_driver_check
from gpu_policy_support.pod_specs import namespace as namespace_of
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.props import mapping, path
from gpu_policy_support.resource_types import RESOURCE_QUOTA
from gpu_policy_support.stack_index import (
    checked_gpu_namespaces,
    index_by_type,
    judged_apart,
    stack_gpu_pods,
    workload_namespace,
)

REQUESTS_PREFIX = "requests."

INFO = PolicyInfo(
    name="gpu-namespaces-have-gpu-quota",
    description=(
        "Every GPU workload namespace (labelled as one, or running the stack's GPU workloads) "
        "has a ResourceQuota whose spec.hard caps a GPU resource "
        f"(requests.{NVIDIA_GPU}, requests.nvidia.com/mig-*, requests.aliyun.com/gpu-mem..., or "
        "a GPU DeviceClass: <class>.deviceclass.resource.k8s.io/devices), so one workload type "
        "cannot take every GPU; and every GPU DeviceClass its pods claim is capped by such a "
        "key (a class without one is uncapped)."
    ),
    practices=("BP-09",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        f"Add a ResourceQuota in the namespace with spec.hard['requests.{NVIDIA_GPU}'] (or the "
        "namespace's MIG / shared resource, or '<class>.deviceclass.resource.k8s.io/devices' "
        "for the DeviceClasses its claims name) set to its share of the GPUs."
    ),
)


def caps_gpu(hard: object, claims: StackClaims | None = None) -> bool:
    """Whether a quota's ``hard`` caps a GPU resource or a GPU DeviceClass."""
    for key in mapping(hard):
        name = str(key)
        if name.startswith(REQUESTS_PREFIX) and is_gpu_resource(name[len(REQUESTS_PREFIX) :]):
            return True
        device_class = quota_key_device_class(name)
        if device_class is not None and claims is not None and claims.gpu_vendor(device_class):
            return True
    return False


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    claims = stack_claims(index)
    covered: set[str] = set()
    capped: dict[str, set[str]] = defaultdict(set)
    for quota in index[RESOURCE_QUOTA]:
        hard = path(quota.props, "spec", "hard")
        namespace = namespace_of(quota.props)
        if caps_gpu(hard, claims):
            covered.add(namespace)
        capped[namespace].update(
            c for key in mapping(hard) if (c := quota_key_device_class(str(key))) is not None
        )

    def namespaces() -> None:
        for name, namespace, why in checked_gpu_namespaces(index, config, claims):
            if name not in covered:
                report(
                    f"GPU workload namespace '{name}' has no ResourceQuota on a GPU resource "
                    f"(spec.hard 'requests.<gpu resource>' or "
                    f"'<class>.deviceclass.resource.k8s.io/devices'){why}.",
                    namespace.urn,
                )

    # Claims: each GPU class a pod claims needs its own key in the pod's namespace. Driver
    # checks (probes of a pool, not a workload) need none, as for the namespace's quota.
    def claimed_classes() -> None:
        for resource, site, demand in stack_gpu_pods(index, config, claims):
            where = workload_namespace(resource)
            if where is None or is_driver_check(resource.resource_type, resource.props):
                continue
            missing = sorted(c for c in demand.classes if c not in capped[where])
            if missing:
                keys = ", ".join(f"'{device_class_quota_key(c)}'" for c in missing)
                report(
                    f"{site.named(resource.name)} {demand.describe()}, but no ResourceQuota of "
                    f"namespace '{where}' caps {', '.join(missing)} (spec.hard {keys}): its "
                    "claims on them are uncapped.",
                    resource.urn,
                    fix=f"Add {keys} to the namespace's ResourceQuota spec.hard, set to its share.",
                )

    judged_apart(namespaces, claimed_classes)


POLICY = stack_policy(INFO, validate)
