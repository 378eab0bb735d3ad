"""Kubernetes manifests as the Kubernetes provider turns them into resources.

The provider's rules (pulumi-kubernetes ``provider/pkg/provider/yaml/v2/yaml.go``: ``Parse``,
``Normalize``, ``Register``; read at commit d4c974d), which the Helm v4 ``Chart`` and the
``yaml/v2`` components share, and the ``kubernetes:yaml:decode`` invoke the Python-side v1
``yaml.ConfigFile`` / ``ConfigGroup`` call (``invoke_decode_yaml.go``):

- a YAML (or JSON) stream holds one object per document; empty documents are skipped;
- an object with an ``items`` list is a list: its items are the objects (recursively);
- every object needs ``apiVersion``, ``kind`` and ``metadata.name``; the ``core`` group is
  written without its name (``core/v1`` -> ``v1``);
- a namespaced kind without ``metadata.namespace`` gets the default namespace;
- each object is registered as ``<prefix>:<namespace>/<name>`` (``<prefix>:<name>`` when
  cluster-scoped; no ``<prefix>:`` when the prefix is empty), of type
  ``kubernetes:<group>/<version>:<kind>`` (``kubernetes:core/v1:Pod``);
- it waits for the objects the ``config.kubernetes.io/depends-on`` annotation names, for the
  CustomResourceDefinition of its kind and for its Namespace, when those are in the same set
  (sigs.k8s.io/cli-utils ``object/graph``).

Streams are read by the stack files' bounded reader (``stack_config.yaml_file``) within
``MANIFEST_MAX_*``: the same kinds of bounds, numbers that real manifests (a bundle of large
CRDs) stay well inside. Every error names the file or URL, with the line and column.

Pure: only PyYAML, so a program running in its own virtualenv can decode too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import yaml

from .redact import QuotingError

DEPENDS_ON = "config.kubernetes.io/depends-on"
SKIP_AWAIT = "pulumi.com/skipAwait"

# Built-in kinds that are not namespaced: `kubectl api-resources --namespaced=false` of
# Kubernetes 1.33 (group "" is the core group). A kind neither here nor defined by a
# CustomResourceDefinition of the same set is taken as namespaced, as most custom kinds are
# (the provider asks the cluster's discovery API, which an offline preview cannot reach).
CLUSTER_SCOPED: frozenset[tuple[str, str]] = frozenset(
    {
        ("", "ComponentStatus"),
        ("", "Namespace"),
        ("", "Node"),
        ("", "PersistentVolume"),
        ("admissionregistration.k8s.io", "MutatingAdmissionPolicy"),
        ("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"),
        ("admissionregistration.k8s.io", "MutatingWebhookConfiguration"),
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"),
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"),
        ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration"),
        ("apiextensions.k8s.io", "CustomResourceDefinition"),
        ("apiregistration.k8s.io", "APIService"),
        ("authentication.k8s.io", "SelfSubjectReview"),
        ("authentication.k8s.io", "TokenReview"),
        ("authorization.k8s.io", "SelfSubjectAccessReview"),
        ("authorization.k8s.io", "SelfSubjectRulesReview"),
        ("authorization.k8s.io", "SubjectAccessReview"),
        ("certificates.k8s.io", "CertificateSigningRequest"),
        ("certificates.k8s.io", "ClusterTrustBundle"),
        ("flowcontrol.apiserver.k8s.io", "FlowSchema"),
        ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"),
        ("internal.apiserver.k8s.io", "StorageVersion"),
        ("networking.k8s.io", "IPAddress"),
        ("networking.k8s.io", "IngressClass"),
        ("networking.k8s.io", "ServiceCIDR"),
        ("node.k8s.io", "RuntimeClass"),
        ("rbac.authorization.k8s.io", "ClusterRole"),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
        ("resource.k8s.io", "DeviceClass"),
        ("resource.k8s.io", "ResourceSlice"),
        ("scheduling.k8s.io", "PriorityClass"),
        ("storage.k8s.io", "CSIDriver"),
        ("storage.k8s.io", "CSINode"),
        ("storage.k8s.io", "StorageClass"),
        ("storage.k8s.io", "VolumeAttachment"),
        ("storage.k8s.io", "VolumeAttributesClass"),
        ("storagemigration.k8s.io", "StorageVersionMigration"),
    }
)


MANIFEST_MAX_BYTES = 16 * 1024 * 1024
MANIFEST_MAX_DEPTH = 128
MANIFEST_MAX_VALUES = 1_000_000
"""One manifest stream (a file, a URL's answer, a chart's template, a values file): 16 MiB,
128 levels, a million values with aliases expanded (the stack files' reader's ``Bounds``). The
largest bundles of CRDs we know (kube-prometheus' ``bundle.yaml``, a few MB) are far inside;
a 4 KB alias bomb is not."""


class ManifestError(QuotingError, ValueError):
    """A manifest the provider would refuse, with the provider's reason (and the part of the
    manifest it quotes, ``quoted``)."""


def decode(text: str, source: str = "<manifest>") -> list[dict[str, Any]]:
    """Every object of a YAML or JSON stream, as ``kubernetes:yaml:decode`` answers; errors
    name ``source`` (the file, URL or template it came from)."""
    # Here, not at the top: the engine imports this module, and a program that decodes no
    # manifest does not pay for the stack files' reader (the preview's floor: bench).
    from gpu_platform.stack_config.yaml_file import Bounds, InputFileError, load_yaml_stream

    bounds = Bounds(MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH, MANIFEST_MAX_VALUES)
    try:
        documents = load_yaml_stream(source, text, bounds)
    except InputFileError as err:
        raise ManifestError(f"decoding YAML: {err}") from None
    objects = []
    for document in documents:
        if document is None or document == {}:
            continue
        if not isinstance(document, dict):
            raise ManifestError(
                f"decoding YAML: {source}: a document is not an object", f"{document!r:.80}"
            )
        objects.append(document)
    return objects


def _group_version(obj: Mapping[str, Any]) -> tuple[str, str]:
    api_version = str(obj.get("apiVersion") or "")
    group, _, version = api_version.rpartition("/")
    return group, version


def _short(obj: Mapping[str, Any]) -> str:
    text = yaml.safe_dump(dict(obj), default_flow_style=True, width=10_000).strip()
    return text if len(text) <= 100 else text[:97] + "..."


def expand_lists(objects: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Lists (``v1/List``, ``ConfigMapList``...: any object with an ``items`` list) replaced by
    their items, in order."""
    out: list[dict[str, Any]] = []
    for obj in objects:
        items = obj.get("items")
        if isinstance(items, list):
            out.extend(expand_lists(i for i in items if isinstance(i, dict)))
        else:
            out.append(dict(obj))
    return out


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _defined_kind(obj: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(group, kind)`` a CustomResourceDefinition defines; None for any other object."""
    if obj.get("kind") != "CustomResourceDefinition":
        return None
    spec = _mapping(obj.get("spec"))
    kind = _mapping(spec.get("names")).get("kind")
    return (str(spec["group"]), str(kind)) if spec.get("group") and kind else None


def _custom_kinds(objects: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], bool]:
    """``(group, kind) -> namespaced`` for each CustomResourceDefinition of the set."""
    return {
        defined: _mapping(obj.get("spec")).get("scope") != "Cluster"
        for obj in objects
        if (defined := _defined_kind(obj)) is not None
    }


def is_namespaced(obj: Mapping[str, Any], custom: Mapping[tuple[str, str], bool]) -> bool:
    key = (_group_version(obj)[0], str(obj.get("kind")))
    if key in custom:
        return custom[key]
    return key not in CLUSTER_SCOPED


def normalize(objects: Iterable[Mapping[str, Any]], default_namespace: str) -> list[dict[str, Any]]:
    """The provider's ``Normalize``: lists expanded, each object checked, ``core/`` dropped
    from ``apiVersion``, the default namespace given to namespaced objects without one."""
    expanded = expand_lists(objects)
    custom = _custom_kinds(expanded)
    out = []
    for obj in expanded:
        group, version = _group_version(obj)
        if not obj.get("kind") or not version:
            raise ManifestError(
                "Kubernetes resources require a kind and apiVersion", f"`{_short(obj)}`"
            )
        metadata = obj.get("metadata")
        if not isinstance(metadata, dict) or not metadata.get("name"):
            raise ManifestError("Kubernetes resources require a .metadata.name", f"`{_short(obj)}`")
        obj = dict(obj)
        if group == "core":
            obj["apiVersion"] = version
        if is_namespaced(obj, custom) and not metadata.get("namespace"):
            obj["metadata"] = {**metadata, "namespace": default_namespace}
        out.append(obj)
    return out


def type_token(obj: Mapping[str, Any]) -> str:
    """``kubernetes:apps/v1:DaemonSet``; the core group is ``core`` in type tokens."""
    group, version = _group_version(obj)
    return f"kubernetes:{group or 'core'}/{version}:{obj['kind']}"


def resource_name(obj: Mapping[str, Any], prefix: str) -> str:
    """``<prefix>:<namespace>/<name>``, as the provider names what it registers."""
    metadata = obj["metadata"]
    name = str(metadata["name"])
    if metadata.get("namespace"):
        name = f"{metadata['namespace']}/{name}"
    return f"{prefix}:{name}" if prefix else name


def with_skip_await(obj: Mapping[str, Any]) -> dict[str, Any]:
    """``skipAwait``: the provider annotates each object ``pulumi.com/skipAwait: "true"``."""
    metadata = dict(obj["metadata"])
    metadata["annotations"] = {**(metadata.get("annotations") or {}), SKIP_AWAIT: "true"}
    return {**obj, "metadata": metadata}


def _reference(obj: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """``(group, kind, namespace, name)``: how the depends-on annotation names an object."""
    metadata = obj["metadata"]
    return (
        _group_version(obj)[0],
        str(obj["kind"]),
        str(metadata.get("namespace") or ""),
        str(metadata["name"]),
    )


def _parse_reference(text: str) -> tuple[str, str, str, str] | None:
    """``<group>/namespaces/<namespace>/<kind>/<name>`` or ``<group>/<kind>/<name>``."""
    parts = text.strip().split("/")
    if len(parts) == 5 and parts[1] == "namespaces":
        return parts[0], parts[3], parts[2], parts[4]
    if len(parts) == 3:
        return parts[0], parts[1], "", parts[2]
    return None


def dependencies(objects: list[dict[str, Any]]) -> list[list[int]]:
    """For each object, the indexes of the objects of the same set it waits for."""
    index = {_reference(obj): i for i, obj in enumerate(objects)}
    crds = {}
    namespaces = {}
    for i, obj in enumerate(objects):
        defined = _defined_kind(obj)
        if defined is not None:
            crds[defined] = i
        elif obj["kind"] == "Namespace" and _group_version(obj)[0] == "":
            namespaces[str(obj["metadata"]["name"])] = i
    waits: list[list[int]] = []
    for i, obj in enumerate(objects):
        group, kind, namespace, _ = _reference(obj)
        found: list[int] = []
        annotations = obj["metadata"].get("annotations") or {}
        for text in str(annotations.get(DEPENDS_ON) or "").split(","):
            reference = _parse_reference(text) if text.strip() else None
            if reference is not None and reference in index:
                found.append(index[reference])
        if (group, kind) in crds:
            found.append(crds[(group, kind)])
        if namespace in namespaces:
            found.append(namespaces[namespace])
        waits.append(sorted({j for j in found if j != i}))
    return waits
