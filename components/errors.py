"""Bad component input: one ``pulumi.InputPropertiesError`` naming every bad property by path.

Raised before a component registers anything, so bad input changes nothing. The engine shows
each ``property_path`` against the component's inputs (camelCase, as in its schema).

The error is bounded, whatever the input: a value is quoted up to ``MAX_QUOTED`` characters,
a path and a reason are cut at ``MAX_PATH`` and ``MAX_REASON``, and the first
``MAX_PROBLEMS`` problems are listed (then how many more). Over gRPC the message and the
paths travel in the status's metadata, which a huge value would overflow (RESOURCE_EXHAUSTED
instead of the property path): a few KB at most reach the caller.
"""

from collections.abc import Iterable, Mapping, Sequence

import pulumi
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
        (shortened(path, MAX_PATH), shortened(reason, MAX_REASON))
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


def shape_problems(args: Mapping[str, object], args_type: type) -> list[Problem]:
    """Keys of ``args`` that its TypedDict ``args_type`` lacks, and required keys it misses:
    a caller passing a misspelt or old-style property hears of it instead of a default."""
    known: frozenset[str] = args_type.__required_keys__ | args_type.__optional_keys__  # type: ignore[attr-defined]
    required: frozenset[str] = args_type.__required_keys__  # type: ignore[attr-defined]
    return [
        *((property_path(key), "unknown property") for key in args if key not in known),
        *((property_path(key), "required") for key in sorted(required) if key not in args),
    ]
