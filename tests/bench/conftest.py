"""The benchmark harness's tests (``bench/``) run whole previews, floors and fake fleets in
their own processes: they run with ``--bench-check`` (``make bench-check``, which CI runs), and
are skipped, saying so, otherwise, so that ``make test`` stays the product's loop."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--bench-check"):
        return
    skip = pytest.mark.skip(reason="tests the benchmark harness: run by make bench-check")
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(skip)
