"""Run a Pulumi Python program on Pulumi's mock engine and record what it registers.

The program runs unmodified, as in ``pulumi preview``: its resources go through the SDK's real
serialization to a mock resource monitor, which records every registration (type, name,
parent, options and the inputs as the engine would receive them) and answers with the inputs
plus deterministic stand-ins for what clouds compute. The SDK runs in preview mode, so every
other output is unknown, exactly as a real preview leaves it: ``apply`` callbacks on it do not
run, and an input built from it is recorded as ``Unknown``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import runpy
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi
from pulumi.runtime import mocks, rpc, settings
from pulumi.runtime.proto import provider_pb2, resource_pb2
from pulumi.runtime.stack import run_pulumi_func
from pulumi.runtime.sync_await import _sync_await

from .cloud_outputs import computed_outputs, invoke_result
from .user_mocks import UserMocks
from .wire import UNKNOWN, Secret, Unknown, contains_unknown, from_struct, markers, reveal

__all__ = [
    "InvokeRecord",
    "PreviewMocks",
    "ProgramRun",
    "RecordedResource",
    "RecordingMonitor",
    "Secret",
    "Unknown",
    "reveal",
    "run_callable",
    "run_program",
]


@dataclass
class RecordedResource:
    """One registration, as the engine saw it."""

    urn: str
    type: str
    name: str
    custom: bool
    parent: str | None
    inputs: dict[str, Any]
    """Inputs with camelCase wire keys; secrets are ``Secret`` markers, values known only
    after apply ``Unknown``; a resource passed as an input is its ID (a component: its URN)."""
    outputs: dict[str, Any] = field(default_factory=dict)
    provider: str = ""
    protect: bool = False
    replace_on_changes: list[str] = field(default_factory=list)
    delete_before_replace: bool = False
    ignore_changes: list[str] = field(default_factory=list)
    retain_on_delete: bool = False
    dependencies: list[str] = field(default_factory=list)
    property_dependencies: dict[str, list[str]] = field(default_factory=dict)
    aliases: list[str] = field(default_factory=list)
    remote: bool = False
    """A component a provider plugin builds (pulumi-eks, awsx, Helm v4 ``Chart``): offline
    only the component itself is known, with its inputs."""


@dataclass(frozen=True)
class InvokeRecord:
    token: str
    answered: bool
    """False when the offline engine had no result and answered unknown."""


class PreviewMocks(pulumi.runtime.Mocks):
    """Answers registrations with the inputs plus deterministic cloud-computed outputs, and
    invokes with known stand-ins; ``user`` (``--mocks``) wins over both."""

    def __init__(self, user: UserMocks | None = None) -> None:
        self.user = user or UserMocks()

    def new_resource(self, args: mocks.MockResourceArgs) -> tuple[str | None, dict]:
        resource_id = f"{args.name}-id" if args.custom else None
        extra = dict(self.user.resources.get(args.typ, {}))
        if "id" in extra and args.custom:
            resource_id = str(extra.pop("id"))
        return resource_id, {
            **args.inputs,
            **computed_outputs(args.typ, args.name, args.inputs),
            **extra,
        }

    def remote_component_outputs(self, typ: str) -> dict[str, Any]:
        """A plugin computes a remote component's outputs: unknown offline but for mocks."""
        return dict(self.user.resources.get(typ, {}))

    def result(self, args: mocks.MockCallArgs) -> dict | None:
        """An invoke's result, or None when the offline engine has none (it is unknown)."""
        if args.token in self.user.invokes:
            return dict(self.user.invokes[args.token])
        return invoke_result(args.token, args.args)

    def call(self, args: mocks.MockCallArgs) -> tuple[dict, list[tuple[str, str]] | None]:
        return self.result(args) or {}, []  # the SDK iterates the failures


class RecordingMonitor(mocks.MockMonitor):
    """The SDK's mock monitor, keeping a record of every registration in order."""

    def __init__(self, mock: pulumi.runtime.Mocks) -> None:
        super().__init__(mock)
        self.recorded: list[RecordedResource] = []
        self.registered_outputs: dict[str, dict[str, Any]] = {}
        """What each component passed to ``register_outputs``, by URN."""
        self.invokes: list[InvokeRecord] = []

    def RegisterResourceOutputs(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        self.registered_outputs[request.urn] = rpc.deserialize_properties(
            request.outputs, keep_unknowns=True
        )
        return super().RegisterResourceOutputs(request)

    def Invoke(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        if request.tok == "pulumi:pulumi:getResource":
            return super().Invoke(request)
        call = mocks.MockCallArgs(request.tok, from_struct(request.args), request.provider)
        failures: Any = []
        if isinstance(self.mocks, PreviewMocks):
            result = self.mocks.result(call)
        else:  # Pulumi's Mocks answer a result or (result, failures)
            answer: Any = self.mocks.call(call)
            result, failures = answer if isinstance(answer, tuple) else (answer, [])
        self.invokes.append(InvokeRecord(request.tok, result is not None))
        if result is None:
            # What a preview does with data it cannot read yet: the result is unknown, so
            # output-form invokes stay unknown and their applies do not run. (SDKs before
            # the `unknown` field get an empty result.)
            if "unknown" in resource_pb2.ResourceInvokeResponse.DESCRIPTOR.fields_by_name:
                return resource_pb2.ResourceInvokeResponse(unknown=True)
            result = {}
        # ``return`` is a Python keyword: the field goes in through a mapping.
        fields: dict[str, Any] = {"return": _sync_await(rpc.serialize_properties(result, {}))}
        return resource_pb2.ResourceInvokeResponse(
            failures=[provider_pb2.CheckFailure(property=p, reason=r) for p, r in failures or []],
            **fields,
        )

    def ReadResource(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        # Read (``Resource.get``) state is the cloud's: unknown offline unless mocked.
        resource_args = mocks.MockResourceArgs(
            typ=request.type,
            name=request.name,
            inputs=from_struct(request.properties),
            provider=request.provider,
            resource_id=request.id,
        )
        resource_id, state = self.mocks.new_resource(resource_args)
        urn = self.make_urn(request.parent, request.type, request.name)
        resource_id = resource_id or request.id  # the ID the program read it by
        self.resources[urn] = mocks.MockMonitor.ResourceRegistration(urn, resource_id, state)
        properties = _sync_await(rpc.serialize_properties(state, {}))
        response = resource_pb2.ReadResourceResponse(urn=urn, properties=properties)
        if "id" in resource_pb2.ReadResourceResponse.DESCRIPTOR.fields_by_name:
            response.id = resource_id  # else a preview's SDK takes the read's ID as unknown
        return response

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        urn = self.make_urn(request.parent, request.type, request.name)
        if request.type == "pulumi:pulumi:Stack":
            return resource_pb2.RegisterResourceResponse(urn=urn)
        # The SDK's monitor would deserialize resource references into live SDK resources
        # on this worker thread (see wire.py); a provider gets their IDs instead.
        inputs = from_struct(request.object)
        remote = bool(request.remote)
        resource_id: str | None
        if remote and isinstance(self.mocks, PreviewMocks):
            resource_id, outputs = None, self.mocks.remote_component_outputs(request.type)
        else:
            resource_id, outputs = self.mocks.new_resource(
                mocks.MockResourceArgs(
                    typ=request.type,
                    name=request.name,
                    inputs=inputs,
                    provider=request.provider,
                    resource_id=request.importId,
                    custom=request.custom or False,
                    transforms=mocks._resolve_callbacks(request.transforms),
                )
            )
        self.resources[urn] = mocks.MockMonitor.ResourceRegistration(
            urn, resource_id or "", outputs
        )
        response = resource_pb2.RegisterResourceResponse(
            urn=urn, id=resource_id or "", object=_sync_await(rpc.serialize_properties(outputs, {}))
        )
        self.recorded.append(
            RecordedResource(
                urn=urn,
                type=request.type,
                name=request.name,
                custom=bool(request.custom),
                parent=request.parent or None,
                inputs=markers(inputs),
                outputs=markers(dict(outputs)),
                remote=remote,
                provider=request.provider,
                protect=bool(request.protect),
                replace_on_changes=list(request.replaceOnChanges),
                delete_before_replace=bool(request.deleteBeforeReplace),
                ignore_changes=list(request.ignoreChanges),
                retain_on_delete=bool(request.retainOnDelete),
                dependencies=list(request.dependencies),
                property_dependencies={
                    k: list(v.urns) for k, v in request.propertyDependencies.items()
                },
                aliases=[*request.aliasURNs, *self._alias_urns(request)],
            )
        )
        return response

    def _alias_urns(self, request: Any) -> list[str]:
        """The URNs of a registration's alias specs, as the engine reads them (its own type and
        name, and its parent, where the spec leaves them out)."""
        urns: list[str] = []
        for alias in request.aliases:
            if alias.urn:
                urns.append(alias.urn)
                continue
            spec = alias.spec
            # An empty parentUrn (the SDK's "as now") is the resource's current parent.
            parent = "" if spec.noParent else (spec.parentUrn or request.parent)
            urns.append(self.make_urn(parent, spec.type or request.type, spec.name or request.name))
        return urns


@dataclass
class ProgramRun:
    """What a program registered and exported."""

    project: str
    stack: str
    resources: list[RecordedResource]
    outputs: dict[str, Any]
    """Stack outputs, resolved; secrets are ``Secret`` markers."""


@contextlib.contextmanager
def _program_dir(directory: Path) -> Iterator[None]:
    """Run with the program's folder as cwd and first on sys.path, as Pulumi does."""
    old_cwd, old_path = Path.cwd(), list(sys.path)
    os.chdir(directory)
    sys.path.insert(0, str(directory))
    try:
        yield
    finally:
        os.chdir(old_cwd)
        sys.path[:] = old_path


async def _resolve(value: Any) -> Any:
    """A stack output as the engine shows it: ``Unknown`` where a preview cannot know it."""
    output = pulumi.Output.from_input(value)
    resolved = markers(await output.future(with_unknowns=True))
    if not await output.is_known() and not contains_unknown(resolved):
        resolved = UNKNOWN
    if await output.is_secret():
        return Secret(resolved)
    return resolved


@functools.cache
def _event_loop() -> asyncio.AbstractEventLoop:
    return asyncio.new_event_loop()


def _use_event_loop() -> None:
    """Make one event loop this thread's current loop before the SDK asks for it.

    The SDK calls ``asyncio.get_event_loop()``, which warns on Python 3.12 and 3.13 and fails
    on 3.14+ when no loop is set; Python 3.11 created one silently, as this does.
    """
    asyncio.set_event_loop(_event_loop())


def run_callable(
    program: Callable[[], Any],
    *,
    project: str = "gpu-platform",
    stack: str = "test",
    config: Mapping[str, str] | None = None,
    secret_keys: list[str] | None = None,
    monitor: RecordingMonitor | None = None,
) -> ProgramRun:
    """Run ``program`` as a Pulumi program on the mock engine and wait for every registration.

    ``config`` maps ``namespace:key`` to the string value the program would receive; pass a
    ``monitor`` to inspect what was registered even when the program fails.
    """
    _use_event_loop()
    monitor = monitor or RecordingMonitor(PreviewMocks())
    mock = monitor.mocks
    settings.ROOT.set(None)  # a fresh root Stack per run (it is created once per process)
    pulumi.runtime.set_all_config(dict(config or {}), secret_keys or [])
    # preview=True: what the mock does not answer is unknown, as in `pulumi preview`.
    pulumi.runtime.set_mocks(mock, project=project, stack=stack, preview=True, monitor=monitor)
    settings.SETTINGS.rpc_manager.clear()
    settings.SETTINGS.outputs.clear()
    _sync_await(run_pulumi_func(program))
    root = settings.get_root_resource()
    exported: dict[str, Any] = dict(getattr(root, "outputs", {}) or {})
    outputs = {name: _sync_await(_resolve(value)) for name, value in exported.items()}
    return ProgramRun(project, stack, tree_order(monitor.recorded), outputs)


def children_by_parent(
    resources: list[RecordedResource],
) -> dict[str | None, list[RecordedResource]]:
    """Each parent URN's children, in the order given; None holds the top-level resources
    (those whose parent, such as the root stack, was not recorded)."""
    urns = {r.urn for r in resources}
    children: dict[str | None, list[RecordedResource]] = {}
    for r in resources:
        children.setdefault(r.parent if r.parent in urns else None, []).append(r)
    return children


def tree_order(resources: list[RecordedResource]) -> list[RecordedResource]:
    """Parents before their children, siblings by type then name.

    The SDK registers from executor threads, so arrival order changes from run to run; this
    order does not, which keeps the rendered plan and the verdicts diffable between runs.
    """
    children = children_by_parent(resources)
    ordered: list[RecordedResource] = []
    stack: list[RecordedResource] = sorted(
        children.get(None, []), key=lambda r: (r.type, r.name), reverse=True
    )
    while stack:
        res = stack.pop()
        ordered.append(res)
        stack.extend(
            sorted(children.get(res.urn, []), key=lambda r: (r.type, r.name), reverse=True)
        )
    return ordered


def run_program(
    program_dir: Path,
    *,
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: list[str] | None = None,
    monitor: RecordingMonitor | None = None,
) -> ProgramRun:
    """Run ``program_dir/__main__.py`` on the mock engine, from its own folder as Pulumi does."""
    main = program_dir / "__main__.py"
    with _program_dir(program_dir):
        return run_callable(
            lambda: runpy.run_path(str(main), run_name="__main__"),
            project=project,
            stack=stack,
            config=config,
            secret_keys=secret_keys,
            monitor=monitor,
        )
