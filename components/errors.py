"""Bad component input: one ``pulumi.InputPropertiesError`` naming every bad property by path.

Raised before a component registers anything, so bad input changes nothing. The engine shows
each ``property_path`` against the component's inputs (camelCase, as in its schema).
"""

from collections.abc import Iterable, Sequence

import pulumi
from pydantic import ValidationError
from pydantic.alias_generators import to_camel

Problem = tuple[str, str]
"""(property path, reason)"""


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
    """The error for ``problems`` of the component ``component`` named ``name``."""
    lines = "; ".join(f"{path}: {reason}" for path, reason in problems)
    return pulumi.InputPropertiesError(
        f"{component} {name!r}: {lines}",
        [{"property_path": path, "reason": reason} for path, reason in problems],
    )


def raise_if_any(component: str, name: str, problems: Iterable[Problem]) -> None:
    found = list(problems)
    if found:
        raise input_error(component, name, found)
