"""The docs' tables written from the code: GPU facts from ``gpu_facts``; the pack's policies
(name, BP-IDs, level, severity, description: each policy's ``INFO``) and the policies that
enforce each practice from its registry (``gpu_policies.registry``).

A table lives in a doc between ``<!-- generated: NAME -->`` and ``<!-- end generated -->``;
``python -m gpu_platform.doc_tables --write`` rewrites every one, and
``tests/unit/test_doc_tables.py`` fails while a doc differs from what the code says. So a GPU
size is one row in its catalogue, and the docs follow.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from gpu_facts.ack.machine_types import ECS_INSTANCE_TYPES
from gpu_facts.aks.machine_types import AZURE_VM_SIZES
from gpu_facts.aks.mig import AKS_MIG_TO_NVIDIA
from gpu_facts.eks.machine_types import AWS_INSTANCE_TYPES
from gpu_facts.gke.machine_types import GCP_ACCELERATORS, GCP_GPU_MACHINE_TYPES
from gpu_facts.gpu_models import GPU_MODELS
from gpu_facts.models import MIG_COMPUTE_SLICES, MIG_MEMORY_SLICES
from gpu_facts.vendors import NVIDIA

if TYPE_CHECKING:
    from gpu_policy_support.policy_factory import PolicyInfo

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("docs/gpu-facts.md", "docs/policies.md", "docs/traceability.md")
"""The docs that hold generated tables, from the repository's root."""
_START = re.compile(r"<!-- generated: (?P<name>[\w-]+) -->")
_END = "<!-- end generated -->"


def _table(head: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    head = list(head)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _gib(value: int) -> str:
    return f"{value:,} GiB"


def _link(url: str) -> str:
    return f"[{url.rstrip('/').rsplit('/', 1)[-1] or url}]({url})"


def mig_profiles() -> str:
    """Per MIG-capable GPU: its profiles as NVIDIA's table prints them, and AKS's name."""
    parts = []
    for model in GPU_MODELS.values():
        if not model.mig_capable:
            continue
        aks = {nvidia: name for name, nvidia in AKS_MIG_TO_NVIDIA.get(model.name, {}).items()}
        rows = [
            (
                f"`{p.name}`",
                p.compute_slices,
                f"{p.memory_eighths}/{MIG_MEMORY_SLICES}",
                p.memory_gb,
                p.max_per_gpu,
                f"`{aks[p.name]}`" if p.name in aks else "–",
            )
            for p in model.mig_profiles
        ]
        heading = f"**{model.name}** ({model.memory_gib} GB; source: {model.source})"
        head = (
            "Profile",
            f"Compute slices (of {MIG_COMPUTE_SLICES})",
            "Memory (eighths)",
            "Memory as named (GB)",
            "Instances per GPU",
            "AKS name",
        )
        parts.append(f"{heading}\n\n{_table(head, rows)}")
    return "\n\n".join(parts)


def gpus_without_mig() -> str:
    rows = [
        (m.name, m.memory_gib, "" if m.vendor == NVIDIA.name else m.vendor, m.source)
        for m in GPU_MODELS.values()
        if not m.mig_capable
    ]
    return _table(("Model", "Memory (GB)", "Vendor (if not NVIDIA)", "Source"), rows)


def azure_sizes() -> str:
    rows = []
    for s in AZURE_VM_SIZES.values():
        nvme = "–"
        if s.has_nvme:
            nvme = f"{s.nvme_disk_count} × {_gib(s.nvme_disk_gib)}"
            if s.nvme_disk_count > 1:
                nvme += f" ({_gib(s.nvme_disk_count * s.nvme_disk_gib)})"
        rows.append(
            (
                f"`{s.name}`",
                s.family,
                _gpu(s.gpu_model),
                s.gpu_count,
                nvme,
                _gib(s.temp_disk_gib),
                "yes" if s.mig else "no",
                _link(s.source) + (f" ({s.vcpus} vCPUs, {_gib(s.memory_gib)})" if s.vcpus else ""),
            )
        )
    head = ("Size", "Series", "GPU", "GPUs", "Local NVMe", "Temp disk", "MIG on AKS", "Source")
    return _table(head, rows)


def ecs_types() -> str:
    rows = [
        (
            f"`{t.name}`",
            t.family,
            t.gpu_model,
            t.gpu_count,
            f"{t.gpu_memory_gb} GB × {t.gpu_count}",
        )
        for t in ECS_INSTANCE_TYPES.values()
    ]
    return _table(("Instance type", "Family", "GPU", "GPUs", "GPU memory"), rows)


def _gpu(model_name: str) -> str:
    """A GPU model as the tables name it, with its vendor when it is not NVIDIA."""
    vendor = GPU_MODELS[model_name].vendor
    return model_name if vendor == NVIDIA.name else f"{model_name} ({vendor})"


def aws_types() -> str:
    rows = [
        (f"`{t.name}`", t.family, _gpu(t.gpu_model), t.gpu_count)
        for t in AWS_INSTANCE_TYPES.values()
    ]
    return _table(("Instance type", "Family", "GPU", "GPUs"), rows)


def gcp_accelerators() -> str:
    rows = [(f"`{a.name}`", a.gpu_model) for a in GCP_ACCELERATORS.values()]
    return _table(("Accelerator type", "GPU"), rows)


def gcp_machine_types() -> str:
    rows = [(f"`{m.name}`", m.gpu_model, m.gpu_count) for m in GCP_GPU_MACHINE_TYPES.values()]
    return _table(("Machine type", "GPU", "GPUs"), rows)


PRACTICES = tuple(f"BP-{n:02d}" for n in range(1, 21))
"""The practices of SPEC.md's digest, BP-01 … BP-20."""


def _policy_infos() -> list[PolicyInfo]:
    """Each registered policy's ``INFO``, in registration order."""
    # Imported here: the pack is a distribution of its own (gpu-platform-policies), at hand in a
    # checkout, where the docs are written; the package imports without it.
    from gpu_policies.registry import MODULES

    return [module.INFO for module in MODULES]


def _cell(text: str) -> str:
    """Text as one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def policies() -> str:
    """Every policy of the pack: what its ``INFO`` says of it."""
    rows = [
        (
            f"`{info.name}`",
            ", ".join(info.practices),
            info.enforcement_level.value,
            info.severity.value,
            _cell(info.description),
        )
        for info in _policy_infos()
    ]
    return _table(("Policy", "BP-IDs", "Level", "Severity", "What it checks"), rows)


def practice_policies() -> str:
    """Per practice, the policies registered for it, with their levels."""
    infos = _policy_infos()
    rows = []
    for practice in PRACTICES:
        enforced = [
            f"`{info.name}` ({info.enforcement_level.value})"
            for info in infos
            if practice in info.practices
        ]
        rows.append((practice, ", ".join(enforced) or "–"))
    return _table(("BP", "Enforced by (level)"), rows)


TABLES: dict[str, Callable[[], str]] = {
    "mig-profiles": mig_profiles,
    "gpus-without-mig": gpus_without_mig,
    "azure-sizes": azure_sizes,
    "ecs-types": ecs_types,
    "aws-types": aws_types,
    "gcp-accelerators": gcp_accelerators,
    "gcp-machine-types": gcp_machine_types,
    "policies": policies,
    "practice-policies": practice_policies,
}
"""Every generated table by the name its markers give."""


def synced(text: str) -> str:
    """``text`` with every generated block rendered again from the code."""
    out: list[str] = []
    name = None
    for line in text.splitlines(keepends=True):
        start = _START.fullmatch(line.strip())
        if name is None:
            out.append(line)
            if start:
                name = start["name"]
                out.append(TABLES[name]() + "\n")
        elif line.strip() == _END:
            out.append(line)
            name = None
    return "".join(out)


def generated_names(text: str) -> list[str]:
    """The tables a doc holds, in order."""
    return [m["name"] for m in _START.finditer(text)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gpu_platform.doc_tables", description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the docs' tables")
    args = parser.parse_args(argv)
    stale = []
    for name in DOCS:
        path = ROOT / name
        old = path.read_text()
        new = synced(old)
        if new != old:
            stale.append(name)
            if args.write:
                path.write_text(new)
    if stale and not args.write:
        print(
            "stale tables in "
            + ", ".join(stale)
            + ": run python -m gpu_platform.doc_tables --write"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
