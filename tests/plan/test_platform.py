"""The resolved platform: pools resolved once, the pools each namespace may use, warnings
(plan.platform)."""

from __future__ import annotations

from gpu_platform.plan.platform import (
    ResolvedPlatform,
    quota_warnings,
    resolve_platform,
    shared_gpu_warnings,
    shared_pool_namespaces,
)
from gpu_platform.settings import PlatformSettings
from gpu_platform.stack_config.rules import validate_and_resolve
from tests.conftest import platform_of, stack_raw


def settings_of(stack: str) -> PlatformSettings:
    return platform_of(stack_raw(stack)).settings


def test_pools_already_resolved_are_taken_as_they_are() -> None:
    settings = settings_of("dev")
    problems, resolved = validate_and_resolve(settings)
    assert problems == []
    platform = resolve_platform(settings, resolved)
    assert all(platform.pools[name] is facts for name, facts in resolved.items())
    # Facts of other pool objects (same name) are not trusted: resolved afresh, equal.
    again = resolve_platform(settings_of("dev"), resolved)
    assert again.pools == platform.pools
    assert all(again.pools[n] is not platform.pools[n] for n in platform.pools)


def test_a_namespace_without_pools_gets_every_unshared_pool() -> None:
    platform: ResolvedPlatform = platform_of(stack_raw("dev"))
    unshared = [p for p in platform.pools.values() if not p.is_shared]
    for workload in platform.settings.workloads:
        pools = platform.workload_pools(workload)
        if workload.pools is None:
            assert pools == unshared
        else:
            assert [p.name for p in pools] == list(workload.pools)
    types = platform.pool_workload_types()
    assert set(types) == set(platform.pools)
    assert platform.cluster_gpu_resources == sorted(platform.cluster_gpu_resources)


def test_shared_pools_are_warned_about_with_their_namespaces() -> None:
    platform = platform_of(stack_raw("dev"))
    allowed = shared_pool_namespaces(platform)
    warnings = shared_gpu_warnings(platform)
    assert set(warnings) == set(allowed) == {p for p, f in platform.pools.items() if f.is_shared}
    for name, namespaces in allowed.items():
        assert "BP-15" in warnings[name]
        assert all(ns in warnings[name] for ns in namespaces)


def test_a_quota_above_what_the_pools_offer_is_a_warning() -> None:
    raw = stack_raw("dev")
    raw["workloads"][0]["gpuQuota"] = 100000
    warnings = quota_warnings(platform_of(raw))
    assert [w.split(":")[0] for w in warnings] == ["workloads[0].gpuQuota"]
