"""An AKS GPU pool's settings (settings.aks): its VM size, node hardening, NVMe cache and OS."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings.aks import AksGpuPoolSettings


def test_an_aks_pool_needs_its_vm_size_and_takes_no_other_clouds_machine() -> None:
    pool = AksGpuPoolSettings.model_validate({"name": "t4", "vmSize": "Standard_NC4as_T4_v3"})
    assert (pool.os_sku, pool.nvme, pool.zones) == ("Ubuntu", False, [])
    with pytest.raises(ValidationError, match="vmSize"):
        AksGpuPoolSettings.model_validate({"name": "t4"})
    with pytest.raises(ValidationError, match="Extra inputs"):
        AksGpuPoolSettings.model_validate(
            {"name": "t4", "vmSize": "Standard_NC4as_T4_v3", "machineType": "p5.48xlarge"}
        )
