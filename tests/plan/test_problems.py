"""Problems with paths relative to what a rule judges, put under the caller's path
(plan.problems)."""

from __future__ import annotations

import pytest

from gpu_platform.plan.problems import join_path, under


@pytest.mark.parametrize(
    ("prefix", "path", "joined"),
    [
        ("gpuPools[1]", "mig", "gpuPools[1].mig"),
        ("gpuPools[1]", "", "gpuPools[1]"),
        ("", "mig.profile", "mig.profile"),
        ("pool", "zones[0]", "pool.zones[0]"),
        ("cpuPools[0].zones", "[2]", "cpuPools[0].zones[2]"),
    ],
)
def test_join_path(prefix: str, path: str, joined: str) -> None:
    assert join_path(prefix, path) == joined


def test_under_keeps_messages_and_order() -> None:
    found = [("", "the pool itself"), ("mig.profile", "no such profile")]
    assert under("pools[3]", found) == [
        ("pools[3]", "the pool itself"),
        ("pools[3].mig.profile", "no such profile"),
    ]
    assert under("pool", []) == []
