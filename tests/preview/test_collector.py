"""The preview's collector policy: full collections deferred while a program runs, the younger
generations' untouched, the caller's thresholds back afterwards, even when the program fails."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpu_platform.offline_preview.cli import preview
from gpu_platform.offline_preview.collector import (
    FULL_COLLECTION_AFTER,
    full_collections_deferred,
)


def _oldest_threshold_kept() -> bool:
    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], 1234)
    kept = gc.get_threshold()[2] == 1234
    gc.set_threshold(*before)
    return kept


pytestmark = pytest.mark.skipif(
    not _oldest_threshold_kept(),
    reason="this CPython's collector has no oldest-generation threshold (an incremental one)",
)


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    """CPython's defaults for the test, the session's own back afterwards."""
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*before)


def test_defers_full_collections_and_keeps_the_others(thresholds: tuple[int, int, int]) -> None:
    with full_collections_deferred():
        assert gc.get_threshold() == (700, 10, FULL_COLLECTION_AFTER)
    assert gc.get_threshold() == thresholds


def test_restores_the_thresholds_after_an_error(thresholds: tuple[int, int, int]) -> None:
    with pytest.raises(RuntimeError), full_collections_deferred():
        raise RuntimeError("the program failed")
    assert gc.get_threshold() == thresholds


def test_keeps_a_caller_s_longer_deferral() -> None:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, FULL_COLLECTION_AFTER * 5)
    try:
        with full_collections_deferred():
            assert gc.get_threshold()[2] == FULL_COLLECTION_AFTER * 5
    finally:
        gc.set_threshold(*before)


PROGRAM = """\
import gc
import pulumi

pulumi.export("full_after", gc.get_threshold()[2])
if pulumi.Config().get_bool("fail"):
    raise RuntimeError("boom")
"""


def _program(tmp_path: Path) -> Path:
    (tmp_path / "Pulumi.yaml").write_text("name: collector\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(PROGRAM)
    (tmp_path / "Pulumi.ok.yaml").write_text("config: {}\n")
    (tmp_path / "Pulumi.bad.yaml").write_text("config:\n  collector:fail: 'true'\n")
    return tmp_path


def test_a_program_runs_under_the_policy(tmp_path: Path, thresholds: tuple[int, int, int]) -> None:
    program = _program(tmp_path)
    result = preview(program, stack="ok")
    assert result.run.outputs["full_after"] == FULL_COLLECTION_AFTER
    assert gc.get_threshold() == thresholds
    with pytest.raises(Exception, match="boom"):
        preview(program, stack="bad")
    assert gc.get_threshold() == thresholds
