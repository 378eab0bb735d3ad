"""Workload namespaces as the platform creates them: labels, Pod Security level, GPU quota,
and the problems of one namespace's settings next to its pools."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from ipaddress import ip_network
from typing import Literal

from gpu_facts.dra import is_device_class_name
from gpu_facts.kubernetes_syntax import RESERVED_LABEL_DOMAINS as KUBERNETES_LABEL_DOMAINS
from gpu_facts.kueue import QUEUE_NAMESPACE_LABEL
from gpu_facts.scheduling import (
    ALIYUN_GPU_MEM,
    GPU_NAMESPACE_LABEL,
    MPS_HOST_IPC_ALLOWED,
    MPS_HOST_IPC_LABEL,
    MPS_HOST_IPC_REQUIRED,
    PLATFORM_LABEL_DOMAIN,
    WORKLOAD_TYPE_LABEL,
)
from gpu_platform.settings import PlatformSettings, WorkloadSettings

from .gpu_layer import is_system_namespace, platform_namespaces
from .kubernetes_values import annotation_problems, in_domain, kubernetes_label_problems
from .pools import PoolFacts
from .problems import Problem, join_path, under

PodSecurityLevel = Literal["privileged", "baseline", "restricted"]
PSA_PREFIX = "pod-security.kubernetes.io/"


def pod_security_level(workload: WorkloadSettings, pools: Sequence[PoolFacts]) -> PodSecurityLevel:
    """The PSA ``enforce`` level: configured, else by pool and type."""
    if workload.pod_security is not None:
        return workload.pod_security
    if mps_host_ipc(pools) is not None:
        # Pod Security cannot exempt hostIPC alone; the admission policy keeps the rest of
        # baseline in force in this namespace.
        return "privileged"
    return "restricted" if workload.type == "inference" else "baseline"


def mps_host_ipc(pools: Sequence[PoolFacts]) -> str | None:
    """The MPS exception label value: ``required`` when every gpu-mem pool is MPS (pods
    without hostIPC cannot start), ``allowed`` when only some are, None without MPS."""
    gpu_mem = [pf for pf in pools if ALIYUN_GPU_MEM in pf.capacity.per_node]
    mps = [pf for pf in gpu_mem if pf.is_ack_mps]
    if not mps:
        return None
    return MPS_HOST_IPC_REQUIRED if len(mps) == len(gpu_mem) else MPS_HOST_IPC_ALLOWED


def namespace_labels(
    workload: WorkloadSettings, pools: Sequence[PoolFacts], local_queue: str | None = None
) -> dict[str, str]:
    """Logging labels first, so ours win (the config rules refuse collisions anyway);
    ``local_queue``: the LocalQueue of a namespace whose GPU workloads are queued
    (``plan.queues``)."""
    labels = dict(workload.logging.labels)
    labels[WORKLOAD_TYPE_LABEL] = workload.type
    labels[GPU_NAMESPACE_LABEL] = "true"
    labels[f"{PSA_PREFIX}enforce"] = pod_security_level(workload, pools)
    for mode in ("warn", "audit"):
        labels[f"{PSA_PREFIX}{mode}"] = "restricted"
    for mode in ("enforce", "warn", "audit"):
        labels[f"{PSA_PREFIX}{mode}-version"] = "latest"
    exception = mps_host_ipc(pools)
    if exception is not None:
        labels[MPS_HOST_IPC_LABEL] = exception
    if local_queue is not None:
        labels[QUEUE_NAMESPACE_LABEL] = local_queue
    return labels


def gpu_quota(
    workload: WorkloadSettings,
    pools: Sequence[PoolFacts],
    cluster_gpu_resources: Sequence[str] = (),
) -> dict[str, str]:
    """``requests.<resource>`` quota keys (the only form Kubernetes takes for extended
    resources): the configured number for what the pools expose, 0 for the rest."""
    offered = sorted({r for pf in pools for r in pf.capacity.per_node})
    if isinstance(workload.gpu_quota, int):
        amounts = dict.fromkeys(offered, workload.gpu_quota)
    else:
        # A per-resource map is explicit: resources it does not name get nothing.
        amounts = {r: workload.gpu_quota.get(r, 0) for r in offered}
        # Device-class keys are DRA's: plan.dra_claims caps them, not ``requests.``.
        amounts.update({r: n for r, n in workload.gpu_quota.items() if not is_device_class_name(r)})
    for resource in cluster_gpu_resources:
        amounts.setdefault(resource, 0)
    return {f"requests.{r}": str(n) for r, n in sorted(amounts.items())}


# --- Problems of one namespace's settings: logging keys, egress CIDRs, Pod Security on MPS

RESERVED_LABEL_DOMAINS: tuple[str, ...] = (*KUBERNETES_LABEL_DOMAINS, PLATFORM_LABEL_DOMAIN)
"""Key domains that Kubernetes (Pod Security, metadata) and the platform set on namespaces."""


def _logging_problems(wl: WorkloadSettings) -> list[Problem]:
    """(path under ``logging``, why) of labels and annotations Kubernetes refuses
    (``plan.kubernetes_values``), or that the platform or Kubernetes set themselves."""
    reserved = "set by the platform or Kubernetes; choose another key"
    problems: list[Problem] = []
    for kind, entries, judged in (
        ("labels", wl.logging.labels, kubernetes_label_problems(wl.logging.labels, ())),
        ("annotations", wl.logging.annotations, annotation_problems(wl.logging.annotations)),
    ):
        refused = dict(judged)
        for key in entries:
            if key not in refused and (
                key == WORKLOAD_TYPE_LABEL or in_domain(key, RESERVED_LABEL_DOMAINS)
            ):
                refused[key] = reserved
        problems += under(kind, refused.items())
    return problems


def workload_problems(
    wl: WorkloadSettings, pools: Sequence[PoolFacts], at: str = ""
) -> list[Problem]:
    """Problems of one workload namespace: logging keys, egress CIDRs, Pod Security on MPS;
    paths relative to the namespace, or under ``at`` (the stack config's ``workloads[i]``)."""
    problems = under(join_path(at, "logging"), _logging_problems(wl))
    for j, cidr in enumerate(wl.traffic.egress_cidrs):
        try:
            ip_network(cidr)
        except ValueError:
            problems.append(
                (
                    join_path(at, f"traffic.egressCidrs[{j}]"),
                    f"not a CIDR (host bits must be zero): {cidr!r}",
                )
            )
    if wl.pod_security in ("baseline", "restricted") and any(pf.is_ack_mps for pf in pools):
        problems.append(
            (
                join_path(at, "podSecurity"),
                f"pods on ACK MPS pools need hostIPC: true, which Pod Security "
                f"'{wl.pod_security}' refuses; leave podSecurity unset (privileged, the admission "
                "policy enforces the rest of baseline)",
            )
        )
    return problems


def workload_duplicate_problems(settings: PlatformSettings) -> Iterator[Problem]:
    """Each workload namespace once (paths from the config's root)."""
    for name, n in Counter(w.name for w in settings.workloads).items():
        if n > 1:
            yield "workloads", f"duplicate name {name!r}"


def workload_name_problems(
    settings: PlatformSettings, sound_pools: Mapping[str, PoolFacts]
) -> Iterator[Problem]:
    """The workload namespaces against the rest of the config (paths from its root): names of
    their own (not Kubernetes', not the platform's), pools that are GPU pools, and
    quota keys some pool exposes. ``sound_pools``: the pools whose own rules passed (a claim of
    what no pool has reads the missing ones, ``stack_config.rules.follow_on``)."""
    # A namespace name -> the platform key that uses it; the explicitly set key wins.
    ours = {
        ns: (key, explicit)
        for key, ns, explicit in sorted(platform_namespaces(settings), key=lambda item: item[2])
    }
    # The pools' names and what they offer, built once, where the rule first reads them (a
    # part the schema refused stops the rule there): linear in pools and namespaces.
    names: dict[str, set[str]] = {}
    offered: set[str] | None = None
    for i, wl in enumerate(settings.workloads):
        at = f"workloads[{i}]"
        if is_system_namespace(wl.name):
            yield f"{at}.name", f"{wl.name!r} is a Kubernetes system namespace; choose another"
        elif wl.name in ours:
            key, explicit = ours[wl.name]
            # Blame the key the user wrote: a platform namespace set to a workload's name, else
            # the workload named like a platform default.
            if explicit:
                yield key, f"{wl.name!r} is also a workload namespace ({at})"
            else:
                yield f"{at}.name", f"{wl.name!r} is the platform's own namespace ({key})"
        for j, pool in enumerate(wl.pools or ()):
            if pool not in sound_pools and pool not in _pool_names(settings, "gpu", names):
                if pool in _pool_names(settings, "cpu", names):
                    yield f"{at}.pools[{j}]", f"{pool!r} is a CPU pool; list GPU pools here"
                else:
                    yield f"{at}.pools[{j}]", f"no GPU pool named {pool!r}"
        if offered is None:  # extended resources, and the DeviceClasses of DRA pools
            offered = {
                r
                for pf in sound_pools.values()
                for r in (*pf.capacity.per_node, *pf.capacity.devices)
            }
        if isinstance(wl.gpu_quota, dict) and offered:
            for resource in wl.gpu_quota:
                if resource not in offered:
                    yield (
                        f"{at}.gpuQuota.{resource}",
                        f"no pool exposes {resource}; pools expose: {', '.join(sorted(offered))}",
                    )


def _pool_names(settings: PlatformSettings, kind: str, found: dict[str, set[str]]) -> set[str]:
    """The names of the ``kind`` ("gpu" or "cpu") pools, read once into ``found``."""
    if kind not in found:
        pools = settings.gpu_pools if kind == "gpu" else settings.cpu_pools
        found[kind] = {p.name for p in pools}
    return found[kind]


def workload_isolation_problems(
    settings: PlatformSettings, sound_pools: Mapping[str, PoolFacts]
) -> Iterator[Problem]:
    """Each namespace's own settings next to the pools it may use (``workload_problems``):
    the listed ones, else every open pool, as ``ResolvedPlatform.workload_pools``."""
    unlisted = [n for n, pf in sound_pools.items() if pf.open_to_unlisted_namespaces]
    for i, wl in enumerate(settings.workloads):
        names = wl.pools if wl.pools is not None else unlisted
        pools = [sound_pools[n] for n in names if n in sound_pools]
        yield from workload_problems(wl, pools, f"workloads[{i}]")
