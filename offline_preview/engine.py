"""Run a Pulumi Python program on Pulumi's mock engine and record what it registers.

The program runs unmodified: its resources go through the SDK's real serialization to a
mock resource monitor, which records every registration (type, name, parent, options and
the inputs as the engine would receive them) and answers with deterministic outputs.
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
from pulumi.runtime.stack import run_pulumi_func
from pulumi.runtime.sync_await import _sync_await

from .cloud_outputs import computed_outputs, invoke_result

# The wire marker of a secret value (the SDK's own constants).
SECRET_SIG = rpc._special_secret_sig
SIG_KEY = rpc._special_sig_key


class Secret:
    """A secret value as the engine received it; shown as ``[secret]``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "[secret]"


def _unwrap_envelopes(value: Any) -> Any:
    """Turn the wire's secret envelopes into ``Secret`` markers, recursively."""
    if isinstance(value, dict):
        if value.get(SIG_KEY) == SECRET_SIG:
            return Secret(_unwrap_envelopes(value.get("value")))
        return {k: _unwrap_envelopes(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unwrap_envelopes(v) for v in value]
    return value


def reveal(value: Any, *, whole_floats_as_int: bool = False) -> Any:
    """``value`` with every ``Secret`` unwrapped, recursively; optionally ``53.0`` -> ``53``
    (the engine carries every number as a double; providers send integers)."""
    if isinstance(value, Secret):
        return reveal(value.value, whole_floats_as_int=whole_floats_as_int)
    if isinstance(value, dict):
        return {k: reveal(v, whole_floats_as_int=whole_floats_as_int) for k, v in value.items()}
    if isinstance(value, list):
        return [reveal(v, whole_floats_as_int=whole_floats_as_int) for v in value]
    if whole_floats_as_int and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@dataclass
class RecordedResource:
    """One registration, as the engine saw it."""

    urn: str
    type: str
    name: str
    custom: bool
    parent: str | None
    inputs: dict[str, Any]
    """Inputs with camelCase wire keys; secrets are ``Secret`` markers."""
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


class PreviewMocks(pulumi.runtime.Mocks):
    """Answers registrations with the inputs plus deterministic cloud-computed outputs."""

    def new_resource(self, args: mocks.MockResourceArgs) -> tuple[str | None, dict]:
        resource_id = f"{args.name}-id" if args.custom else None
        return resource_id, {**args.inputs, **computed_outputs(args.typ, args.name, args.inputs)}

    def call(self, args: mocks.MockCallArgs) -> tuple[dict, list[tuple[str, str]] | None]:
        return invoke_result(args.token, args.args), []  # the SDK iterates the failures


class RecordingMonitor(mocks.MockMonitor):
    """The SDK's mock monitor, keeping a record of every registration in order."""

    def __init__(self, mock: PreviewMocks) -> None:
        super().__init__(mock)
        self.recorded: list[RecordedResource] = []
        self.registered_outputs: dict[str, dict[str, Any]] = {}
        """What each component passed to ``register_outputs``, by URN."""

    def RegisterResourceOutputs(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        self.registered_outputs[request.urn] = rpc.deserialize_properties(
            request.outputs, keep_unknowns=True
        )
        return super().RegisterResourceOutputs(request)

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        response = super().RegisterResource(request)
        if request.type == "pulumi:pulumi:Stack":
            return response
        inputs = rpc.deserialize_properties(request.object, keep_unknowns=True)
        outputs = self.resources[response.urn].state
        self.recorded.append(
            RecordedResource(
                urn=response.urn,
                type=request.type,
                name=request.name,
                custom=bool(request.custom),
                parent=request.parent or None,
                inputs=_unwrap_envelopes(inputs),
                outputs=_unwrap_envelopes(dict(outputs)),
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
                aliases=list(request.aliasURNs),
            )
        )
        return response


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
    output = pulumi.Output.from_input(value)
    resolved = await output.future()
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
    pulumi.runtime.set_mocks(mock, project=project, stack=stack, preview=False, monitor=monitor)
    settings.SETTINGS.rpc_manager.clear()
    settings.SETTINGS.outputs.clear()
    _sync_await(run_pulumi_func(program))
    root = settings.get_root_resource()
    exported: dict[str, Any] = dict(getattr(root, "outputs", {}) or {})
    outputs = {name: _sync_await(_resolve(value)) for name, value in exported.items()}
    return ProgramRun(project, stack, tree_order(monitor.recorded), _unwrap_envelopes(outputs))


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
