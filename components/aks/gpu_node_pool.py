"""AksGpuNodePool: one AKS ``AgentPool`` of GPU nodes, tainted, labelled and sized from its args.

The taint keeps non-GPU pods off (BP-01): ``nvidia.com/gpu``, or ``amd.com/gpu`` on an AMD size;
the labels make the NVIDIA chart's plugin, GFD and NFD worker land on NVIDIA nodes and pick the
pool's device-plugin config (AMD nodes carry our pool label only: AMD's GPU Operator selects them
by it, and installs their driver, as AKS creates AMD pools without one: docs/amd.md). MIG pools
carry their ``gpuInstanceProfile`` (BP-10), run without the autoscaler on Ubuntu (BP-12), and
are replaced, never updated, when the profile changes (BP-11): see docs/aks.md.

No ``from __future__ import annotations``: the component analyzer reads the args at run time.
"""

from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import containerservice as aks

from gpu_facts.aks.nodes import GPU_DRIVER_INSTALL, GPU_DRIVER_NONE
from gpu_platform.plan.aks.nodes import os_disk_problems
from gpu_platform.plan.amd.pools import amd_pool_problems
from gpu_platform.plan.gpu_pools import gpu_pool_problems
from gpu_platform.plan.kubernetes_values import kubernetes_label_problems
from gpu_platform.plan.node_labels import aks_node_labels, autoscaler_tags
from gpu_platform.plan.pools import PoolFacts, pool_placement
from gpu_platform.plan.problems import under
from gpu_platform.plan.zones import aks_zone_problems
from gpu_platform.settings import AksGpuPoolSettings

from ..errors import Problem, raise_if_any, shape_problems
from ..node_hardening import (
    AKS_AUTOSCALED_IGNORE,
    REPLACED_ON_CHANGE,
    aks_node_inputs,
    aks_size_inputs,
    aks_upgrade_settings,
)
from ..pool_args import GpuPoolArgs, validate_gpu_pool_args
from ..recorded_inputs import recorded_inputs
from ..type_tokens import formerly, type_token
from .azure_aliases import without_version_aliases

IMMUTABLE_PROPERTIES = ["gpuInstanceProfile", *REPLACED_ON_CHANGE]
"""AKS cannot change these on an existing pool: a change replaces the pool (BP-11 for the MIG
profile; the node hardening AKS also sets only at creation)."""


class AksGpuNodePoolArgs(TypedDict):
    """A GPU node pool of an existing AKS cluster."""

    pool: GpuPoolArgs
    """The pool: ``vmSize`` (a GPU size), ``count`` or ``autoscale``, MIG, sharing, labels,
    NVMe, OS, zones, upgrade behaviour."""
    cluster_name: pulumi.Input[str]
    """Name of the AKS cluster the pool joins."""
    resource_group_name: pulumi.Input[str]
    """Resource group of the cluster."""
    gpu_operator: NotRequired[bool]
    """True when the NVIDIA GPU Operator owns the driver: AKS then installs none (default
    false: the AKS GPU image installs it). AMD pools never get AKS's driver."""
    workload_types: NotRequired[list[str]]
    """Workload types (``training``...) allowed on the pool; each becomes a node label
    ``workload.gpu-platform.io/<type>`` (default none)."""
    protect: NotRequired[bool]
    """Protect the pool from deletion (and so from replacement); default false."""
    encryption_at_host: NotRequired[bool]
    """Encrypt the nodes' temp disk and disk caches on the VM host; the subscription must
    register ``Microsoft.Compute/EncryptionAtHost`` (default false)."""


def aks_pool_problems(pool: AksGpuPoolSettings) -> list[Problem]:
    """What AKS refuses, or what would break the pool, in a pool that fits the schema: the rules
    of a GPU pool on AKS (``plan.gpu_pools``: the stack config's rules say the same to a YAML
    user, under ``gpuPools[i]``), its labels by Kubernetes' syntax, its zones, what AKS refuses
    in an AMD pool (``plan.amd.pools``) and the OS disk its size must hold."""
    return under(
        "pool",
        [
            *gpu_pool_problems("aks", pool),
            *under("labels", kubernetes_label_problems(pool.labels)),
            *under("zones", aks_zone_problems(pool.zones)),
            *amd_pool_problems("aks", pool),
            *os_disk_problems(pool.vm_size, pool, nvme_cache=pool.nvme),
        ],
    )


def validate_aks_gpu_pool_args(name: str, args: AksGpuNodePoolArgs) -> PoolFacts:
    """The pool's facts, or one ``InputPropertiesError`` naming every bad property."""
    facts, problems = validate_gpu_pool_args("aks", args["pool"], "pool", rules=aks_pool_problems)
    raise_if_any("AksGpuNodePool", name, problems)
    assert facts is not None and isinstance(facts.pool, AksGpuPoolSettings)  # resolved on AKS
    return facts


def gpu_driver(pool: PoolFacts, gpu_operator: bool) -> str:
    """``gpuProfile.driver``: ``None`` where a GPU Operator installs the driver."""
    return GPU_DRIVER_NONE if gpu_operator or pool.is_amd else GPU_DRIVER_INSTALL


def pool_outputs(pool: PoolFacts) -> dict[str, Any]:
    """Per-pool facts for stack outputs: what the scheduler will see on the nodes."""
    capacity = pool.capacity.as_output()
    settings = pool.pool
    assert isinstance(settings, AksGpuPoolSettings)
    return {
        "vmSize": settings.vm_size,
        "gpuModel": pool.gpu_model.name,
        "gpusPerNode": pool.gpus_per_node,
        "nodes": capacity["nodes"],
        "migProfile": pool.mig_profile,
        "aksGpuInstanceProfile": settings.mig.profile if settings.mig else None,
        "migStrategy": settings.mig.strategy if settings.mig else None,
        "capacityPerNode": capacity["perNode"],
        "capacityTotal": capacity["total"],
        "nvmeCache": settings.nvme,
        "gpuVendor": pool.vendor.name,
    }


class AksGpuNodePool(pulumi.ComponentResource):
    """A GPU node pool of an AKS cluster: tainted for GPU pods only, labelled for the NVIDIA
    device plugin (AMD sizes: for AMD's GPU Operator), MIG-partitioned or autoscaled."""

    agent_pool: aks.AgentPool
    """The AKS agent pool."""
    pool_name: pulumi.Output[str]
    """AKS name of the pool."""
    facts: pulumi.Output[dict[str, Any]]
    """VM size, GPU model, node count, MIG profile and strategy, capacity per node and total."""

    def __init__(
        self, name: str, args: AksGpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AksGpuNodePool", name, shape_problems(args, AksGpuNodePoolArgs))
        # Validated before registering anything: bad input changes nothing.
        pf = validate_aks_gpu_pool_args(name, args)
        pool = pf.pool
        assert isinstance(pool, AksGpuPoolSettings)
        super().__init__(
            type_token("AksGpuNodePool"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:azure:AksGpuNodePool", without_version_aliases(opts)),
        )

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
            **aks_node_inputs(
                pool.vm_size or "",
                pool,
                encryption_at_host=args.get("encryption_at_host", False),
                nvme_cache=pool.nvme,
            ),
            node_taints=[str(taint) for taint in pool_placement(pf).taints],
            node_labels=aks_node_labels(pf, args.get("workload_types", [])),
            gpu_instance_profile=pool.mig.profile if pool.mig else None,
            # Exactly one driver owner: the AKS GPU image, or a GPU Operator (NVIDIA's when
            # asked; AMD's always on AMD sizes, which AKS creates only without a driver).
            gpu_profile=aks.GPUProfileArgs(driver=gpu_driver(pf, args.get("gpu_operator", False))),
            availability_zones=pool.zones or None,
            upgrade_settings=aks_upgrade_settings(pool.upgrade),
            **aks_size_inputs(pool.autoscale, pool.count),
            tags=autoscaler_tags(pf) or None,
            opts=pulumi.ResourceOptions(
                parent=self,
                protect=args.get("protect", False),
                replace_on_changes=IMMUTABLE_PROPERTIES,
                # AKS pool names are unique per cluster: the old pool must go first.
                delete_before_replace=True,
                ignore_changes=AKS_AUTOSCALED_IGNORE if pool.autoscale is not None else [],
            ),
        )
        self.pool_name = self.agent_pool.name
        self.facts = pulumi.Output.from_input(pool_outputs(pf))
        self.register_outputs({"poolName": self.pool_name, "facts": self.facts})
