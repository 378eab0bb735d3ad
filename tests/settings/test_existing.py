"""An existing cluster's GPU pool settings (settings.existing): the nodes in their own terms."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings.existing import ExistingGpuPoolSettings, NodeGpuSettings


def test_a_dgx_pool_says_its_gpus_per_node() -> None:
    pool = ExistingGpuPoolSettings.model_validate(
        {"name": "dgx", "count": 4, "gpu": {"model": "H100-80GB", "count": 8}}
    )
    assert pool.gpu == NodeGpuSettings(model="H100-80GB", count=8)
    assert pool.machine_type is None
    with pytest.raises(ValidationError):
        NodeGpuSettings.model_validate({"model": "H100-80GB", "count": 0})


def test_no_aks_or_ack_node_settings() -> None:
    for other in ({"zones": ["1"]}, {"upgrade": {}}, {"vmSize": "x"}, {"maxPods": 30}):
        with pytest.raises(ValidationError, match="Extra inputs"):
            ExistingGpuPoolSettings.model_validate({"name": "p", "machineType": "x", **other})
