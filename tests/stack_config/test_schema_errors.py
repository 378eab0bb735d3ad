"""The schema's errors as problems: the user's key paths, one shape of a union, a misspelt
required key once (stack_config/schema_errors.py)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from gpu_platform.settings import PlatformSettings, WorkloadSettings
from gpu_platform.stack_config.schema_errors import key_path, schema_problems


def problems_of(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as err:
        PlatformSettings.model_validate(data)
    return schema_problems(err.value, data)


def workload(quota: Any) -> dict[str, Any]:
    return {
        "cloud": "existing",
        "cluster": {"name": "c"},
        "workloads": [{"name": "ml", "type": "training", "gpuQuota": quota}],
    }


def test_key_paths_are_the_users() -> None:
    assert key_path(("gpuPools", 0, "mig", "profile")) == "gpuPools[0].mig.profile"
    assert key_path(("workloads", 1, "gpuQuota", "dict[str,constrained-int]", "x")) == (
        "workloads[1].gpuQuota.x"
    )
    assert key_path(()) == "(root)"


@pytest.mark.parametrize(
    ("quota", "expected"),
    [
        (
            {"nvidia.com/gpu": "many"},
            [("workloads[0].gpuQuota.nvidia.com/gpu", "must be a whole number")],
        ),
        (
            {"nvidia.com/gpu": -1},
            [
                (
                    "workloads[0].gpuQuota.nvidia.com/gpu",
                    "Input should be greater than or equal to 0",
                )
            ],
        ),
        (-1, [("workloads[0].gpuQuota", "Input should be greater than or equal to 0")]),
        ("text", [("workloads[0].gpuQuota", "must be a whole number or a mapping")]),
        ([1], [("workloads[0].gpuQuota", "must be a whole number or a mapping")]),
    ],
)
def test_only_the_union_members_of_the_values_shape_speak(
    quota: Any, expected: list[tuple[str, str]]
) -> None:
    assert problems_of(workload(quota)) == expected


def test_a_misspelt_required_key_is_one_problem() -> None:
    data = workload(1)
    data["workloads"][0]["nmae"] = data["workloads"][0].pop("name")
    assert problems_of(data) == [("workloads[0].nmae", "unknown key; did you mean 'name'?")]


def test_unknown_keys_name_the_closest_known_one() -> None:
    data = workload(1)
    data["workloads"][0]["trafic"] = {}
    data["cluster"]["contxt"] = "kind"
    assert problems_of(data) == [
        ("cluster.contxt", "unknown key; did you mean 'context'?"),
        ("workloads[0].trafic", "unknown key; did you mean 'traffic'?"),
    ]


def test_messages_are_plain() -> None:
    with pytest.raises(ValidationError) as err:
        WorkloadSettings.model_validate({"name": "ml", "type": "training", "gpuQuota": 1.5})
    assert schema_problems(err.value, {}) == [("gpuQuota", "must be a whole number or a mapping")]
