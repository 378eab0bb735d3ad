"""A ValidatingAdmissionPolicy's CEL evaluated with cel-python (``celpy``) the way the API server
does: variables in order under ``variables``, then every validation, with ``object`` the
admitted object and ``namespaceObject`` its namespace. For the tests of our admission policies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import celpy


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
