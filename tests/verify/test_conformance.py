"""AI Conformance 1.36's accelerator requirements as rows, from their evidence
(verify.conformance, gpu_facts.ai_conformance)."""

from __future__ import annotations

from gpu_facts.ai_conformance import REQUIREMENTS
from gpu_platform.verify.active import DEVICE_PLUGIN_VARIANT
from gpu_platform.verify.conformance import conformance_rows
from gpu_platform.verify.results import CheckResult


def _row(check: str, status: str = "pass", subject: str = "node/a") -> CheckResult:
    return CheckResult(check, subject, "e", "f", status)  # type: ignore[arg-type]


def _by_id(rows: list[CheckResult]) -> dict[str, CheckResult]:
    return {r.subject.rsplit("/", 1)[-1]: r for r in rows}


def test_the_1_36_list() -> None:
    assert [(r.id, r.level) for r in REQUIREMENTS if r.accelerators] == [
        ("driver_runtime_management", "SHOULD"),
        ("gpu_sharing", "SHOULD"),
        ("virtualized_accelerator", "SHOULD"),
        ("gang_scheduling", "MUST"),
        ("cluster_autoscaling", "MUST"),
        ("pod_autoscaling", "MUST"),
        ("accelerator_metrics", "MUST"),
        ("secure_accelerator_access", "MUST"),
    ]
    assert len(REQUIREMENTS) == 14


def test_evidence_passes_fails_or_is_missing() -> None:
    rows = [
        _row("driver"),
        _row("gpu-series", "fail", "node/b"),
        _row("exporter"),
        _row("mig-devices"),
        CheckResult("probe-no-gpu", "pool/a", f"sees no GPU; {DEVICE_PLUGIN_VARIANT}", "f", "pass"),
    ]
    found = _by_id(conformance_rows(rows))
    assert found["driver_runtime_management"].status == "pass"
    assert found["accelerator_metrics"].status == "fail"
    assert found["accelerator_metrics"].found == "1 of 2 rows pass; failing: gpu-series node/b"
    assert found["gpu_sharing"].status == "pass"
    assert found["secure_accelerator_access"].found.startswith(
        "1 of 1 rows pass; TestSecureAcceleratorAccess's three cases, device-plugin variant"
    )
    assert found["ai_inference"].status == "skip"
    assert found["gang_scheduling"].found.startswith("not checked")


def test_secure_access_needs_the_probes() -> None:
    found = _by_id(conformance_rows([_row("driver")]))
    assert found["secure_accelerator_access"].found.startswith("not checked: run with --active")
    assert found["gpu_sharing"].found.startswith("not applicable: no pool shares")
