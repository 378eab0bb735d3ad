"""verify.dra_expectations: what a stack's DRA pools promise, from the same plan functions the
components provision from."""

from __future__ import annotations

from gpu_platform.stack_config import load_platform
from gpu_platform.verify.dra_expectations import dra_expectation
from gpu_platform.verify.expectations import expectations
from tests.conftest import stack_raw


def test_the_dra_pools_promise_their_devices() -> None:
    platform = load_platform(stack_raw("dra-dev"))
    dra = dra_expectation(platform)
    assert dra is not None
    assert dra.namespace == "nvidia-dra-driver-gpu"
    assert dra.daemonset == "nvidia-dra-driver-gpu-kubelet-plugin"
    assert dra.device_classes == ("gpu.nvidia.com", "mig.nvidia.com", "vfio.gpu.nvidia.com")
    h100, mig = dra.pools
    assert (h100.pool.name, h100.device_class, h100.devices, h100.family) == (
        "h100dra",
        "gpu.nvidia.com",
        1,
        "H100",
    )
    assert h100.pool.labels == {
        "nvidia.com/gpu.present": "true",
        "workload.gpu-platform.io/dra": "true",
    }
    assert (mig.device_type, mig.devices, mig.mig_profile) == ("mig", 56, "1g.5gb")
    assert mig.promise() == "56 mig devices, profile 1g.5gb, of an A100"
    # NVIDIA's DRA driver allocates GPUs from driver 565 on: more than driverCheck's 535.
    assert (h100.min_driver_major, mig.min_driver_major) == (565, 565)
    key = "{}.deviceclass.resource.k8s.io/devices".format
    assert dra.claim_quotas["gpu-dra"] == {
        key("gpu.nvidia.com"): 2,
        key("mig.nvidia.com"): 28,
        key("vfio.gpu.nvidia.com"): 0,
    }
    assert set(dra.claim_quotas["gpu-training"].values()) == {0}
    # The device-plugin part of verify leaves the DRA pools out.
    assert [p.name for p in expectations(platform).pools] == ["a100mig", "t4"]


def test_no_dra_pool_no_dra_part() -> None:
    assert dra_expectation(load_platform(stack_raw("dev"))) is None
