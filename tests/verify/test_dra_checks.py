"""verify.dra_checks, pure: a node's ResourceSlice devices against the pool's promise, the
driver version they report, device-plugin pods on a DRA node, DeviceClasses and claim quotas.
The whole DRA run against a fake API server: tests/stacks/test_verify_dra.py."""

from __future__ import annotations

from typing import Any

from gpu_platform.stack_config import load_platform
from gpu_platform.verify.dra_checks import (
    attribute,
    claim_quota,
    device_class,
    is_device_plugin_pod,
    no_device_plugin,
    node_devices,
    resource_slices,
    slice_driver,
)
from gpu_platform.verify.dra_expectations import DraPoolExpectation, dra_expectation
from tests.conftest import stack_raw


def pools() -> dict[str, DraPoolExpectation]:
    dra = dra_expectation(load_platform(stack_raw("dra-dev")))
    assert dra is not None
    return {p.pool.name: p for p in dra.pools}


def gpu(product: str = "NVIDIA H100 NVL", version: str = "570.124.06") -> dict[str, Any]:
    return {
        "name": "gpu-0",
        "attributes": {
            "type": {"string": "gpu"},
            "productName": {"string": product},
            "driverVersion": {"version": version},
        },
    }


def test_attributes_of_both_shapes() -> None:
    assert attribute(gpu(), "type") == "gpu"
    v1beta1 = {"name": "gpu-0", "basic": {"attributes": {"type": {"string": "mig"}}}}
    assert attribute(v1beta1, "type") == "mig"
    assert attribute(gpu(), "profile") is None


def test_only_the_nodes_devices_of_the_driver_count() -> None:
    slices = [
        {"spec": {"driver": "gpu.nvidia.com", "nodeName": "a", "devices": [gpu()]}},
        {"spec": {"driver": "gpu.nvidia.com", "nodeName": "b", "devices": [gpu(), gpu()]}},
        {"spec": {"driver": "nic.example.com", "nodeName": "a", "devices": [gpu()]}},
    ]
    assert len(node_devices(slices, "a", "gpu.nvidia.com")) == 1


def test_the_promised_devices_pass_and_others_fail() -> None:
    h100 = pools()["h100dra"]
    assert resource_slices(h100, "n", [gpu()]).status == "pass"
    extra = resource_slices(h100, "n", [gpu(), gpu("Tesla T4")])
    assert (extra.status, extra.found) == ("fail", "1 matching device; others: gpu Tesla T4")
    # The family is a word of the product name: an A10 is no A100.
    assert resource_slices(pools()["a100dramig"], "n", [gpu("NVIDIA A10")]).status == "fail"


def test_the_driver_version_comes_from_the_devices() -> None:
    assert slice_driver(565, "n", [gpu()]).status == "pass"
    old = slice_driver(565, "n", [gpu(version="550.54.15")])
    assert old.found == "550.54.15 is older than 565: upgrade the node image or driver"


def test_device_plugin_pods_are_found_by_owner_or_image() -> None:
    owned = {
        "metadata": {
            "ownerReferences": [{"kind": "DaemonSet", "name": "nvidia-device-plugin-daemonset"}]
        }
    }
    gfd = {
        "metadata": {"ownerReferences": [{"kind": "DaemonSet", "name": "gpu-feature-discovery"}]}
    }
    static = {
        "metadata": {},
        "spec": {"containers": [{"image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}]},
    }
    dra = {
        "metadata": {
            "ownerReferences": [
                {"kind": "DaemonSet", "name": "nvidia-dra-driver-gpu-kubelet-plugin"}
            ]
        }
    }
    assert all(is_device_plugin_pod(p) for p in (owned, gfd, static))
    assert not is_device_plugin_pod(dra)
    static["metadata"] = {"name": "plugin", "namespace": "kube-system"}
    assert no_device_plugin("n", [static, dra]).found == "kube-system/plugin"


def test_device_classes_and_claim_quotas() -> None:
    assert device_class("gpu.nvidia.com", {"gpu.nvidia.com": {}}).status == "pass"
    assert device_class("mig.nvidia.com", {}).status == "fail"
    keys = {"gpu.nvidia.com.deviceclass.resource.k8s.io/devices": 2}
    quota = {"spec": {"hard": {"gpu.nvidia.com.deviceclass.resource.k8s.io/devices": "2"}}}
    looser = {"spec": {"hard": {"gpu.nvidia.com.deviceclass.resource.k8s.io/devices": "9"}}}
    assert claim_quota("ns", keys, [looser, quota]).status == "pass"  # the tightest counts
    assert claim_quota("ns", keys, [looser]).status == "fail"
    missing = claim_quota("ns", keys, [])
    assert missing.found == (
        "no claim quota (missing gpu.nvidia.com.deviceclass.resource.k8s.io/devices: claims on "
        "them are uncapped)"
    )
