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
from .results import CheckResult

CHECK = "conformance"
EVIDENCE: dict[str, tuple[str, ...]] = {
    "driver_runtime_management": ("driver", "gpu-daemon", "daemonset", "gfd-labels"),
    "gpu_sharing": ("allocatable", "mig-devices", "mps-server", "gpu-memory"),
    "accelerator_metrics": ("exporter", "gpu-series"),
    "secure_accelerator_access": ("probe-gpu", "probe-no-gpu", "probe-one-of-two"),
}
"""Requirement -> the checks whose rows are its evidence."""
NOT_CHECKED = {
    "virtualized_accelerator": "not applicable: no pool offers vGPU devices (no vGPU size in "
    "the catalog)",
    "gang_scheduling": "not checked: the stack has no queue rows yet (Kueue's checks, issue "
    "29, count here once they are on main)",
    "cluster_autoscaling": "not checked: the KAR's test grows a pool with pending GPU pods; "
    "make verify does not scale pools (node-count shows each autoscaled pool in its range)",
    "pod_autoscaling": "not checked: make verify runs no HPA",
}


def _shares(rows: list[CheckResult]) -> bool:
    return any(
        r.check in ("mig-devices", "mps-server", "gpu-memory") and r.status != "skip" for r in rows
    ) or any(r.check == "allocatable" and ".shared" in r.expected for r in rows)


def requirement_row(req: Requirement, results: list[CheckResult]) -> CheckResult:
    subject = f"ai-conformance-{VERSION}/{req.id}"
    expected = f"{req.level}: {req.summary}"
    if not req.accelerators:
        why = "not applicable: not about accelerators (the cluster's, outside make verify)"
        return CheckResult(CHECK, subject, expected, why, "skip")
    if req.id in NOT_CHECKED:
        return CheckResult(CHECK, subject, expected, NOT_CHECKED[req.id], "skip")
    evidence = [r for r in results if r.check in EVIDENCE[req.id] and r.status != "skip"]
    if req.id == "gpu_sharing" and not _shares(results):
        why = "not applicable: no pool shares its GPUs (MIG, time-slicing, MPS)"
        return CheckResult(CHECK, subject, expected, why, "skip")
    if req.id == "secure_accelerator_access" and not evidence:
        why = f"not checked: run with --active ({OFFICIAL_TEST} reproduced by probe pods)"
        return CheckResult(CHECK, subject, expected, why, "skip")
    if not evidence:
        return CheckResult(CHECK, subject, expected, "not checked: no evidence rows ran", "skip")
    failed = [r for r in evidence if r.status == "fail"]
    found = f"{len(evidence) - len(failed)} of {len(evidence)} rows pass"
    if req.id == "secure_accelerator_access":
        variants = sorted(
            {v for r in evidence for v in (CLAIM_VARIANT, DEVICE_PLUGIN_VARIANT) if v in r.expected}
        )
        found += f"; {OFFICIAL_TEST}'s three cases, {' and '.join(variants) or 'variant unknown'}"
    if failed:
        found += "; failing: " + ", ".join(f"{r.check} {r.subject}" for r in failed[:5])
        found += ", ..." if len(failed) > 5 else ""
    return CheckResult(CHECK, subject, expected, found, "fail" if failed else "pass")


def conformance_rows(results: Iterable[CheckResult]) -> list[CheckResult]:
    rows = list(results)
    return [requirement_row(req, rows) for req in REQUIREMENTS]
