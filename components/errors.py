"""Bad component input: one ``pulumi.InputPropertiesError`` naming every bad property by path.

Raised before a component registers anything, so bad input changes nothing. The engine shows
each ``property_path`` against the component's inputs (camelCase, as in its schema).

The error is bounded, whatever the input: a value is quoted up to ``MAX_QUOTED`` characters,
a path and a reason are cut at ``MAX_PATH`` and ``MAX_REASON``, and the first
``MAX_PROBLEMS`` problems are listed (then how many more). Over gRPC the message and the
paths travel in the status's metadata, which a huge value would overflow (RESOURCE_EXHAUSTED
instead of the property path): a few KB at most reach the caller.
"""

from collections.abc import Awaitable, Iterable, Mapping, Sequence
from functools import cache
from types import UnionType
from typing import (
    Any,
    ForwardRef,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    is_typeddict,
)

import pulumi
from pulumi.output import Unknown
from pydantic import ValidationError
from pydantic.alias_generators import to_camel

Problem = tuple[str, str]
"""(property path, reason)"""

MAX_QUOTED = 60
MAX_PATH = 120
MAX_REASON = 240
MAX_PROBLEMS = 10


def shortened(text: str, limit: int = MAX_QUOTED) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def shortened_reason(text: str) -> str:
    """A reason cut to ``MAX_REASON`` characters, keeping its start and its end: a rule that
    quotes a huge value first still says why at the end."""
    if len(text) <= MAX_REASON:
        return text
    keep = (MAX_REASON - 5) // 2
    return f"{text[:keep]} ... {text[-keep:]}"


def quoted(value: object) -> str:
    """``repr(value)``, at most ``MAX_QUOTED`` characters of it."""
    return shortened(repr(value))


def property_path(*parts: str | int) -> str:
    """``("pool", "vm_size")`` -> ``pool.vmSize``; list indexes as ``[i]``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = to_camel(part) if "_" in part else part
            out += f".{name}" if out else name
    return out


def validation_problems(err: ValidationError, *prefix: str | int) -> list[Problem]:
    """A pydantic error as problems with property paths under ``prefix``."""
    problems: list[Problem] = []
    for e in err.errors(include_url=False):
        reason = "unknown property" if e["type"] == "extra_forbidden" else e["msg"]
        problems.append((property_path(*prefix, *e["loc"]), reason.removeprefix("Value error, ")))
    return problems


def input_error(
    component: str, name: str, problems: Sequence[Problem]
) -> pulumi.InputPropertiesError:
    """The error for ``problems`` of the component ``component`` named ``name``, bounded
    (see the module docstring)."""
    shown = [
        (shortened(path, MAX_PATH), shortened_reason(reason))
        for path, reason in problems[:MAX_PROBLEMS]
    ]
    lines = "; ".join(f"{path}: {reason}" for path, reason in shown)
    if len(problems) > MAX_PROBLEMS:
        lines += f"; and {len(problems) - MAX_PROBLEMS} more"
    return pulumi.InputPropertiesError(
        f"{component} {quoted(name)}: {lines}",
        [{"property_path": path, "reason": reason} for path, reason in shown],
    )


def raise_if_any(component: str, name: str, problems: Iterable[Problem]) -> None:
    found = list(problems)
    if found:
        raise input_error(component, name, found)


NOT_KNOWN = (
    "takes a plain value, known when the program runs: not a secret and not another "
    "resource's output (the component checks it before creating anything)"
)
"""Why an Output (or an unknown) is refused where a property is not ``pulumi.Input``."""
NOT_SET = "required, not None"


def described(value: object) -> str:
    """``got 'x'``, ``got 3``, ``got true``, ``got a list``...: what a wrong value was."""
    if isinstance(value, bool):
        return f"got {str(value).lower()}"
    if isinstance(value, int | float | str):
        return f"got {quoted(value)}"
    if isinstance(value, list | tuple):
        return "got a list"
    if isinstance(value, Mapping):
        return "got a map"
    if isinstance(value, pulumi.Output):
        return "got an Output"
    return f"got {type(value).__name__}"


_SCALARS: dict[type, tuple[str, tuple[type, ...]]] = {
    str: ("a string", (str,)),
    int: ("a whole number", (int,)),
    float: ("a number", (int, float)),
    bool: ("true or false", (bool,)),
}
"""A plain type -> (what a message calls it, the Python types that are one)."""


def _is_output(arg: object) -> bool:
    forward = arg.__forward_arg__ if isinstance(arg, ForwardRef) else ""
    return arg is pulumi.Output or get_origin(arg) is pulumi.Output or forward.startswith("Output")


def _unwrapped(hint: Any) -> tuple[Any, bool, bool]:
    """(the plain type, whether an Output may stand for it, whether None may) of a field's
    hint: ``NotRequired[pulumi.Input[str]]`` -> ``(str, True, False)``."""
    while get_origin(hint) in (NotRequired, Required):
        hint = get_args(hint)[0]
    output = optional = False
    if get_origin(hint) in (Union, UnionType):
        members = get_args(hint)
        output = any(_is_output(m) for m in members)
        optional = type(None) in members
        plain = [
            m
            for m in members
            if not _is_output(m)
            and m is not type(None)
            and get_origin(m) is not Awaitable
            and m is not Awaitable
        ]
        hint = plain[0] if len(plain) == 1 else Any
    return hint, output, optional


SETTINGS_OF: dict[str, str] = {
    "GpuPoolArgs": "GpuPoolSettings",
    "CpuPoolArgs": "CpuPoolSettings",
    "AksClusterArgs": "AksClusterSettings",
    "AckClusterArgs": "AckClusterSettings",
    "AckSystemDiskArgs": "AckSystemDiskSettings",
    "AckGpuSharingArgs": "AckGpuSharingSettings",
    "AmdGpuOperatorArgs": "AmdGpuOperatorSettings",
    "CertManagerArgs": "CertManagerSettings",
    "DriverCheckArgs": "DriverCheckSettings",
    "NvidiaGpuOperatorArgs": "GpuOperatorSettings",
    "NvidiaDevicePluginArgs": "DevicePluginSettings",
    "GpuWorkloadNamespaceArgs": "WorkloadSettings",
}
"""Args whose properties the component validates with a settings model (of the same field
names): their values' types are the model's to judge, with every other problem of the args in
one error; ``type_problems`` judges only their shape."""


@cache
def _settings_fields(args_type: str) -> frozenset[str]:
    import gpu_platform.settings as models  # lazily: they import pydantic's stack

    name = SETTINGS_OF.get(args_type)
    if name is None:
        return frozenset()
    model = getattr(models, name)
    # A union of models (GPU pools: one model per cloud) validates the fields of each.
    members = get_args(model) if isinstance(model, UnionType) else (model,)
    return frozenset(field for member in members for field in member.model_fields)


def type_problems(
    value: object,
    hint: Any,
    path: tuple[str | int, ...],
    *,
    required: bool = True,
    shape_only: bool = False,
) -> list[Problem]:
    """What in ``value`` its type ``hint`` (a component args' field) does not allow, at any
    depth, each with its property path: None for a required property (for another it means
    "not set", as in Pulumi's SDKs), an Output where the value must be plain (``NOT_KNOWN``),
    a list or map where a scalar goes and the reverse, and a scalar of another kind (not in a
    property a settings model validates, ``shape_only``: ``SETTINGS_OF``). The rules of the
    values themselves are the ``plan``'s and the settings'; unknown and missing keys of the args
    are ``shape_problems``'s."""
    where = property_path(*path)
    plain, output, optional = _unwrapped(hint)
    if value is None:
        return [] if optional or not required else [(where, NOT_SET)]
    if isinstance(value, pulumi.Output | Unknown | Awaitable):  # known only when it runs
        return [] if output else [(where, NOT_KNOWN)]
    if plain is Any or plain is object:
        return []
    origin = get_origin(plain) or plain
    if plain in _SCALARS:
        what, types = _SCALARS[plain]
        if isinstance(value, types) and not (isinstance(value, bool) and plain is not bool):
            return []
        if shape_only and isinstance(value, str | int | float | bool):
            return []  # a settings model judges it, with the args' other problems
        return [(where, f"expected {what}, {described(value)}")]
    if origin in (list, Sequence):
        if not isinstance(value, list | tuple):
            return [(where, f"expected a list, {described(value)}")]
        (item,) = get_args(plain) or (Any,)
        return [
            p
            for i, v in enumerate(value)
            for p in type_problems(v, item, (*path, i), shape_only=shape_only)
        ]
    if origin in (dict, Mapping) or is_typeddict(plain):
        if not isinstance(value, Mapping):
            return [(where, f"expected a map, {described(value)}")]
        if is_typeddict(plain):
            return _fields_problems(value, plain, path, shape_only)
        item = (get_args(plain) or (str, Any))[1]
        return [
            p
            for key, v in value.items()
            for p in (
                type_problems(v, item, (*path, str(key)), shape_only=shape_only)
                if isinstance(key, str)
                else [(where, f"keys are strings, {described(key)}")]
            )
        ]
    if isinstance(plain, type) and not isinstance(value, plain):
        return [(where, f"expected a {plain.__name__}, {described(value)}")]
    return []


def _fields_problems(
    value: Mapping[Any, object], typed_dict: Any, path: tuple[str | int, ...], shape_only: bool
) -> list[Problem]:
    """``type_problems`` of each known key of a TypedDict's value."""
    fields, needed = _fields(typed_dict), typed_dict.__required_keys__
    by_settings = _settings_fields(typed_dict.__name__)
    return [
        problem
        for key, item in value.items()
        if isinstance(key, str) and key in fields
        for problem in type_problems(
            item,
            fields[key],
            (*path, key),
            required=key in needed,
            shape_only=shape_only or key in by_settings,
        )
    ]


def _fields(typed_dict: Any) -> dict[str, Any]:
    """A TypedDict's field hints as written (component modules keep real annotations)."""
    hints: dict[str, Any] = {}
    for base in reversed(typed_dict.__mro__):
        hints.update(getattr(base, "__annotations__", {}))
    return hints


def value_type_problems(args: object, args_type: type) -> list[Problem]:
    """``type_problems`` of every property of ``args`` (a component whose settings model
    names unknown and missing properties itself)."""
    if not isinstance(args, Mapping):
        return [("args", f"expected a map of the component's properties, {described(args)}")]
    return _fields_problems(args, args_type, (), shape_only=False)


def shape_problems(args: object, args_type: type) -> list[Problem]:
    """Keys of ``args`` that its TypedDict ``args_type`` lacks, required keys it misses, and
    every value of a type its field does not allow (``type_problems``): a caller passing a
    misspelt or old-style property, None, a list or an Output where a plain value goes hears of
    it, by property path, instead of a default or a ``TypeError``."""
    if not isinstance(args, Mapping):
        return value_type_problems(args, args_type)
    known: frozenset[str] = args_type.__required_keys__ | args_type.__optional_keys__  # type: ignore[attr-defined]
    required: frozenset[str] = args_type.__required_keys__  # type: ignore[attr-defined]
    return [
        *((property_path(str(key)), "unknown property") for key in args if key not in known),
        *((property_path(key), "required") for key in sorted(required) if key not in args),
        *value_type_problems(args, args_type),
    ]
