"""Every GPU workload namespace has a ResourceQuota on a GPU resource."""

from __future__ import annotations

from gpu_policy_support.pod_specs import namespace as namespace_of
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.props import mapping, path
from gpu_policy_support.resource_types import RESOURCE_QUOTA
from gpu_policy_support.stack_index import checked_gpu_namespaces, index_by_type
from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.scheduling import NVIDIA_GPU, is_gpu_resource

REQUESTS_PREFIX = "requests."

INFO = PolicyInfo(
    name="gpu-namespaces-have-gpu-quota",
    description=(
        "Every GPU workload namespace (labelled as one, or running the stack's GPU workloads) "
        "has a ResourceQuota whose spec.hard caps a GPU resource "
        f"(requests.{NVIDIA_GPU}, requests.nvidia.com/mig-*, requests.aliyun.com/gpu-mem...), "
        "so one workload type cannot take every GPU."
    ),
    practices=("BP-09",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        f"Add a ResourceQuota in the namespace with spec.hard['requests.{NVIDIA_GPU}'] (or the "
        "namespace's MIG / shared resource) set to its share of the GPUs."
    ),
)


def caps_gpu(hard: object) -> bool:
    return any(
        str(key).startswith(REQUESTS_PREFIX) and is_gpu_resource(str(key)[len(REQUESTS_PREFIX) :])
        for key in mapping(hard)
    )


def check(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    covered = {
        namespace_of(q.props)
        for q in index[RESOURCE_QUOTA]
        if caps_gpu(path(q.props, "spec", "hard"))
    }
    for name, namespace, why in checked_gpu_namespaces(index, config):
        if name not in covered:
            report(
                f"GPU workload namespace '{name}' has no ResourceQuota on a GPU resource "
                f"(spec.hard 'requests.<gpu resource>'){why}.",
                namespace.urn,
            )


POLICY = stack_policy(INFO, check)
