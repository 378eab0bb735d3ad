"""examples/yaml-gpu-pool: a Pulumi YAML program using our components through the provider.
Its property names, types and required properties are checked against the reviewed schema
(provider/schema.json), as the YAML runtime would check them against the generated one;
variables (``${t4}``) are checked where they are used."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "provider" / "schema.json").read_text())
PROGRAM = yaml.safe_load((ROOT / "examples" / "yaml-gpu-pool" / "Pulumi.yaml").read_text())
INTERPOLATION = re.compile(r"^\$\{([\w.]+)\}$")
TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool}


def resolve(value: Any) -> Any:
    """A whole-value ``${variable}`` replaced by the program's variable; other expressions
    (config, resource outputs) stay as they are: known only when the program runs."""
    if isinstance(value, str) and (m := INTERPOLATION.match(value)):
        return PROGRAM.get("variables", {}).get(m.group(1), value)
    return value


def problems(value: Any, spec: dict[str, Any], path: str) -> list[str]:
    value = resolve(value)
    if isinstance(value, str) and INTERPOLATION.match(value):
        return []  # a config value or an output: typed when the program runs
    if "$ref" in spec:
        token = spec["$ref"].removeprefix("#/types/")
        return object_problems(value, SCHEMA["types"][token], path)
    kind = spec.get("type")
    if kind == "array":
        if not isinstance(value, list):
            return [f"{path}: a list, not {value!r}"]
        return [p for i, v in enumerate(value) for p in problems(v, spec["items"], f"{path}[{i}]")]
    if kind == "object":
        if not isinstance(value, dict):
            return [f"{path}: a map, not {value!r}"]
        item = spec.get("additionalProperties", {})
        return [p for k, v in value.items() for p in problems(v, item, f"{path}.{k}")]
    wrong_scalar = kind in TYPES and not isinstance(value, TYPES[kind])
    if wrong_scalar or (isinstance(value, bool) and kind in ("integer", "number")):
        return [f"{path}: {kind}, not {value!r}"]
    return []


def object_problems(value: Any, spec: dict[str, Any], path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path}: an object, not {value!r}"]
    properties = spec.get("inputProperties", spec.get("properties", {}))
    required = spec.get("requiredInputs", spec.get("required", []))
    found = [f"{path}.{k}: no such property" for k in value if k not in properties]
    found += [f"{path}.{k}: required" for k in required if k not in value]
    found += [
        p
        for k, v in value.items()
        if k in properties
        for p in problems(v, properties[k], f"{path}.{k}")
    ]
    return found


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
    spec = SCHEMA["resources"][resource["type"]]
    assert object_problems(resource.get("properties", {}), spec, name) == []


def test_outputs_name_declared_outputs() -> None:
    for expression in PROGRAM["outputs"].values():
        resource, output = INTERPOLATION.match(expression).group(1).split(".")  # type: ignore[union-attr]
        assert output in SCHEMA["resources"][OURS[resource]["type"]]["properties"]


def test_the_checker_refuses_a_wrong_program() -> None:
    spec = SCHEMA["resources"]["gpu-platform:index:AksGpuNodePool"]
    bad = {"clusterName": "c", "pool": {"name": "t4", "count": "two", "vmSzie": "x"}}
    assert object_problems(bad, spec, "gpu") == [
        "gpu.resourceGroupName: required",
        "gpu.pool.vmSzie: no such property",
        "gpu.pool.count: integer, not 'two'",
    ]
