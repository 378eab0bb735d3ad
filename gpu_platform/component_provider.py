"""The component provider: our components for every Pulumi language.

``provider/`` (``PulumiPlugin.yaml``, ``runtime: python``) is what ``pulumi package add
<repo>/provider@vX.Y.Z`` installs; the CLI starts it as the Python language host starts a
program (``python provider <engine-address>``) and its ``__main__`` calls :func:`host`. The
schema is inferred from the components' typed args by Pulumi's analyzer
(``pulumi.provider.experimental``); ``provider/schema.json`` is the reviewed copy.

What the SDK's own host does not do, and why this module wraps it:

- **Numbers arrive as floats.** Over gRPC every number is a double; the SDK converts top-level
  integer properties only (and then keeps the float), never inside lists or maps. Our args are
  strictly typed, so every whole-number float is made an ``int`` before a component sees it, at
  any depth; a fractional value stays a float, which the schema check below refuses where the
  schema says integer.
- **Bad input is an input error, not a traceback.** A component's ``InputPropertiesError``
  reaches the SDK wrapped in ``ComponentInitError`` and would leave as an UNKNOWN gRPC error
  with a Python stack; unwrapped, it reaches the caller as INVALID_ARGUMENT with each
  property path.
- **A failed registration is logged once.** The SDK fails every output of a resource the
  engine refused (four futures per property), awaits none of them once the Construct has
  failed, and CPython logs "Future exception was never retrieved" with its traceback for each:
  6,254 lines on stderr for one AgentPool. Each exception is logged once
  (:class:`ReportedOnce`), when the next Construct collects the failed one's garbage; the
  Construct's own error carries it to the caller.
- **The inputs are checked against the schema first** (:func:`wire_problems`). The SDK maps
  them onto the args without looking: an unknown property is dropped, an object given as a
  number or a secret becomes ``{}`` (then blamed on a required field inside it), an integer
  known only after apply or a list where a string goes ends in a traceback. Every such input
  is refused with its property path, all of them in one error, before anything is registered.
- **What it answers is bounded, and never a stack.** A type it does not host is
  INVALID_ARGUMENT naming it and the ones it hosts; a function or method (it has none) is
  UNIMPLEMENTED naming the token; any other failure of a Construct is INTERNAL with its
  message (the stack goes to the provider's log). A value is quoted only up to a short length
  and an error lists its first problems (``components.errors.input_error``), so the status and
  its details stay far below gRPC's metadata limit (8 KiB) and the property paths reach the
  caller. The provider keeps serving after any of these.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import difflib
import gc
import json
import sys
from collections.abc import Mapping
from typing import Any

import grpc
import pulumi
from pulumi.output import Unknown
from pulumi.provider.experimental.component import ComponentProvider
from pulumi.provider.provider import ConstructResult
from pulumi.provider.server import ComponentInitError, ProviderServicer
from pulumi.runtime._grpc_settings import _GRPC_CHANNEL_OPTIONS  # the SDK server's own
from pulumi.runtime.proto import provider_pb2_grpc
from pulumi.runtime.rpc import is_rpc_secret

from . import __version__, components
from .components.errors import NOT_KNOWN, Problem, described, quoted, raise_if_any, shortened
from .components.type_tokens import PACKAGE

HOSTED_COMPONENTS: tuple[str, ...] = tuple(
    name for name in components.__all__ if not name.endswith("Args") and name != "GpuPlatform"
)
"""Every component a platform engineer composes. Not ``GpuPlatform``: it is driven by our stack
config (``Pulumi.<stack>.yaml``), which a program in another language does not have."""


def whole_numbers_as_ints(value: Any) -> Any:
    """``value`` with every float that is a whole number made an ``int``, at any depth (lists,
    maps, and inside Outputs); fractions, booleans and everything else unchanged."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, Mapping):
        return {k: whole_numbers_as_ints(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [whole_numbers_as_ints(v) for v in value]
    if isinstance(value, pulumi.Output):
        return value.apply(whole_numbers_as_ints)
    return value


_WIRE_TYPES: dict[str, tuple[str, tuple[type, ...]]] = {
    "string": ("a string", (str,)),
    "integer": ("a whole number", (int,)),
    "number": ("a number", (int, float)),
    "boolean": ("true or false", (bool,)),
    "array": ("a list", (list, tuple)),
    "object": ("a map", (Mapping,)),
}
"""Schema type -> (what the message calls it, the Python types the wire decodes it to)."""


def _is_type(value: Any, wire_type: str) -> bool:
    _, types = _WIRE_TYPES[wire_type]
    if isinstance(value, bool) and wire_type != "boolean":
        return False
    return isinstance(value, types)


def _not_known(value: Any) -> bool:
    return isinstance(value, pulumi.Output | Unknown) or is_rpc_secret(value)


def wire_problems(
    inputs: Mapping[str, Any],
    properties: Mapping[str, Any],
    required: list[str],
    types: Mapping[str, Any],
    path: str = "",
) -> list[Problem]:
    """What in ``inputs`` the schema (``properties``, ``required`` of a resource or type, the
    schema's ``types``) does not allow: unknown and missing properties, wrong types, values not
    known yet where the schema says ``plain``; each with its property path."""
    problems: list[Problem] = []
    for key, value in inputs.items():
        where = f"{path}.{key}" if path else key
        if key not in properties:
            close = difflib.get_close_matches(shortened(key), properties, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            problems.append((where, f"unknown property{hint}"))
        elif value is not None:
            problems += _value_problems(value, properties[key], types, where)
    problems += [
        (f"{path}.{key}" if path else key, "required")
        for key in required
        if inputs.get(key) is None
    ]
    return problems


def _value_problems(
    value: Any, spec: Mapping[str, Any], types: Mapping[str, Any], where: str
) -> list[Problem]:
    ref: str = spec.get("$ref", "")
    if ref and not ref.startswith("#/types/"):
        return []  # another package's resource or type, or pulumi.json#/Any: its own checks
    if _not_known(value):
        return [(where, NOT_KNOWN)] if spec.get("plain") else []
    if ref:
        declared = types[ref.removeprefix("#/types/")]
        if not isinstance(value, Mapping):
            return [(where, f"expected a map, {described(value)}")]
        return wire_problems(
            value, declared.get("properties", {}), declared.get("required", []), types, where
        )
    wire_type = spec.get("type", "")
    if wire_type not in _WIRE_TYPES:
        return []
    if not _is_type(value, wire_type):
        return [(where, f"expected {_WIRE_TYPES[wire_type][0]}, {described(value)}")]
    if wire_type == "array" and "items" in spec:
        return [
            problem
            for i, item in enumerate(value)
            for problem in _value_problems(item, spec["items"], types, f"{where}[{i}]")
        ]
    if wire_type == "object" and "additionalProperties" in spec:
        return [
            problem
            for key, item in value.items()
            for problem in _value_problems(
                item, spec["additionalProperties"], types, f"{where}.{key}"
            )
        ]
    return []


def hosted_classes() -> list[type[pulumi.ComponentResource]]:
    return [getattr(components, name) for name in HOSTED_COMPONENTS]


class ReportedOnce:
    """An event loop's exception handler that hands each exception to the default handler
    once: its other unretrieved futures (the same failure) are dropped."""

    RECENT = 32
    """Exceptions remembered: one failed Construct raises one, held by all its futures."""

    def __init__(self) -> None:
        self._seen: collections.deque[BaseException] = collections.deque(maxlen=self.RECENT)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if error is not None:
            if any(error is seen for seen in self._seen):
                return
            self._seen.append(error)
        loop.default_exception_handler(context)


def _report_once_on_this_loop() -> None:
    """Install :class:`ReportedOnce` on the running loop (the SDK's server calls ``construct``
    from it); nothing outside one."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    if not isinstance(loop.get_exception_handler(), ReportedOnce):
        loop.set_exception_handler(ReportedOnce())


class GpuPlatformProvider(ComponentProvider):
    """Pulumi's component provider for :data:`HOSTED_COMPONENTS`, with whole numbers as ints
    and component input errors as property-path errors (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(hosted_classes(), PACKAGE, None, __version__)
        self._schema: dict[str, Any] = json.loads(self.schema or "{}")

    def construct(
        self,
        name: str,
        resource_type: str,
        inputs: pulumi.Inputs,
        options: pulumi.ResourceOptions | None = None,
    ) -> ConstructResult:
        _report_once_on_this_loop()
        inputs = whole_numbers_as_ints(inputs)
        resource = self._schema.get("resources", {}).get(resource_type)
        if resource is not None:  # an unknown token: the SDK's own refusal says so
            problems = wire_problems(
                inputs,
                resource.get("inputProperties", {}),
                resource.get("requiredInputs", []),
                self._schema.get("types", {}),
            )
            raise_if_any(resource_type.rsplit(":", 1)[-1], name, problems)
        try:
            return super().construct(name, resource_type, inputs, options)
        except ComponentInitError as err:
            if isinstance(err.inner, pulumi.InputPropertiesError):
                raise err.inner from None
            raise


class GuardedServicer(ProviderServicer):
    """The SDK's servicer, answering what it would answer with a stack (an unknown type, a
    function, a failure) with a clear status instead (see the module docstring)."""

    def __init__(self, provider: GpuPlatformProvider, args: list[str], engine: str) -> None:
        super().__init__(provider, args, engine)
        self._hosted = set(provider._schema.get("resources", {}))
        self._failed = False

    async def Construct(self, request: Any, context: Any) -> Any:  # noqa: N802 - gRPC name
        if self._failed:
            # The failed Construct's futures are garbage in a cycle by now: collected here, its
            # one report reaches the log at once, not whenever the collector next runs.
            self._failed = False
            gc.collect()
        if request.type not in self._hosted:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"{shortened(request.type)}: not a component this provider hosts; it hosts "
                + ", ".join(sorted(t.rsplit(":", 1)[-1] for t in self._hosted)),
            )
        try:
            return await super().Construct(request, context)
        except grpc.aio.AbortError:
            raise
        except Exception as err:  # a failure that is not bad input: no stack to the caller
            print(f"{request.type} {request.name!r}: {err}", file=sys.stderr)
            first = str(err).split(":\n", 1)[0]
            self._failed = True
        # Aborted outside the handler: the abort's own error would keep this one, its frames
        # and the failed resource's futures alive (they are to be collected, and logged once).
        await context.abort(
            grpc.StatusCode.INTERNAL,
            f"{shortened(request.type)} {quoted(request.name)}: {shortened(first, 500)}",
        )
        return None

    async def _unimplemented(self, token: str, context: Any) -> Any:
        await context.abort(
            grpc.StatusCode.UNIMPLEMENTED,
            f"{shortened(token)}: this provider has no functions or methods; it hosts "
            "components only (construct them as resources)",
        )

    async def Invoke(self, request: Any, context: Any) -> Any:  # noqa: N802 - gRPC name
        return await self._unimplemented(request.tok, context)

    async def Call(self, request: Any, context: Any) -> Any:  # noqa: N802 - gRPC name
        return await self._unimplemented(request.tok, context)


def host(args: list[str] | None = None) -> None:
    """Serve the provider: what ``provider/__main__.py`` runs, with the engine's arguments
    (its address first), as the SDK's ``provider.server.main`` serves, through
    :class:`GuardedServicer`."""
    argv = sys.argv[1:] if args is None else args
    parser = argparse.ArgumentParser(description="gpu-platform's Pulumi component provider")
    parser.add_argument("engine", help="Pulumi engine address")
    engine = parser.parse_known_args(argv)[0].engine
    provider = GpuPlatformProvider()

    async def serve() -> None:
        server = grpc.aio.server(options=_GRPC_CHANNEL_OPTIONS)
        provider_pb2_grpc.add_ResourceProviderServicer_to_server(
            GuardedServicer(provider, argv, engine), server
        )
        port = server.add_insecure_port(address="127.0.0.1:0")
        await server.start()
        sys.stdout.buffer.write(f"{port}\n".encode())
        sys.stdout.buffer.flush()
        await server.wait_for_termination()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())


def schema() -> dict[str, Any]:
    """The provider's schema, as ``GetSchema`` answers it."""
    return GpuPlatformProvider()._schema


def schema_text() -> str:
    """The schema as ``provider/schema.json`` keeps it: sorted keys, two-space indent."""
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m gpu_platform.component_provider > provider/schema.json
    sys.stdout.write(schema_text())
