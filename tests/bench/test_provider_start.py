"""``bench.provider_start``: the provider started as Pulumi starts it, timed to GetSchema.

No timing is asserted: one start, then what is reported.
"""

from __future__ import annotations

import socket

import pytest

from bench.provider_start import (
    BUDGET_S,
    ProviderStart,
    closed_port_address,
    measure_provider_start,
    report_lines,
)
from bench.timing import Timing


def test_the_engine_address_is_a_closed_port() -> None:
    host, port = closed_port_address().split(":")
    with socket.socket() as client, pytest.raises(ConnectionRefusedError):
        client.connect((host, int(port)))


def test_the_verdict_needs_the_reviewed_schema_and_the_budget() -> None:
    start = ProviderStart(Timing([BUDGET_S - 0.5], [1.0]), True, 21)
    assert start.met
    start.schema_matches_reviewed = False
    assert not start.met
    assert "NOT provider/schema.json" in "\n".join(report_lines(start))
    assert not ProviderStart(Timing([BUDGET_S + 0.1], [1.0]), True, 21).met


@pytest.mark.slow
def test_one_start_answers_the_reviewed_schema() -> None:
    doc = measure_provider_start(runs=1, warm_up=False).as_dict()
    assert doc["schema_matches_reviewed"] is True
    assert doc["resources"] >= 20
    assert len(doc["to_schema"]["wall_s"]) == len(doc["to_schema"]["cpu_s"]) == 1
    assert doc["to_schema"]["median_wall_s"] > 0
