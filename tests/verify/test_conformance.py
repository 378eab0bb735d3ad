"""AI Conformance 1.36's accelerator requirements as rows, from their evidence
(verify.conformance, gpu_facts.ai_conformance)."""

from __future__ import annotations

from gpu_facts.ai_conformance import REQUIREMENTS
from gpu_facts.scheduling import Taint
from gpu_platform.verify.active import DEVICE_PLUGIN_VARIANT
from gpu_platform.verify.conformance import conformance_rows
from gpu_platform.verify.expectations import GpuDaemon, PoolExpectation
from gpu_platform.verify.results import CheckResult

PROBE = f"sees no GPU; {DEVICE_PLUGIN_VARIANT}"


def _row(
    check: str, status: str = "pass", subject: str = "node/a", expected: str = "e"
) -> CheckResult:
    return CheckResult(check, subject, expected, "f", status)  # type: ignore[arg-type]


def _pool(name: str, allocatable: dict[str, int], shares: bool) -> PoolExpectation:
    taint = Taint("nvidia.com/gpu", "present", "NoSchedule")
    return PoolExpectation(
        name, 1, 1, {}, taint, allocatable, GpuDaemon.DEVICE_PLUGIN, True, shares
    )


MIG = _pool("a100mig", {"nvidia.com/mig-1g.5gb": 56}, shares=True)
WHOLE = _pool("t4", {"nvidia.com/gpu": 1}, shares=False)


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
        *(_row(case, "pass", "pool/a", PROBE) for case in ("probe-gpu", "probe-no-gpu")),
        _row("probe-one-of-two", "pass", "pool/a", PROBE),
    ]
    found = _by_id(conformance_rows(rows, [MIG]))
    assert found["driver_runtime_management"].status == "pass"
    assert found["accelerator_metrics"].status == "fail"
    assert found["accelerator_metrics"].found == "1 of 2 rows pass; failing: gpu-series node/b"
    assert found["gpu_sharing"].status == "pass"
    assert found["secure_accelerator_access"].found == (
        "3 of 3 rows pass; TestSecureAcceleratorAccess's three cases, device-plugin variant: "
        "the GPU asked for with resource limits"
    )
    assert found["ai_inference"].status == "skip"
    assert found["gang_scheduling"].found.startswith("not checked")


def test_secure_access_needs_the_probes_and_all_three_cases() -> None:
    found = _by_id(conformance_rows([_row("driver")], [WHOLE]))
    assert found["secure_accelerator_access"].found.startswith("not checked: run with --active")
    nothing = CheckResult("probe-gpu", "stack", "-", "no GPU pool has a node to probe", "skip")
    found = _by_id(conformance_rows([nothing], [WHOLE]))
    assert found["secure_accelerator_access"].found == (
        "not checked: no GPU pool has a node to probe"
    )
    one = _by_id(conformance_rows([_row("probe-no-gpu", expected=PROBE)], [WHOLE]))
    secure = one["secure_accelerator_access"]
    assert (secure.status, secure.found) == (
        "fail",
        "not all of TestSecureAcceleratorAccess's three cases ran: no probe-gpu, "
        "probe-one-of-two row",
    )


def test_sharing_is_shown_by_the_shared_pools_rows_only() -> None:
    """MIG is sharing even when nvidia-smi was not run (--skip-driver); an unshared pool's
    allocatable row is no evidence of sharing."""
    rows = [
        _row("allocatable", "pass", "node/mig-0", "nvidia.com/mig-1g.5gb: 56"),
        _row("allocatable", "fail", "node/t4-0", "nvidia.com/gpu: 1"),
        _row("mig-devices", "skip"),
    ]
    sharing = _by_id(conformance_rows(rows, [MIG, WHOLE]))["gpu_sharing"]
    assert (sharing.status, sharing.found) == ("pass", "1 of 1 rows pass")
    unshared = _by_id(conformance_rows(rows, [WHOLE]))["gpu_sharing"]
    assert (unshared.status, unshared.found) == (
        "skip",
        "not shown: no pool shares its GPUs (MIG, time-slicing, MPS or ACK's GPU sharing)",
    )


def test_metrics_say_that_mig_instances_memory_is_not_read() -> None:
    rows = [_row("gpu-series", expected="56 MIG 1g.5gb instances in DCGM_FI_PROF_GR_ENGINE_ACTIVE")]
    metrics = _by_id(conformance_rows(rows, [MIG]))["accelerator_metrics"]
    assert metrics.status == "pass"
    assert metrics.found == (
        "1 of 1 rows pass; memory per MIG instance not read (dcgm-exporter may not show it: "
        "NVIDIA/dcgm-exporter #380, #512)"
    )


def test_gang_scheduling_from_the_queue_rows() -> None:
    rows = [
        _row("kueue-controller", subject="deployment/kueue-system/kueue-controller-manager"),
        _row("cluster-queue", subject="clusterqueue/training"),
        _row("local-queue", "fail", "localqueue/gpu-training/training"),
    ]
    gang = _by_id(conformance_rows(rows, [WHOLE]))["gang_scheduling"]
    assert (gang.status, gang.found) == (
        "fail",
        "2 of 3 rows pass; Kueue admits a workload whole, all its pods' quota at once "
        "(docs/queues.md); KAR 0053's all-or-nothing run is not exercised; failing: "
        "local-queue localqueue/gpu-training/training",
    )
    none = _by_id(conformance_rows([_row("driver")], [WHOLE]))["gang_scheduling"]
    assert (none.status, none.found) == (
        "skip",
        "not checked: no queues to show (a stack's queues:, a plan's GpuQueues)",
    )
