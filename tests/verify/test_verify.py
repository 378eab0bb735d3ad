"""Every check of make verify over what the reader returns, the driver rows beside each node's
GPU daemon (verify.verify)."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import cast

import pytest

import gpu_platform.verify
from gpu_platform.verify.cluster import ClusterReader
from gpu_platform.verify.driver import ExecError, ExecTarget
from gpu_platform.verify.progress import Progress
from gpu_platform.verify.results import CheckResult
from gpu_platform.verify.verify import Report, driver_check, verify
from tests.verify.recorded import RecordedReader, recorded_expectations

SMI = Path(__file__).resolve().parents[1] / "data" / "nvidia_smi"
TARGET = ExecTarget("node-1", "nvidia-device-plugin", "plugin-abc", None)


def test_the_driver_row_of_one_node() -> None:
    table = (SMI / "h100_table.txt").read_text()
    ok = driver_check(TARGET, 535, lambda target: table)
    assert ok.status == "pass" and ok.subject == "node/node-1" and "plugin-abc" in ok.found
    old = driver_check(TARGET, 999, lambda target: table)
    assert old.status == "fail" and old.found.endswith("upgrade the node image or driver")

    def refused(target: ExecTarget) -> str:
        raise ExecError("pods/exec forbidden")

    assert driver_check(TARGET, 535, refused).found == "pods/exec forbidden"


def test_the_recorded_cluster_without_exec_or_metrics() -> None:
    report = verify(
        cast(ClusterReader, RecordedReader()),
        recorded_expectations(),
        None,
        Progress(io.StringIO(), enabled=False),
    )
    counts = report.counts()
    assert counts["fail"] == 0, [r for r in report.results if r.status == "fail"]
    assert report.ok and counts["pass"] > 10
    drivers = [r for r in report.results if r.check == "driver"]
    assert drivers and {r.status for r in drivers} == {"skip"}
    # Each driver row follows its node's GPU daemon row.
    for row in drivers:
        before = report.results[report.results.index(row) - 1]
        assert (before.check, before.subject) == ("gpu-daemon", row.subject)


def test_a_report_fails_on_any_failed_row() -> None:
    report = Report(
        [CheckResult("c", "s", "e", "f", "fail"), CheckResult("c", "s", "e", "f", "skip")]
    )
    assert not report.ok
    assert report.counts() == {"pass": 0, "fail": 1, "skip": 1, "warn": 0}


def test_the_command_without_the_kubernetes_client_says_which_extra_it_needs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An install of gpu-platform without [verify]: `import kubernetes` fails.
    monkeypatch.setitem(sys.modules, "kubernetes", None)
    assert gpu_platform.verify.main() == 2
    assert capsys.readouterr().err == gpu_platform.verify.MISSING_CLIENT
    assert "pip install 'gpu-platform[verify]'" in gpu_platform.verify.MISSING_CLIENT
