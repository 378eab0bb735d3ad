"""Kubernetes OpenAPI schema checks for the objects the mock engine recorded.

``manifest_of`` turns a recorded Kubernetes resource into the manifest the provider would
send; ``assert_valid_manifest`` validates it with ``kubernetes_validate`` against the strict
schema (unknown fields refused) of a Kubernetes version, by default the lowest we support.
"""

from __future__ import annotations

from typing import Any

import kubernetes_validate

from offline_preview import RecordedResource, Secret
from stack_config.models import MIN_KUBERNETES

KUBERNETES_TYPE_PREFIX = "kubernetes:"


def _plain(value: Any) -> Any:
    """Wire values as JSON: secrets unwrapped, whole floats back to integers.

    The engine carries every number as a double; the provider sends ``53`` for ``53.0``.
    """
    if isinstance(value, Secret):
        return _plain(value.value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def is_kubernetes_object(resource: RecordedResource) -> bool:
    """A Kubernetes API object (not the provider, not a Helm release or a component)."""
    return (
        resource.custom
        and resource.type.startswith(KUBERNETES_TYPE_PREFIX)
        and not resource.type.startswith(("kubernetes:helm.sh/", "kubernetes:yaml/"))
    )


def manifest_of(resource: RecordedResource) -> dict[str, Any]:
    """The manifest of a recorded Kubernetes object, ``apiVersion`` and ``kind`` included."""
    if not is_kubernetes_object(resource):
        raise ValueError(f"{resource.type} ({resource.name}) is not a Kubernetes object")
    manifest = _plain(resource.inputs)
    # The SDK sets both; derive them from the type token if a resource type does not.
    group_version, _, kind = resource.type.removeprefix(KUBERNETES_TYPE_PREFIX).rpartition(":")
    api_version = group_version.removeprefix("core/")
    manifest.setdefault("apiVersion", api_version)
    manifest.setdefault("kind", kind)
    return manifest


def assert_valid_manifest(manifest: dict[str, Any], version: str = MIN_KUBERNETES) -> None:
    """Fail with the offending path unless ``manifest`` matches the strict OpenAPI schema."""
    try:
        validated = kubernetes_validate.validate(manifest, version, strict=True)
    except kubernetes_validate.ValidationError as err:
        path = ".".join(str(p) for p in err.path) or "(root)"
        name = manifest.get("metadata", {}).get("name")
        raise AssertionError(
            f"{manifest.get('kind')} {name!r} is invalid for Kubernetes {err.version} at "
            f"{path}: {err.message}"
        ) from None
    except kubernetes_validate.SchemaNotFoundError as err:
        raise AssertionError(err.message) from None
    # kubernetes_validate silently falls back to an older schema; we want the one asked for.
    assert validated == version, f"validated against {validated}, not {version}"
