"""A kubeconfig file an existing cluster is reached with, checked as client-go loads and
validates it (``tools/clientcmd``: ``Load``, ``Validate``, ``ConfirmUsable``) before the
provider gets it: it exists and reads as text, parses as one YAML mapping, is a ``v1``
``Config`` with clusters, contexts and users, and the context to use exists with its cluster
(and its server) and user.

The file holds credentials: no message quotes its content, only its path, the line and column
of a YAML error, and the names of contexts, clusters and users.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from .problems import Problem

KUBECONFIG_DOC = (
    "https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/"
)
MAX_BYTES = 16 * 2**20
"""Far above any kubeconfig (a few KiB; exec plugins and embedded certificates stay small):
a bigger file is not one, and is not read whole."""


def _named(entries: object, what: str) -> tuple[dict[str, Mapping[str, Any]], str | None]:
    """``name -> entry`` of a ``clusters``/``contexts``/``users`` list, or why it is not one."""
    if entries is None:
        return {}, None
    if not isinstance(entries, list):
        return {}, f"{what} is not a list"
    named: dict[str, Mapping[str, Any]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            return {}, f"{what}[{i}] has no name"
        body = entry.get(what.removesuffix("s"))  # clusters[].cluster, users[].user
        named[entry["name"]] = body if isinstance(body, Mapping) else {}
    return named, None


def _read(path: str) -> tuple[object, str | None]:
    """The file's YAML, or why it cannot be had (never its content)."""
    file = Path(path).expanduser()
    if not file.exists():
        return None, f"no kubeconfig file at {path!r}"
    if not file.is_file():
        return None, f"{path!r} is not a file"
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as err:
        return None, f"cannot read {path!r}: {err.strerror or type(err).__name__}"
    if len(data) > MAX_BYTES:
        return None, f"{path!r} is over {MAX_BYTES // 2**20} MiB: not a kubeconfig"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, f"{path!r} is not a text file (UTF-8)"
    try:
        return yaml.safe_load(text), None
    except RecursionError:
        return None, f"{path!r} is not a kubeconfig: nested too deep to read"
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        return None, f"{path!r} is not YAML{where}"


def kubeconfig_problems(path: str, context: str | None = None) -> list[Problem]:
    """Problems of a kubeconfig file and the context to use (``context``, else the file's
    ``current-context``): ``("kubeconfigPath", why)`` or ``("context", why)``."""
    config, unreadable = _read(path)
    if unreadable is not None:
        return [("kubeconfigPath", unreadable)]
    not_one = f"{path!r} is not a kubeconfig ({KUBECONFIG_DOC})"
    if not isinstance(config, Mapping) or not config:
        return [("kubeconfigPath", f"{not_one}: a YAML mapping with clusters, contexts and users")]
    kind, version = config.get("kind", "Config"), config.get("apiVersion", "v1")
    if kind != "Config" or version != "v1":
        return [
            ("kubeconfigPath", f"{not_one}: kind {kind!r}, apiVersion {version!r}, not Config, v1")
        ]
    sections = {what: _named(config.get(what), what) for what in ("clusters", "contexts", "users")}
    for _, problem in sections.values():
        if problem is not None:
            return [("kubeconfigPath", f"{not_one}: {problem}")]
    clusters, contexts, users = (sections[w][0] for w in ("clusters", "contexts", "users"))
    if not contexts:
        return [("kubeconfigPath", f"{not_one}: it has no contexts")]
    current = config.get("current-context")
    chosen = context or (current if isinstance(current, str) and current else None)
    if chosen is None:
        return [
            (
                "context",
                f"{path!r} sets no current-context: name one of its contexts "
                f"({', '.join(sorted(contexts))})",
            )
        ]
    at = "context" if context else "kubeconfigPath"
    if chosen not in contexts:
        return [
            (at, f"no context {chosen!r} in {path!r}; its contexts: {', '.join(sorted(contexts))}")
        ]
    entry = contexts[chosen]
    cluster, user = entry.get("cluster"), entry.get("user")
    if not isinstance(cluster, str) or cluster not in clusters:
        return [(at, f"context {chosen!r} of {path!r} names no cluster of the file ({cluster!r})")]
    if not clusters[cluster].get("server"):
        return [(at, f"cluster {cluster!r} of {path!r} has no server")]
    if not isinstance(user, str) or user not in users:
        return [(at, f"context {chosen!r} of {path!r} names no user of the file ({user!r})")]
    return []
