"""plan.dra_claims: a namespace's claim templates per GPU shape and its quota per DeviceClass
(the component that writes them: tests/components/test_gpu_workload_namespace.py)."""

from __future__ import annotations

from typing import Any

from gpu_platform.plan.dra_claims import (
    claim_quota,
    claim_shapes,
    cluster_device_classes,
    pool_shape,
    quota_device_classes,
)
from gpu_platform.plan.pools import resolve_pool
from gpu_platform.settings import WorkloadSettings
from tests.pools import gpu_pool


def azure(**kwargs: Any) -> Any:
    return resolve_pool("aks", gpu_pool(kwargs))


H100 = azure(name="h100dra", vmSize="Standard_NC40ads_H100_v5", count=1, allocation="dra")
H100_NVL_POOL = azure(name="h100b", vmSize="Standard_NC80adis_H100_v5", count=1, allocation="dra")
MIG = azure(
    name="migdra", vmSize="Standard_ND96asr_v4", count=1, allocation="dra", mig={"profile": "MIG1g"}
)
PLUGIN = azure(name="t4", vmSize="Standard_NC4as_T4_v3", count=1)


def workload(quota: Any) -> WorkloadSettings:
    return WorkloadSettings.model_validate(
        {"name": "gpu-dra", "type": "training", "gpuQuota": quota}
    )


def test_one_template_per_shape() -> None:
    assert [s.name for s in claim_shapes([H100, H100_NVL_POOL, MIG, PLUGIN])] == [
        "gpu-h100",
        "mig-1g-5gb",
    ]
    mig = pool_shape(MIG)
    assert (mig.request, mig.device_class) == ("mig", "mig.nvidia.com")
    assert mig.selector == "device.attributes['gpu.nvidia.com'].profile == '1g.5gb'"
    assert pool_shape(H100).selector.endswith(".matches('(^|[^A-Za-z0-9])H100([^A-Za-z0-9]|$)')")


def test_the_cluster_classes_come_with_a_dra_pool() -> None:
    assert cluster_device_classes([PLUGIN]) == []
    assert cluster_device_classes([PLUGIN, H100]) == [
        "gpu.nvidia.com",
        "mig.nvidia.com",
        "vfio.gpu.nvidia.com",
    ]


def test_quota_per_class() -> None:
    classes = cluster_device_classes([H100])
    key = "{}.deviceclass.resource.k8s.io/devices".format
    assert claim_quota(workload(4), [H100, MIG], classes) == {
        key("gpu.nvidia.com"): "4",
        key("mig.nvidia.com"): "4",
        key("vfio.gpu.nvidia.com"): "0",
    }
    per_class = claim_quota(workload({"mig.nvidia.com": 28}), [H100, MIG], classes)
    assert per_class[key("gpu.nvidia.com")] == "0"  # a map names what it gives
    assert per_class[key("mig.nvidia.com")] == "28"
    assert quota_device_classes(per_class) == classes
    # Outside a DRA cluster, nothing.
    assert claim_quota(workload(4), [PLUGIN]) == {}
