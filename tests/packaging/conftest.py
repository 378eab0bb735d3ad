"""The ``packaging`` tests build and install distributions: they run with ``--dist-check``
(``make dist-check``, which CI runs after ``make test``), and are skipped, saying so, otherwise."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--dist-check"):
        return
    skip = pytest.mark.skip(reason="builds and installs the wheels: run by make dist-check")
    for item in items:
        if item.get_closest_marker("packaging"):
            item.add_marker(skip)
