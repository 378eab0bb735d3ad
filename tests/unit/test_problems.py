"""plan.problems: relative paths put under the caller's own."""

from __future__ import annotations

import pytest

from gpu_platform.plan.problems import join, under


@pytest.mark.parametrize(
    ("prefix", "relative", "path"),
    [
        ("gpuPools[1]", "labels.x", "gpuPools[1].labels.x"),
        ("cluster.tags", "", "cluster.tags"),
        ("cluster.entraId.adminGroupObjectIds", "[2]", "cluster.entraId.adminGroupObjectIds[2]"),
        ("", "zones", "zones"),
        ("", "[0]", "[0]"),
        ("pool.labels", "team.example.com/role", "pool.labels.team.example.com/role"),
    ],
)
def test_join(prefix: str, relative: str, path: str) -> None:
    assert join(prefix, relative) == path


def test_under_keeps_order_and_messages() -> None:
    assert under("pool.zones", [("[1]", "a"), ("", "b")]) == [
        ("pool.zones[1]", "a"),
        ("pool.zones", "b"),
    ]
