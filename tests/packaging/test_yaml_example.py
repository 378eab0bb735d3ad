"""examples/yaml-gpu-pool: a Pulumi YAML program using our components through the provider.
Its property names, types and required properties are checked against the reviewed schema
(provider/schema.json) by the provider's own input check, as the YAML program's values reach
it; variables (``${t4}``) are checked where they are used."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from pulumi.output import Unknown

from gpu_platform.component_provider import wire_problems

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "provider" / "schema.json").read_text())
PROGRAM = yaml.safe_load((ROOT / "examples" / "yaml-gpu-pool" / "Pulumi.yaml").read_text())
INTERPOLATION = re.compile(r"^\$\{([\w.]+)\}$")


def as_sent(value: Any) -> Any:
    """``value`` as the YAML runtime sends it: a whole-value ``${variable}`` is the program's
    variable; any other expression (config, a resource's output) is known only when the
    program runs, so unknown here."""
    if isinstance(value, str) and (m := INTERPOLATION.match(value)):
        variables = PROGRAM.get("variables", {})
        return as_sent(variables[m.group(1)]) if m.group(1) in variables else Unknown()
    if isinstance(value, dict):
        return {k: as_sent(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_sent(v) for v in value]
    return value


def schema_problems(resource_type: str, properties: dict[str, Any]) -> list[tuple[str, str]]:
    """What the provider's own check (``wire_problems``, run before every Construct) finds in
    a resource's properties, against the reviewed schema."""
    spec = SCHEMA["resources"][resource_type]
    return wire_problems(
        as_sent(properties),
        spec["inputProperties"],
        spec.get("requiredInputs", []),
        SCHEMA["types"],
    )


OURS = {
    name: resource
    for name, resource in PROGRAM["resources"].items()
    if resource["type"].startswith("gpu-platform:")
}


def test_the_example_uses_our_components() -> None:
    assert {r["type"] for r in OURS.values()} == {
        "gpu-platform:index:AksGpuNodePool",
        "gpu-platform:index:NvidiaDevicePlugin",
        "gpu-platform:index:DcgmExporter",
    }


@pytest.mark.parametrize("name", sorted(OURS))
def test_each_resource_matches_the_schema(name: str) -> None:
    resource = OURS[name]
    assert schema_problems(resource["type"], resource.get("properties", {})) == []


def test_outputs_name_declared_outputs() -> None:
    for expression in PROGRAM["outputs"].values():
        resource, output = INTERPOLATION.match(expression).group(1).split(".")  # type: ignore[union-attr]
        assert output in SCHEMA["resources"][OURS[resource]["type"]]["properties"]


def test_the_checker_refuses_a_wrong_program() -> None:
    bad = {"clusterName": "c", "pool": {"name": "t4", "count": "two", "vmSzie": "x"}}
    assert schema_problems("gpu-platform:index:AksGpuNodePool", bad) == [
        ("pool.count", "expected a whole number, got 'two'"),
        ("pool.vmSzie", "unknown property; did you mean 'vmSize'?"),
        ("resourceGroupName", "required"),
    ]


def test_a_variable_is_checked_where_it_is_used() -> None:
    # The example's pools are ``${t4}``: the variable's own fields are what is checked.
    properties = {**OURS["gpu"]["properties"], "pool": "${t4}"}
    assert schema_problems("gpu-platform:index:AksGpuNodePool", properties) == []
    broken = {**PROGRAM["variables"]["t4"], "maxPods": "many"}
    assert schema_problems("gpu-platform:index:AksGpuNodePool", {**properties, "pool": broken}) == [
        ("pool.maxPods", "expected a whole number, got 'many'")
    ]
