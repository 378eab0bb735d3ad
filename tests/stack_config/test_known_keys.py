"""The keys the stack config knows at a place, and the closest one to a key it does not."""

from __future__ import annotations

from typing import Literal

import pytest

from gpu_platform.settings import AksGpuPoolSettings, ObservabilitySettings
from gpu_platform.stack_config.known_keys import (
    annotation_at,
    closest,
    field_at,
    known_keys,
    model_of,
    unknown_key_message,
)

AZURE = {"cloud": "aks"}


def test_the_closest_known_key_is_named() -> None:
    assert unknown_key_message("retentionDay", ["retentionDays", "enabled"]) == (
        "unknown key; did you mean 'retentionDays'?"
    )
    assert unknown_key_message("colour", ["enabled", "name"]) == (
        "unknown key; known keys: enabled, name"
    )
    assert closest("observabilty", ["observability", "readiness"]) == "observability"
    assert closest("zzz", ["observability"]) is None


@pytest.mark.parametrize(
    ("loc", "data", "expected"),
    [
        (["observability", "logs"], AZURE, "enabled"),
        (["gpuPools", 3], AZURE, "vmSize"),
        (["gpuPools", 0], {"cloud": "existing"}, "machineType"),
        (["cluster"], AZURE, "resourceGroup"),
        (["cluster"], {"cloud": "ack"}, "clusterSpec"),
        (["cluster", "systemPool"], AZURE, "osDiskType"),
    ],
)
def test_known_keys_follow_the_schema_and_the_cloud(
    loc: list[int | str], data: dict[str, object], expected: str
) -> None:
    keys = known_keys(loc, data)
    assert keys is not None and expected in keys


def test_no_keys_where_there_is_no_one_model() -> None:
    assert known_keys(["cluster"], {"cloud": "gcp"}) is None
    assert known_keys(["gpuPools", 0, "labels"], AZURE) is None
    assert known_keys(["nowhere"], AZURE) is None


def test_fields_and_types_at_a_key_path() -> None:
    field = field_at(["gpuPools", 0, "mig", "strategy"], AZURE)
    assert field is not None and field.annotation == Literal["single", "mixed"]
    assert field_at(["gpuPools", 0], AZURE) is None
    assert model_of(annotation_at(["gpuPools", 0], AZURE)) is AksGpuPoolSettings  # by cloud
    assert model_of(annotation_at(["observability"], AZURE)) is ObservabilitySettings
    assert annotation_at(["gpuPools", 0, "labels"], AZURE) == dict[str, str]
