"""Container image references: ``registry:5000/repo/name:tag@sha256:...``."""

from __future__ import annotations

import re

_NUMBER = re.compile(r"\d")


def split_image(image: str) -> tuple[str, str | None, str | None]:
    """``registry:5000/repo/name:tag@sha256:...`` -> (repository, tag, digest)."""
    name, _, digest = image.partition("@")
    last_slash = name.rfind("/")
    colon = name.rfind(":")
    if colon > last_slash:
        return name[:colon], name[colon + 1 :], digest or None
    return name, None, digest or None


def carries_version(tag: str | None) -> bool:
    """Whether a tag names a version (has a number: ``12.1.1-base``, ``v0.17.0``); ``latest``,
    ``cuda`` or ``server-cuda`` move with every push."""
    return tag is not None and _NUMBER.search(tag) is not None


def repository_name(repository: str) -> str:
    """The last path segment: ``nvcr.io/nvidia/k8s-device-plugin`` -> ``k8s-device-plugin``."""
    return repository.rsplit("/", 1)[-1]
