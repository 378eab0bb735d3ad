"""Bad component input as one ``InputPropertiesError`` with property paths
(components/errors.py)."""

from typing import NotRequired, TypedDict

import pulumi
import pytest
from pydantic import ValidationError

from gpu_platform.components.errors import (
    input_error,
    property_path,
    raise_if_any,
    shape_problems,
    validation_problems,
)
from gpu_platform.settings import AutoscaleSettings


# No ``from __future__ import annotations`` here: NotRequired must be read at run time.
class _Args(TypedDict):
    pools: list[str]
    node_count: NotRequired[int]


def test_property_paths_are_the_schemas_camel_case_with_indexes() -> None:
    assert property_path("pool", "vm_size") == "pool.vmSize"
    assert property_path("pools", 2, "mig", "profile") == "pools[2].mig.profile"
    assert property_path() == ""


def test_a_settings_error_becomes_problems_under_the_property() -> None:
    with pytest.raises(ValidationError) as err:
        AutoscaleSettings.model_validate({"max": 0, "colour": "red"})
    problems = dict(validation_problems(err.value, "pool", "autoscale"))
    assert problems["pool.autoscale.colour"] == "unknown property"
    assert "greater than or equal to 1" in problems["pool.autoscale.max"]


def test_the_shape_names_unknown_and_missing_properties() -> None:
    assert shape_problems({"pools": [], "node_count": 1}, _Args) == []
    assert sorted(shape_problems({"nodeCount": 1}, _Args)) == [
        ("nodeCount", "unknown property"),
        ("pools", "required"),
    ]


def test_one_error_names_every_problem() -> None:
    raise_if_any("X", "x", [])
    with pytest.raises(pulumi.InputPropertiesError) as err:
        raise_if_any("NvmeCache", "cache", [("pools", "required"), ("a.b", "bad")])
    assert str(err.value).startswith("NvmeCache 'cache': pools: required; a.b: bad")
    made = input_error("C", "c", [("p", "why")])
    assert made.errors == [{"property_path": "p", "reason": "why"}]
