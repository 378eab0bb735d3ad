"""The component provider, started as Pulumi starts it and driven over gRPC with what a
hostile or careless program in another language sends: a type it does not host, a function
it does not have, values of a megabyte, a count of 1e300, ten thousand unknown properties.
Each answer is a clear status (INVALID_ARGUMENT with the property paths, or UNIMPLEMENTED)
without stack frames, small enough to pass gRPC's metadata limit (8 KiB), and the provider
keeps serving."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from google.protobuf import json_format, struct_pb2
from pulumi.runtime.proto import provider_pb2

from tests.provider.grpc_engine import PROJECT, STACK, ProviderSession
from tests.provider.test_component_provider import construct, property_errors
from tests.provider.wire_inputs import WIRE_INPUTS

pytestmark = pytest.mark.slow
MEGABYTE = "x" * 1024 * 1024
METADATA_LIMIT = 8 * 1024


def _pool(**changes: Any) -> dict[str, Any]:
    inputs = json.loads(json.dumps(WIRE_INPUTS["AksGpuNodePool"]))
    inputs["pool"].update(changes)
    return inputs


@dataclass(frozen=True)
class HostileInput:
    name: str
    component: str
    inputs: dict[str, Any]
    paths: list[str]
    """The property paths the error names (the first ten of them)."""
    reason: str
    """What the first path's reason ends with (a huge value it quotes is cut in the middle)."""


INPUTS = [
    HostileInput("a name of a megabyte", "AksGpuNodePool", _pool(name=MEGABYTE), ["pool.name"],
                 "starting with a letter (AKS's rule for Microsoft.ContainerService/managedClusters"
                 "/agentPools, kept on every cloud)"),
    HostileInput("a count of 1e300", "AksGpuNodePool", _pool(count=1e300), ["pool.count"],
                 "split it into several pools"),
    HostileInput("a count of 10^12", "AksGpuNodePool", _pool(count=1e12), ["pool.count"],
                 "split it into several pools"),
    HostileInput("ten thousand unknown properties", "AksGpuNodePool",
                 {**WIRE_INPUTS["AksGpuNodePool"], **{f"bogus{i:05}": 1.0 for i in range(10_000)}},
                 ["bogus"] * 10, "unknown property"),
    HostileInput("an unknown property named by a megabyte", "AksGpuNodePool",
                 {**WIRE_INPUTS["AksGpuNodePool"], MEGABYTE: 1.0},
                 [MEGABYTE[:120] + "... (1048576 characters)"], "unknown property"),
    HostileInput("a list where a string goes", "AksGpuNodePool",
                 {**WIRE_INPUTS["AksGpuNodePool"], "clusterName": [MEGABYTE]},
                 ["clusterName"], "expected a string, got a list"),
]  # fmt: skip


UNHOSTED = ["an unknown type", "an unknown type of a megabyte", "an invoke", "a call"]
"""The requests for what it does not host, two tests."""


@pytest.fixture
def session(component_provider: ProviderSession) -> ProviderSession:
    """The provider this test process shares (``tests/conftest.py``)."""
    return component_provider


def _metadata_size(err: grpc.RpcError) -> int:
    metadata = err.trailing_metadata() or ()  # type: ignore[attr-defined]
    return len(err.details() or "") + sum(len(k) + len(v) for k, v in metadata)


@pytest.mark.parametrize("case", INPUTS, ids=[c.name for c in INPUTS])
def test_a_hostile_input_gets_its_property_paths_back_within_the_metadata_limit(
    case: HostileInput, session: ProviderSession
) -> None:
    with pytest.raises(grpc.RpcError) as err:
        construct(session, case.component, case.inputs, "hostile")
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
    found = property_errors(err.value)
    shown = [path[: len(expected)] for (path, _), expected in zip(found, case.paths, strict=True)]
    assert shown == case.paths
    assert found[0][1].endswith(case.reason), found[0][1]
    assert _metadata_size(err.value) < METADATA_LIMIT
    assert 'File "' not in (err.value.details() or "")
    if len(case.paths) == 10:  # the first ten, and how many more
        assert (err.value.details() or "").endswith("; and 9990 more")


def test_a_type_it_does_not_host_is_invalid_argument_naming_it(session: ProviderSession) -> None:
    for token in ("gpu-platform:index:Nope", "gpu-platform:index:" + MEGABYTE):
        request = provider_pb2.ConstructRequest(
            project=PROJECT,
            stack=STACK,
            monitorEndpoint=session.monitor_address,
            type=token,
            name="x",
            inputs=json_format.ParseDict({}, struct_pb2.Struct()),
        )
        with pytest.raises(grpc.RpcError) as err:
            session.provider.Construct(request, timeout=60)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        details = err.value.details() or ""
        assert details.startswith(token[:60])
        assert "not a component this provider hosts; it hosts AckCluster, " in details
        assert len(details) < 2000 and 'File "' not in details


def test_functions_and_methods_are_unimplemented_naming_them(session: ProviderSession) -> None:
    token = "gpu-platform:index:getGpuPools"
    for call in (
        lambda: session.provider.Invoke(provider_pb2.InvokeRequest(tok=token), timeout=30),
        lambda: session.provider.Call(provider_pb2.CallRequest(tok=token), timeout=30),
    ):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.UNIMPLEMENTED
        assert (err.value.details() or "").startswith(
            f"{token}: this provider has no functions or methods"
        )


def test_the_provider_keeps_serving_after_every_refusal(session: ProviderSession) -> None:
    """Run last in this module: every refusal above came first."""
    answer = construct(session, "AksGpuNodePool", WIRE_INPUTS["AksGpuNodePool"], "after")
    assert answer.urn.endswith("gpu-platform:index:AksGpuNodePool::after")
