"""Namespaces are known on a brand-new stack's first preview.

There the Kubernetes provider's kubeconfig is unknown, so no output of any Kubernetes resource
is known. Every namespaced object must still carry its namespace as the configured string (the
policy pack judges it, exemptions included) and wait for its Namespace through depends_on.
The mocks below answer every Namespace with an unknown ``metadata``: a component that took the name
from the Namespace's output would register its children without one.
"""

from __future__ import annotations

from typing import Any

import pytest
from pulumi.runtime import mocks, rpc

from gpu_facts.ack.addons import ACK_SYSTEM_NAMESPACE
from gpu_platform.components.platform import GpuPlatform
from gpu_platform.offline_preview import ProgramRun, RecordedResource
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from gpu_platform.stack_config import load_platform
from tests.conftest import by_type, run, run_once, stack_raw

NAMESPACE = "kubernetes:core/v1:Namespace"
RELEASE = "kubernetes:helm.sh/v3:Release"


class NamespacesWithoutOutputs(PreviewMocks):
    """Namespaces answer with an unknown ``metadata``, as on a cluster whose kubeconfig is
    unknown. (Off preview the SDK resolves an unknown to None; a missing output would fall
    back to the input, so it must be sent, not left out.)"""

    def new_resource(self, args: mocks.MockResourceArgs) -> tuple[str | None, dict]:
        resource_id, outputs = super().new_resource(args)
        if args.typ == NAMESPACE:
            outputs = {**outputs, "metadata": rpc.UNKNOWN}
        return resource_id, outputs


def _raw(stack: str, change: str) -> dict[str, Any]:
    raw = stack_raw(stack)
    if change == "gpu-operator":
        raw["devicePlugin"] = {**raw["devicePlugin"], "enabled": False}
        raw["gpuOperator"] = {"enabled": True}
    if change == "mps-pool-min-1":  # an MPS pool that is always there gets its check
        raw["gpuPools"] = [
            {**p, "autoscale": {**p["autoscale"], "min": 1}} if p["name"] == "a10mps" else p
            for p in raw["gpuPools"]
        ]
    return raw


@run_once
def _platform_run(stack: str, change: str) -> tuple[ProgramRun, dict[str, dict[str, Any]]]:
    """The run, and the outputs each component registered (shared by both tests of a case)."""
    platform = load_platform(_raw(stack, change))
    monitor = RecordingMonitor(NamespacesWithoutOutputs())
    result = run(lambda: GpuPlatform("plat", platform), monitor=monitor)
    return result, monitor.registered_outputs


def _namespace_of(resource: RecordedResource) -> Any:
    if resource.type == RELEASE:
        return resource.inputs.get("namespace")
    metadata = resource.inputs.get("metadata")
    return metadata.get("namespace") if isinstance(metadata, dict) else None


CASES = [("dev", ""), ("dev", "gpu-operator"), ("ack-dev", "mps-pool-min-1")]


@pytest.mark.parametrize(("stack", "change"), CASES)
def test_every_namespaced_child_has_its_configured_namespace_and_waits_for_it(
    stack: str, change: str
) -> None:
    result, _ = _platform_run(stack, change)
    namespaces = {r.inputs["metadata"]["name"]: r.urn for r in by_type(result, NAMESPACE)}
    children = [
        r
        for r in result.resources
        if r.custom and r.type != NAMESPACE and _namespace_of(r) is not None
    ]
    namespaced_kinds = {r.type for r in children}
    assert "kubernetes:networking.k8s.io/v1:NetworkPolicy" in namespaced_kinds
    assert "kubernetes:core/v1:ResourceQuota" in namespaced_kinds
    assert RELEASE in namespaced_kinds
    homed = 0
    for child in children:
        namespace = _namespace_of(child)
        assert isinstance(namespace, str), child.name
        if namespace == ACK_SYSTEM_NAMESPACE and namespace not in namespaces:
            continue  # ACK's own namespace: it exists before the stack
        assert namespace in namespaces, f"{child.name}: {namespace!r}"
        assert namespaces[namespace] in child.dependencies, child.name
        homed += 1
    # Every Namespace the stack creates holds something that waits for it.
    used = {_namespace_of(c) for c in children}
    assert set(namespaces) <= used
    assert homed > 0


@pytest.mark.parametrize(("stack", "change"), CASES)
def test_namespace_outputs_are_the_configured_names(stack: str, change: str) -> None:
    result, registered_outputs = _platform_run(stack, change)
    namespaces = {r.inputs["metadata"]["name"] for r in by_type(result, NAMESPACE)}
    names = {
        value
        for outputs in registered_outputs.values()
        for key, value in outputs.items()
        if key in ("namespace", "mpsNamespace") and value is not None
    }
    assert names, "the components export their namespaces"
    assert names <= namespaces
