"""The one dispatch on cloud: what each cloud's ``plan`` modules say of a GPU pool.

Every rule or fact that differs by cloud lives in that cloud's folder (``plan/aks``,
``plan/ack``, ``plan/existing``); everything else asks here, by the config's ``cloud`` or by the
pool model it picked, and compares no cloud name itself (``tests/unit/test_cloud_names.py``
counts them). A new cloud is one more folder and one more entry below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gpu_facts import GpuModel
from gpu_facts.capacity import DEVICE_PLUGIN_SHARING_MODES, SharingMode
from gpu_platform.settings import (
    AckGpuPoolSettings,
    AksGpuPoolSettings,
    AmdGpuOperatorSettings,
    Cloud,
    ExistingGpuPoolSettings,
    GpuPoolSettings,
)

from .ack import pools as ack
from .aks import pools as aks
from .existing import pools as existing
from .existing.former_keys import former_pool_keys
from .machines import PoolMachine
from .problems import Problem


def _none(pool: Any) -> Iterator[Problem]:
    return iter(())


def _as_written(pool: Mapping[str, Any], at: str) -> tuple[dict[str, Any], list[str]]:
    return dict(pool), []


def _plugin_sharing(mode: str) -> SharingMode:
    """The NVIDIA device plugin's modes, named as the config names them."""
    if mode not in DEVICE_PLUGIN_SHARING_MODES:
        # Validation refuses ACK-only modes elsewhere; resolving one here is a bug.
        raise ValueError(f"sharing mode {mode!r} exists only on cloud 'alicloud'")
    return mode  # type: ignore[return-value]


@dataclass(frozen=True)
class CloudPlan:
    """A cloud's answers about a GPU pool of its model (``pool_model``)."""

    cloud: Cloud
    title: str
    """How messages name it (``AKS``)."""
    pool_model: type[Any]
    machine: Callable[[Any], PoolMachine]
    """The nodes' GPU model, GPUs and NVMe disks (a pool the rules passed)."""
    mig_profile: Callable[[Any, GpuModel], str | None]
    """NVIDIA's name of the pool's MIG profile."""
    sharing: Callable[[str], SharingMode]
    """What the cloud does with ``sharing.mode``."""
    sharing_modes: frozenset[str]
    """The ``sharing.mode`` values the cloud offers."""
    machine_problems: Callable[[Any], Iterator[Problem]]
    mig_problems: Callable[[Any], Iterator[Problem]]
    node_problems: Callable[[Any], Iterator[Problem]]
    """What else the cloud refuses of the nodes (AKS: the NVMe cache, the surge)."""
    creates_nodes: bool
    """Whether the platform creates the cluster and its pools (and so a system pool)."""
    former_pool_keys: Callable[[Mapping[str, Any], str], tuple[dict[str, Any], list[str]]] = (
        _as_written
    )
    """A raw pool with the keys of a former release read as today's, and the warnings."""
    amd_pool_problems: Callable[[Any], Iterator[Problem]] = _none
    """What the cloud refuses of a pool of AMD GPUs."""
    amd_layer_problems: Callable[[AmdGpuOperatorSettings], Iterator[Problem]] = _none
    """What the cloud needs of AMD's GPU Operator (paths under ``amdGpuOperator``)."""


CLOUD_PLANS: dict[str, CloudPlan] = {
    "azure": CloudPlan(
        "azure",
        "AKS",
        AksGpuPoolSettings,
        aks.aks_machine,
        aks.aks_mig,
        _plugin_sharing,
        frozenset(DEVICE_PLUGIN_SHARING_MODES),
        aks.aks_machine_problems,
        aks.aks_mig_problems,
        aks.aks_node_problems,
        creates_nodes=True,
        amd_pool_problems=aks.aks_amd_problems,
        amd_layer_problems=aks.aks_amd_layer_problems,
    ),
    "alicloud": CloudPlan(
        "alicloud",
        "ACK",
        AckGpuPoolSettings,
        ack.ack_machine,
        ack.ack_mig,
        ack.ack_sharing,
        frozenset({*DEVICE_PLUGIN_SHARING_MODES, *ack.ACK_MODES}),
        ack.ack_machine_problems,
        ack.ack_mig_problems,
        ack.ack_node_problems,
        creates_nodes=True,
    ),
    "existing": CloudPlan(
        "existing",
        "existing clusters",
        ExistingGpuPoolSettings,
        existing.existing_machine,
        existing.existing_mig,
        _plugin_sharing,
        frozenset(DEVICE_PLUGIN_SHARING_MODES),
        existing.existing_machine_problems,
        existing.existing_mig_problems,
        existing.existing_node_problems,
        creates_nodes=False,
        former_pool_keys=former_pool_keys,
    ),
}
"""Each cloud's plan, by the config's ``cloud``."""


def cloud_plan(cloud: str) -> CloudPlan:
    return CLOUD_PLANS[cloud]


def pool_key_elsewhere(cloud: str, key: str) -> str | None:
    """Why a GPU pool of ``cloud`` has no ``key`` that another cloud's pools have, or None."""
    others = [
        plan
        for plan in CLOUD_PLANS.values()
        if plan.cloud != cloud
        and any(key in (name, f.alias) for name, f in plan.pool_model.model_fields.items())
    ]
    if not others:
        return None
    titles = " and ".join(plan.title for plan in others)
    clouds = ", ".join(repr(plan.cloud) for plan in others)
    return f"{titles} only (cloud {clouds}); on cloud '{cloud}' remove it"


def pool_plan(pool: GpuPoolSettings) -> CloudPlan:
    """The plan of the cloud whose model ``pool`` is."""
    for plan in CLOUD_PLANS.values():
        if isinstance(pool, plan.pool_model):
            return plan
    raise TypeError(f"not a GPU pool model: {type(pool).__name__}")
