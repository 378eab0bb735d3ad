"""AckCpuNodePool: one ACK node pool without GPUs and without taints, for pods that need no GPU.

The GPU pools are tainted ``nvidia.com/gpu``; this pool runs what tolerates no taint (an
ingress gateway, a data loader, Prometheus) next to the add-ons of the untainted system pool.
Managed like the GPU pools (kubelet auto-upgrade, CVE fixes), with the cluster's system disk
settings (``node_hardening``).

No ``from __future__ import annotations``: the component analyzer reads the args at run time.
"""

from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_alicloud import cs

from gpu_platform.plan.cloud_tags import ack_tag_problems
from gpu_platform.plan.cpu_pools import cpu_node_labels, cpu_pool_problems
from gpu_platform.plan.kubernetes_values import kubernetes_label_problems
from gpu_platform.plan.problems import under
from gpu_platform.settings import CpuPoolSettings

from ..errors import Problem, raise_if_any, shape_problems
from ..node_hardening import AckSystemDiskArgs, ack_system_disk
from ..pool_args import CpuPoolArgs, validate_cpu_pool_args
from ..type_tokens import formerly, type_token
from .gpu_node_pool import ACK_ZONES_BY_VSWITCH, management

SCALING_TYPE_CPU = "cpu"
"""``scaling_config.type`` of an autoscaled pool without GPUs."""


class AckCpuNodePoolArgs(TypedDict):
    """One CPU node pool of an ACK cluster."""

    cluster_id: pulumi.Input[str]
    """ACK cluster the pool joins."""
    vswitch_ids: pulumi.Input[Sequence[pulumi.Input[str]]]
    """vSwitches of the nodes: they decide the pool's zones."""
    pool: CpuPoolArgs
    """The pool: ``instanceType`` (no GPUs), ``count`` or ``autoscale``, labels; no ``zones``
    (the vSwitches place the pool). The AKS-only settings are not used."""
    system_disk: NotRequired[AckSystemDiskArgs]
    """System disk of every node: category, size, encryption."""
    protect: NotRequired[bool]
    """Protect the pool from deletion (production)."""
    tags: NotRequired[dict[str, str]]
    """Resource tags."""


def ack_cpu_pool_problems(pool: CpuPoolSettings) -> list[Problem]:
    """What ACK refuses, or what would pull GPU components onto the pool, in a pool that fits
    the schema: the rules of a CPU pool on ACK (``plan.cpu_pools``; the stack config's rules
    say the same under ``cpuPools[i]``), labels by Kubernetes' syntax, and no zones (the
    vSwitches it is given place it)."""
    problems = under("pool", cpu_pool_problems("ack", pool))
    if pool.zones:
        problems.append(("pool.zones", ACK_ZONES_BY_VSWITCH))
    problems += under("pool.labels", kubernetes_label_problems(pool.labels))
    return problems


def scaling_config(pool: CpuPoolSettings) -> cs.NodePoolScalingConfigArgs | None:
    """Autoscaling of the pool, or None for a fixed size."""
    if pool.autoscale is None:
        return None
    return cs.NodePoolScalingConfigArgs(
        enable=True,
        min_size=pool.autoscale.min,
        max_size=pool.autoscale.max,
        type=SCALING_TYPE_CPU,
    )


class AckCpuNodePool(pulumi.ComponentResource):
    """A CPU node pool of an ACK cluster: untainted, managed, autoscaled or fixed."""

    node_pool_id: pulumi.Output[str]
    """ACK node pool ID."""
    facts: pulumi.Output[dict[str, Any]]
    """Instance type and node range."""

    def __init__(
        self, name: str, args: AckCpuNodePoolArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("AckCpuNodePool", name, shape_problems(args, AckCpuNodePoolArgs))
        pool, problems = validate_cpu_pool_args(
            "ack", args["pool"], "pool", rules=ack_cpu_pool_problems
        )
        disk, disk_problems = ack_system_disk(args.get("system_disk"), "system_disk")
        problems += under("tags", ack_tag_problems(args.get("tags") or {}))
        # Validated before registering anything: bad input changes nothing.
        raise_if_any("AckCpuNodePool", name, [*problems, *disk_problems])
        assert pool is not None and pool.instance_type is not None and disk is not None
        super().__init__(
            type_token("AckCpuNodePool"),
            name,
            None,
            formerly("gpu-platform:alicloud:AckCpuNodePool", opts),
        )
        node_pool = cs.NodePool(
            f"{name}-pool",
            cluster_id=args["cluster_id"],
            node_pool_name=pool.name,
            instance_types=[pool.instance_type],
            vswitch_ids=args["vswitch_ids"],
            labels=[
                cs.NodePoolLabelArgs(key=k, value=v)
                for k, v in cpu_node_labels(pool.name, pool.labels).items()
            ],
            # No taints: this is where pods that tolerate none go.
            taints=[],
            scaling_config=scaling_config(pool),
            desired_size=None if pool.autoscale else str(pool.count or 0),
            management=management(),
            **disk,
            tags=args.get("tags") or None,
            opts=pulumi.ResourceOptions(parent=self, protect=args.get("protect", False)),
        )
        autoscale = pool.autoscale
        self.node_pool_id = node_pool.node_pool_id
        self.facts = pulumi.Output.from_input(
            {
                "instanceType": pool.instance_type,
                "minNodes": autoscale.min if autoscale else pool.count,
                "maxNodes": autoscale.max if autoscale else pool.count,
            }
        )
        self.register_outputs({"nodePoolId": self.node_pool_id, "facts": self.facts})
