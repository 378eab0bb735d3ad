"""``make verify --conformance``: AI Conformance 1.36's accelerator requirements, by evidence.

Each requirement of ``gpu_facts.ai_conformance`` becomes one row (check ``conformance``,
subject ``ai-conformance-1.36/<id>``): ``pass`` when the rows that are its evidence all pass,
``fail`` when one of them fails (named), ``skip`` (not applicable, or not checked) with why.
The active probes (``--active``) are the secure-access test reproduced; the official test asks
for the GPU with a DRA claim, our pools with the device plugin's resource limits, and the row
says which variant ran. Requirements that are not about accelerators are listed as outside
``make verify``.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpu_facts.ai_conformance import OFFICIAL_TEST, REQUIREMENTS, VERSION, Requirement

from .active import CLAIM_VARIANT, DEVICE_PLUGIN_VARIANT
from .checks import resources_text
from .expectations import PoolExpectation
from .queue_checks import CLUSTER_QUEUE_CHECK, CONTROLLER_CHECK, FLAVOR_CHECK, LOCAL_QUEUE_CHECK
from .results import CheckResult

CHECK = "conformance"
PROBES = ("probe-gpu", "probe-no-gpu", "probe-one-of-two")
"""The secure-access test's three cases, as ``--active`` runs them."""
SHARING = ("mig-devices", "mps-server", "gpu-memory")
"""Rows that only shared GPUs have: MIG devices, the MPS server, ACK's shared GPU memory."""
EVIDENCE: dict[str, tuple[str, ...]] = {
    "driver_runtime_management": ("driver", "gpu-daemon", "gfd-labels", "dra-plugin"),
    "accelerator_metrics": ("exporter", "gpu-series"),
    "secure_accelerator_access": PROBES,
    "gang_scheduling": (CONTROLLER_CHECK, FLAVOR_CHECK, CLUSTER_QUEUE_CHECK, LOCAL_QUEUE_CHECK),
}
"""Requirement -> the checks whose rows are its evidence (``gpu_sharing``: the shared pools'
rows, :func:`sharing_evidence`)."""
NOT_CHECKED = {
    "virtualized_accelerator": "not applicable: no pool offers vGPU devices (the GPU catalog "
    "leaves out vGPU sizes: AKS's fractional NVadsA10 v5, ACK's vgn and sgn families)",
    "cluster_autoscaling": "not checked: the KAR's test grows a pool with pending GPU pods; "
    "make verify does not scale pools (node-count shows each autoscaled pool in its range)",
    "pod_autoscaling": "not checked: make verify runs no HPA",
}
GANG = (
    "Kueue admits a workload whole, all its pods' quota at once (docs/queues.md); KAR 0053's "
    "all-or-nothing run is not exercised"
)
MIG_MEMORY = (
    "memory per MIG instance not read (dcgm-exporter may not show it: NVIDIA/dcgm-exporter "
    "#380, #512)"
)


def sharing_evidence(
    results: list[CheckResult], pools: Iterable[PoolExpectation]
) -> list[CheckResult] | None:
    """The rows that show GPU sharing: the shared pools' allocatable rows (their nodes' slices
    or replicas as schedulable resources) and the rows only shared GPUs have; None when no pool
    shares its GPUs."""
    shared = {resources_text(p.allocatable) for p in pools if p.shares}
    if not shared:
        return None
    return [
        r
        for r in results
        if r.status != "skip"
        and (r.check in SHARING or (r.check == "allocatable" and r.expected in shared))
    ]


def _found(req: Requirement, evidence: list[CheckResult]) -> tuple[str, bool]:
    failed = [r for r in evidence if r.status == "fail"]
    found = f"{len(evidence) - len(failed)} of {len(evidence)} rows pass"
    if req.id == "secure_accelerator_access":
        variants = sorted(
            {v for r in evidence for v in (CLAIM_VARIANT, DEVICE_PLUGIN_VARIANT) if v in r.expected}
        )
        found += f"; {OFFICIAL_TEST}'s three cases, {' and '.join(variants) or 'variant unknown'}"
    if req.id == "gang_scheduling":
        found += f"; {GANG}"
    if req.id == "accelerator_metrics" and any(
        r.check == "gpu-series" and " MIG " in r.expected for r in evidence
    ):
        found += f"; {MIG_MEMORY}"
    if failed:
        found += "; failing: " + ", ".join(f"{r.check} {r.subject}" for r in failed[:5])
        found += ", ..." if len(failed) > 5 else ""
    return found, not failed


def requirement_row(
    req: Requirement, results: list[CheckResult], pools: Iterable[PoolExpectation] = ()
) -> CheckResult:
    subject = f"ai-conformance-{VERSION}/{req.id}"
    expected = f"{req.level}: {req.summary}"

    def skip(why: str) -> CheckResult:
        return CheckResult(CHECK, subject, expected, why, "skip")

    if not req.accelerators:
        return skip("not applicable: not about accelerators (the cluster's, outside make verify)")
    if req.id in NOT_CHECKED:
        return skip(NOT_CHECKED[req.id])
    if req.id == "gpu_sharing":
        shown = sharing_evidence(results, pools)
        if shown is None:
            return skip(
                "not shown: no pool shares its GPUs (MIG, time-slicing, MPS or ACK's GPU sharing)"
            )
        evidence = shown
    else:
        evidence = [r for r in results if r.check in EVIDENCE[req.id] and r.status != "skip"]
    if req.id == "secure_accelerator_access":
        probes = [r for r in results if r.check in PROBES]
        if not probes:
            return skip(
                f"not checked: run with --active ({OFFICIAL_TEST} reproduced by probe pods)"
            )
        if not evidence:
            return skip(f"not checked: {probes[0].found}")
        missing = [case for case in PROBES if case not in {r.check for r in evidence}]
        if missing:
            why = f"not all of {OFFICIAL_TEST}'s three cases ran: no {', '.join(missing)} row"
            return CheckResult(CHECK, subject, expected, why, "fail")
    if req.id == "gang_scheduling" and not evidence:
        return skip("not checked: no queues to show (a stack's queues:, a plan's GpuQueues)")
    if not evidence:
        return skip("not checked: no evidence rows ran")
    found, ok = _found(req, evidence)
    return CheckResult(CHECK, subject, expected, found, "pass" if ok else "fail")


def conformance_rows(
    results: Iterable[CheckResult], pools: Iterable[PoolExpectation] = ()
) -> list[CheckResult]:
    """One row per requirement, from ``results``; ``pools``: the NVIDIA pools expected (which
    of them share their GPUs)."""
    rows, expected = list(results), list(pools)
    return [requirement_row(req, rows, expected) for req in REQUIREMENTS]
