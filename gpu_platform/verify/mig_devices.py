"""``nvidia-smi -L`` on a MIG pool's node: the MIG devices of each GPU against the pool's profile.

Seed 001 confirms MIG with ``kubectl exec <pod> -- nvidia-smi -L``: every GPU listed with its MIG
devices (``MIG 1g.5gb Device 0: (UUID: MIG-...)``). We run it where the driver check runs
``nvidia-smi``, in the node's device-plugin pod, which sees every GPU and MIG device
(``NVIDIA_VISIBLE_DEVICES=all``, and ``NVIDIA_MIG_MONITOR_DEVICES=all`` whenever a MIG strategy is
set: the chart's ``daemonset-device-plugin.yml``). Expected: each GPU of the VM size carries
exactly the capacity model's instances of the pool's profile (BP-10); a GPU without MIG devices
means the GPU instance profile was not applied, which AKS does only when the pool is created
(BP-11).
"""

from __future__ import annotations

from collections import Counter

from .nvidia_smi import NvidiaSmiError, parse_gpu_list
from .results import CheckResult, many, outcome
from .seed_expectations import MigLayout

LIST_GPUS: tuple[str, ...] = ("nvidia-smi", "-L")
CHECK = "mig-devices"


def _layout(counts: Counter[str]) -> str:
    return ", ".join(f"{n} {profile}" for profile, n in sorted(counts.items())) or "MIG off"


def mig_devices(node: str, layout: MigLayout, listing: str) -> CheckResult:
    """One node's ``nvidia-smi -L`` against the pool's MIG layout."""
    subject, expected = f"node/{node}", f"{layout} on each"
    try:
        gpus = parse_gpu_list(listing)
    except NvidiaSmiError as err:
        return outcome(CHECK, subject, expected, str(err), False)
    if not gpus:
        return outcome(CHECK, subject, expected, "nvidia-smi -L listed no GPU", False)
    problems = []
    if len(gpus) != layout.gpus:
        problems.append(f"{many(len(gpus), 'GPU')} listed, the VM size has {layout.gpus}")
    ours = 0
    off = []
    for gpu in gpus:
        counts = Counter(device.profile for device in gpu.mig_devices)
        ours += counts[layout.profile]
        if not counts:
            off.append(gpu.index)
        elif counts != Counter({layout.profile: layout.per_gpu}):
            problems.append(f"GPU {gpu.index}: {_layout(counts)}")
    if off:
        listed = ", ".join(str(i) for i in off)
        problems.append(
            f"GPU {listed}: MIG off (the GPU instance profile was not applied; AKS applies it "
            "only when the pool is created)"
        )
    wanted = layout.gpus * layout.per_gpu
    found = f"{many(len(gpus), 'GPU')}, {many(ours, f'MIG {layout.profile} device')}"
    if problems:
        found += f" of {wanted}: " + "; ".join(problems)
    return outcome(CHECK, subject, expected, found, not problems)
