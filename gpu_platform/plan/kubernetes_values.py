"""Label and annotation keys and values, judged by Kubernetes' own rules (apimachinery's
``IsQualifiedName`` and ``IsValidLabelValue``, ``gpu_facts.name_rules``) before the API server
or the kubelet refuses them. Node pool labels, namespace labels and annotations ask here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gpu_facts.kubernetes_syntax import ANNOTATIONS_MAX_BYTES, RESERVED_LABEL_DOMAINS
from gpu_facts.name_rules import DNS1123_SUBDOMAIN, LABEL_NAME, LABEL_VALUE

from .names import name_problem
from .problems import Problem

KEY_RULE = "keys are [prefix/]name: an optional DNS subdomain prefix and one '/'"


def _key_detail(key: str) -> str | None:
    """What breaks ``key`` as a qualified name (apimachinery ``IsQualifiedName``), or None."""
    parts = key.split("/")
    if len(parts) > 2:
        return f"{KEY_RULE}, not {len(parts) - 1}"
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            return "the prefix before '/' is empty"
        if not DNS1123_SUBDOMAIN.matches(prefix):
            return f"its prefix {prefix!r} must be {DNS1123_SUBDOMAIN.text}"
    if not name:
        return "the name after the prefix is empty"
    if not LABEL_NAME.matches(name):
        size = f" ({len(name)} characters)" if len(name) > LABEL_NAME.max_length else ""
        return f"its name {name!r}{size} must be {LABEL_NAME.text} ({KEY_RULE})"
    return None


def qualified_name_problem(key: str, what: str = "label key") -> str | None:
    """Why ``key`` is no Kubernetes label (or annotation) key, or None."""
    detail = _key_detail(key)
    return None if detail is None else f"{key!r} is not a Kubernetes {what}: {detail}"


def in_domain(key: str, domains: Sequence[str]) -> str | None:
    """The domain of ``domains`` the key's prefix is (or is a subdomain of), or None."""
    prefix = key.rpartition("/")[0]
    for domain in domains:
        if prefix == domain or prefix.endswith("." + domain):
            return domain
    return None


def label_value_problem(value: str) -> str | None:
    return name_problem(LABEL_VALUE, value)


def kubernetes_label_problems(
    labels: Mapping[str, str], reserved: Sequence[str] = RESERVED_LABEL_DOMAINS
) -> list[Problem]:
    """(key, why) of each label Kubernetes refuses: a bad key, a key in a ``reserved`` domain
    (Kubernetes' own by default), a bad value."""
    problems: list[Problem] = []
    for key, value in labels.items():
        problem = qualified_name_problem(key)
        domain = None if problem else in_domain(key, reserved)
        if domain is not None:
            problem = (
                f"the {domain} label domain is reserved for Kubernetes' own components (and the "
                "kubelet refuses it on nodes); choose another prefix"
            )
        if problem is None:
            problem = label_value_problem(value)
        if problem is not None:
            problems.append((key, problem))
    return problems


def annotation_problems(annotations: Mapping[str, str]) -> list[Problem]:
    """(key, why) of each annotation key Kubernetes refuses (checked lower-cased, as the API
    server does), and ("", why) when all of them together are too large."""
    problems: list[Problem] = []
    for key in annotations:
        detail = _key_detail(key.lower())
        if detail is not None:
            problems.append((key, f"{key!r} is not a Kubernetes annotation key: {detail}"))
    size = sum(len(k.encode()) + len(v.encode()) for k, v in annotations.items())
    if size > ANNOTATIONS_MAX_BYTES:
        problems.append(
            (
                "",
                f"{size} bytes of keys and values; Kubernetes takes at most "
                f"{ANNOTATIONS_MAX_BYTES} (256 KiB) of annotations on one object",
            )
        )
    return problems
