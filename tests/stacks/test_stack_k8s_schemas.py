"""Every Kubernetes object of our stacks validates against the strict OpenAPI schema of the
lowest Kubernetes version we support (``MIN_KUBERNETES``), via ``tests.k8s_schema``; the
components' objects one by one: tests/components/test_k8s_schemas.py."""

from __future__ import annotations

import pytest

from gpu_platform.offline_preview import ProgramRun, RecordedResource
from tests.conftest import stack_preview
from tests.k8s_schema import assert_valid_manifest, is_kubernetes_object, manifest_of

STACKS = ["existing", "dev", "prod"]
OURS = ("gpu-platform:index:GpuWorkloadNamespace", "gpu-platform:index:GpuAdmissionPolicy")
WORKLOAD_TYPES = {
    "kubernetes:core/v1:Namespace",
    "kubernetes:core/v1:ResourceQuota",
    "kubernetes:core/v1:LimitRange",
    "kubernetes:networking.k8s.io/v1:NetworkPolicy",
    "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy",
    "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding",
}


def stack_run(stack: str) -> ProgramRun:
    """What the stack's program registers (the offline preview's run, shared by all tests)."""
    return stack_preview(stack).run


def from_workload_components(resource: RecordedResource) -> bool:
    """Children of our workload components (their type is in the URN's type chain)."""
    return any(f"{component}$" in resource.urn for component in OURS)


@pytest.mark.parametrize("stack", STACKS)
def test_workload_objects_of_every_stack_are_schema_valid(stack: str) -> None:
    ours = [r for r in stack_run(stack).resources if from_workload_components(r)]
    assert {r.type for r in ours} == WORKLOAD_TYPES
    for resource in ours:
        assert_valid_manifest(manifest_of(resource))


@pytest.mark.parametrize("stack", STACKS)
def test_every_kubernetes_object_of_every_stack_is_schema_valid(stack: str) -> None:
    objects = [r for r in stack_run(stack).resources if is_kubernetes_object(r)]
    assert objects
    for resource in objects:
        assert_valid_manifest(manifest_of(resource))
