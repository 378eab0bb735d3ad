"""Rules every node pool shares: the system pool's name, one size, reserved labels
(plan.node_pools)."""

from __future__ import annotations

import pytest

from gpu_platform.plan.node_pools import (
    AKS_RESERVES_ITS_DOMAIN,
    GPU_COMPONENTS_SELECT_IT,
    SET_BY_THE_PLATFORM,
    SIZE_EXACTLY_ONE,
    SYSTEM_NAME_TAKEN,
    name_problems,
    reserved_label_problems,
    size_problems,
)
from gpu_platform.settings import AutoscaleSettings


def test_the_system_pools_name_is_taken_where_the_platform_creates_the_cluster() -> None:
    assert list(name_problems("aks", "system")) == [("name", SYSTEM_NAME_TAKEN)]
    assert list(name_problems("ack", "system")) == [("name", SYSTEM_NAME_TAKEN)]
    assert list(name_problems("existing", "system")) == []
    assert list(name_problems("aks", "t4")) == []


@pytest.mark.parametrize(
    ("count", "autoscale", "expected"),
    [
        (2, None, []),
        (None, AutoscaleSettings(min=0, max=3), []),
        (None, None, [("", SIZE_EXACTLY_ONE)]),
        (2, AutoscaleSettings(min=0, max=3), [("", SIZE_EXACTLY_ONE)]),
        (
            None,
            AutoscaleSettings(min=4, max=3),
            [("autoscale.min", "must not exceed autoscale.max")],
        ),
    ],
)
def test_one_size(count: int | None, autoscale: AutoscaleSettings | None, expected: list) -> None:
    assert list(size_problems(count, autoscale)) == expected


def test_reserved_labels_of_gpu_and_cpu_pools() -> None:
    labels = {
        "nvidia.com/gpu.present": "true",
        "workload.gpu-platform.io/x": "true",
        "kubernetes.azure.com/mode": "user",
        "ack.node.gpu.schedule": "mps",
        "team": "a",
    }
    assert dict(reserved_label_problems("aks", labels, gpu_pool=True)) == {
        "labels.nvidia.com/gpu.present": SET_BY_THE_PLATFORM,
        "labels.workload.gpu-platform.io/x": SET_BY_THE_PLATFORM,
        "labels.kubernetes.azure.com/mode": AKS_RESERVES_ITS_DOMAIN,
    }
    assert dict(reserved_label_problems("ack", labels, gpu_pool=False)) == {
        "labels.nvidia.com/gpu.present": GPU_COMPONENTS_SELECT_IT,
        "labels.workload.gpu-platform.io/x": SET_BY_THE_PLATFORM,
        "labels.ack.node.gpu.schedule": GPU_COMPONENTS_SELECT_IT,
    }


def test_a_domain_that_only_ends_like_a_reserved_one_is_the_teams() -> None:
    """The domain or a subdomain of it, at a dot: ``notgpu-platform.io`` is another domain."""
    labels = {"notgpu-platform.io/x": "1", "evilkubernetes.azure.com/y": "1"}
    assert dict(reserved_label_problems("aks", labels, gpu_pool=True)) == {}
    labels = {"sub.kubernetes.azure.com/y": "1"}
    assert dict(reserved_label_problems("aks", labels, gpu_pool=True)) == {
        "labels.sub.kubernetes.azure.com/y": AKS_RESERVES_ITS_DOMAIN
    }
