"""CUDA images are pinned to a version tag or digest, never a moving tag.

A CUDA image is ``nvidia/cuda`` (any registry) or any image whose name or tag says CUDA
(``vllm/vllm-openai-cuda``, ``llama.cpp:server-cuda``). A tag moves when it names no version:
``latest``, ``cuda``, ``server-cuda``, or no tag at all.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import CUDA_IMAGE_REPOSITORY
from gpu_policy_support.images import carries_version, split_image
from gpu_policy_support.pod_specs import Container, containers, pod_sites
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import text

MATCH = "cudaRepositoryMatch"

INFO = PolicyInfo(
    name="cuda-images-pinned",
    description=(
        "Every CUDA container image (nvidia/cuda, nvcr.io/nvidia/cuda, or any image whose name "
        "or tag says cuda) is pinned to a tag that names a version, or to a digest: moving "
        "tags (latest, cuda, server-cuda, none) drift across CUDA and driver versions."
    ),
    practices=("BP-19",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Use a full tag such as nvidia/cuda:12.1.1-base-ubuntu22.04, or an image digest "
        "(@sha256:...)."
    ),
    config={
        MATCH: {
            "type": "string",
            "default": CUDA_IMAGE_REPOSITORY,
            "description": (
                "A repository path segment or a tag containing this text marks a CUDA image."
            ),
        }
    },
)


def is_cuda_image(repository: str, tag: str | None, match: str) -> bool:
    segments = repository.lower().split("/")
    return any(match in segment for segment in segments) or match in (tag or "").lower()


def _validate_image(pod: str, container: Container, match: str, report: Report) -> None:
    image = text(container.spec.get("image"))
    if image is None:
        return
    repository, tag, digest = split_image(image)
    if not is_cuda_image(repository, tag, match) or digest is not None:
        return
    if not carries_version(tag):
        moving = f"its tag '{tag}' moves" if tag else "without a tag it is latest"
        report(
            f"{pod} {container.label} uses CUDA image '{image}' without a pinned "
            f"tag: {moving}, naming no version.",
            fix=(
                f"Pin a version tag such as {repository}:12.1.1-base-ubuntu22.04 (one "
                "that names the CUDA version), or a digest (@sha256:...)."
            ),
        )


def validate(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    match = str(config.get(MATCH) or CUDA_IMAGE_REPOSITORY).lower()
    for site in pod_sites(args.resource_type, args.props):
        for container in containers(site.spec):
            _validate_image(site.named(args.name), container, match, report)


POLICY = resource_policy(INFO, validate)
