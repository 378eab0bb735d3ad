"""Rules of workload namespaces: names, pools, GPU quota keys, and each namespace's own
settings next to its pools (``plan.namespaces.workload_problems``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from gpu_platform.plan.namespaces import workload_problems

from .base import ConfigUnderCheck, Problem, Rule
from .gpu_layer import is_system_namespace, platform_namespaces


def _workloads(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    facts = cfg.sound_pools  # claims of what no pool has read the pools missing from it
    # A namespace name -> the platform key that uses it; the explicitly set key wins.
    ours = {
        ns: (key, explicit)
        for key, ns, explicit in sorted(platform_namespaces(cfg), key=lambda item: item[2])
    }
    # The pools' names and what they offer, built once, where the rule first reads them (a
    # part the schema refused stops the rule there, as it did): linear in pools and namespaces.
    names: dict[str, set[str]] = {}
    offered: set[str] | None = None
    for i, wl in enumerate(cfg.settings.workloads):
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
            if pool not in facts and pool not in _pool_names(cfg, "gpu", names):
                if pool in _pool_names(cfg, "cpu", names):
                    yield f"{at}.pools[{j}]", f"{pool!r} is a CPU pool; list GPU pools here"
                else:
                    yield f"{at}.pools[{j}]", f"no GPU pool named {pool!r}"
        if offered is None:  # extended resources, and the DeviceClasses of DRA pools
            offered = {
                r for pf in facts.values() for r in (*pf.capacity.per_node, *pf.capacity.devices)
            }
        if isinstance(wl.gpu_quota, dict) and offered:
            for resource in wl.gpu_quota:
                if resource not in offered:
                    yield (
                        f"{at}.gpuQuota.{resource}",
                        f"no pool exposes {resource}; pools expose: {', '.join(sorted(offered))}",
                    )


def _pool_names(cfg: ConfigUnderCheck, kind: str, found: dict[str, set[str]]) -> set[str]:
    """The names of the ``kind`` ("gpu" or "cpu") pools, read once into ``found``."""
    if kind not in found:
        pools = cfg.settings.gpu_pools if kind == "gpu" else cfg.settings.cpu_pools
        found[kind] = {p.name for p in pools}
    return found[kind]


def _workload_isolation(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    facts = cfg.sound_pools
    # The same pools as ResolvedPlatform.workload_pools: the listed ones, else every open pool.
    unlisted = [pf for pf in facts.values() if pf.open_to_unlisted_namespaces]
    for i, wl in enumerate(cfg.settings.workloads):
        pools = unlisted if wl.pools is None else [facts[n] for n in wl.pools if n in facts]
        yield from workload_problems(wl, pools, f"workloads[{i}]")


def duplicate_names(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    for name, n in Counter(w.name for w in cfg.settings.workloads).items():
        if n > 1:
            yield "workloads", f"duplicate name {name!r}"


RULES: tuple[Rule, ...] = (duplicate_names, _workloads, _workload_isolation)
