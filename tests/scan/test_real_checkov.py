"""The exporter's files as the real checkov reads them, when `make scan` has installed it.

Skipped otherwise: the suite never installs checkov. This is what ties the recorded report
(data/checkov-program.json, the stand-in's output) and the ARM shapes to checkov itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scan import checkov
from scan.cli import ROOT, plan_of
from scan.export import export_plan

from . import fake_checkov

CHECKOV = ROOT / ".venv-scan" / "bin" / "checkov"
PROGRAM = Path(__file__).resolve().parent / "program"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHECKOV.exists(), reason="checkov is not installed (make scan)"),
]


def test_checkov_reads_the_export_as_the_recorded_report_says(tmp_path: Path) -> None:
    export = export_plan(plan_of("test", None, PROGRAM))
    written = export.write(tmp_path)

    report = checkov.run(CHECKOV, tmp_path)

    checkov.check_coverage(report, written)
    recorded = checkov.parse_report((fake_checkov.DATA / "checkov-program.json").read_text())
    assert sorted(report.findings, key=str) == sorted(recorded.findings, key=str)
    failed = {(f.check, f.resource) for f in report.findings}
    cluster = "Microsoft.ContainerService/managedClusters.scan"
    pool = "Microsoft.ContainerService/managedClusters/agentPools.scan/gpu"
    # Host encryption: set inline on the system pool (passes), not on the GPU pool (fails);
    # maxPods set on both: checkov reads both shapes where we put them.
    assert ("CKV_AZURE_227", pool) in failed and ("CKV_AZURE_227", cluster) not in failed
    assert not {("CKV_AZURE_168", cluster), ("CKV_AZURE_168", pool)} & failed
    assert {f.check for f in report.findings if f.framework == "kubernetes"} == {
        "CKV_K8S_15",
        "CKV_K8S_43",
    }
