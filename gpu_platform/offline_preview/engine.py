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
import atexit
import contextlib
import functools
import os
import runpy
import sys
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi
from pulumi.output import Unknown as SdkUnknown
from pulumi.runtime import mocks, rpc, settings
from pulumi.runtime.proto import provider_pb2, resource_pb2
from pulumi.runtime.stack import massage, run_pulumi_func
from pulumi.runtime.sync_await import _sync_await

from .cloud_outputs import checked_inputs, computed_outputs, invoke_result
from .collector import full_collections_deferred
from .program_guard import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT, call_program, guarded
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
    """Former identities: alias URNs as given, and alias specs as ``type=<token>`` (what a
    spec changes: ``name=``, ``type=``, ``parentUrn=``..., comma-separated)."""
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


KUBERNETES_PROVIDER = "pulumi:providers:kubernetes"


def kubeconfig_kept_secret(props: dict[str, Any]) -> dict[str, Any]:
    """A Kubernetes provider's ``kubeconfig`` as a secret, however the program gave it (a
    plain config value, a file's text). pulumi-kubernetes does not mark it (its schema's
    ``kubeconfig`` has no ``secret: true``: ``provider/pkg/gen/schema.go``), so a plain one
    would show in the plan; it is a credential, so the offline engine records it secret."""
    value = props.get("kubeconfig")
    if value is None or isinstance(value, SdkUnknown) or value == rpc.UNKNOWN:
        return props
    if isinstance(value, dict) and value.get(rpc._special_sig_key) == rpc._special_secret_sig:
        return props
    return {**props, "kubeconfig": {rpc._special_sig_key: rpc._special_secret_sig, "value": value}}


class RecordingMonitor(mocks.MockMonitor):
    """The SDK's mock monitor, keeping a record of every registration in order."""

    def __init__(self, mock: pulumi.runtime.Mocks) -> None:
        super().__init__(mock)
        self.recorded: list[RecordedResource] = []
        self.registered_outputs: dict[str, dict[str, Any]] = {}
        """What each component passed to ``register_outputs``, by URN."""
        self.invokes: list[InvokeRecord] = []

    def RegisterResourceOutputs(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        # A component's outputs often hold resources (``register_outputs({"ns": ns})``): as
        # references, read like a registration's (a live SDK resource rebuilt on this worker
        # thread would wait on the wrong event loop).
        self.registered_outputs[request.urn] = from_struct(request.outputs)
        return super().RegisterResourceOutputs(request)

    def _get_resource(self, request: Any) -> Any:
        """``pulumi:pulumi:getResource``: a resource by URN (``ResourceOptions(urn=...)``, a
        reference rebuilt by a provider package's resource module). One the program registered
        has its recorded state; any other is in the stack's state, which a preview reads and
        the offline engine does not have: its ID and outputs are unknown, but for ``--mocks``
        (its type's outputs)."""
        urn = str(from_struct(request.args).get("urn", ""))
        registered = self.resources.get(urn)
        if registered is not None:
            resource_id, state = registered.id, dict(registered.state)
        else:
            type_token = urn.split("::")[2].rpartition("$")[2] if urn.count("::") >= 3 else ""
            user = self.mocks.user.resources if isinstance(self.mocks, PreviewMocks) else {}
            state = dict(user.get(type_token, {}))
            resource_id = str(state.pop("id", ""))  # empty: unknown, as in a preview
        answer = {"urn": urn, "id": resource_id, "state": state}
        fields: dict[str, Any] = {"return": _await_on_thread(rpc.serialize_properties(answer, {}))}
        return resource_pb2.ResourceInvokeResponse(**fields)

    def Invoke(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        if request.tok == "pulumi:pulumi:getResource":
            return self._get_resource(request)
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
        fields: dict[str, Any] = {"return": _await_on_thread(rpc.serialize_properties(result, {}))}
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
        properties = _await_on_thread(rpc.serialize_properties(state, {}))
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
        if request.type.startswith(KUBERNETES_PROVIDER):
            inputs = kubeconfig_kept_secret(inputs)
        if request.custom:  # what the provider's Check makes of them (a Kubernetes autoname)
            inputs = checked_inputs(request.type, urn, request.name, inputs)
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
            urn=urn,
            id=resource_id or "",
            object=_await_on_thread(rpc.serialize_properties(outputs, {})),
        )
        self.recorded.append(
            RecordedResource(
                urn=urn,
                type=request.type,
                name=request.name,
                custom=bool(request.custom),
                parent=request.parent or None,
                inputs=markers(inputs),
                outputs=markers(
                    kubeconfig_kept_secret(dict(outputs))
                    if request.type.startswith(KUBERNETES_PROVIDER)
                    else dict(outputs)
                ),
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
def _program_dir(directory: Path, main_dir: Path) -> Iterator[None]:
    """Run with the program's folder as cwd and its main's folder first on sys.path, as
    Pulumi does."""
    old_cwd, old_path = Path.cwd(), list(sys.path)
    os.chdir(directory)
    sys.path.insert(0, str(main_dir))
    try:
        yield
    finally:
        os.chdir(old_cwd)
        sys.path[:] = old_path


_RESOURCE_MARK = "@isPulumiResource"
"""The SDK's mark on an exported resource in a preview (``massage``), for the engine's own use."""


def _unmarked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _unmarked(v) for k, v in value.items() if k != _RESOURCE_MARK}
    if isinstance(value, list):
        return [_unmarked(v) for v in value]
    return value


async def _resolve(value: Any) -> Any:
    """A stack output as the engine shows it: ``Unknown`` where a preview cannot know it, an
    exported resource as its public outputs (the SDK's ``massage``, as the Stack registers)."""
    output = pulumi.Output.from_input(massage(value, []))
    resolved = _unmarked(markers(await output.future(with_unknowns=True)))
    if not await output.is_known() and not contains_unknown(resolved):
        resolved = UNKNOWN
    if await output.is_secret():
        return Secret(resolved)
    return resolved


_LOOPS: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
"""The event loops the engine's threads await on, closed when the process exits."""


@atexit.register
def close_loops() -> None:
    """Close the engine's event loops. Left open, the interpreter collects them at exit in any
    order: one collected after its self-pipe socket prints "Exception ignored in ...
    BaseEventLoop.__del__ ... Invalid file descriptor: -1", a traceback under the preview's
    own output. A thread that awaits again afterwards gets a new loop."""
    for loop in list(_LOOPS):
        if not loop.is_running() and not loop.is_closed():
            loop.close()


def _thread_loop() -> asyncio.AbstractEventLoop:
    """This thread's event loop (a new one where it has none, or only a closed one), which
    ``close_loops`` closes at exit: what the SDK's ``_sync_await`` would make for the mock
    monitor's worker threads, and never close."""
    policy = asyncio.get_event_loop_policy()
    try:
        loop: asyncio.AbstractEventLoop | None = policy.get_event_loop()
    except RuntimeError:  # a thread other than the main one, without a loop yet
        loop = None
    if loop is None or loop.is_closed():
        loop = policy.new_event_loop()
        policy.set_event_loop(loop)
    _LOOPS.add(loop)
    return loop


def _await_on_thread(awaitable: Any) -> Any:
    """``_sync_await`` on this thread's loop (``_thread_loop``)."""
    _thread_loop()
    return _sync_await(awaitable)


@functools.cache
def _event_loop() -> asyncio.AbstractEventLoop:
    loop = asyncio.new_event_loop()
    _LOOPS.add(loop)
    return loop


def _use_event_loop() -> None:
    """Make one event loop this thread's current loop before the SDK asks for it.

    The SDK calls ``asyncio.get_event_loop()``, which warns on Python 3.12 and 3.13 and fails
    on 3.14+ when no loop is set; Python 3.11 created one silently, as this does.
    """
    if _event_loop().is_closed():  # by close_loops
        _event_loop.cache_clear()
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


@full_collections_deferred()  # a program's heap is long-lived: see collector
def run_program(
    program_dir: Path,
    *,
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: list[str] | None = None,
    monitor: RecordingMonitor | None = None,
    main: Path | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    memory_mib: int | None = DEFAULT_MEMORY_MIB,
) -> ProgramRun:
    """Run the program (``main``, by default ``program_dir/__main__.py``) on the mock engine,
    from its own folder as Pulumi does, under the guards of ``program_guard``: its exits,
    prints, stdin, time and memory stay its own."""
    entry = main or program_dir / "__main__.py"
    with _program_dir(program_dir, entry.parent), guarded(timeout, memory_mib):
        return run_callable(
            lambda: call_program(lambda: runpy.run_path(str(entry), run_name="__main__")),
            project=project,
            stack=stack,
            config=config,
            secret_keys=secret_keys,
            monitor=monitor,
        )
