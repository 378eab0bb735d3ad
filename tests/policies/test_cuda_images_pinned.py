"""cuda-images-pinned: CUDA images on a pinned tag, on every pod-bearing kind."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Case, assert_case, messages
from .pod_fixtures import (
    Change,
    container,
    mutated,
    pod_policy_cases,
    set_container,
)

POLICY = "cuda-images-pinned"

# (id, change to the compliant pod spec, expected message fragment)
VIOLATIONS: list[tuple[str, Change, str]] = [
    ("latest", set_container("image", "nvidia/cuda:latest"), "nvidia/cuda:latest"),
    ("no-tag", set_container("image", "nvcr.io/nvidia/cuda"), "without a pinned tag"),
    (
        "registry-port-no-tag",
        set_container("image", "registry.local:5000/nvidia/cuda"),
        "without a pinned tag",
    ),
    (
        "tag-says-cuda",
        set_container("image", "ghcr.io/ggerganov/llama.cpp:server-cuda"),
        "its tag 'server-cuda' moves",
    ),
    ("cuda-tag", set_container("image", "vllm/vllm-openai:cuda"), "its tag 'cuda' moves"),
]

CASES: list[Case] = pod_policy_cases(POLICY, VIOLATIONS, gpu_only=False)
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


@pytest.mark.parametrize(
    "image",
    [
        "nvidia/cuda:12.1.1-base-ubuntu22.04",
        "nvidia/cuda@sha256:" + "a" * 64,
        "nvidia/cuda:latest@sha256:" + "b" * 64,
        "python:3.12-slim",
        "busybox",
        "pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime",
        "ghcr.io/ggerganov/llama.cpp:server-cuda-b4719",
        "nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda12.5.0",
    ],
)
def test_pinned_or_non_cuda_images_pass(image: str) -> None:
    res = mutated("Pod", set_container("image", image))
    assert messages(Case(POLICY, "i", (res,))) == []


def test_cuda_images_are_checked_on_pods_without_gpus() -> None:
    def no_gpu(spec: dict[str, Any]) -> None:
        container(spec)["resources"] = {"limits": {"cpu": "1"}}
        container(spec)["image"] = "nvidia/cuda:latest"

    res = mutated("Pod", no_gpu)
    assert len(messages(Case(POLICY, "n", (res,)))) == 1


def test_the_message_ends_with_a_version_to_pin() -> None:
    res = mutated("Pod", set_container("image", "nvidia/cuda:latest"))
    (message,) = messages(Case(POLICY, "m", (res,)))
    assert message.endswith(
        "Fix: Pin a version tag such as nvidia/cuda:12.1.1-base-ubuntu22.04 (one that names the "
        "CUDA version), or a digest (@sha256:...)."
    )
