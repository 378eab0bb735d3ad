"""The fleet-scale bench: the team program previews at a size, beside the empty program, and the
report gives the cost per resource above the empty program's and the peak memory. No timing is
asserted."""

from __future__ import annotations

import math
import sys

import pytest

from bench.fleet import FleetRun, FleetScale, measure_fleet, report_lines
from bench.timing import Timing


@pytest.mark.slow
def test_the_team_program_previews_clean_at_a_size_and_empty() -> None:
    fleet = measure_fleet([21], empty_repeats=1, python=sys.executable)
    (run,) = fleet.sizes
    assert (run.teams, run.resources) == (2, 21)
    assert fleet.empty.exit_codes == [0] and run.exit_codes == [0], "the pack accepts the teams"
    assert run.timing.runs == 1 and run.peak_rss_kb[0] > 0
    assert run.timing.median("cpu") > 0 and fleet.empty.timing.median("cpu") > 0
    doc = fleet.as_dict()
    assert doc["sizes"][0]["resources"] == 21
    assert math.isnan(doc["flatness"]), "one size: no ratio"


def test_cost_per_resource_is_above_the_empty_program() -> None:
    empty = FleetRun(teams=0, timing=Timing(wall_s=[1.0], cpu_s=[1.0]), peak_rss_kb=[100_000])
    small = FleetRun(teams=100, timing=Timing(wall_s=[4], cpu_s=[3.002]), peak_rss_kb=[160_060])
    large = FleetRun(teams=500, timing=Timing(wall_s=[20], cpu_s=[12.0]), peak_rss_kb=[400_000])
    fleet = FleetScale(empty=empty, sizes=[small, large])
    assert fleet.per_resource_ms(small) == pytest.approx(2.0)  # (3.002 - 1) s / 1001
    assert fleet.memory_per_resource_kb(small) == pytest.approx(60.0)
    assert fleet.flatness == pytest.approx(fleet.per_resource_ms(large) / 2.0)
    lines = report_lines(fleet)
    assert "1001" in lines[2] and "5001" in lines[3]
    assert lines[-1].startswith("  largest/smallest per resource 1.100×")
