"""The dependency graph of a plan: what each resource waits for before the engine creates it.

A resource waits for
- its ``dependsOn``: the resources it names in ``depends_on`` and every resource whose
  outputs its inputs use (the SDK sends both as one list, components expanded to the custom
  resources under them);
- its provider (a Kubernetes object waits for the provider, whose kubeconfig comes from the
  cluster);
- its parent: a child's registration needs the parent's URN, which the SDK resolves only after
  the parent's own ``depends_on`` is done, so a component's dependencies hold its children back
  too.

The functions here take plain records (``urn``, ``type``, ``parent``, ``dependsOn``), the shape
of the JSON plan, so they work on a recorded run, on a plan file and on hand-made graphs alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .engine import RecordedResource


def provider_urn(reference: str) -> str:
    """The URN of a provider reference (``<urn>::<id>``); empty for no reference."""
    return reference.rsplit("::", 1)[0] if reference else ""


def depends_on(resource: RecordedResource, recorded: set[str]) -> list[str]:
    """The resources ``resource`` names as dependencies, and its provider, among ``recorded``
    (a default provider is the engine's, not the program's), sorted."""
    urns = set(resource.dependencies)
    provider = provider_urn(resource.provider)
    if provider in recorded:
        urns.add(provider)
    return sorted(urns & recorded)


def waits_for(resources: Iterable[Mapping[str, Any]]) -> dict[str, frozenset[str]]:
    """Per URN, what it waits for directly: its ``dependsOn`` and its parent (when recorded)."""
    records = list(resources)
    known = {r["urn"] for r in records}
    graph: dict[str, frozenset[str]] = {}
    for r in records:
        edges = set(r.get("dependsOn", ())) & known
        if r.get("parent") in known:
            edges.add(r["parent"])
        graph[r["urn"]] = frozenset(edges)
    return graph


def downstream(graph: Mapping[str, Iterable[str]], urn: str) -> set[str]:
    """Every resource that waits for ``urn``, directly or through others."""
    dependents: dict[str, set[str]] = {}
    for node, edges in graph.items():
        for edge in edges:
            dependents.setdefault(edge, set()).add(node)
    found: set[str] = set()
    todo = [urn]
    while todo:
        for node in dependents.get(todo.pop(), ()):
            if node not in found:
                found.add(node)
                todo.append(node)
    return found
