"""Only ACK MPS clients share the host's IPC, and they must.

Both directions, as the in-cluster admission policy: ``hostIPC`` on a pod that is no MPS client
is a scheduler bypass; a pod asking for GPU memory on an MPS pool (nodes labelled
``ack.node.gpu.schedule=mps``) without ``hostIPC`` cannot reach the MPS control daemon, so it
does not start (ACK "MPS-based GPU sharing"). ACK's cGPU and share pools hand out
``aliyun.com/gpu-mem`` without MPS: a pod that can only land on them needs no ``hostIPC``, and
must not share it.

A stack policy, so that the stack's pools decide: the gpu-mem pools a pod's nodeSelector
admits (all of them when it admits none). A pod queued by Kueue to a ClusterQueue the program
declares lands where the flavours it may be admitted to put it: their nodeLabels join its
nodeSelector at admission (``gpu_policy_support.queues.admitted_specs``), so the pools those
flavours select decide. A pod of a stack without gpu-mem pools (a team's
workload program) is judged as an MPS client, unless ``gpuMemRequiresHostIpc: false`` says the
cluster's gpu-mem pools are cGPU or share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.scheduling import ACK_GPU_SCHEDULE_LABEL, ACK_GPU_SCHEDULE_VALUES, ALIYUN_GPU_MEM
from gpu_policy_support.mps_daemons import is_mps_daemon
from gpu_policy_support.node_pools import NodePool, admitted_pools, stack_gpu_pools
from gpu_policy_support.pod_runtimes import scheduling_spec
from gpu_policy_support.pod_specs import pod_gpu_resources
from gpu_policy_support.policy_factory import (
    Config,
    PolicyInfo,
    Report,
    stack_policy,
)
from gpu_policy_support.props import is_true
from gpu_policy_support.queues import Admission, Queues, admitted_specs
from gpu_policy_support.stack_index import index_by_type, stack_pods

REQUIRE_FOR_GPU_MEM = "gpuMemRequiresHostIpc"
MPS = ACK_GPU_SCHEDULE_VALUES["ackMps"]
GPU_MEM_MODES = frozenset(ACK_GPU_SCHEDULE_VALUES.values())
"""``ack.node.gpu.schedule`` values whose nodes hand out ``aliyun.com/gpu-mem``."""

INFO = PolicyInfo(
    name="host-ipc-only-for-gpu-mem-pods",
    description=(
        f"A pod sets hostIPC: true exactly when it is an ACK MPS client: it asks for "
        f"{ALIYUN_GPU_MEM} and can land on an MPS pool ({ACK_GPU_SCHEDULE_LABEL}={MPS}), where "
        f"it needs the host IPC namespace to reach the MPS daemon (without it it does not "
        f"start); no other pod (cGPU and share pools included) may share it."
    ),
    practices=("BP-16", "BP-17"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Remove hostIPC, or ask for {ALIYUN_GPU_MEM} if the pod is an MPS client; the MPS "
        f"control daemon's namespace is exempt by default (exemptNamespaces)."
    ),
    config={
        REQUIRE_FOR_GPU_MEM: {
            "type": "boolean",
            "default": True,
            "description": (
                f"Pods that ask for {ALIYUN_GPU_MEM} must set hostIPC (ACK MPS) when the stack "
                "declares no gpu-mem pool; false on clusters whose gpu-mem pools are cGPU or "
                "share, not MPS."
            ),
        }
    },
)


def _modes(pools: Sequence[NodePool]) -> str:
    return ", ".join(f"{p.name} ({p.labels[ACK_GPU_SCHEDULE_LABEL]})" for p in pools)


FIX = (
    "Set hostIPC: true in the pod spec; if its gpu-mem pools are cGPU or share, not MPS, "
    f"declare them in the stack with their {ACK_GPU_SCHEDULE_LABEL} label (the pools decide), "
    f"set {REQUIRE_FOR_GPU_MEM}: false or exempt the namespace."
)


def landing_pools(
    admissions: Sequence[Admission], gpu_mem_pools: Sequence[NodePool]
) -> tuple[NodePool, ...]:
    """The gpu-mem pools the pod may land on, over every way Kueue may admit it (as written
    when it is not queued)."""
    found: dict[str, NodePool] = {}
    for admission in admissions:
        for pool in admitted_pools(gpu_mem_pools, admission.spec):
            found.setdefault(pool.name, pool)
    return tuple(found.values())


def problem(
    spec: Mapping[str, Any], candidates: Sequence[NodePool], config: Config
) -> tuple[str, str | None] | None:
    """What is wrong with the pod's hostIPC and how to fix it (None: the policy's
    remediation), None when nothing is. ``candidates``: the gpu-mem pools it may land on."""
    host_ipc = is_true(spec.get("hostIPC"))
    gpu_mem = ALIYUN_GPU_MEM in pod_gpu_resources(spec)
    if not gpu_mem:
        if not host_ipc:
            return None
        return f"sets hostIPC: true without asking for {ALIYUN_GPU_MEM}", None
    if candidates and not any(p.labels[ACK_GPU_SCHEDULE_LABEL] == MPS for p in candidates):
        if not host_ipc:
            return None  # cGPU and share need no host IPC
        return (
            f"sets hostIPC: true, but its {ALIYUN_GPU_MEM} pools are not MPS pools "
            f"({_modes(candidates)}): only MPS clients need the host IPC namespace",
            "Remove hostIPC: cGPU and share pools hand out GPU memory without MPS.",
        )
    if host_ipc or (not candidates and config.get(REQUIRE_FOR_GPU_MEM, True) is False):
        return None
    on = f" on MPS pools ({_modes(candidates)})" if candidates else ""
    return (
        f"asks for {ALIYUN_GPU_MEM}{on} without hostIPC: true: as an ACK MPS client it cannot "
        "reach the MPS control daemon, and the pod does not start",
        FIX,
    )


def _queued_where(admissions: Sequence[Admission]) -> str:
    flavors = [a.flavor.name for a in admissions if a.flavor is not None]
    if not flavors:
        return ""
    named = ", ".join(f"'{name}'" for name in flavors)
    return f" (admitted by Kueue to flavour {named} of ClusterQueue '{admissions[0].queue}')"


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    gpu_mem_pools = [
        pool
        for pool, _ in stack_gpu_pools(index)
        if pool.labels.get(ACK_GPU_SCHEDULE_LABEL) in GPU_MEM_MODES
    ]
    queues = Queues.of(index)
    for resource, site in stack_pods(index, config):
        if is_mps_daemon(site):
            continue  # the MPS control daemon itself runs with the host IPC namespace (seed 003)
        spec = scheduling_spec(site, resource, index)  # with what its runtime adds
        asked = pod_gpu_resources(site.spec)
        admissions = admitted_specs(spec, resource, queues, asked, site) if asked else []
        admissions = admissions or [Admission(spec)]
        found = problem(site.spec, landing_pools(admissions, gpu_mem_pools), config)
        if found is not None:
            message, fix = found
            where = _queued_where(admissions)
            report(f"{site.named(resource.name)}{where} {message}.", resource.urn, fix=fix)


POLICY = stack_policy(INFO, validate)
