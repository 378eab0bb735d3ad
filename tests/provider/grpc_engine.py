"""A Pulumi engine for the component provider to talk to, over real gRPC: the offline
preview's recording monitor (the SDK's ``MockMonitor`` underneath) as a ``ResourceMonitor``
service, and an ``Engine`` service that keeps the provider's log lines.

The provider is started as the Python language host starts a plugin
(``python provider <engine-address>``), so everything it sends crosses the wire: numbers as
doubles, resource references as Pulumi's special signatures, errors as gRPC statuses.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import empty_pb2
from pulumi.runtime.proto import (
    engine_pb2,
    engine_pb2_grpc,
    provider_pb2_grpc,
    resource_pb2,
    resource_pb2_grpc,
)

from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor

ROOT = Path(__file__).resolve().parents[2]
PROJECT, STACK = "consumer", "test"
ENGINE_REFUSED = "engine-refused"
"""A component whose pool the shared engine refuses to register (``tests/conftest.py``'s
``component_provider``), as it refuses a duplicate URN."""

MONITOR_METHODS = (
    "RegisterResource",
    "RegisterResourceOutputs",
    "Invoke",
    "ReadResource",
    "RegisterPackage",
    "RegisterStackTransform",
    "RegisterStackInvokeTransform",
    "RegisterResourceHook",
    "RegisterErrorHook",
    "GetDeploymentInfo",
    "SignalAndWaitForShutdown",
)


class _Monitor(RecordingMonitor):
    refused: frozenset[str] = frozenset()
    """Names whose registration the engine refuses (as it refuses a duplicate URN)."""

    def RegisterResource(self, request: Any) -> Any:
        if request.name in self.refused:
            raise RuntimeError(f"the engine refuses {request.name!r}")
        return super().RegisterResource(request)

    def make_urn(self, parent: str, type_: str, name: str) -> str:
        # The SDK's mock builds URNs from this process's Pulumi settings, which a test that
        # only serves the monitor does not have: the request's project and stack are ours.
        qualified = parent.split("::")[-2] + "$" + type_ if parent else type_
        return f"urn:pulumi:{STACK}::{PROJECT}::{qualified}::{name}"


def _monitor_servicer(monitor: RecordingMonitor) -> resource_pb2_grpc.ResourceMonitorServicer:
    servicer = resource_pb2_grpc.ResourceMonitorServicer()
    for method in MONITOR_METHODS:
        setattr(
            servicer,
            method,
            lambda request, _context, method=method: getattr(monitor, method)(request),
        )

    def supports_feature(request: Any, _context: Any) -> resource_pb2.SupportsFeatureResponse:
        # The SDK's mock answers with a plain object, which gRPC cannot send.
        answer = monitor.SupportsFeature(request)
        return resource_pb2.SupportsFeatureResponse(hasSupport=answer.hasSupport)

    servicer.SupportsFeature = supports_feature  # type: ignore[method-assign]
    return servicer


@dataclass
class _Engine(engine_pb2_grpc.EngineServicer):
    logs: list[str] = field(default_factory=list)

    def Log(self, request: Any, context: Any) -> empty_pb2.Empty:
        self.logs.append(request.message)
        return empty_pb2.Empty()

    def GetRootResource(self, request: Any, context: Any) -> Any:
        return engine_pb2.GetRootResourceResponse(urn="")

    def SetRootResource(self, request: Any, context: Any) -> Any:
        return engine_pb2.SetRootResourceResponse()


@dataclass
class ProviderSession:
    """A running provider and the engine it talks to."""

    provider: provider_pb2_grpc.ResourceProviderStub
    monitor: RecordingMonitor
    monitor_address: str
    engine: _Engine
    started_in: float
    stderr: list[str]
    """The provider's stderr lines so far."""


@contextmanager
def provider_session(
    existing: dict[str, str],
    plugin_dir: Path = ROOT / "provider",
    refused: frozenset[str] = frozenset(),
) -> Iterator[ProviderSession]:
    """Serve an engine and a monitor that already holds the ``existing`` resources (URN -> ID)
    and refuses to register the ``refused`` names, start the provider as Pulumi would, yield
    both ends."""
    import time

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    monitor = _Monitor(PreviewMocks())
    monitor.refused = refused
    for urn, resource_id in existing.items():
        # What the program registered before: a resource reference in the inputs is read
        # back (``pulumi:pulumi:getResource``) from the engine's state.
        monitor.resources[urn] = RecordingMonitor.ResourceRegistration(urn, resource_id, {})
    engine = _Engine()
    resource_pb2_grpc.add_ResourceMonitorServicer_to_server(_monitor_servicer(monitor), server)
    engine_pb2_grpc.add_EngineServicer_to_server(engine, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    address = f"127.0.0.1:{port}"
    start = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, str(plugin_dir), address],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    # The engine reads a plugin's stderr as it comes; a pipe nobody reads fills (64 KiB) and
    # stops the provider at its next write.
    stderr: list[str] = []
    pipe = process.stderr
    assert pipe is not None
    drain = threading.Thread(
        target=lambda: stderr.extend(line.decode() for line in pipe), daemon=True
    )
    drain.start()
    try:
        assert process.stdout is not None
        provider_port = process.stdout.readline().decode().strip()
        if not provider_port.isdigit():
            process.wait(timeout=30)
            drain.join(timeout=5)
            raise AssertionError("".join(stderr))
        channel = grpc.insecure_channel(f"127.0.0.1:{provider_port}")
        grpc.channel_ready_future(channel).result(timeout=30)
        yield ProviderSession(
            provider_pb2_grpc.ResourceProviderStub(channel),
            monitor,
            address,
            engine,
            time.monotonic() - start,
            stderr,
        )
        channel.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
        server.stop(grace=None)
