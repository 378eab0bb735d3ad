"""verify.dra_verify: what the DRA part reads and which rows it gives, in order, from a reader
that answers from memory. The whole run against a fake API server:
tests/stacks/test_verify_dra.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpu_platform.stack_config import load_platform
from gpu_platform.verify.dra_expectations import dra_expectation
from gpu_platform.verify.dra_verify import verify_dra
from tests.conftest import stack_raw


@dataclass
class Reader:
    """The reads verify_dra makes, answered with nothing but the DeviceClasses."""

    calls: list[str] = field(default_factory=list)

    def daemonsets(self, namespace: str | None = None) -> list[Any]:
        self.calls.append(f"daemonsets {namespace}")
        return []

    def pods(self, namespace: str) -> list[Any]:
        self.calls.append(f"pods {namespace}")
        return []

    def resource_slices(self, driver: str) -> list[Any]:
        self.calls.append(f"resourceslices {driver}")
        return []

    def device_classes(self) -> list[Any]:
        self.calls.append("deviceclasses")
        return [{"metadata": {"name": "gpu.nvidia.com"}}]

    def node_pods(self, node: str) -> list[Any]:
        self.calls.append(f"node pods {node}")
        return []


def test_an_empty_cluster_fails_every_promise_once() -> None:
    dra = dra_expectation(load_platform(stack_raw("dra-dev")))
    assert dra is not None
    reader = Reader()
    rows = verify_dra(reader, dra, lambda _: None, pool_nodes={}, quotas={})  # type: ignore[arg-type]
    assert reader.calls == [
        "daemonsets nvidia-dra-driver-gpu",
        "pods nvidia-dra-driver-gpu",
        "resourceslices gpu.nvidia.com",
        "deviceclasses",
    ]
    assert [(r.check, r.subject, r.status) for r in rows] == [
        ("node-count", "pool/h100dra", "pass"),  # 0 to 2 nodes
        ("node-count", "pool/a100dramig", "fail"),  # always one node
        ("device-class", "deviceclass/gpu.nvidia.com", "pass"),
        ("device-class", "deviceclass/mig.nvidia.com", "fail"),
        ("device-class", "deviceclass/vfio.gpu.nvidia.com", "fail"),
    ]
