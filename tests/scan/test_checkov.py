"""checkov's JSON report read, and the guards that it read everything it was given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scan import checkov
from scan.baseline import Finding
from scan.checkov import CheckovError, Exported

from . import fake_checkov

REPORT = (fake_checkov.DATA / "checkov-program.json").read_text()
GIVEN = {
    "kubernetes": Exported(Path("manifests.yaml"), 2, checked_kinds=True),
    "arm": Exported(Path("azure.json"), 2, checked_kinds=True),
}


def test_a_report_per_framework_becomes_the_failed_checks_and_summaries() -> None:
    report = checkov.parse_report(REPORT)

    assert report.version == "3.3.30"
    assert {k: (s.resources, s.passed, s.failed) for k, s in report.summaries.items()} == {
        "arm": (2, 7, 7),
        "kubernetes": (2, 84, 2),
    }
    assert (
        Finding(
            "CKV_AZURE_227",
            "Microsoft.ContainerService/managedClusters/agentPools.scan/gpu",
            "Ensure that the AKS cluster encrypt temp disks, caches, and data flows between "
            "Compute and Storage resources",
            "arm",
        )
        in report.findings
    )
    assert [f.check for f in report.findings if f.framework == "kubernetes"] == [
        "CKV_K8S_43",
        "CKV_K8S_15",
    ]
    checkov.check_coverage(report, GIVEN)


def test_a_single_framework_report_and_a_bare_summary_are_read_too() -> None:
    single = json.loads(REPORT)[1]
    assert [f.check for f in checkov.parse_report(json.dumps(single)).findings] == [
        "CKV_K8S_43",
        "CKV_K8S_15",
    ]
    bare = checkov.parse_report('{"passed": 0, "failed": 0, "checkov_version": "3.3.30"}')
    assert bare.findings == [] and bare.summaries == {} and bare.version == "3.3.30"


def test_the_same_failure_twice_is_one_finding() -> None:
    data = json.loads(REPORT)
    data[1]["results"]["failed_checks"] *= 2

    assert len(checkov.parse_report(json.dumps(data)).findings) == 9


def test_output_that_is_not_json_is_checkovs_failure() -> None:
    with pytest.raises(CheckovError, match="not JSON"):
        checkov.parse_report("Traceback (most recent call last): ...")


def test_a_parsing_error_fails_the_scan() -> None:
    data = json.loads(REPORT)
    data[0]["results"]["parsing_errors"] = ["/tmp/out/azure.json"]

    with pytest.raises(CheckovError, match=r"could not parse /tmp/out/azure.json"):
        checkov.check_coverage(checkov.parse_report(json.dumps(data)), GIVEN)


def test_objects_checkov_did_not_read_fail_the_scan() -> None:
    report = checkov.parse_report(REPORT)
    more = {**GIVEN, "arm": Exported(Path("azure.json"), 3, checked_kinds=True)}

    with pytest.raises(CheckovError, match=r"read 2 of the 3 objects in azure\.json"):
        checkov.check_coverage(report, more)


def test_no_report_is_fine_only_for_kinds_checkov_has_no_checks_for() -> None:
    bare = checkov.parse_report('{"passed": 0, "checkov_version": "3.3.30"}')
    namespaces = {"kubernetes": Exported(Path("manifests.yaml"), 4, checked_kinds=False)}
    checkov.check_coverage(bare, namespaces)

    with pytest.raises(CheckovError, match=r"reported nothing on manifests\.yaml"):
        checkov.check_coverage(bare, GIVEN)


def test_run_calls_the_executable_and_reads_its_report(tmp_path: Path) -> None:
    report = checkov.run(fake_checkov.write(tmp_path), tmp_path)

    assert len(report.findings) == 9


def test_run_fails_on_a_missing_checkov_or_one_that_crashed(tmp_path: Path) -> None:
    with pytest.raises(CheckovError, match="`make scan` installs it"):
        checkov.run(tmp_path / "missing", tmp_path)
    crashed = fake_checkov.write(tmp_path, exit_code=2)
    with pytest.raises(CheckovError, match="checkov exited 2"):
        checkov.run(crashed, tmp_path)
