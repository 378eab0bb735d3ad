"""An ACK GPU node pool: tainted for GPU work only, labelled for scheduling and sharing."""

from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_alicloud import cs

from gpu_facts.scheduling import ACK_GPU_SCHEDULE_VALUES
from gpu_platform.plan.cloud_tags import ack_tag_problems
from gpu_platform.plan.gpu_pools import gpu_pool_problems
from gpu_platform.plan.kubernetes_values import kubernetes_label_problems
from gpu_platform.plan.node_labels import ack_node_labels
from gpu_platform.plan.pools import PoolFacts, pool_placement
from gpu_platform.plan.problems import under
from gpu_platform.settings import AckGpuPoolSettings

from ..errors import Problem, raise_if_any, shape_problems
from ..node_hardening import AckSystemDiskArgs, ack_system_disk
from ..pool_args import GpuPoolArgs, validate_gpu_pool_args
from ..recorded_inputs import recorded_inputs
from ..type_tokens import formerly, type_token

# No ``from __future__ import annotations``: Pulumi's component analyzer reads these
# annotations at run time.

ACK_ZONES_BY_VSWITCH = "on ACK the vSwitches place a pool: pass the zones' vswitchIds"
"""Why a pool component on ACK takes no ``zones``: ``vswitch_ids`` say where its nodes go."""
SCALING_TYPE_GPU = "gpu"
SCALING_TYPE_GPU_SHARE = "gpushare"
"""``scaling_config.type`` of autoscaled pools: whole GPUs, or shared GPUs."""


class AckGpuNodePoolArgs(TypedDict):
    """One GPU node pool of an ACK cluster."""

    cluster_id: pulumi.Input[str]
    """ACK cluster the pool joins."""
    vswitch_ids: pulumi.Input[Sequence[pulumi.Input[str]]]
    """vSwitches of the nodes: they decide the pool's zones (``pool.zones`` is refused)."""
    pool: GpuPoolArgs
    """The GPU pool (``instanceType`` required)."""
    protect: NotRequired[bool]
    """Protect the pool from deletion (production)."""
    tags: NotRequired[dict[str, str]]
    """Resource tags."""
    system_disk: NotRequired[AckSystemDiskArgs]
    """System disk of every node: category, size, encryption."""


def ack_gpu_pool_problems(pool: AckGpuPoolSettings) -> list[Problem]:
    """The rules of a GPU pool on ACK (``plan.gpu_pools`` on cloud ``ack``, which the stack
    config asks too), its labels by Kubernetes' syntax, and no zones (the vSwitches it is given
    place it); property paths under ``pool``."""
    problems = under(
        "pool",
        [
            *gpu_pool_problems("ack", pool),
            *under("labels", kubernetes_label_problems(pool.labels)),
        ],
    )
    if pool.zones:
        problems.append(("pool.zones", ACK_ZONES_BY_VSWITCH))
    return problems


def validate_ack_gpu_pool_args(args: AckGpuNodePoolArgs) -> tuple[PoolFacts | None, list[Problem]]:
    """The pool args and tags checked, the pool resolved for ACK: the pool's facts, or None and
    the problems with property paths."""
    pf, problems = validate_gpu_pool_args("ack", args["pool"], "pool", rules=ack_gpu_pool_problems)
    problems += under("tags", ack_tag_problems(args.get("tags") or {}))
    return (None if problems else pf), problems


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
    facts: pulumi.Output[dict[str, Any]]
    """Instance type, GPU model, sharing, and the expected allocatable GPU resources per node,
    node count and total."""

    def __init__(
        self, name: str, args: AckGpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AckGpuNodePool", name, shape_problems(args, AckGpuNodePoolArgs))
        pf, problems = validate_ack_gpu_pool_args(args)
        disk, disk_problems = ack_system_disk(args.get("system_disk"), "system_disk")
        # Validated before registering anything: bad input changes nothing.
        raise_if_any("AckGpuNodePool", name, [*problems, *disk_problems])
        assert pf is not None and isinstance(pf.pool, AckGpuPoolSettings) and disk is not None
        super().__init__(
            type_token("AckGpuNodePool"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:alicloud:AckGpuNodePool", opts),
        )
        pool = cs.NodePool(
            f"{name}-pool",
            cluster_id=args["cluster_id"],
            node_pool_name=pf.name,
            instance_types=[pf.pool.instance_type],
            vswitch_ids=args["vswitch_ids"],
            labels=[cs.NodePoolLabelArgs(key=k, value=v) for k, v in ack_node_labels(pf).items()],
            taints=[
                cs.NodePoolTaintArgs(key=taint.key, value=taint.value, effect=taint.effect)
                for taint in pool_placement(pf).taints
            ],
            scaling_config=scaling_config(pf),
            desired_size=None if pf.pool.autoscale else str(pf.pool.count or 0),
            management=management(),
            **disk,
            tags=args.get("tags") or None,
            opts=pulumi.ResourceOptions(parent=self, protect=args.get("protect", False)),
        )
        self.node_pool_id = pool.node_pool_id
        self.facts = pulumi.Output.from_input(
            {
                "instanceType": pf.pool.instance_type,
                "gpuModel": pf.gpu_model.name,
                "sharing": pf.sharing,
                **pf.capacity.as_output(),
            }
        )
        self.register_outputs({"nodePoolId": self.node_pool_id, "facts": self.facts})
