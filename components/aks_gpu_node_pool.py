"""AksGpuNodePool: one AKS ``AgentPool`` of GPU nodes, tainted, labelled and sized from config.

The taint keeps non-GPU pods off (BP-01); the labels make the NVIDIA chart's plugin, GFD and
NFD worker land on the nodes and pick the pool's device-plugin config. MIG pools carry their
``gpuInstanceProfile`` (BP-10), run without the autoscaler on Ubuntu (BP-12), and are replaced,
never updated, when the profile changes (BP-11): see docs/aks.md.
"""

from __future__ import annotations

from typing import Any, TypedDict

import pulumi
from pulumi_azure_native import containerservice as aks

from gpu_facts.scheduling import (
    GPU_TAINT,
)
from plan.node_labels import aks_node_labels, autoscaler_tags
from plan.pools import PoolFacts

IMMUTABLE_PROPERTIES = ["gpuInstanceProfile"]
"""AKS cannot change these on an existing pool: a change replaces the pool (BP-11)."""


class AksGpuNodePoolArgs(TypedDict):
    pool: PoolFacts
    """The validated pool with its catalog facts (VM size, GPU model, MIG profile, capacity)."""
    cluster_name: pulumi.Input[str]
    """Name of the AKS cluster the pool joins."""
    resource_group_name: pulumi.Input[str]
    """Resource group of the cluster."""
    gpu_operator: bool
    """True when the NVIDIA GPU Operator owns the driver: AKS must then install none."""
    workload_types: list[str]
    """Workload types (``training``...) allowed on the pool; each becomes a node label."""
    protect: bool
    """Protect the pool from deletion (and so from replacement)."""


def pool_outputs(pool: PoolFacts) -> dict[str, Any]:
    """Per-pool facts for stack outputs: what the scheduler will see on the nodes."""
    capacity = pool.capacity.as_output()
    return {
        "vmSize": pool.pool.vm_size,
        "gpuModel": pool.gpu_model.name,
        "gpusPerNode": pool.gpus_per_node,
        "nodes": capacity["nodes"],
        "migProfile": pool.mig_profile,
        "aksGpuInstanceProfile": pool.pool.mig.profile if pool.pool.mig else None,
        "migStrategy": pool.pool.mig.strategy if pool.pool.mig else None,
        "capacityPerNode": capacity["perNode"],
        "capacityTotal": capacity["total"],
        "nvmeCache": pool.pool.nvme,
    }


class AksGpuNodePool(pulumi.ComponentResource):
    """A GPU node pool of an AKS cluster."""

    agent_pool: aks.AgentPool
    """The AKS agent pool."""
    pool_name: pulumi.Output[str]
    """AKS name of the pool."""
    facts: pulumi.Output[dict[str, Any]]
    """VM size, GPU model, node count, MIG profile and strategy, capacity per node and total."""

    def __init__(
        self, name: str, args: AksGpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        pf = args["pool"]
        pool = pf.pool
        # Checked before registering anything: bad input changes nothing.
        if pool.vm_size is None:
            raise ValueError(f"GPU pool {pool.name!r}: an AKS pool needs vmSize")
        if pool.mig is not None and pool.autoscale is not None:
            raise ValueError(f"GPU pool {pool.name!r}: MIG pools cannot autoscale (BP-12)")
        if pool.mig is not None and pool.os_sku.startswith("AzureLinux"):
            raise ValueError(f"GPU pool {pool.name!r}: MIG needs Ubuntu, not {pool.os_sku} (BP-12)")
        super().__init__("gpu-platform:azure:AksGpuNodePool", name, None, opts)

        # Autoscaled: the autoscaler owns the live count, so Pulumi ignores it after creation.
        autoscale = pool.autoscale
        count = autoscale.min if autoscale is not None else pool.count
        ignore = ["count"] if autoscale is not None else []

        self.agent_pool = aks.AgentPool(
            f"{name}-pool",
            resource_group_name=args["resource_group_name"],
            resource_name_=args["cluster_name"],
            agent_pool_name=pool.name,
            mode="User",
            vm_size=pool.vm_size,
            os_type="Linux",
            os_sku=pool.os_sku,
            type="VirtualMachineScaleSets",
            node_taints=[GPU_TAINT],
            node_labels=aks_node_labels(pf, args["workload_types"]),
            gpu_instance_profile=pool.mig.profile if pool.mig else None,
            # Exactly one driver owner: the AKS GPU image, or the GPU Operator.
            gpu_profile=aks.GPUProfileArgs(driver="None" if args["gpu_operator"] else "Install"),
            availability_zones=pool.zones or None,
            upgrade_settings=aks.AgentPoolUpgradeSettingsArgs(
                max_surge=pool.upgrade.max_surge,
                drain_timeout_in_minutes=pool.upgrade.drain_timeout_minutes,
                node_soak_duration_in_minutes=pool.upgrade.node_soak_minutes,
            ),
            enable_auto_scaling=autoscale is not None,
            min_count=autoscale.min if autoscale is not None else None,
            max_count=autoscale.max if autoscale is not None else None,
            count=count,
            tags=autoscaler_tags(pf) or None,
            opts=pulumi.ResourceOptions(
                parent=self,
                protect=args["protect"],
                replace_on_changes=IMMUTABLE_PROPERTIES,
                # AKS pool names are unique per cluster: the old pool must go first.
                delete_before_replace=True,
                ignore_changes=ignore,
            ),
        )
        self.pool_name = self.agent_pool.name
        self.facts = pulumi.Output.from_input(pool_outputs(pf))
        self.register_outputs({"poolName": self.pool_name, "facts": self.facts})
