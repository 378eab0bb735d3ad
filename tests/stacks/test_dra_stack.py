"""The dra-dev stack (DRA pools beside device-plugin pools) through the offline preview: clean;
its plan's releases rendered for real (NVIDIA's DRA chart and the device plugin chart, from
../shared/reference) put the kubelet plugin on exactly the DRA pools and every device-plugin
object on none of them, as the scheduler would place them (the plan's pools' labels and taints
against each rendered pod's selectors, affinity and tolerations); the quotas carry the
device-class keys; every object is valid Kubernetes at the stack's version."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from helm_python.chart import Chart

from gpu_facts.nvidia.device_plugin_chart import DEFAULT_VERSION as PLUGIN_VERSION
from gpu_facts.nvidia.dra_driver_chart import DEFAULT_VERSION as DRA_VERSION
from gpu_platform.offline_preview import PreviewResult
from gpu_platform.offline_preview.cli import EXIT_OK
from gpu_policy_support.node_placement import node_placement
from tests.conftest import by_type, stack_preview, stack_raw
from tests.k8s_schema import assert_valid_manifest, is_kubernetes_object, manifest_of
from tests.reference import reference
from tests.stacks.test_amd_stack import gpu_pools, lands

pytestmark = pytest.mark.slow

STACK = "dra-dev"
RELEASE = "kubernetes:helm.sh/v3:Release"
QUOTA = "kubernetes:core/v1:ResourceQuota"
DRA_POOLS = {"h100dra", "a100dramig"}
POD_KINDS = {"DaemonSet", "Deployment", "Job", "CronJob", "StatefulSet"}


@pytest.fixture
def dra_dev() -> PreviewResult:
    return stack_preview(STACK)


def release(result: PreviewResult, chart: str) -> dict[str, Any]:
    (found,) = [r.inputs for r in by_type(result.run, RELEASE) if r.inputs["chart"] == chart]
    return found


def rendered_pods(result: PreviewResult, chart: str, folder: str) -> dict[str, dict[str, Any]]:
    """The pod specs the release of ``chart`` in the plan renders, by workload name."""
    inputs = release(result, chart)
    manifests = Chart.load(reference(folder)).render(
        values=inputs["values"], name=inputs["name"], namespace=inputs["namespace"], is_install=True
    )
    pods = {}
    for text in manifests.values():
        for doc in yaml.safe_load_all(text):
            if doc and doc["kind"] in POD_KINDS:
                pods[doc["metadata"]["name"]] = doc["spec"]["template"]["spec"]
    return pods


def test_previews_clean(dra_dev: PreviewResult) -> None:
    assert [(v.policy, v.message) for v in dra_dev.violations] == []
    assert dra_dev.exit_code == EXIT_OK


def test_the_plan_puts_the_kubelet_plugin_on_exactly_the_dra_pools(dra_dev: PreviewResult) -> None:
    pools = gpu_pools(dra_dev)
    assert DRA_POOLS | {"a100mig", "t4", "general"} <= set(pools)
    pods = rendered_pods(dra_dev, "nvidia-dra-driver-gpu", f"nvidia-dra-driver-gpu-{DRA_VERSION}")
    (plugin,) = pods.values()
    assert lands(pools, node_placement(plugin), plugin.get("tolerations", [])) == DRA_POOLS


def test_device_plugin_objects_land_on_no_dra_pool(dra_dev: PreviewResult) -> None:
    pools = gpu_pools(dra_dev)
    pods = rendered_pods(dra_dev, "nvidia-device-plugin", f"nvidia-device-plugin-{PLUGIN_VERSION}")
    assert pods
    for name, spec in pods.items():
        where = lands(pools, node_placement(spec), spec.get("tolerations", []))
        assert not where & DRA_POOLS, (name, where)
    plugin = pods["nvidia-device-plugin"]
    assert lands(pools, node_placement(plugin), plugin["tolerations"]) == {"a100mig", "t4"}


def test_the_quotas_carry_the_device_class_keys(dra_dev: PreviewResult) -> None:
    hard = {
        r.inputs["metadata"]["namespace"]: r.inputs["spec"]["hard"]
        for r in by_type(dra_dev.run, QUOTA)
    }
    key = "{}.deviceclass.resource.k8s.io/devices".format
    assert {k: v for k, v in hard["gpu-dra"].items() if "deviceclass" in k} == {
        key("gpu.nvidia.com"): "2",
        key("mig.nvidia.com"): "28",
        key("vfio.gpu.nvidia.com"): "0",
    }
    for namespace in ("gpu-training", "gpu-inference"):
        assert {v for k, v in hard[namespace].items() if "deviceclass" in k} == {"0"}


def test_every_object_is_valid_at_the_stacks_version(dra_dev: PreviewResult) -> None:
    version = stack_raw(STACK)["cluster"]["kubernetesVersion"]
    objects = [r for r in dra_dev.run.resources if is_kubernetes_object(r)]
    assert any(r.type.endswith(":ResourceClaimTemplate") for r in objects)
    for resource in objects:
        assert_valid_manifest(manifest_of(resource), version=version)
