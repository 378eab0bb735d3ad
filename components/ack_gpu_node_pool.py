"""An ACK GPU node pool: tainted for GPU work only, labelled for scheduling and sharing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import pulumi
from pulumi_alicloud import cs

from gpu_facts.scheduling import (
    ACK_GPU_SCHEDULE_VALUES,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
)
from plan.node_labels import ack_node_labels
from plan.pools import PoolFacts

SCALING_TYPE_GPU = "gpu"
SCALING_TYPE_GPU_SHARE = "gpushare"
"""``scaling_config.type`` of autoscaled pools: whole GPUs, or shared GPUs."""


class AckGpuNodePoolArgs(TypedDict):
    cluster_id: pulumi.Input[str]
    """ACK cluster the pool joins."""
    vswitch_ids: pulumi.Input[Sequence[pulumi.Input[str]]]
    """vSwitches of the nodes."""
    pool: PoolFacts
    """The validated pool with its catalog facts resolved."""
    protect: bool
    """Protect the pool from deletion (production)."""
    tags: Mapping[str, str]
    """Resource tags."""


def scaling_config(pf: PoolFacts) -> cs.NodePoolScalingConfigArgs | None:
    """Autoscaling of the pool, or None for a fixed size."""
    autoscale = pf.pool.autoscale
    if autoscale is None:
        return None
    return cs.NodePoolScalingConfigArgs(
        enable=True,
        min_size=autoscale.min,
        max_size=autoscale.max,
        type=SCALING_TYPE_GPU_SHARE if pf.sharing in ACK_GPU_SCHEDULE_VALUES else SCALING_TYPE_GPU,
    )


def management() -> cs.NodePoolManagementArgs:
    """Managed pool: kubelet auto-upgrade and CVE fixes (BP-06), one node at a time.

    ACK upgrades nodes in place (its surge settings are deprecated), so ``upgrade.maxSurge``
    applies to AKS only.
    """
    return cs.NodePoolManagementArgs(
        enable=True,
        auto_upgrade=True,
        auto_upgrade_policy=cs.NodePoolManagementAutoUpgradePolicyArgs(auto_upgrade_kubelet=True),
        auto_vul_fix=True,
        max_unavailable=1,
    )


class AckGpuNodePool(pulumi.ComponentResource):
    """One GPU node pool of an ACK cluster."""

    node_pool_id: pulumi.Output[str]
    """ACK node pool ID."""
    capacity: pulumi.Output[dict[str, Any]]
    """Expected allocatable GPU resources per node, node count and total."""

    def __init__(
        self, name: str, args: AckGpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        pf = args["pool"]
        # Checked before registering anything: bad input changes nothing.
        if pf.pool.instance_type is None:
            raise ValueError(f"GPU pool {pf.name!r}: an ACK pool needs instanceType")
        super().__init__("gpu-platform:alicloud:AckGpuNodePool", name, None, opts)
        pool = cs.NodePool(
            f"{name}-pool",
            cluster_id=args["cluster_id"],
            node_pool_name=pf.name,
            instance_types=[pf.pool.instance_type],
            vswitch_ids=args["vswitch_ids"],
            labels=[cs.NodePoolLabelArgs(key=k, value=v) for k, v in ack_node_labels(pf).items()],
            taints=[
                cs.NodePoolTaintArgs(
                    key=GPU_TAINT_KEY, value=GPU_TAINT_VALUE, effect=GPU_TAINT_EFFECT
                )
            ],
            scaling_config=scaling_config(pf),
            desired_size=None if pf.pool.autoscale else str(pf.pool.count or 0),
            management=management(),
            tags=dict(args["tags"]) or None,
            opts=pulumi.ResourceOptions(parent=self, protect=args["protect"]),
        )
        self.node_pool_id = pool.node_pool_id
        self.capacity = pulumi.Output.from_input(
            {
                "instanceType": pf.pool.instance_type,
                "gpuModel": pf.gpu_model.name,
                "sharing": pf.sharing,
                **pf.capacity.as_output(),
            }
        )
        self.register_outputs({"nodePoolId": self.node_pool_id, "capacity": self.capacity})
