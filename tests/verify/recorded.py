"""The recorded cluster of tests/data/verify as a ``ClusterReader`` would return it, without an
API server: for the units that only read what the reader hands them (snapshot, verify)."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpu_platform.verify.answers import BadAnswer
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.expectations import Expectations, expectations
from tests.stacks.test_verify import KINDS

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "verify"


def recorded_expectations() -> Expectations:
    """What the recorded cluster's stack (Pulumi.verify.yaml) expects."""
    return expectations(load_stack(ROOT, "verify", DATA / "Pulumi.verify.yaml"))


def _items(kind: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads((DATA / f"{kind}.json").read_text())["items"]
    return items


def _in(namespace: str | None, obj: dict[str, Any]) -> bool:
    return namespace is None or obj["metadata"].get("namespace") == namespace


@dataclass
class RecordedReader:
    """The reader's calls answered from the recording; every call is noted in ``calls``."""

    server: str = "https://recorded"
    calls: list[str] = field(default_factory=list)
    bad_answers: list[BadAnswer] = field(default_factory=list)
    """Answers that were not what was asked for: none in a recording."""
    kinds: dict[str, list[dict[str, Any]]] = field(
        default_factory=lambda: {kind: _items(kind) for kind in KINDS}
    )

    def _list(self, call: str, kind: str, namespace: str | None = None) -> list[dict[str, Any]]:
        self.calls.append(call)
        return copy.deepcopy([o for o in self.kinds[kind] if _in(namespace, o)])

    def nodes(self, label_selector: str) -> list[dict[str, Any]]:
        key, _, value = label_selector.partition("=")
        found = self._list(f"nodes {label_selector}", "nodes")
        return [n for n in found if (n["metadata"].get("labels") or {}).get(key) == value]

    def daemonsets(self, namespace: str | None = None) -> list[dict[str, Any]]:
        return self._list(f"daemonsets {namespace or '*'}", "daemonsets", namespace)

    def pods(self, namespace: str) -> list[dict[str, Any]]:
        return self._list(f"pods {namespace}", "pods", namespace)

    def network_policies(self, namespace: str) -> list[dict[str, Any]]:
        return self._list(f"networkpolicies {namespace}", "networkpolicies", namespace)

    def resource_quotas(self, namespace: str) -> list[dict[str, Any]]:
        return self._list(f"resourcequotas {namespace}", "resourcequotas", namespace)

    def limit_ranges(self, namespace: str) -> list[dict[str, Any]]:
        return self._list(f"limitranges {namespace}", "limitranges", namespace)

    def admission_bindings(self) -> list[dict[str, Any]]:
        return self._list("bindings", "validatingadmissionpolicybindings")

    def namespace(self, name: str) -> dict[str, Any] | None:
        found = [
            n
            for n in self._list(f"namespace {name}", "namespaces")
            if n["metadata"]["name"] == name
        ]
        return found[0] if found else None
