"""`python -m scan` end to end: a small program on the offline preview, exported, scanned by
a stand-in for checkov (the suite never installs checkov), compared with a baseline."""

from __future__ import annotations

from pathlib import Path

import pytest

from scan import baseline
from scan.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, main

from . import fake_checkov

pytestmark = pytest.mark.slow  # each run previews the program (seconds)

PROGRAM = Path(__file__).resolve().parent / "program"
POOL_ENCRYPTION = (
    "CKV_AZURE_227",
    "Microsoft.ContainerService/managedClusters/agentPools.scan/gpu",
)
PLUGIN = ("NOT_SCANNED", "kubernetes:helm.sh/v3:Release.plugin")


def test_new_failures_fail_until_accepted_with_reasons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "baseline-test.yaml"
    args = [
        "--program", str(PROGRAM), "--stack", "test", "--baseline", str(base),
        "--out", str(tmp_path / "out"), "--checkov", str(fake_checkov.write(tmp_path)),
    ]  # fmt: skip

    # No baseline: every failure is new, the Helm release among them.
    assert main(args) == EXIT_FINDINGS
    out = capsys.readouterr().out
    assert "NEW" in out and "CKV_AZURE_227" in out and "kubernetes:helm.sh/v3:Release.plugin" in out
    assert "FAIL: 10 new failures" in out
    exported = (tmp_path / "out" / "manifests.yaml").read_text()
    assert "kind: Job" in exported and "kind: Namespace" in exported

    # UPDATE_BASELINE=1: the failures come in as `reason: TODO`, which still fails.
    assert main([*args, "--update-baseline"]) == EXIT_FINDINGS
    assert "FAIL: 10 baseline entries without a reason" in capsys.readouterr().out
    entries = baseline.load(base)
    assert {POOL_ENCRYPTION, PLUGIN} <= {e.key for e in entries}
    assert {e.reason for e in entries} == {"TODO"}

    # Reasons written, and one entry for a check that passes now: pass, the stale one reported.
    reasoned = [baseline.Entry(e.check, e.resource, e.title, "a reason") for e in entries]
    stale = baseline.Entry(
        "CKV_AZURE_168", "Microsoft.ContainerService/managedClusters.scan", "", "r"
    )
    base.write_text(baseline.dump([*reasoned, stale], "test"))
    assert main(args) == EXIT_OK
    out = capsys.readouterr().out
    assert "PASS: 10 accepted failures, each with its reason; 1 stale baseline entries" in out
    assert "stale     CKV_AZURE_168" in out

    # A malformed baseline is an error, not a pass.
    base.write_text("accepted: [{check: C}]")
    assert main(args) == EXIT_ERROR
    assert "resource must be a non-empty string" in capsys.readouterr().err
