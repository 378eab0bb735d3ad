"""NvidiaDraDriver on the mock engine, and GpuPlatform's DRA layer: the pinned release in its
privileged namespace with our values, refused where DRA cannot work (plan.dra_pools), and the
pools around it (no device-plugin label on a DRA pool, a driver check that claims a device).
The chart rendered with these values: tests/components/nvidia/test_dra_driver_chart.py."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from gpu_facts.nvidia.dra_driver_chart import CHART_NAME, CHART_REPO, DEFAULT_VERSION
from gpu_platform.components.nvidia.dra_driver import NO_DRA_POOL, NvidiaDraDriver
from gpu_platform.components.platform import GpuPlatform
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from gpu_platform.plan.dra_pools import dra_pool_problems
from gpu_platform.plan.nvidia.dra_driver import dra_driver_values, version_problems
from gpu_platform.plan.problems import under
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.components.incluster_args import dra_driver_args, pools_args
from tests.components.input_errors import paths
from tests.conftest import by_type, one, run
from tests.pools import gpu_pool

RELEASE = "kubernetes:helm.sh/v3:Release"
NAMESPACE = "kubernetes:core/v1:Namespace"
COMPONENT = "gpu-platform:index:NvidiaDraDriver"


def test_one_pinned_release_with_our_values_in_a_privileged_namespace() -> None:
    p = load_platform(platforms.aks_dra_and_device_plugin())
    result = run(lambda: NvidiaDraDriver("dra", dra_driver_args(p)))
    release = one(result, RELEASE).inputs
    assert (release["chart"], release["version"], release["name"]) == (
        CHART_NAME,
        DEFAULT_VERSION,
        CHART_NAME,
    )
    assert release["repositoryOpts"] == {"repo": CHART_REPO}
    assert release["namespace"] == "nvidia-dra-driver-gpu"
    assert release["values"] == dra_driver_values(["a100dramig", "h100dra"], compute_domains=False)
    labels = one(result, NAMESPACE).inputs["metadata"]["labels"]
    assert labels["pod-security.kubernetes.io/enforce"] == "privileged"
    component = one(result, COMPONENT)
    assert one(result, RELEASE).parent == component.urn


def test_without_a_dra_pool_nothing_is_registered() -> None:
    p = load_platform(platforms.aks_mig_and_time_slicing())
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(
            lambda: NvidiaDraDriver("dra", {"pools": pools_args(p), "cloud": "aks"}),
            monitor=monitor,
        )
    assert err.value.message.endswith(f"pools: {NO_DRA_POOL}")
    assert monitor.recorded == []


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("1.33", ["kubernetesVersion"]),
        ("1.35", ["pools[2].allocation", "pools[3].allocation"]),  # AKS Ubuntu: no CDI
    ],
)
def test_the_cluster_version_is_judged_as_the_config_judges_it(
    version: str, expected: list[str]
) -> None:
    p = load_platform(platforms.aks_dra_and_device_plugin())
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(
            lambda: NvidiaDraDriver("dra", dra_driver_args(p, kubernetes_version=version)),
            monitor=monitor,
        )
    assert paths(err.value) == expected
    assert monitor.recorded == []


def test_a_dra_pool_with_sharing_is_refused_with_plans_message() -> None:
    p = load_platform(platforms.aks_dra_and_device_plugin())
    pools = pools_args(p)
    pools[2] = {**pools[2], "sharing": {"mode": "timeSlicing", "replicas": 2}}
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: NvidiaDraDriver("dra", {**dra_driver_args(p), "pools": pools}))
    settings = gpu_pool(pools[2])
    (expected,) = under("pools[2]", dra_pool_problems("aks", settings))
    assert f"{expected[0]}: {expected[1]}" in err.value.message


def test_a_chart_version_of_another_chart_is_refused_with_plans_message() -> None:
    p = load_platform(platforms.aks_dra_and_device_plugin())
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(
            lambda: NvidiaDraDriver("dra", {**dra_driver_args(p), "version": "0.4.1"}),
            monitor=monitor,
        )
    ((path, message),) = version_problems("0.4.1")
    assert paths(err.value) == [path]
    assert message in err.value.message
    assert monitor.recorded == []


def platform_run(mutate: Any = None) -> Any:
    raw = platforms.aks_dra_and_device_plugin()
    if mutate is not None:
        mutate(raw)
    p = load_platform(raw)
    return run(lambda: GpuPlatform("dra", p))


@pytest.fixture(scope="module")
def dra_platform() -> Any:
    return platform_run()


def test_the_platform_installs_the_driver_beside_the_device_plugin(dra_platform: Any) -> None:
    charts = sorted(r.inputs["chart"] for r in by_type(dra_platform, RELEASE))
    assert charts == sorted(["dcgm-exporter", CHART_NAME, "nvidia-device-plugin"])
    plugin = next(
        r for r in by_type(dra_platform, RELEASE) if r.inputs["chart"] == "nvidia-device-plugin"
    )
    # The device plugin gets configs for its own pools only.
    assert sorted(plugin.inputs["values"]["config"]["map"]) == ["a100mig", "plain-default", "t4"]
    pools = {
        r.inputs["agentPoolName"]: r.inputs.get("nodeLabels", {})
        for r in by_type(dra_platform, "azure-native:containerservice:AgentPool")
    }
    for name in ("h100dra", "a100dramig"):
        assert "nvidia.com/device-plugin.config" not in pools[name]
        assert pools[name]["nvidia.com/gpu.present"] == "true"
    assert pools["a100mig"]["nvidia.com/device-plugin.config"] == "a100mig"


def test_a_dra_pools_driver_check_claims_one_device(dra_platform: Any) -> None:
    (job,) = [
        r
        for r in by_type(dra_platform, "kubernetes:batch/v1:Job")
        if r.inputs["metadata"]["name"] == "gpu-driver-check-a100dramig"
    ]
    spec = job.inputs["spec"]["template"]["spec"]
    assert spec["resourceClaims"] == [
        {"name": "gpu", "resourceClaimTemplateName": "gpu-driver-check-a100dramig"}
    ]
    (container,) = spec["containers"]
    assert container["resources"]["claims"] == [{"name": "gpu"}]
    assert "nvidia.com/mig-1g.5gb" not in container["resources"]["limits"]
    (template,) = [
        r
        for r in by_type(dra_platform, "kubernetes:resource.k8s.io/v1:ResourceClaimTemplate")
        if r.inputs["metadata"]["name"] == "gpu-driver-check-a100dramig"
    ]
    assert template.urn in job.dependencies
    (request,) = template.inputs["spec"]["spec"]["devices"]["requests"]
    assert request["exactly"]["deviceClassName"] == "mig.nvidia.com"
