"""gpu_platform.component_provider, started as Pulumi starts a plugin and driven over gRPC: the
schema it answers is the reviewed one, and every hosted component constructs from another
language's inputs (camelCase, numbers as doubles) under ``gpu-platform:index:<Class>``."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format, struct_pb2
from pulumi.output import Unknown
from pulumi.runtime.proto import errors_pb2, provider_pb2, status_pb2

from gpu_platform.component_provider import (
    HOSTED_COMPONENTS,
    NOT_KNOWN,
    schema_text,
    whole_numbers_as_ints,
    wire_problems,
)
from gpu_platform.offline_preview.wire import Secret

from .grpc_engine import ENGINE_REFUSED, PROJECT, STACK, ProviderSession
from .wire_inputs import CHILD_TYPES, WIRE_INPUTS

ROOT = Path(__file__).resolve().parents[2]
REVIEWED_SCHEMA = ROOT / "provider" / "schema.json"

pytestmark = pytest.mark.slow


@pytest.fixture
def session(component_provider: ProviderSession) -> ProviderSession:
    """The provider this test process shares (``tests/conftest.py``)."""
    return component_provider


def construct(session: ProviderSession, component: str, inputs: dict[str, Any], name: str) -> Any:
    request = provider_pb2.ConstructRequest(
        project=PROJECT,
        stack=STACK,
        dryRun=True,
        parallel=4,
        monitorEndpoint=session.monitor_address,
        type=f"gpu-platform:index:{component}",
        name=name,
        inputs=json_format.ParseDict(inputs, struct_pb2.Struct()),
    )
    return session.provider.Construct(request, timeout=60)


def test_the_schema_is_the_reviewed_one(session: ProviderSession) -> None:
    answered = session.provider.GetSchema(provider_pb2.GetSchemaRequest(version=0), timeout=30)
    assert json.loads(answered.schema) == json.loads(REVIEWED_SCHEMA.read_text()), (
        "the provider's schema changed: review it, then regenerate provider/schema.json with "
        "`python -m gpu_platform.component_provider > provider/schema.json`"
    )
    assert schema_text() == REVIEWED_SCHEMA.read_text()
    tokens = {token.rsplit(":", 1)[-1] for token in json.loads(answered.schema)["resources"]}
    assert tokens == set(HOSTED_COMPONENTS)


def test_every_hosted_component_has_wire_inputs_here() -> None:
    assert set(WIRE_INPUTS) == set(HOSTED_COMPONENTS) == set(CHILD_TYPES)


@pytest.mark.parametrize("component", HOSTED_COMPONENTS)
def test_each_component_constructs_from_another_languages_inputs(
    session: ProviderSession, component: str
) -> None:
    name = f"c-{component.lower()}"
    before = len(session.monitor.recorded)  # the shared engine's: other tests' came before
    response = construct(session, component, WIRE_INPUTS[component], name)
    assert response.urn == f"urn:pulumi:{STACK}::{PROJECT}::gpu-platform:index:{component}::{name}"
    registered = session.monitor.recorded[before:]
    children = [r for r in registered if f"gpu-platform:index:{component}$" in r.urn]
    assert CHILD_TYPES[component] <= {r.type for r in children}
    # Every child is named from the component's name (the convention the engine relies on).
    assert all(r.name.startswith(name) for r in children if r.type != "pulumi:providers:kubernetes")


def test_whole_numbers_arrive_as_integers_deep_inside(session: ProviderSession) -> None:
    construct(session, "AksGpuNodePool", WIRE_INPUTS["AksGpuNodePool"], "ints")
    (pool,) = [r for r in session.monitor.recorded if r.name == "ints-pool"]
    assert pool.inputs["count"] == 1
    assert pool.inputs["upgradeSettings"]["drainTimeoutInMinutes"] == 120


def property_errors(err: grpc.RpcError) -> list[tuple[str, str]]:
    # What Pulumi's server packs into the gRPC status details (grpc-status-details-bin).
    metadata = dict(err.trailing_metadata() or ())  # type: ignore[attr-defined]
    status = status_pb2.Status.FromString(metadata["grpc-status-details-bin"])
    found = []
    for detail in status.details:
        errors = errors_pb2.InputPropertiesError()
        detail.Unpack(errors)
        found += [(e.property_path, e.reason) for e in errors.errors]
    return found


def test_a_fractional_count_is_refused_with_its_property_path(session: ProviderSession) -> None:
    inputs = json.loads(json.dumps(WIRE_INPUTS["AksGpuNodePool"]))
    inputs["pool"]["autoscale"] = {"min": 0.5, "max": 3.0}
    del inputs["pool"]["count"]
    del inputs["pool"]["mig"]
    with pytest.raises(grpc.RpcError) as err:
        construct(session, "AksGpuNodePool", inputs, "fraction")
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    paths = [path for path, _ in property_errors(err.value)]
    assert paths == ["pool.autoscale.min"]
    assert "Traceback" not in (err.value.details() or "")


def test_a_bad_value_comes_back_as_a_property_error(session: ProviderSession) -> None:
    pool = {**WIRE_INPUTS["AksGpuNodePool"]["pool"], "vmSize": "Standard_D4ds_v5"}
    inputs = {**WIRE_INPUTS["AksGpuNodePool"], "pool": pool}
    with pytest.raises(grpc.RpcError) as err:
        construct(session, "AksGpuNodePool", inputs, "cpu-size")
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [path for path, _ in property_errors(err.value)] == ["pool.vmSize"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2.0, 2),
        (2.5, 2.5),
        (True, True),
        ({"a": [1.0, {"b": 3.0}], "c": "4.0"}, {"a": [1, {"b": 3}], "c": "4.0"}),
        ([0.0, -7.0, 1e3], [0, -7, 1000]),
    ],
)
def test_whole_numbers_as_ints(value: Any, expected: Any) -> None:
    result = whole_numbers_as_ints(value)
    assert result == expected
    assert json.dumps(result) == json.dumps(expected)


SECRET_SIG = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"  # the wire's unknown value


def _secret(value: Any) -> dict[str, Any]:
    return {**SECRET_SIG, "value": value}


def _with(component: str, **changes: Any) -> dict[str, Any]:
    inputs = json.loads(json.dumps(WIRE_INPUTS[component]))
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        target = inputs
        for key in parents:
            target = target[key]
        target[last] = value
    return inputs


@pytest.mark.parametrize(
    ("component", "inputs", "expected"),
    [
        # Dropped by the SDK's mapping before: a misspelt property changed nothing, silently.
        (
            "AksGpuNodePool",
            _with("AksGpuNodePool", gpuOperater=True),
            [("gpuOperater", "unknown property; did you mean 'gpuOperator'?")],
        ),
        (
            "AksCluster",
            _with("AksCluster", systemPool__bogus=1.0),
            [("systemPool.bogus", "unknown property")],
        ),
        # An object given as a number or a secret became {}, blamed on a field inside it.
        (
            "AksGpuNodePool",
            _with("AksGpuNodePool", pool=5.5),
            [("pool", "expected a map, got 5.5")],
        ),
        (
            "AksCluster",
            _with("AksCluster", systemPool="large"),
            [("systemPool", "expected a map, got 'large'")],
        ),
        (
            "AksGpuNodePool",
            _with("AksGpuNodePool", pool__vmSize=_secret("Standard_ND96asr_v4")),
            [("pool", NOT_KNOWN)],
        ),
        # Tracebacks before: a list where a string goes, an integer known only after apply.
        (
            "AksGpuNodePool",
            _with("AksGpuNodePool", clusterName=["a", 1.0]),
            [("clusterName", "expected a string, got a list")],
        ),
        (
            "AksGpuNodePool",
            _with("AksGpuNodePool", pool__count=UNKNOWN),
            [("pool.count", NOT_KNOWN)],
        ),
        (
            "AckCluster",
            _with("AckCluster", kubeconfigMinutes=[1.0]),
            [("kubeconfigMinutes", "expected a whole number, got a list")],
        ),
        (
            "AksMonitoring",
            _with("AksMonitoring", logNamespaces=UNKNOWN),
            [("logNamespaces", NOT_KNOWN)],
        ),
        ("AckGpuSharing", _with("AckGpuSharing", pools=_secret([])), [("pools", NOT_KNOWN)]),
        # A wrong type the SDK blamed on the parent ("pool"), every problem at once.
        (
            "AksGpuNodePool",
            _with("AksGpuNodePool", pool__count="two", pool__maxPods=True, resourceGroupName=None),
            [
                ("pool.count", "expected a whole number, got 'two'"),
                ("pool.maxPods", "expected a whole number, got true"),
                ("resourceGroupName", "required"),
            ],
        ),
    ],
)
def test_inputs_the_schema_refuses_come_back_as_property_errors(
    session: ProviderSession,
    component: str,
    inputs: dict[str, Any],
    expected: list[tuple[str, str]],
) -> None:
    before = len(session.monitor.recorded)
    with pytest.raises(grpc.RpcError) as err:
        construct(session, component, inputs, "refused")
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert sorted(property_errors(err.value)) == sorted(expected)
    assert len(session.monitor.recorded) == before  # nothing registered


def test_secrets_and_unknowns_pass_where_the_schema_takes_an_output(
    session: ProviderSession,
) -> None:
    inputs = _with("AksGpuNodePool", clusterName=_secret("gpu-dev"), resourceGroupName=UNKNOWN)
    construct(session, "AksGpuNodePool", inputs, "outputs")
    (pool,) = [r for r in session.monitor.recorded if r.name == "outputs-pool"]
    assert isinstance(pool.inputs["resourceName"], Secret)


@pytest.mark.parametrize(
    ("value", "spec", "expected"),
    [
        (1, {"type": "boolean"}, [("p", "expected true or false, got 1")]),
        (True, {"type": "number"}, [("p", "expected a number, got true")]),
        (2.5, {"type": "number"}, []),
        (
            {"a": 1},
            {"type": "object", "additionalProperties": {"type": "string"}},
            [("p.a", "expected a string, got 1")],
        ),
        (
            [1, "x"],
            {"type": "array", "items": {"type": "integer"}},
            [("p[1]", "expected a whole number, got 'x'")],
        ),
        ("anything", {"$ref": "pulumi.json#/Any"}, []),
        (Unknown(), {"type": "string"}, []),
        (Unknown(), {"type": "string", "plain": True}, [("p", NOT_KNOWN)]),
    ],
)
def test_wire_problems(value: Any, spec: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert wire_problems({"p": value}, {"p": spec}, [], {}) == expected


def test_a_construct_the_engine_fails_is_reported_once_and_the_provider_goes_on(
    session: ProviderSession,
) -> None:
    """An AgentPool the engine refuses fails its Construct; the SDK fails every output of it,
    which CPython would log one traceback each (6,254 lines); it is logged once, and the
    provider serves the next Constructs."""
    pool = f"{ENGINE_REFUSED}-pool"  # the shared engine refuses it (tests/conftest.py)
    logged = len(session.stderr)  # the provider's log before this test: other tests'

    def log() -> str:
        return "".join(session.stderr[logged:])

    with pytest.raises(grpc.RpcError) as err:
        construct(session, "AksGpuNodePool", WIRE_INPUTS["AksGpuNodePool"], ENGINE_REFUSED)
    assert err.value.code() == grpc.StatusCode.INTERNAL
    assert f"the engine refuses {pool!r}" in (err.value.details() or "")
    assert 'File "' not in (err.value.details() or "")  # no stack to the caller
    # CPython logs an unretrieved future when its cycle is collected: the next Construct
    # collects what the failed one left.
    construct(session, "AksGpuNodePool", WIRE_INPUTS["AksGpuNodePool"], "next")
    time.sleep(0.2)  # the engine's reader thread
    assert log().count("exception was never retrieved") == 1
    construct(session, "AksGpuNodePool", WIRE_INPUTS["AksGpuNodePool"], "last")
    time.sleep(0.2)
    stderr = log()
    assert stderr.count("exception was never retrieved") == 1, stderr[:2000]
