"""Component args as a Python program passes them, and every way of giving one of them the
wrong type: generated from the args' TypedDicts and each component's good inputs (the provider
tests' wire inputs, in Python's names)."""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, Required

import pulumi
import pulumi_kubernetes as k8s

import gpu_platform
from gpu_platform.component_provider import HOSTED_COMPONENTS
from gpu_platform.components.errors import property_path
from tests.provider.wire_inputs import KUBERNETES_PROVIDER, WIRE_INPUTS

PROVIDER = object()
"""Stands for a Kubernetes provider, made inside the program (a resource needs the engine)."""


def args_type(component: str) -> Any:
    return getattr(gpu_platform, f"{component}Args")


def _fields(typed_dict: Any) -> dict[str, Any]:
    """Its fields' hints as written (component modules keep real annotations)."""
    hints: dict[str, Any] = {}
    for base in reversed(typed_dict.__mro__):
        hints.update(getattr(base, "__annotations__", {}))
    return hints


def _unwrap(hint: Any) -> Any:
    """``NotRequired[X]`` / ``Required[X]`` -> ``X``."""
    while typing.get_origin(hint) in (NotRequired, Required):
        hint = typing.get_args(hint)[0]
    return hint


def is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and typing.is_typeddict(hint)


def _is_output(arg: Any) -> bool:
    forward = arg.__forward_arg__ if isinstance(arg, typing.ForwardRef) else ""
    return (
        arg is pulumi.Output
        or typing.get_origin(arg) is pulumi.Output
        or forward.startswith("Output")
    )


def is_input(hint: Any) -> bool:
    """``pulumi.Input[X]``: an Output is as good as a value."""
    return any(_is_output(arg) for arg in typing.get_args(hint))


def _plain(hint: Any) -> Any:
    """``pulumi.Input[X]`` -> ``X``; anything else as it is."""
    if not is_input(hint):
        return hint
    return typing.get_args(hint)[0]


def _python(value: Any, hint: Any) -> Any:
    """A wire value as a Python program gives it, by the args' type hints."""
    hint = _plain(_unwrap(hint))
    if isinstance(value, dict) and value.get("urn") == KUBERNETES_PROVIDER["urn"]:
        return PROVIDER
    if is_typed_dict(hint) and isinstance(value, dict):
        by_wire = {property_path(name): (name, h) for name, h in _fields(hint).items()}
        return {by_wire[k][0]: _python(v, by_wire[k][1]) for k, v in value.items()}
    if isinstance(value, list):
        item = typing.get_args(hint)[0] if typing.get_origin(hint) in (list, Sequence) else Any
        return [_python(v, item) for v in value]
    if isinstance(value, dict):  # a map's values too: dict[str, int] takes 4, not 4.0
        item = typing.get_args(hint)[1] if typing.get_origin(hint) in (dict, Mapping) else Any
        return {k: _python(v, item) for k, v in value.items()}
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def good_args(component: str) -> dict[str, Any]:
    return _python(WIRE_INPUTS[component], args_type(component))


def materialized(value: Any) -> Any:
    """``value`` with the stand-in provider made (call inside a program)."""
    if value is PROVIDER:
        return k8s.Provider("k8s", kubeconfig="apiVersion: v1\nkind: Config\n")
    if isinstance(value, dict):
        return {k: materialized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [materialized(v) for v in value]
    return value


@dataclass(frozen=True)
class WrongType:
    component: str
    path: tuple[str | int, ...]
    """Where in the args (Python names, list indexes)."""
    given: str
    """What it is given: ``None``, ``a list``, ``a map``, ``text``, ``a number``, ``an
    Output``."""
    required: bool
    """Whether the property is required: None is then refused, else it means "not set"."""

    @property
    def property_path(self) -> str:
        return property_path(*self.path)

    @property
    def name(self) -> str:
        return f"{self.component}.{self.property_path} = {self.given}"

    def value(self, good: Any) -> Any:
        return {
            "None": None,
            "a list": ["x"],
            "a map": {"x": "y"},
            "text": "x",
            "a number": 7,
            "an Output": pulumi.Output.from_input(good),
        }[self.given]

    def args(self) -> dict[str, Any]:
        args = good_args(self.component)
        holder: Any = args
        for key in self.path[:-1]:
            holder = holder[key]
        holder[self.path[-1]] = self.value(holder[self.path[-1]])
        return args


def _wrong_values(hint: Any) -> list[str]:
    """The wrong shapes for a property typed ``hint``: what it is not."""
    plain = _plain(_unwrap(hint))
    origin = typing.get_origin(plain) or plain
    origin = {Sequence: list, Mapping: dict}.get(origin, origin)
    shapes = ["None"]
    if origin is not list:
        shapes.append("a list")
    if origin is not dict and not is_typed_dict(plain):
        shapes.append("a map")
    if origin in (list, dict) or is_typed_dict(plain) or origin in (int, bool):
        shapes.append("text")
    if origin is str:
        shapes.append("a number")
    if not is_input(_unwrap(hint)):
        shapes.append("an Output")
    return shapes


def _walk(
    typed_dict: Any, value: dict[str, Any], path: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], Any, bool]]:
    required_keys = typed_dict.__required_keys__
    for name, hint in _fields(typed_dict).items():
        if name not in value:
            continue
        yield (*path, name), hint, name in required_keys
        inner = _plain(_unwrap(hint))
        item = value[name]
        if is_typed_dict(inner) and isinstance(item, dict):
            yield from _walk(inner, item, (*path, name))
        elif typing.get_origin(inner) in (list, Sequence) and isinstance(item, list) and item:
            element = typing.get_args(inner)[0]
            if is_typed_dict(element) and isinstance(item[0], dict):
                yield from _walk(element, item[0], (*path, name, 0))


def wrong_types() -> list[WrongType]:
    """Every property of every hosted component's good args, given each wrong shape."""
    found = []
    for component in HOSTED_COMPONENTS:
        args = good_args(component)
        for path, hint, required in _walk(args_type(component), args, ()):
            if path[-1] == "kubernetes_provider":
                continue  # a resource: the SDK's own type, checked by the SDK
            found += [WrongType(component, path, given, required) for given in _wrong_values(hint)]
    return found


def construct(component: str, args: dict[str, Any]) -> Callable[[], Any]:
    cls = getattr(gpu_platform, component)
    return lambda: cls("bad", materialized(args))
