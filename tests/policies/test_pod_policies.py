"""Pod policies on every pod-bearing kind: the compliant workload passes, each mutation fails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpu_policies.pod_specs import POD_SPEC_PATHS

from .harness import Case, Res, assert_case, messages, policy_named, violations
from .pod_fixtures import KINDS, container, gpu_pod_spec, mutated, wrap

POD_POLICIES = (
    "gpu-workloads-tolerate-gpu-taint",
    "gpu-limits-whole-numbers",
    "no-nvidia-visible-devices-env",
    "no-privileged-gpu-containers",
    "cuda-images-pinned",
    "host-ipc-only-for-gpu-mem-pods",
    "gpu-pods-not-in-default-namespace",
)

Change = Callable[[dict[str, Any]], None]


def _set(key: str, value: Any) -> Change:
    return lambda spec: spec.__setitem__(key, value)


def _container(key: str, value: Any) -> Change:
    return lambda spec: container(spec).__setitem__(key, value)


def _limits(limits: dict[str, Any], requests: dict[str, Any] | None = None) -> Change:
    resources: dict[str, Any] = {"limits": limits}
    if requests is not None:
        resources["requests"] = requests
    return _container("resources", resources)


def _env(name: str, value: str) -> Change:
    return lambda spec: container(spec)["env"].append({"name": name, "value": value})


def _init_container(change: Change) -> Change:
    """Move the GPU container to initContainers and apply ``change`` there."""

    def apply(spec: dict[str, Any]) -> None:
        change(spec)
        spec["initContainers"] = spec.pop("containers")
        spec["containers"] = [{"name": "sidecar", "image": "busybox:1.36"}]

    return apply


# (policy, id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, str, Change, str]] = [
    (
        "gpu-workloads-tolerate-gpu-taint",
        "no-tolerations",
        _set("tolerations", []),
        "does not tolerate",
    ),
    (
        "gpu-workloads-tolerate-gpu-taint",
        "wrong-effect",
        _set(
            "tolerations", [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute"}]
        ),
        "does not tolerate",
    ),
    (
        "gpu-workloads-tolerate-gpu-taint",
        "equal-wrong-value",
        _set("tolerations", [{"key": "nvidia.com/gpu", "operator": "Equal", "value": "true"}]),
        "does not tolerate",
    ),
    (
        "gpu-workloads-tolerate-gpu-taint",
        "other-key",
        _set("tolerations", [{"key": "sku", "operator": "Exists", "effect": "NoSchedule"}]),
        "does not tolerate",
    ),
    (
        "gpu-limits-whole-numbers",
        "request-only",
        lambda s: container(s).__setitem__("resources", {"requests": {"nvidia.com/gpu": 1}}),
        "without a limit",
    ),
    (
        "gpu-limits-whole-numbers",
        "fraction",
        _limits({"nvidia.com/gpu": 0.5}),
        "not a whole number",
    ),
    (
        "gpu-limits-whole-numbers",
        "milli",
        _limits({"nvidia.com/gpu": "500m"}),
        "not a whole number",
    ),
    (
        "gpu-limits-whole-numbers",
        "request-differs",
        _limits({"nvidia.com/gpu": 2}, {"nvidia.com/gpu": 1}),
        "differs from its limit",
    ),
    (
        "gpu-limits-whole-numbers",
        "mig-fraction",
        _limits({"nvidia.com/mig-1g.5gb": "1.5"}),
        "not a whole number",
    ),
    (
        "gpu-limits-whole-numbers",
        "init-container",
        _init_container(_limits({"nvidia.com/gpu": 0.5})),
        "initContainers[train]",
    ),
    (
        "no-nvidia-visible-devices-env",
        "all",
        _env("NVIDIA_VISIBLE_DEVICES", "all"),
        "NVIDIA_VISIBLE_DEVICES",
    ),
    (
        "no-nvidia-visible-devices-env",
        "one-id",
        _env("NVIDIA_VISIBLE_DEVICES", "0"),
        "NVIDIA_VISIBLE_DEVICES",
    ),
    (
        "no-privileged-gpu-containers",
        "privileged",
        _container("securityContext", {"privileged": True}),
        "privileged",
    ),
    (
        "cuda-images-pinned",
        "latest",
        _container("image", "nvidia/cuda:latest"),
        "nvidia/cuda:latest",
    ),
    (
        "cuda-images-pinned",
        "no-tag",
        _container("image", "nvcr.io/nvidia/cuda"),
        "without a pinned tag",
    ),
    (
        "cuda-images-pinned",
        "registry-port-no-tag",
        _container("image", "registry.local:5000/nvidia/cuda"),
        "without a pinned tag",
    ),
    ("host-ipc-only-for-gpu-mem-pods", "host-ipc", _set("hostIPC", True), "hostIPC: true"),
]


def _cases() -> list[Case]:
    cases = []
    for kind in KINDS:
        for policy in POD_POLICIES:
            cases.append(Case(policy, f"{kind}-compliant", (wrap(kind, gpu_pod_spec()),)))
        for policy, case_id, change, fragment in VIOLATIONS:
            cases.append(Case(policy, f"{kind}-{case_id}", (mutated(kind, change),), (fragment,)))
        for namespace in (None, "default"):
            cases.append(
                Case(
                    "gpu-pods-not-in-default-namespace",
                    f"{kind}-namespace-{namespace}",
                    (mutated(kind, lambda s: None, namespace=namespace),),
                    ("'default' namespace",),
                )
            )
    return cases


CASES = _cases()
"""Declared for the meta-test: every pod policy, passing and failing, on every kind."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.policy}/{c.id}")
def test_case(case: Case) -> None:
    assert_case(case)


def test_every_kind_of_the_policies_is_covered() -> None:
    assert set(KINDS) == set(POD_SPEC_PATHS)


@pytest.mark.parametrize("kind", KINDS)
def test_compliant_workload_passes_every_registered_policy(kind: str) -> None:
    from gpu_policies.registry import policies

    res = wrap(kind, gpu_pod_spec())
    for policy in policies():
        assert violations(policy, [res]) == [], policy.name


@pytest.mark.parametrize(
    "toleration",
    [
        {"key": "nvidia.com/gpu", "operator": "Exists"},
        {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
        {"key": "nvidia.com/gpu", "value": "present"},
        {"operator": "Exists"},
    ],
)
def test_tolerations_that_match_the_gpu_taint(toleration: dict[str, Any]) -> None:
    res = mutated("Deployment", _set("tolerations", [toleration]))
    assert messages(Case("gpu-workloads-tolerate-gpu-taint", "t", (res,))) == []


def test_amd_gpu_pods_may_tolerate_the_amd_taint() -> None:
    def amd(spec: dict[str, Any]) -> None:
        container(spec)["resources"] = {"limits": {"amd.com/gpu": 1}}
        spec["tolerations"] = [{"key": "amd.com/gpu", "operator": "Exists"}]

    assert messages(Case("gpu-workloads-tolerate-gpu-taint", "amd", (mutated("Pod", amd),))) == []
    nvidia = mutated("Pod", _set("tolerations", [{"key": "amd.com/gpu", "operator": "Exists"}]))
    assert len(messages(Case("gpu-workloads-tolerate-gpu-taint", "nv", (nvidia,)))) == 1


@pytest.mark.parametrize(
    "resources",
    [
        {"limits": {"nvidia.com/gpu": 2}, "requests": {"nvidia.com/gpu": 2}},
        {"limits": {"nvidia.com/gpu": "1"}, "requests": {"nvidia.com/gpu": 1.0}},
        {"limits": {"nvidia.com/mig-1g.5gb": 1}},
        {"limits": {"aliyun.com/gpu-mem": 8}},
    ],
)
def test_whole_number_limits_pass(resources: dict[str, Any]) -> None:
    res = mutated("Job", _container("resources", resources))
    assert messages(Case("gpu-limits-whole-numbers", "w", (res,))) == []


@pytest.mark.parametrize(
    "image",
    [
        "nvidia/cuda:12.1.1-base-ubuntu22.04",
        "nvidia/cuda@sha256:" + "a" * 64,
        "nvidia/cuda:latest@sha256:" + "b" * 64,
        "python:3.12-slim",
        "busybox",
    ],
)
def test_pinned_or_non_cuda_images_pass(image: str) -> None:
    res = mutated("Pod", _container("image", image))
    assert messages(Case("cuda-images-pinned", "i", (res,))) == []


def test_cuda_images_are_checked_on_pods_without_gpus() -> None:
    def no_gpu(spec: dict[str, Any]) -> None:
        container(spec)["resources"] = {"limits": {"cpu": "1"}}
        container(spec)["image"] = "nvidia/cuda:latest"

    res = mutated("Pod", no_gpu)
    assert len(messages(Case("cuda-images-pinned", "n", (res,)))) == 1


def test_mps_client_with_gpu_mem_may_share_host_ipc() -> None:
    def mps(spec: dict[str, Any]) -> None:
        spec["hostIPC"] = True
        container(spec)["resources"] = {"limits": {"aliyun.com/gpu-mem": 4}}

    res = mutated("Deployment", mps)
    assert messages(Case("host-ipc-only-for-gpu-mem-pods", "m", (res,))) == []


def test_policies_about_gpu_pods_skip_pods_without_gpus() -> None:
    def cpu_only(spec: dict[str, Any]) -> None:
        container(spec)["resources"] = {"limits": {"cpu": "1"}}
        container(spec)["securityContext"] = {"privileged": True}
        spec["tolerations"] = []

    res = mutated("Deployment", cpu_only, namespace=None)
    for name in (
        "gpu-workloads-tolerate-gpu-taint",
        "no-privileged-gpu-containers",
        "gpu-pods-not-in-default-namespace",
        "gpu-limits-whole-numbers",
    ):
        assert messages(Case(name, "cpu", (res,))) == [], name


def test_pod_policies_ignore_other_types_and_odd_shapes() -> None:
    odd = [
        Res("kubernetes:core/v1:ConfigMap", "cm", {"data": {"NVIDIA_VISIBLE_DEVICES": "all"}}),
        Res("kubernetes:apps/v1:Deployment", "empty", {}),
        Res("kubernetes:apps/v1:Deployment", "str-spec", {"spec": "oops"}),
        Res("kubernetes:core/v1:Pod", "bad-lists", {"spec": {"containers": "x", "tolerations": 3}}),
        Res("kubernetes:apps/v1:DeploymentPatch", "patch", {"spec": {"template": {"spec": {}}}}),
    ]
    for name in POD_POLICIES:
        assert violations(policy_named(name), odd) == [], name


def test_older_api_versions_are_checked_too() -> None:
    spec = gpu_pod_spec()
    spec["tolerations"] = []
    res = Res("kubernetes:batch/v1beta1:CronJob", "old", wrap("CronJob", spec).props)
    assert len(messages(Case("gpu-workloads-tolerate-gpu-taint", "old", (res,)))) == 1
