"""CUDA images are pinned to a tag or digest, never ``latest``."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import CUDA_IMAGE_REPOSITORY

from .building import Config, PolicyInfo, Report, resource_policy
from .pod_specs import containers, pod_spec
from .props import text

MATCH = "cudaRepositoryMatch"

INFO = PolicyInfo(
    name="cuda-images-pinned",
    description=(
        "Every container image whose repository is a CUDA image (nvidia/cuda, "
        "nvcr.io/nvidia/cuda...) is pinned to a tag other than latest, or to a digest: latest "
        "is deprecated for CUDA images and drifts across driver versions."
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
            "description": "A repository path segment containing this text marks a CUDA image.",
        }
    },
)


def split_image(image: str) -> tuple[str, str | None, str | None]:
    """``registry:5000/repo/name:tag@sha256:...`` -> (repository, tag, digest)."""
    name, _, digest = image.partition("@")
    last_slash = name.rfind("/")
    colon = name.rfind(":")
    if colon > last_slash:
        return name[:colon], name[colon + 1 :], digest or None
    return name, None, digest or None


def is_cuda_image(repository: str, match: str) -> bool:
    return any(match in segment for segment in repository.lower().split("/"))


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    spec = pod_spec(args.resource_type, args.props)
    if spec is None:
        return
    match = str(config.get(MATCH) or CUDA_IMAGE_REPOSITORY).lower()
    for container in containers(spec):
        image = text(container.spec.get("image"))
        if image is None:
            continue
        repository, tag, digest = split_image(image)
        if not is_cuda_image(repository, match) or digest is not None:
            continue
        if tag is None or tag == "latest":
            report(
                f"'{args.name}' {container.label} uses CUDA image '{image}' without a pinned "
                f"tag; pin a version such as {repository}:12.1.1-base-ubuntu22.04."
            )


POLICY = resource_policy(INFO, check)
