"""``make verify`` at fleet size, at its smallest: the grown cluster is healthy and every run
is measured (bench.verify_fleet, bench.fleet_cluster, bench.fake_api_server). No timing is
asserted."""

from __future__ import annotations

import pytest

from bench.fleet_cluster import build_fleet, fleet_pools
from bench.verify_fleet import measure_fleet, render_fleet

pytestmark = pytest.mark.slow


def test_pools_of_a_fleet() -> None:
    pools = fleet_pools(1201)
    assert sum(p.nodes for p in pools) == 1201
    assert [p.name for p in pools] == ["a100p0", "a100p1", "t4p0"]
    assert max(p.nodes for p in pools) <= 500


def test_a_small_fleet_verifies_healthy_with_execs_and_metrics() -> None:
    fleet = build_fleet(3, pods_per_node=5)
    assert fleet.objects == len(fleet.data.namespaces) + sum(
        len(items) for items in fleet.data.items.values()
    )
    # The full run only (the reads-only run is the same process less its execs and pages).
    result = measure_fleet([3], modes=("full",), pods_per_node=5)
    assert [(r.mode, r.exit_code, r.failed_rows) for r in result.runs] == [("full", 0, 0)], [
        r.stderr_tail for r in result.runs
    ]
    (full,) = result.runs
    assert full.requests["exec"] == 3  # one per node: the MIG nodes' two reads in one exec
    assert full.requests["proxy"] == 3
    assert full.rows > 0 and full.max_rss_mb > 0
    assert render_fleet(result)[0].startswith("make verify at fleet size")
