"""The preview's collector policies: full collections deferred while a program runs, the younger
generations' untouched, the caller's thresholds back afterwards, even when the program fails;
and the preview's own process, which ends with os._exit, with the collector off."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
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


ENABLED_PROGRAM = """\
import gc
import pulumi

pulumi.export("collector_enabled", gc.isenabled())
"""


def test_the_preview_process_runs_with_the_collector_off(tmp_path: Path) -> None:
    """`python -m gpu_platform.offline_preview` ends with os._exit after one preview: its
    collector is off from the start (``off_until_exit``)."""
    (tmp_path / "Pulumi.yaml").write_text("name: collector\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(ENABLED_PROGRAM)
    command = [sys.executable, "-m", "gpu_platform.offline_preview", "--program", str(tmp_path)]
    done = subprocess.run(
        [*command, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["outputs"]["collector_enabled"] is False


def test_off_until_exit_freezes_and_turns_the_collector_off() -> None:
    code = (
        "import gc; from gpu_platform.offline_preview.collector import off_until_exit; "
        "off_until_exit(); print(gc.isenabled(), gc.get_freeze_count() > 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["False", "True"]
