"""Every Kubernetes object we create validates against the strict OpenAPI schema of the
lowest Kubernetes version we support (``MIN_KUBERNETES``), via ``tests.k8s_schema`` (our
stacks' objects: tests/stacks/test_stack_k8s_schemas.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gpu_facts.dra import DRA_GA_MINOR, NVIDIA_DRA_DRIVER
from gpu_platform.components.gpu_admission_policy import GpuAdmissionPolicy
from gpu_platform.components.gpu_workload_namespace import GpuWorkloadNamespace
from gpu_platform.offline_preview import RecordedResource
from gpu_platform.settings import MIN_KUBERNETES, WorkloadSettings
from tests.components.incluster_args import namespace_args
from tests.components.test_gpu_admission_policy import CASES, KINDS
from tests.components.test_gpu_workload_namespace import (
    A100_DRA_MIG,
    ACK_CGPU,
    ACK_MPS,
    H100_DRA,
    MIG_MIXED,
    SHARED,
    ack_pool,
)
from tests.conftest import run
from tests.k8s_schema import assert_valid_manifest, is_kubernetes_object, manifest_of

DRA_GA = "{}.{}".format(*DRA_GA_MINOR)


ACK_WHOLE = ack_pool(name="a10", instanceType="ecs.gn7i-c8g1.2xlarge", count=2)
"""An ACK pool of whole GPUs (``nvidia.com/gpu``), beside the ACK-shared ones."""


def test_every_namespace_option_is_schema_valid() -> None:
    full = WorkloadSettings.model_validate(
        {
            "name": "gpu-mps",
            "type": "inference",
            "gpuQuota": {"aliyun.com/gpu-mem": 48, "nvidia.com/gpu": 2},
            "pools": ["mps", "cgpu", "a10"],
            "traffic": {
                "egressCidrs": ["10.20.0.0/16", "2001:db8::/64"],
                "egressNamespaces": ["datasets"],
                "ingressNamespaces": ["gateway"],
                "sameNamespace": True,
            },
            "logging": {
                "labels": {"logging.example.com/pipeline": "gpu", "team": ""},
                "annotations": {"fluentbit.io/parser": "json with spaces"},
            },
        }
    )

    def program() -> None:
        GpuWorkloadNamespace(
            "ns",
            namespace_args(
                full,
                [ACK_MPS, ACK_CGPU, ACK_WHOLE],
                ["nvidia.com/mig-1g.5gb", "nvidia.com/gpu.shared"],
                cloud="ack",
            ),
        )
        GpuWorkloadNamespace(
            "plain",
            namespace_args(full.model_copy(update={"name": "x"}), [MIG_MIXED, SHARED]),
        )
        for action in ("Deny", "Warn", "Audit"):
            GpuAdmissionPolicy(
                action.lower(), {"action": action, "policy_name": f"gpu-{action.lower()}"}
            )

    objects = [r for r in run(program).resources if is_kubernetes_object(r)]
    # Two namespaces of 9 objects, three admission components of two policies and bindings.
    assert len(objects) == 2 * 9 + 3 * 4
    for resource in objects:
        assert_valid_manifest(manifest_of(resource))


def test_a_dra_namespace_is_schema_valid_where_dra_is_served() -> None:
    """A namespace on DRA pools (claim templates, quotas on device classes) against the schema
    of the first Kubernetes that serves resource.k8s.io/v1."""
    args = namespace_args(
        WorkloadSettings.model_validate({"name": "gpu-dra", "type": "training", "gpuQuota": 4}),
        [H100_DRA, A100_DRA_MIG],
    )
    args["cluster_device_classes"] = list(NVIDIA_DRA_DRIVER.device_classes)
    objects = [
        r
        for r in run(lambda: GpuWorkloadNamespace("dra", args)).resources
        if is_kubernetes_object(r)
    ]
    assert {r.type for r in objects} >= {"kubernetes:resource.k8s.io/v1:ResourceClaimTemplate"}
    for resource in objects:
        assert_valid_manifest(manifest_of(resource), version=DRA_GA)


@pytest.mark.parametrize("kind", list(KINDS))
def test_admission_test_objects_are_real_kubernetes_objects(kind: str) -> None:
    """The CEL suite's fixtures are objects the API server would accept, not free-form dicts."""
    for case in CASES:
        manifest = KINDS[kind](copy.deepcopy(case.spec))
        manifest.setdefault("metadata", {"name": f"case-{case.id}"})
        # Pods with claims: the shape of resource.k8s.io/v1, served from DRA's GA.
        claims = "resourceClaims" in case.spec
        assert_valid_manifest(manifest, version=DRA_GA if claims else MIN_KUBERNETES)


# --- The helper itself -----------------------------------------------------------------------

DENY_ALL: dict[str, Any] = {
    "apiVersion": "networking.k8s.io/v1",
    "kind": "NetworkPolicy",
    "metadata": {"name": "default-deny-all", "namespace": "gpu-training"},
    "spec": {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]},
}


def test_helper_accepts_a_valid_manifest() -> None:
    assert_valid_manifest(DENY_ALL)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda m: m["spec"].update(podSelectors={}), "podSelectors"),
        (lambda m: m["spec"].update(policyTypes="Ingress"), "spec.policyTypes"),
        (lambda m: m["spec"].pop("podSelector"), "podSelector"),
        (lambda m: m["metadata"].update(labels={"a": 1}), "metadata.labels.a"),
    ],
    ids=["unknown-field", "wrong-type", "missing-required", "label-not-a-string"],
)
def test_helper_refuses_invalid_manifests(change: Any, fragment: str) -> None:
    manifest = copy.deepcopy(DENY_ALL)
    change(manifest)
    with pytest.raises(AssertionError, match=fragment):
        assert_valid_manifest(manifest)


def test_helper_uses_the_version_it_is_given() -> None:
    policy = manifest_of(
        next(
            r
            for r in run(lambda: GpuAdmissionPolicy("gpu", {})).resources
            if r.type.endswith(":ValidatingAdmissionPolicy")
        )
    )
    assert MIN_KUBERNETES == "1.30"
    assert_valid_manifest(policy)
    # admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy is new in 1.30.
    with pytest.raises(AssertionError, match="no schema for ValidatingAdmissionPolicy"):
        assert_valid_manifest(policy, version="1.29")


def test_manifest_of_turns_engine_doubles_back_into_integers() -> None:
    resource = RecordedResource(
        urn="urn:pulumi:test::p::kubernetes:networking.k8s.io/v1:NetworkPolicy::np",
        type="kubernetes:networking.k8s.io/v1:NetworkPolicy",
        name="np",
        custom=True,
        parent=None,
        inputs={
            "metadata": {"name": "np"},
            "spec": {"podSelector": {}, "egress": [{"ports": [{"port": 53.0}]}]},
        },
    )
    assert manifest_of(resource) == {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": "np"},
        "spec": {"podSelector": {}, "egress": [{"ports": [{"port": 53}]}]},
    }
