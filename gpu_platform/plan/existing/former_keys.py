"""An existing cluster's GPU pool as 0.2 wrote it, read in its own terms for one release.

Before, such a pool pretended to be an AKS or ACK pool: ``vmSize``/``instanceType`` for its
nodes, AKS's MIG names (``MIG3g``), and AKS node settings that meant nothing there. Each is read
as what it meant (``machineType``, NVIDIA's profile name) or left out, with a warning naming
the key and what to write instead (docs/existing.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpu_facts import UnknownGpuFact, catalogue_machine, gpu_model
from gpu_facts.aks.mig import AKS_MIG_TO_NVIDIA

MACHINE_KEYS = ("vmSize", "instanceType", "vm_size", "instance_type")
"""How a pool named its nodes' machine before ``machineType``."""
MEANINGLESS_KEYS = ("osSku", "upgrade", "os_sku")
"""Keys of the pools we create that an existing cluster's pool took and ignored (those it
refused, such as ``zones`` or ``maxPods``, stay refused)."""


def former_pool_keys(pool: Mapping[str, Any], at: str) -> tuple[dict[str, Any], list[str]]:
    """``pool`` (raw: the config's camelCase or the component args' snake_case) with its former
    keys read as the new ones, and a warning for each (``at`` is the pool's key path)."""
    new = dict(pool)
    warnings: list[str] = []
    for key in MACHINE_KEYS:
        if key in new and not {"machineType", "machine_type", "gpu"} & new.keys():
            new["machineType"] = new.pop(key)
            warnings.append(
                f"{at}.{key}: an existing cluster's pool says what its nodes are with "
                f"machineType (any cloud's catalogue) or gpu: {{model, count}}; read as "
                f"machineType: {new['machineType']} (rename the key)"
            )
    for key in MEANINGLESS_KEYS:
        if key in new:
            del new[key]
            warnings.append(
                f"{at}.{key}: means nothing on an existing cluster (we create no nodes there); "
                "ignored (remove the key)"
            )
    mig = new.get("mig")
    machine = new.get("machineType", new.get("machine_type"))
    if isinstance(mig, Mapping) and isinstance(machine, str):
        profile = mig.get("profile")
        try:
            model = gpu_model(catalogue_machine(machine).gpu_model)
        except UnknownGpuFact:
            model = None
        nvidia = AKS_MIG_TO_NVIDIA.get(model.name, {}).get(str(profile)) if model else None
        if nvidia is not None:
            new["mig"] = {**mig, "profile": nvidia}
            warnings.append(
                f"{at}.mig.profile: {profile} is AKS's name; an existing cluster's pool takes "
                f"NVIDIA's: read as {nvidia} (write that)"
            )
    return new, warnings
