"""What a pool's nodes are, whichever way its cloud says it (plan.machines)."""

from __future__ import annotations

from gpu_facts import gpu_model
from gpu_platform.plan.machines import PoolMachine


def test_a_machine_without_disks_offers_no_cache() -> None:
    machine = PoolMachine(gpu_model("H100-80GB"), 8)
    assert (machine.nvme_disk_count, machine.nvme_disk_gib, machine.nvme_cache) == (0, 0, False)
    assert not machine.virtual_function_gpus
