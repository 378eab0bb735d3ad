"""A ValidatingAdmissionPolicy's CEL evaluated with cel-python (``celpy``) the way the API server
does: variables in order under ``variables``, then every validation, with ``object`` the
admitted object and ``namespaceObject`` its namespace. For the tests of our admission policies."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

import celpy
import celpy.evaluation


class _CastType:
    """Stands in for ``typing``'s ``Union``, ``List``, ``Dict``, ``Tuple`` and ``Optional``
    inside cel-python's evaluator, where after its import they only ever build the first
    argument of ``cast``, which ignores it. cel-python 0.5 builds them for every name it
    resolves (``cast(Union[Result, NameContainer], ...)``), and ``typing`` hashes the whole
    ``Result`` union each time: a quarter of our CEL tests' CPU, for nothing
    (docs/performance.md, the inner loop)."""

    def __getitem__(self, _: object) -> type[object]:
        return object


_CAST = _CastType()
for _name in ("Union", "List", "Dict", "Tuple", "Optional"):
    if getattr(celpy.evaluation, _name, None) is getattr(typing, _name):  # typing's, nothing else
        setattr(celpy.evaluation, _name, _CAST)


@dataclass
class CompiledPolicy:
    variables: list[tuple[str, celpy.Runner]]
    validations: list[tuple[str, celpy.Runner]]
    """(message, program)"""


def compile_policy(spec: dict[str, Any]) -> CompiledPolicy:
    """The recorded policy's ``spec``, compiled."""
    env = celpy.Environment()

    def program(expression: str) -> celpy.Runner:
        return env.program(env.compile(expression))

    return CompiledPolicy(
        variables=[(v["name"], program(v["expression"])) for v in spec["variables"]],
        validations=[(v["message"], program(v["expression"])) for v in spec["validations"]],
    )


def failed_messages(
    policy: CompiledPolicy, obj: dict[str, Any], namespace: dict[str, Any]
) -> list[str]:
    """Messages of the validations ``obj`` fails; a CEL error fails the test outright."""
    activation: dict[str, Any] = {
        "object": celpy.json_to_cel(obj),
        "namespaceObject": celpy.json_to_cel(namespace),
    }
    variables: dict[str, Any] = {}
    for name, program in policy.variables:
        activation["variables"] = celpy.celtypes.MapType(
            {celpy.celtypes.StringType(k): v for k, v in variables.items()}
        )
        value = program.evaluate(activation)
        assert not isinstance(value, celpy.CELEvalError), f"variable {name}: {value}"
        variables[name] = value
    activation["variables"] = celpy.celtypes.MapType(
        {celpy.celtypes.StringType(k): v for k, v in variables.items()}
    )
    failed = []
    for message, program in policy.validations:
        result = program.evaluate(activation)
        assert isinstance(result, celpy.celtypes.BoolType), f"{message}: {result!r}"
        if not result:
            failed.append(message)
    return failed
