"""The in-cluster GPU admission policy: its shape, and its CEL evaluated for real.

The variables and validations are taken from the ValidatingAdmissionPolicy as the mock
engine recorded it and evaluated with cel-python (``celpy``) the way the API server does:
variables in order under ``variables``, then every validation, with ``object`` the admitted
object and ``namespaceObject`` its namespace. Every case runs for every kind that carries a
pod spec (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import celpy
import pulumi
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpu_facts.dra import quota_device_class_label
from gpu_facts.kueue import QUEUE_NAME_LABEL, QUEUE_NAMESPACE_LABEL
from gpu_facts.scheduling import GPU_NAMESPACE_LABEL, MPS_HOST_IPC_LABEL, is_gpu_resource
from gpu_platform.components.gpu_admission_cel import (
    CLAIM_VALIDATIONS,
    CLAIM_VARIABLES,
    VALIDATIONS,
    VARIABLES,
    is_gpu_resource_cel,
)
from gpu_platform.components.gpu_admission_policy import GpuAdmissionPolicy
from gpu_platform.components.gpu_workload_namespace import GpuWorkloadNamespace
from gpu_platform.offline_preview import ProgramRun
from gpu_platform.offline_preview.engine import PreviewMocks, RecordedResource, RecordingMonitor
from gpu_platform.settings import WorkloadSettings
from tests.components.cel_policy import CompiledPolicy, Program, compile_policy
from tests.components.cel_policy import failed_messages as evaluate
from tests.components.incluster_args import namespace_args
from tests.components.input_errors import paths
from tests.components.test_gpu_workload_namespace import ACK_MPS, PLAIN
from tests.conftest import by_type, one, run

POLICY = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"
BINDING = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"
COMPONENT = "gpu-platform:index:GpuAdmissionPolicy"

# --- A CEL evaluator over the recorded policy ----------------------------------------------


def named(result: ProgramRun, type_: str, name: str) -> RecordedResource:
    (found,) = [r for r in by_type(result, type_) if r.name == name]
    return found


@cache
def recorded_policy(which: str = "gpu-policy") -> dict[str, Any]:
    """The pod policy (``gpu-policy``) or the claims policy (``gpu-claims-policy``) as
    recorded."""
    return named(run(lambda: GpuAdmissionPolicy("gpu", {})), POLICY, which).inputs


@cache
def compiled_policy(which: str = "gpu-policy") -> CompiledPolicy:
    return compile_policy(recorded_policy(which)["spec"])


def failed_messages(
    obj: dict[str, Any], namespace: dict[str, Any], which: str = "gpu-policy"
) -> list[str]:
    """Messages of the validations ``obj`` fails; a CEL error fails the test outright."""
    return evaluate(compiled_policy(which), obj, namespace)


MESSAGE = {v.key: v.message for v in VALIDATIONS}

# --- Objects of every kind -----------------------------------------------------------------


def _template(spec: dict[str, Any]) -> dict[str, Any]:
    return {"metadata": {"labels": {"app": "gpu"}}, "spec": spec}


def _selector() -> dict[str, Any]:
    return {"matchLabels": {"app": "gpu"}}


KINDS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "Pod": lambda spec: {"apiVersion": "v1", "kind": "Pod", "spec": spec},
    "Deployment": lambda spec: {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "spec": {"replicas": 1, "selector": _selector(), "template": _template(spec)},
    },
    "StatefulSet": lambda spec: {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "spec": {"serviceName": "gpu", "selector": _selector(), "template": _template(spec)},
    },
    "DaemonSet": lambda spec: {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "spec": {"selector": _selector(), "template": _template(spec)},
    },
    "ReplicaSet": lambda spec: {
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "spec": {"replicas": 2, "selector": _selector(), "template": _template(spec)},
    },
    "Job": lambda spec: {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "spec": {"backoffLimit": 0, "template": _template(spec)},
    },
    "CronJob": lambda spec: {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": _template(spec)}}},
    },
}


def namespace(mps: str | None = None) -> dict[str, Any]:
    labels = {"kubernetes.io/metadata.name": "gpu-training", GPU_NAMESPACE_LABEL: "true"}
    if mps is not None:
        labels[MPS_HOST_IPC_LABEL] = mps
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": "gpu-training", "labels": labels},
    }


CUDA = "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04"
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
AMD_TOLERATION = {"key": "amd.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
ROCM = "docker.io/rocm/dev-ubuntu-22.04:6.4.1"


def amd_pod(resource: str = "amd.com/gpu", amount: Any = "1") -> dict[str, Any]:
    """A compliant AMD GPU pod spec: tolerates AMD's taint, the GPU as a limit."""
    spec = gpu_pod(resource, amount)
    c0(spec)["image"] = ROCM
    spec["tolerations"] = [AMD_TOLERATION]
    return spec


def gpu_pod(resource: str = "nvidia.com/gpu", amount: Any = "1") -> dict[str, Any]:
    """A compliant GPU pod spec: tolerates the taint, GPU as a limit, pinned CUDA image."""
    return {
        "containers": [
            {
                "name": "train",
                "image": CUDA,
                "resources": {"limits": {resource: amount, "cpu": "4"}},
            }
        ],
        "tolerations": [GPU_TOLERATION],
    }


def cpu_pod() -> dict[str, Any]:
    return {"containers": [{"name": "web", "image": "nginx:1.27"}]}


@dataclass
class Case:
    id: str
    spec: dict[str, Any]
    fails: list[str] = field(default_factory=list)
    """Keys of the validations that must fail (none: the object is admitted)."""
    mps: str | None = None
    """The namespace's MPS exception label value."""


def edit(base: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    spec = copy.deepcopy(base)
    change(spec)
    return spec


def c0(spec: dict[str, Any]) -> dict[str, Any]:
    return spec["containers"][0]


def limits(spec: dict[str, Any]) -> dict[str, Any]:
    return c0(spec)["resources"]["limits"]


DIGEST = "sha256:" + "a" * 64
GPU_MEM = "aliyun.com/gpu-mem"

CASES: list[Case] = [
    # --- admitted ---
    Case("gpu-pod", gpu_pod()),
    Case("cpu-pod-needs-nothing", cpu_pod()),
    Case("mig-pod", gpu_pod("nvidia.com/mig-1g.5gb")),
    Case("shared-pod", gpu_pod("nvidia.com/gpu.shared")),
    Case("integer-limit", gpu_pod(amount=2)),
    Case(
        "request-equals-limit",
        edit(
            gpu_pod(),
            lambda s: c0(s)["resources"].update(requests={"nvidia.com/gpu": "1", "cpu": "1"}),
        ),
    ),
    Case(
        "wildcard-toleration",
        edit(gpu_pod(), lambda s: s.update(tolerations=[{"operator": "Exists"}])),
    ),
    Case(
        "equal-toleration",
        edit(
            gpu_pod(),
            lambda s: s.update(
                tolerations=[
                    {
                        "key": "nvidia.com/gpu",
                        "operator": "Equal",
                        "value": "present",
                        "effect": "NoSchedule",
                    }
                ]
            ),
        ),
    ),
    Case(
        "toleration-without-effect",
        edit(
            gpu_pod(),
            lambda s: s.update(tolerations=[{"key": "nvidia.com/gpu", "operator": "Exists"}]),
        ),
    ),
    Case("cuda-digest", edit(gpu_pod(), lambda s: c0(s).update(image=f"nvidia/cuda@{DIGEST}"))),
    Case(
        "cuda-registry-port",
        edit(
            gpu_pod(),
            lambda s: c0(s).update(image="registry.local:5000/nvidia/cuda:12.1.1-base-ubuntu22.04"),
        ),
    ),
    Case(
        "not-a-cuda-image",
        edit(gpu_pod(), lambda s: c0(s).update(image="example.com/cuda-tools:latest")),
    ),
    Case(
        "privileged-cpu-container",
        edit(
            gpu_pod(),
            lambda s: s["containers"].append(
                {"name": "side", "image": "busybox:1.36", "securityContext": {"privileged": True}}
            ),
        ),
    ),
    Case(
        "privileged-false",
        edit(gpu_pod(), lambda s: c0(s).update(securityContext={"privileged": False})),
    ),
    Case("host-ipc-false", edit(cpu_pod(), lambda s: s.update(hostIPC=False))),
    Case(
        "other-env",
        edit(
            gpu_pod(), lambda s: c0(s).update(env=[{"name": "CUDA_VISIBLE_DEVICES", "value": "0"}])
        ),
    ),
    Case("mps-pod", edit(gpu_pod(GPU_MEM, "8"), lambda s: s.update(hostIPC=True)), mps="required"),
    Case("mps-allowed-without-host-ipc", gpu_pod(GPU_MEM, "8"), mps="allowed"),
    Case(
        "mps-allowed-with-host-ipc",
        edit(gpu_pod(GPU_MEM, "8"), lambda s: s.update(hostIPC=True)),
        mps="allowed",
    ),
    Case(
        "mps-namespace-baseline-capability",
        edit(
            edit(gpu_pod(GPU_MEM, "8"), lambda s: s.update(hostIPC=True)),
            lambda s: c0(s).update(
                securityContext={"capabilities": {"add": ["NET_BIND_SERVICE"], "drop": ["ALL"]}}
            ),
        ),
        mps="required",
    ),
    Case("mps-namespace-cpu-pod", cpu_pod(), mps="required"),
    Case("amd-pod", amd_pod()),
    Case("amd-partition-pod", amd_pod("amd.com/cpx_nps4", "2")),
    # --- refused ---
    Case("no-toleration", edit(gpu_pod(), lambda s: s.pop("tolerations")), ["gpu-toleration"]),
    Case(
        "amd-pod-tolerating-nvidia",
        edit(amd_pod(), lambda s: s.update(tolerations=[GPU_TOLERATION])),
        ["amd-gpu-toleration"],
    ),
    Case(
        "amd-partition-no-toleration",
        edit(amd_pod("amd.com/cpx_nps4"), lambda s: s.pop("tolerations")),
        ["amd-gpu-toleration"],
    ),
    Case(
        "amd-fraction",
        edit(amd_pod(), lambda s: limits(s).update({"amd.com/gpu": "0.5"})),
        ["gpu-whole-number"],
    ),
    Case(
        "mig-no-toleration",
        edit(gpu_pod("nvidia.com/mig-3g.20gb"), lambda s: s.pop("tolerations")),
        ["gpu-toleration"],
    ),
    Case(
        "gpu-mem-no-toleration",
        edit(gpu_pod(GPU_MEM, "8"), lambda s: s.pop("tolerations")),
        ["gpu-toleration"],
    ),
    Case(
        "wrong-toleration-key",
        edit(
            gpu_pod(),
            lambda s: s.update(
                tolerations=[{"key": "sku", "operator": "Exists", "effect": "NoSchedule"}]
            ),
        ),
        ["gpu-toleration"],
    ),
    Case(
        "wrong-toleration-value",
        edit(
            gpu_pod(),
            lambda s: s.update(
                tolerations=[{"key": "nvidia.com/gpu", "value": "true", "effect": "NoSchedule"}]
            ),
        ),
        ["gpu-toleration"],
    ),
    Case(
        "wrong-toleration-effect",
        edit(
            gpu_pod(),
            lambda s: s.update(
                tolerations=[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute"}]
            ),
        ),
        ["gpu-toleration"],
    ),
    Case(
        "request-without-limit",
        edit(gpu_pod(), lambda s: c0(s).update(resources={"requests": {"nvidia.com/gpu": "1"}})),
        ["gpu-limit"],
    ),
    Case(
        "request-differs",
        edit(
            gpu_pod("nvidia.com/gpu.shared"),
            lambda s: c0(s)["resources"].update(requests={"nvidia.com/gpu.shared": "2"}),
        ),
        ["gpu-limit"],
    ),
    Case(
        "fraction",
        edit(gpu_pod(), lambda s: limits(s).update({"nvidia.com/gpu": "0.5"})),
        ["gpu-whole-number"],
    ),
    Case(
        "millis",
        edit(
            gpu_pod("nvidia.com/mig-1g.5gb"),
            lambda s: limits(s).update({"nvidia.com/mig-1g.5gb": "500m"}),
        ),
        ["gpu-whole-number"],
    ),
    Case(
        "init-container-request-only",
        edit(
            gpu_pod(),
            lambda s: s.update(
                initContainers=[
                    {
                        "name": "warm",
                        "image": CUDA,
                        "resources": {"requests": {"nvidia.com/gpu": "1"}},
                    }
                ]
            ),
        ),
        ["gpu-limit"],
    ),
    Case(
        "visible-devices",
        edit(
            gpu_pod(),
            lambda s: c0(s).update(env=[{"name": "NVIDIA_VISIBLE_DEVICES", "value": "all"}]),
        ),
        ["no-visible-devices-env"],
    ),
    Case(
        "visible-devices-cpu-container",
        edit(
            cpu_pod(),
            lambda s: c0(s).update(env=[{"name": "NVIDIA_VISIBLE_DEVICES", "value": "0"}]),
        ),
        ["no-visible-devices-env"],
    ),
    Case(
        "privileged-gpu",
        edit(gpu_pod(), lambda s: c0(s).update(securityContext={"privileged": True})),
        ["no-privileged-gpu"],
    ),
    Case(
        "cuda-latest",
        edit(gpu_pod(), lambda s: c0(s).update(image="nvidia/cuda:latest")),
        ["cuda-image-pinned"],
    ),
    Case(
        "cuda-untagged",
        edit(gpu_pod(), lambda s: c0(s).update(image="nvcr.io/nvidia/cuda")),
        ["cuda-image-pinned"],
    ),
    Case(
        "cuda-latest-init",
        edit(gpu_pod(), lambda s: s.update(initContainers=[{"name": "i", "image": "cuda"}])),
        ["cuda-image-pinned"],
    ),
    Case("host-ipc", edit(gpu_pod(), lambda s: s.update(hostIPC=True)), ["host-ipc-mps-only"]),
    Case(
        "host-ipc-gpu-mem-without-exception",
        edit(gpu_pod(GPU_MEM, "8"), lambda s: s.update(hostIPC=True)),
        ["host-ipc-mps-only"],
    ),
    Case(
        "host-ipc-without-gpu-mem-in-mps-namespace",
        edit(cpu_pod(), lambda s: s.update(hostIPC=True)),
        ["host-ipc-mps-only"],
        mps="required",
    ),
    Case("mps-without-host-ipc", gpu_pod(GPU_MEM, "8"), ["host-ipc-mps-required"], mps="required"),
    Case(
        "mps-host-network",
        edit(cpu_pod(), lambda s: s.update(hostNetwork=True)),
        ["mps-namespace-host-namespaces"],
        mps="required",
    ),
    Case(
        "mps-host-pid",
        edit(cpu_pod(), lambda s: s.update(hostPID=True)),
        ["mps-namespace-host-namespaces"],
        mps="allowed",
    ),
    Case(
        "mps-privileged-cpu-container",
        edit(cpu_pod(), lambda s: c0(s).update(securityContext={"privileged": True})),
        ["mps-namespace-containers"],
        mps="required",
    ),
    Case(
        "mps-sys-admin",
        edit(
            cpu_pod(),
            lambda s: c0(s).update(securityContext={"capabilities": {"add": ["SYS_ADMIN"]}}),
        ),
        ["mps-namespace-containers"],
        mps="required",
    ),
    Case(
        "mps-host-path",
        edit(cpu_pod(), lambda s: s.update(volumes=[{"name": "h", "hostPath": {"path": "/"}}])),
        ["mps-namespace-host-access"],
        mps="required",
    ),
    Case(
        "mps-host-port",
        edit(cpu_pod(), lambda s: c0(s).update(ports=[{"containerPort": 80, "hostPort": 8080}])),
        ["mps-namespace-host-access"],
        mps="required",
    ),
    Case(
        "everything-wrong",
        edit(
            gpu_pod(),
            lambda s: (
                s.pop("tolerations"),
                s.update(hostIPC=True),
                c0(s).update(
                    image="nvidia/cuda:latest",
                    securityContext={"privileged": True},
                    env=[{"name": "NVIDIA_VISIBLE_DEVICES", "value": "all"}],
                ),
                limits(s).update({"nvidia.com/gpu": "1.5"}),
            ),
        ),
        [
            "gpu-toleration",
            "gpu-whole-number",
            "no-visible-devices-env",
            "no-privileged-gpu",
            "cuda-image-pinned",
            "host-ipc-mps-only",
        ],
    ),
]


def claim_pod() -> dict[str, Any]:
    """A compliant pod that gets its GPU through a claim (DRA): the namespace's template, no
    GPU resource, the GPU taint tolerated."""
    return {
        "containers": [
            {"name": "train", "image": CUDA, "resources": {"claims": [{"name": "gpu"}]}}
        ],
        "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "gpu-h100"}],
        "tolerations": [GPU_TOLERATION],
    }


def visible_devices(value: str) -> Callable[[dict[str, Any]], Any]:
    return lambda s: c0(s).update(env=[{"name": "NVIDIA_VISIBLE_DEVICES", "value": value}])


CASES += [
    Case("claim-pod", claim_pod()),
    Case(
        "claim-by-name",
        edit(
            claim_pod(),
            lambda s: s.update(
                resourceClaims=[{"name": "gpu", "resourceClaimName": "shared-h100"}]
            ),
        ),
    ),
    Case(
        "claim-pod-without-toleration",
        edit(claim_pod(), lambda s: s.pop("tolerations")),
        ["gpu-toleration"],
    ),
    Case(
        "privileged-claim-container",
        edit(claim_pod(), lambda s: c0(s).update(securityContext={"privileged": True})),
        ["no-privileged-gpu"],
    ),
    # Values that expose no GPU (the DRA driver's own pods set void) are no violation.
    Case("visible-devices-void", edit(gpu_pod(), visible_devices("void"))),
    Case("visible-devices-none", edit(gpu_pod(), visible_devices("none"))),
    Case("visible-devices-empty", edit(cpu_pod(), visible_devices(""))),
    Case("visible-devices-void-in-a-list", edit(gpu_pod(), visible_devices("0,void"))),
    Case(
        "visible-devices-one-gpu", edit(cpu_pod(), visible_devices("0")), ["no-visible-devices-env"]
    ),
    Case(
        "visible-devices-from-a-config-map",
        edit(
            cpu_pod(),
            lambda s: c0(s).update(
                env=[
                    {
                        "name": "NVIDIA_VISIBLE_DEVICES",
                        "valueFrom": {"configMapKeyRef": {"name": "gpus", "key": "ids"}},
                    }
                ]
            ),
        ),
        ["no-visible-devices-env"],
    ),
    Case(
        "implicit-device-class-resource",
        edit(
            cpu_pod(),
            lambda s: c0(s).update(
                resources={"limits": {"deviceclass.resource.kubernetes.io/gpu.nvidia.com": "1"}}
            ),
        ),
        ["no-implicit-device-class-resource"],
    ),
]


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_cel_for_every_kind(case: Case, kind: str) -> None:
    obj = KINDS[kind](copy.deepcopy(case.spec))
    failed = failed_messages(obj, namespace(case.mps))
    assert failed == [MESSAGE[key] for key in MESSAGE if key in case.fails]


# --- Ephemeral containers (``kubectl debug``): Pods only, through pods/ephemeralcontainers ---

DEBUGGER = {"name": "debugger", "image": "busybox:1.36", "targetContainerName": "train"}


def debugged(spec: dict[str, Any], **debugger: Any) -> dict[str, Any]:
    """``spec`` with a debug container added, as ``kubectl debug`` does to a running pod."""
    return edit(spec, lambda s: s.update(ephemeralContainers=[{**DEBUGGER, **debugger}]))


EPHEMERAL_CASES: list[Case] = [
    Case("debugger-admitted", debugged(gpu_pod())),
    Case(
        "debugger-sets-visible-devices",
        debugged(gpu_pod(), env=[{"name": "NVIDIA_VISIBLE_DEVICES", "value": "all"}]),
        ["no-visible-devices-env"],
    ),
    Case(
        "debugger-runs-cuda-latest",
        debugged(gpu_pod(), image="nvidia/cuda:latest"),
        ["cuda-image-pinned"],
    ),
    Case(
        "privileged-debugger-in-mps-namespace",
        debugged(
            edit(gpu_pod(GPU_MEM, "8"), lambda s: s.update(hostIPC=True)),
            securityContext={"privileged": True},
        ),
        ["mps-namespace-containers"],
        mps="required",
    ),
]


@pytest.mark.parametrize("case", EPHEMERAL_CASES, ids=[c.id for c in EPHEMERAL_CASES])
def test_cel_sees_ephemeral_containers(case: Case) -> None:
    failed = failed_messages(KINDS["Pod"](copy.deepcopy(case.spec)), namespace(case.mps))
    assert failed == [MESSAGE[key] for key in MESSAGE if key in case.fails]


def test_every_validation_is_tested_both_ways() -> None:
    refused = {key for case in CASES for key in case.fails}
    assert refused == set(MESSAGE), "a validation without a refused case"
    admitted = [case for case in CASES if not case.fails]
    # Each validation is also seen passing on objects it looks at (GPU, MPS, CUDA images).
    assert {c.id for c in admitted} >= {
        "gpu-pod",
        "mps-pod",
        "cuda-digest",
        "mps-namespace-cpu-pod",
        "claim-pod",
        "visible-devices-void",
    }


def test_recorded_cel_is_the_cel_under_test() -> None:
    spec = recorded_policy()["spec"]
    assert [(v["name"], v["expression"]) for v in spec["variables"]] == [
        (v.name, v.expression) for v in VARIABLES
    ]
    assert [(v["expression"], v["message"]) for v in spec["validations"]] == [
        (v.expression, v.message) for v in VALIDATIONS
    ]
    # The API server refuses messages with line breaks.
    assert all("\n" not in v.message for v in VALIDATIONS)


# --- The GPU resource predicate agrees with the GPU facts -----------------------------------

RESOURCE_NAMES = st.one_of(
    st.sampled_from(
        [
            "nvidia.com/gpu",
            "nvidia.com/gpu.shared",
            "nvidia.com/mig-1g.5gb",
            "nvidia.com/mig-3g.20gb.shared",
            "aliyun.com/gpu-mem",
            "aliyun.com/gpu-count",
            "amd.com/gpu",
            "amd.com/cpx_nps4",
            "amd.com/spx_nps1",
            "amd.com/nic",
            "amd.com/cpx_nps8",
            "cpu",
            "memory",
            "ephemeral-storage",
            "example.com/foo.shared",
            "nvidia.com/gpux",
        ]
    ),
    st.from_regex(r"\A(nvidia\.com|aliyun\.com|amd\.com|example\.com)/[a-z0-9.\-_]{1,20}\Z"),
)


@cache
def _gpu_predicate() -> Program:
    return Program(celpy.Environment(), is_gpu_resource_cel("r"))


@given(RESOURCE_NAMES)
def test_cel_gpu_resource_predicate_matches_gpu_facts(name: str) -> None:
    result = _gpu_predicate().evaluate({"r": celpy.celtypes.StringType(name)})
    assert bool(result) == is_gpu_resource(name)


# --- Policy and binding shape (BP-04) -------------------------------------------------------


def policy_run(action: str | None = None) -> ProgramRun:
    args: dict[str, Any] = {} if action is None else {"action": action}
    return run(lambda: GpuAdmissionPolicy("gpu", args))  # type: ignore[arg-type]


def test_policy_matches_pods_and_templates_in_gpu_namespaces() -> None:
    spec = recorded_policy()["spec"]
    assert recorded_policy()["metadata"] == {"name": "gpu-platform-gpu-workloads"}
    assert spec["failurePolicy"] == "Fail"
    assert spec["matchConstraints"] == {
        "namespaceSelector": {"matchLabels": {GPU_NAMESPACE_LABEL: "true"}},
        "resourceRules": [
            {
                "apiGroups": [""],
                "apiVersions": ["v1"],
                # kubectl debug adds ephemeral containers through this subresource.
                "resources": ["pods", "pods/ephemeralcontainers"],
                "operations": ["CREATE", "UPDATE"],
            },
            {
                "apiGroups": ["apps"],
                "apiVersions": ["v1"],
                "resources": ["deployments", "statefulsets", "daemonsets", "replicasets"],
                "operations": ["CREATE", "UPDATE"],
            },
            {
                "apiGroups": ["batch"],
                "apiVersions": ["v1"],
                "resources": ["jobs", "cronjobs"],
                "operations": ["CREATE", "UPDATE"],
            },
        ],
    }


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (None, ["Deny", "Audit"]),
        ("Deny", ["Deny", "Audit"]),
        ("Warn", ["Warn", "Audit"]),
        ("Audit", ["Audit"]),
    ],
)
def test_binding_action(action: str | None, expected: list[str]) -> None:
    result = policy_run(action)
    binding = named(result, BINDING, "gpu-binding").inputs
    assert binding["metadata"] == {"name": "gpu-platform-gpu-workloads"}
    assert binding["spec"] == {
        "policyName": "gpu-platform-gpu-workloads",
        "validationActions": expected,
        "matchResources": {"namespaceSelector": {"matchLabels": {GPU_NAMESPACE_LABEL: "true"}}},
    }
    # Kubernetes refuses Deny together with Warn.
    assert not {"Deny", "Warn"} <= set(binding["spec"]["validationActions"])
    claims = named(result, BINDING, "gpu-claims-binding").inputs
    assert claims["spec"] == {
        **binding["spec"],
        "policyName": "gpu-platform-gpu-workloads-claims",
    }
    # The bindings name the policies through their outputs: created after them.
    component = one(result, COMPONENT)
    for policy, bound in (
        ("gpu-policy", "gpu-binding"),
        ("gpu-claims-policy", "gpu-claims-binding"),
    ):
        assert named(result, POLICY, policy).urn in named(result, BINDING, bound).dependencies
        assert named(result, POLICY, policy).parent == component.urn
        assert named(result, BINDING, bound).parent == component.urn
    assert {r.name for r in result.resources} == {
        "gpu",
        "gpu-policy",
        "gpu-binding",
        "gpu-claims-policy",
        "gpu-claims-binding",
    }


def test_unknown_action_is_refused_before_anything_is_registered() -> None:
    errors: list[str] = []

    def program() -> None:
        try:
            GpuAdmissionPolicy("gpu", {"action": "Block"})
        except pulumi.InputPropertiesError as err:
            errors.append(err.message)
            assert paths(err) == ["action"]

    assert run(program).resources == []
    assert errors == ["GpuAdmissionPolicy 'gpu': action: must be Deny, Warn or Audit, not 'Block'"]


def test_unknown_property_is_refused_before_anything_is_registered() -> None:
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(
            lambda: GpuAdmissionPolicy("gpu", {"action": "Warn", "mode": "x"}),  # type: ignore[typeddict-unknown-key]
            monitor=monitor,
        )
    assert paths(err.value) == ["mode"]
    assert monitor.recorded == []


# --- The two components fit together ----------------------------------------------------------


def test_policy_reads_what_the_namespaces_write() -> None:
    """The namespaces GpuWorkloadNamespace creates are selected by the policy, and the MPS
    exception they carry is the one the CEL honours."""

    def program() -> None:
        for name, pool in (("gpu-mps", ACK_MPS), ("gpu-plain", PLAIN)):
            wl = WorkloadSettings.model_validate({"name": name, "type": "inference", "gpuQuota": 8})
            GpuWorkloadNamespace(name, namespace_args(wl, [pool]))

    namespaces = {
        r.inputs["metadata"]["name"]: r.inputs
        for r in run(program).resources
        if r.type == "kubernetes:core/v1:Namespace"
    }
    selector = recorded_policy()["spec"]["matchConstraints"]["namespaceSelector"]["matchLabels"]
    for ns in namespaces.values():
        assert selector.items() <= ns["metadata"]["labels"].items()

    mps_pod = gpu_pod(GPU_MEM, "8")
    with_ipc = {**mps_pod, "hostIPC": True}
    assert failed_messages(KINDS["Pod"](with_ipc), namespaces["gpu-mps"]) == []
    assert failed_messages(KINDS["Pod"](mps_pod), namespaces["gpu-mps"]) == [
        MESSAGE["host-ipc-mps-required"]
    ]
    assert failed_messages(KINDS["Pod"](with_ipc), namespaces["gpu-plain"]) == [
        MESSAGE["host-ipc-mps-only"]
    ]


# --- Queued workloads (Kueue): the toleration comes from the flavour at admission ------------


def queued(obj: dict[str, Any], queue: str = "training") -> dict[str, Any]:
    """``obj`` naming a LocalQueue where Kueue reads it (a CronJob's Jobs' template, a
    ReplicaSet's pods)."""
    obj = copy.deepcopy(obj)
    if obj["kind"] == "CronJob":
        meta = obj["spec"]["jobTemplate"].setdefault("metadata", {})
    elif obj["kind"] == "ReplicaSet":
        meta = obj["spec"]["template"]["metadata"]
    else:
        meta = obj.setdefault("metadata", {})
    meta.setdefault("labels", {})[QUEUE_NAME_LABEL] = queue
    return obj


def queue_namespace() -> dict[str, Any]:
    ns = namespace()
    ns["metadata"]["labels"][QUEUE_NAMESPACE_LABEL] = "training"
    return ns


UNTOLERATED = edit(gpu_pod(), lambda s: s.pop("tolerations"))


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "DaemonSet"])
def test_a_queued_workload_needs_no_toleration_kueue_adds_its_flavours(kind: str) -> None:
    obj = KINDS[kind](copy.deepcopy(UNTOLERATED))
    assert failed_messages(queued(obj), queue_namespace()) == []
    # Not queued: no queue name, or a namespace without a LocalQueue.
    assert failed_messages(obj, queue_namespace()) == [MESSAGE["gpu-toleration"]]
    assert failed_messages(queued(obj), namespace()) == [MESSAGE["gpu-toleration"]]


def test_a_deployment_queued_by_its_pods_needs_no_toleration() -> None:
    """Only the pod template names the queue: Kueue admits each pod, adding the toleration."""
    obj = copy.deepcopy(KINDS["Deployment"](copy.deepcopy(UNTOLERATED)))
    obj["spec"]["template"].setdefault("metadata", {}).setdefault("labels", {})[
        QUEUE_NAME_LABEL
    ] = "training"
    assert failed_messages(obj, queue_namespace()) == []
    assert failed_messages(obj, namespace()) == [MESSAGE["gpu-toleration"]]


def test_a_daemonset_is_never_queued() -> None:
    obj = queued(KINDS["DaemonSet"](copy.deepcopy(UNTOLERATED)))
    obj["metadata"]["labels"] = {QUEUE_NAME_LABEL: "training"}
    assert failed_messages(obj, queue_namespace()) == [MESSAGE["gpu-toleration"]]


def test_queueing_excuses_nothing_else() -> None:
    fraction = edit(UNTOLERATED, lambda s: limits(s).update({"nvidia.com/gpu": "0.5"}))
    obj = queued(KINDS["Job"](fraction))
    assert failed_messages(obj, queue_namespace()) == [MESSAGE["gpu-whole-number"]]


# --- Claims: the DeviceClasses a GPU namespace's quota caps ---------------------------------

CLAIMS_POLICY = "gpu-claims-policy"
CLAIM_MESSAGE = {v.key: v.message for v in CLAIM_VALIDATIONS}


def dra_namespace(
    classes: tuple[str, ...] = ("gpu.nvidia.com", "mig.nvidia.com", "vfio.gpu.nvidia.com"),
) -> dict[str, Any]:
    ns = namespace()
    ns["metadata"]["labels"].update({quota_device_class_label(c): "capped" for c in classes})
    return ns


def claim(*classes: str, template: bool = False, version: str = "v1") -> dict[str, Any]:
    """A claim (or template) with one request per class, in the shape of ``version``."""
    if version == "v1beta1":
        requests: list[dict[str, Any]] = [
            {"name": f"r{i}", "deviceClassName": c} for i, c in enumerate(classes)
        ]
    else:
        requests = [
            {"name": f"r{i}", "exactly": {"deviceClassName": c}} for i, c in enumerate(classes)
        ]
    spec = {"devices": {"requests": requests}}
    kind = "ResourceClaimTemplate" if template else "ResourceClaim"
    return {
        "apiVersion": f"resource.k8s.io/{version}",
        "kind": kind,
        "metadata": {"name": "c", "namespace": "gpu-training"},
        "spec": {"spec": spec} if template else spec,
    }


def first_available(*classes: str) -> dict[str, Any]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "spec": {
            "devices": {
                "requests": [
                    {
                        "name": "any",
                        "firstAvailable": [
                            {"name": f"s{i}", "deviceClassName": c} for i, c in enumerate(classes)
                        ],
                    }
                ]
            }
        },
    }


CLAIM_CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[str]]] = [
    ("whole-gpu", claim("gpu.nvidia.com"), dra_namespace(), []),
    ("template", claim("mig.nvidia.com", template=True), dra_namespace(), []),
    ("v1beta1-shape", claim("gpu.nvidia.com", version="v1beta1"), dra_namespace(), []),
    ("first-available", first_available("gpu.nvidia.com", "mig.nvidia.com"), dra_namespace(), []),
    (
        "no-devices",
        {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "spec": {}},
        dra_namespace(),
        [],
    ),
    # A class the quota names no key for is uncapped: refused, whatever its shape.
    ("uncapped-class", claim("my-gpus.example.com"), dra_namespace(), ["claim-quota-classes"]),
    (
        "uncapped-class-in-a-template",
        claim("gpu.nvidia.com", "my-gpus.example.com", template=True),
        dra_namespace(),
        ["claim-quota-classes"],
    ),
    (
        "uncapped-first-available",
        first_available("gpu.nvidia.com", "my-gpus.example.com"),
        dra_namespace(),
        ["claim-quota-classes"],
    ),
    (
        "uncapped-v1beta1",
        claim("my-gpus.example.com", version="v1beta1"),
        dra_namespace(),
        ["claim-quota-classes"],
    ),
    # A class whose name contains a capped one is not it.
    ("prefix-is-not-the-class", claim("gpu.nvidia"), dra_namespace(), ["claim-quota-classes"]),
    # A namespace without DRA pools caps no class: every claim is refused.
    (
        "namespace-without-classes",
        claim("gpu.nvidia.com"),
        dra_namespace(()),
        ["claim-quota-classes"],
    ),
]


@pytest.mark.parametrize(
    ("case", "obj", "ns", "fails"), CLAIM_CASES, ids=[c[0] for c in CLAIM_CASES]
)
def test_claims_name_only_classes_the_quota_caps(
    case: str, obj: dict[str, Any], ns: dict[str, Any], fails: list[str]
) -> None:
    failed = failed_messages(obj, ns, CLAIMS_POLICY)
    assert failed == [CLAIM_MESSAGE[key] for key in fails]


def test_every_claim_validation_is_tested_both_ways() -> None:
    refused = {key for *_, fails in CLAIM_CASES for key in fails}
    assert refused == set(CLAIM_MESSAGE)
    assert any(not fails for *_, fails in CLAIM_CASES)


def test_the_claims_policy_matches_claims_and_templates_in_gpu_namespaces() -> None:
    spec = recorded_policy(CLAIMS_POLICY)["spec"]
    assert spec["matchConstraints"] == {
        "namespaceSelector": {"matchLabels": {GPU_NAMESPACE_LABEL: "true"}},
        "resourceRules": [
            {
                "apiGroups": ["resource.k8s.io"],
                "apiVersions": ["v1", "v1beta2", "v1beta1"],
                "resources": ["resourceclaims", "resourceclaimtemplates"],
                # Specs are immutable: updates (finalizers) must not be refused.
                "operations": ["CREATE"],
            }
        ],
    }
    assert spec["failurePolicy"] == "Fail"
    assert [(v["name"], v["expression"]) for v in spec["variables"]] == [
        (v.name, v.expression) for v in CLAIM_VARIABLES
    ]
    assert all("\n" not in v.message for v in CLAIM_VALIDATIONS)


def test_the_namespace_names_the_classes_its_quota_caps() -> None:
    """The labels the claims policy reads are the ones GpuWorkloadNamespace writes, naming
    exactly the classes of its quota keys: its claims on them are admitted."""
    from tests.components.test_gpu_workload_namespace import dra_namespace_run

    labels, hard = dra_namespace_run()
    classes = sorted(
        key.removesuffix(".deviceclass.resource.k8s.io/devices")
        for key in hard
        if key.endswith(".deviceclass.resource.k8s.io/devices")
    )
    assert classes == ["gpu.nvidia.com", "mig.nvidia.com", "vfio.gpu.nvidia.com"]
    assert {k: v for k, v in labels.items() if k.startswith("device-class.")} == {
        quota_device_class_label(c): "capped" for c in classes
    }
    ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x", "labels": labels}}
    assert failed_messages(claim(*classes), ns, CLAIMS_POLICY) == []
    assert failed_messages(claim("other.example.com"), ns, CLAIMS_POLICY) != []
