"""Shared fixtures: stack configs, and the mock-engine harness (offline_preview.run_callable)."""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pulumi
import pytest
import yaml
from hypothesis import HealthCheck, settings

from offline_preview import ProgramRun, RecordedResource, run_callable
from plan.platform import ResolvedPlatform
from stack_config import load_platform

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis' default 200 ms deadline and its too_slow health check are timing asserts in
# disguise: a loaded CI machine fails them with no bug. The default profile also
# derandomizes, so CI runs exactly what a local `make test` runs;
# `HYPOTHESIS_PROFILE=explore make unit` searches wider, at random.
_UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("default", _UNTIMED, derandomize=True, database=None)
settings.register_profile("explore", _UNTIMED, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def stack_raw(stack: str) -> dict[str, Any]:
    """The ``gpu-platform:`` keys of ``Pulumi.<stack>.yaml``, namespace stripped."""
    data = yaml.safe_load((ROOT / f"Pulumi.{stack}.yaml").read_text())["config"]
    return {k.split(":", 1)[1]: v for k, v in data.items() if k.startswith("gpu-platform:")}


@pytest.fixture
def raw_config() -> Callable[[str], dict[str, Any]]:
    """A fresh, mutable copy of a stack's raw config."""
    return lambda stack: copy.deepcopy(stack_raw(stack))


def platform_of(raw: dict[str, Any]) -> ResolvedPlatform:
    return load_platform(raw)


def run(program: Callable[[], Any], **kwargs: Any) -> ProgramRun:
    """Run ``program`` on the mock engine; returns after every registration has completed."""
    return run_callable(program, **kwargs)


def by_type(run_result: ProgramRun, type_: str) -> list[RecordedResource]:
    return [r for r in run_result.resources if r.type == type_]


def one(run_result: ProgramRun, type_: str) -> RecordedResource:
    found = by_type(run_result, type_)
    assert len(found) == 1, f"expected one {type_}, found {[r.name for r in found]}"
    return found[0]


@pytest.fixture(autouse=True)
def _clean_pulumi_config() -> None:
    """Config is a process-wide ContextVar in the SDK; start every test without any."""
    pulumi.runtime.set_all_config({}, [])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first (order otherwise kept): with `make test`'s two workers a long test
    collected last would run alone at the end while the other core idles."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
