"""Kubernetes OpenAPI schema checks for the objects the mock engine recorded.

``manifest_of`` turns a recorded Kubernetes resource into the manifest the provider would
send; ``assert_valid_manifest`` validates it against the strict schema (unknown fields
refused) that ``kubernetes_validate`` ships for a Kubernetes version, by default the lowest we
support. The schemas are loaded once per kind, and the version must exist exactly (the
library itself falls back to an older one).
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.resources import files
from typing import Any

import jsonschema
import kubernetes_validate.utils
from referencing import Registry, Resource

from gpu_platform.offline_preview import RecordedResource
from gpu_platform.offline_preview.engine import reveal
from gpu_platform.settings import MIN_KUBERNETES

KUBERNETES_TYPE_PREFIX = "kubernetes:"
SCHEMAS = files("kubernetes_validate") / "kubernetes-json-schema"


def _plain(value: Any) -> Any:
    """Wire values as JSON: secrets unwrapped, whole floats back to integers."""
    return reveal(value, whole_floats_as_int=True)


def is_kubernetes_object(resource: RecordedResource) -> bool:
    """A Kubernetes API object (not the provider, not a Helm release or a component)."""
    return (
        resource.custom
        and resource.type.startswith(KUBERNETES_TYPE_PREFIX)
        and not resource.type.startswith(("kubernetes:helm.sh/", "kubernetes:yaml/"))
        # Custom resources of the Prometheus Operator's CRDs (and AKS's copy of them): no
        # built-in schema; the components' tests assert their exact spec.
        and not resource.type.startswith(CUSTOM_RESOURCE_PREFIXES)
    )


CUSTOM_RESOURCE_PREFIXES = (
    "kubernetes:monitoring.coreos.com/",
    "kubernetes:azmonitoring.coreos.com/",
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


@cache
def _validator(version: str, api_version: str, kind: str) -> jsonschema.Draft202012Validator:
    """The strict schema of one kind at one Kubernetes version, as kubernetes_validate ships it
    (loaded once: the definitions file is large)."""
    releases = [v for v in kubernetes_validate.utils.all_versions() if v.startswith(f"{version}.")]
    if not releases:
        raise AssertionError(f"kubernetes_validate has no schemas for Kubernetes {version}")
    folder = SCHEMAS / f"v{releases[-1]}-local-strict"
    # rbac.authorization.k8s.io/v1 -> rbac-v1, the file naming of the schema set.
    group_version = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    path = folder / f"{kind.lower()}-{group_version}.json"
    if not path.is_file():
        raise AssertionError(f"no schema for {kind} {api_version} in Kubernetes {version}")
    schema = json.loads(path.read_text())
    definitions = json.loads((folder / "_definitions.json").read_text())
    registry = Resource.from_contents(definitions) @ (Resource.from_contents(schema) @ Registry())
    return jsonschema.Draft202012Validator(schema, registry=registry)


def assert_valid_manifest(manifest: dict[str, Any], version: str = MIN_KUBERNETES) -> None:
    """Fail with the offending path unless ``manifest`` matches the strict OpenAPI schema of
    exactly ``version`` (``major.minor``)."""
    validator = _validator(version, manifest["apiVersion"], manifest["kind"])
    error = jsonschema.exceptions.best_match(validator.iter_errors(manifest))
    if error is not None:
        path = ".".join(str(p) for p in error.absolute_path) or "(root)"
        name = manifest.get("metadata", {}).get("name")
        raise AssertionError(
            f"{manifest['kind']} {name!r} is invalid for Kubernetes {version} at {path}: "
            f"{error.message}"
        )
