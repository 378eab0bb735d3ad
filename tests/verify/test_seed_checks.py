"""readiness.seed_checks: what stops the run and what becomes a row (the checks themselves run
end to end in tests/stacks/test_verify_seeds.py)."""

from __future__ import annotations

import pytest

from gpu_facts.vendors import AMD
from gpu_platform.verify.cluster import ClusterError
from gpu_platform.verify.gpu_memory import CHECK as GPU_MEMORY
from gpu_platform.verify.mig_devices import CHECK as MIG_DEVICES
from gpu_platform.verify.mps_server import CHECK as MPS_SERVER
from gpu_platform.verify.seed_checks import NVIDIA_ONLY, _not_applicable, _refused
from gpu_platform.verify.seed_expectations import SeedExpectations, SeedPool

MI300X = SeedPool("mi300x", 8, vendor=AMD)


def test_a_refused_read_is_a_row_naming_the_permission() -> None:
    err = ClusterError("not allowed to get storageclass x at https://k (403 Forbidden): no", 403)
    assert _refused(err, "get on storageclasses") == (
        "not allowed to get storageclass x at https://k (403 Forbidden): no; the verifying "
        "identity needs get on storageclasses"
    )


@pytest.mark.parametrize("status", [None, 401, 500])
def test_any_other_failure_stops_the_run(status: int | None) -> None:
    """Unreachable, expired credentials, a broken server: exit 2 with one line, as for the
    other reads."""
    err = ClusterError("boom", status)
    with pytest.raises(ClusterError, match="boom"):
        _refused(err, "get on storageclasses")


def test_nvidia_only_checks_say_which_pool_they_miss_on_a_stack_with_nvidia_pools() -> None:
    seeds = SeedExpectations("aks", (SeedPool("t4", 1), MI300X), "NodeImage")
    row = _not_applicable(MIG_DEVICES, seeds, "MIG pool")
    assert (row.check, row.subject, row.found, row.status) == (
        MIG_DEVICES,
        "stack",
        "no MIG pool in the stack",
        "skip",
    )


@pytest.mark.parametrize("check", [MIG_DEVICES, GPU_MEMORY, MPS_SERVER])
def test_nvidia_only_checks_say_they_are_nvidias_on_a_stack_without_nvidia_pools(
    check: str,
) -> None:
    seeds = SeedExpectations("aks", (MI300X, SeedPool("mi300b", 8, vendor=AMD)), "NodeImage")
    assert seeds.nvidia_pools == ()
    row = _not_applicable(check, seeds, "unused")
    assert row.status == "skip"
    assert row.found == (
        f"no NVIDIA GPU pool in the stack, only AMD's (mi300x, mi300b): {NVIDIA_ONLY[check]}"
    )
