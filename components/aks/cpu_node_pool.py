"""AksCpuNodePool: one AKS user-mode ``AgentPool`` without GPUs and without taints.

The system pool is tainted ``CriticalAddonsOnly`` and every GPU pool ``nvidia.com/gpu``, so a
pod that tolerates neither (an ingress gateway, a data loader, Prometheus) runs only here. The
nodes carry the same hardening as the cluster's other pools (``node_hardening``).

No ``from __future__ import annotations``: the component analyzer reads the args at run time.
"""

from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import containerservice as aks

from gpu_platform.plan.aks.nodes import os_disk_problems, surge_problems
from gpu_platform.plan.cpu_pools import cpu_node_labels, cpu_pool_problems
from gpu_platform.plan.kubernetes_values import kubernetes_label_problems
from gpu_platform.plan.problems import under
from gpu_platform.plan.zones import aks_zone_problems
from gpu_platform.settings import CpuPoolSettings

from ..errors import Problem, raise_if_any, shape_problems
from ..node_hardening import (
    AKS_AUTOSCALED_IGNORE,
    REPLACED_ON_CHANGE,
    aks_node_inputs,
    aks_size_inputs,
    aks_upgrade_settings,
)
from ..pool_args import CpuPoolArgs, validate_cpu_pool_args
from ..type_tokens import formerly, type_token
from .azure_aliases import without_version_aliases

CPU_POOL_MODE = "User"
"""A user pool: AKS keeps its own add-ons on the system pool."""


class AksCpuNodePoolArgs(TypedDict):
    """A CPU node pool of an existing AKS cluster."""

    pool: CpuPoolArgs
    """The pool: ``vmSize`` (no GPUs), ``count`` or ``autoscale``, labels, zones, OS, upgrades,
    pods per node and OS disk."""
    cluster_name: pulumi.Input[str]
    """Name of the AKS cluster the pool joins."""
    resource_group_name: pulumi.Input[str]
    """Resource group of the cluster."""
    encryption_at_host: NotRequired[bool]
    """Encrypt the nodes' temp disk and disk caches on the VM host; the subscription must
    register ``Microsoft.Compute/EncryptionAtHost`` (default false)."""
    protect: NotRequired[bool]
    """Protect the pool from deletion (and so from replacement); default false."""


def aks_cpu_pool_problems(pool: CpuPoolSettings) -> list[Problem]:
    """What AKS refuses, or what would pull GPU components onto the pool, in a pool that fits
    the schema: the rules of a CPU pool on AKS (``plan.cpu_pools``; the stack config's rules
    say the same under ``cpuPools[i]``), its labels by Kubernetes' syntax
    (``plan.kubernetes_values``), its zones (``plan.zones``), its upgrade surge and the OS disk
    its size must hold (``plan.aks.nodes``)."""
    return under(
        "pool",
        [
            *cpu_pool_problems("aks", pool),
            *under("labels", kubernetes_label_problems(pool.labels)),
            *under("zones", aks_zone_problems(pool.zones)),
            *surge_problems(pool.upgrade),
            *os_disk_problems(pool.vm_size, pool),
        ],
    )


def validate_aks_cpu_pool_args(name: str, args: AksCpuNodePoolArgs) -> CpuPoolSettings:
    """The pool's settings, or one ``InputPropertiesError`` naming every bad property."""
    settings, problems = validate_cpu_pool_args(
        "aks", args["pool"], "pool", rules=aks_cpu_pool_problems
    )
    raise_if_any("AksCpuNodePool", name, problems)
    assert settings is not None  # no problems: validated
    return settings


def cpu_pool_outputs(pool: CpuPoolSettings) -> dict[str, Any]:
    """Per-pool facts for stack outputs."""
    autoscale = pool.autoscale
    return {
        "vmSize": pool.vm_size,
        "minNodes": autoscale.min if autoscale else pool.count,
        "maxNodes": autoscale.max if autoscale else pool.count,
        "zones": list(pool.zones),
    }


class AksCpuNodePool(pulumi.ComponentResource):
    """A CPU node pool of an AKS cluster: untainted, so pods without GPU tolerations land here
    and never on the system or GPU pools."""

    agent_pool: aks.AgentPool
    """The AKS agent pool."""
    pool_name: pulumi.Output[str]
    """AKS name of the pool."""
    facts: pulumi.Output[dict[str, Any]]
    """VM size, node range and zones."""

    def __init__(
        self, name: str, args: AksCpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AksCpuNodePool", name, shape_problems(args, AksCpuNodePoolArgs))
        # Validated before registering anything: bad input changes nothing.
        pool = validate_aks_cpu_pool_args(name, args)
        super().__init__(
            type_token("AksCpuNodePool"),
            name,
            None,
            formerly("gpu-platform:azure:AksCpuNodePool", without_version_aliases(opts)),
        )

        self.agent_pool = aks.AgentPool(
            f"{name}-pool",
            resource_group_name=args["resource_group_name"],
            resource_name_=args["cluster_name"],
            agent_pool_name=pool.name,
            mode=CPU_POOL_MODE,
            vm_size=pool.vm_size,
            os_type="Linux",
            os_sku=pool.os_sku,
            type="VirtualMachineScaleSets",
            **aks_node_inputs(
                pool.vm_size or "", pool, encryption_at_host=args.get("encryption_at_host", False)
            ),
            # No taints: this is where pods that tolerate none go.
            node_taints=[],
            node_labels=cpu_node_labels(pool.name, pool.labels),
            availability_zones=pool.zones or None,
            upgrade_settings=aks_upgrade_settings(pool.upgrade),
            **aks_size_inputs(pool.autoscale, pool.count),
            opts=pulumi.ResourceOptions(
                parent=self,
                protect=args.get("protect", False),
                replace_on_changes=REPLACED_ON_CHANGE,
                # AKS pool names are unique per cluster: the old pool must go first.
                delete_before_replace=True,
                ignore_changes=AKS_AUTOSCALED_IGNORE if pool.autoscale is not None else [],
            ),
        )
        self.pool_name = self.agent_pool.name
        self.facts = pulumi.Output.from_input(cpu_pool_outputs(pool))
        self.register_outputs({"poolName": self.pool_name, "facts": self.facts})
