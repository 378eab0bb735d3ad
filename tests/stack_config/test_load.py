"""Stack config validation: every rule, with its message and its key path."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, get_args

import pulumi
import pytest

from gpu_platform.settings import FORMER_CLOUD_NAMES, ExistingClusterSettings
from gpu_platform.stack_config.load import ConfigError, load_platform
from tests.conftest import ROOT

BASE: dict[str, Any] = {
    "cloud": "aks",
    "cluster": {"name": "aks", "location": "westeurope", "resourceGroup": {"name": "rg"}},
    "gpuPools": [
        {"name": "mig", "vmSize": "Standard_ND96asr_v4", "count": 1, "mig": {"profile": "MIG1g"}},
        {"name": "t4", "vmSize": "Standard_NC4as_T4_v3", "autoscale": {"min": 0, "max": 3}},
    ],
    "workloads": [{"name": "gpu-training", "type": "training", "gpuQuota": 8}],
}


def problems(mutate: Any) -> list[tuple[str, str]]:
    raw = copy.deepcopy(BASE)
    mutate(raw)
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    return err.value.problems


def test_base_config_is_valid() -> None:
    platform = load_platform(copy.deepcopy(BASE))
    assert set(platform.pools) == {"mig", "t4"}
    assert platform.pools["mig"].mig_profile == "1g.5gb"
    assert platform.pools["mig"].capacity.per_node == {"nvidia.com/mig-1g.5gb": 56}


@pytest.mark.parametrize(
    ("mutate", "path", "fragment"),
    [
        (lambda r: r.update(bogus=1), "bogus", "unknown key"),
        (lambda r: r["cluster"].update(colour="red"), "cluster.colour", "unknown key"),
        (lambda r: r.update(cloud="gcp"), "cloud", "aks"),
        (
            lambda r: r["gpuPools"][1].update(count=2),
            "gpuPools[1]",
            "exactly one of count or autoscale",
        ),
        (
            lambda r: r["gpuPools"][0].update(autoscale={"min": 1, "max": 2}, count=None),
            "gpuPools[0].autoscale",
            "autoscaler",
        ),
        (lambda r: r["gpuPools"][0].update(osSku="AzureLinux"), "gpuPools[0].osSku", "Azure Linux"),
        (
            lambda r: r["gpuPools"][0].update(sharing={"mode": "mps", "replicas": 2}),
            "gpuPools[0].sharing.mode",
            "MPS cannot share MIG",
        ),
        (
            lambda r: r["gpuPools"][1].update(mig={"profile": "MIG1g"}),
            "gpuPools[1].mig.profile",
            "does not support MIG",
        ),
        (
            lambda r: r["gpuPools"][1].update(vmSize="Standard_D4s_v5"),
            "gpuPools[1].vmSize",
            "unknown GPU VM size",
        ),
        (lambda r: r["gpuPools"][1].update(name="mig"), "gpuPools", "duplicate name 'mig'"),
        (lambda r: r["gpuPools"][1].update(nvme=True), "gpuPools[1].nvme", "no local NVMe"),
        (
            lambda r: r["gpuPools"][1].update(sharing={"mode": "timeSlicing"}),
            "gpuPools[1].sharing.replicas",
            "required",
        ),
        (
            lambda r: r["gpuPools"][1].update(sharing={"mode": "cgpu"}),
            "gpuPools[1].sharing.mode",
            "ACK sharing mode",
        ),
        (lambda r: r["workloads"][0].update(gpuQuota=1.5), "workloads[0].gpuQuota", ""),
        (
            lambda r: r["workloads"][0].update(gpuQuota={"nvidia.com/gpu": 2.5}),
            "workloads[0].gpuQuota.nvidia.com/gpu",
            "",
        ),
        (
            lambda r: r["workloads"][0].update(pools=["nope"]),
            "workloads[0].pools[0]",
            "no GPU pool named 'nope'",
        ),
        (
            lambda r: r["workloads"][0].update(gpuQuota={"nvidia.com/mig-3g.20gb": 1}),
            "workloads[0].gpuQuota.nvidia.com/mig-3g.20gb",
            "no pool exposes",
        ),
        (
            lambda r: r.update(devicePlugin={"version": "0.14.1"}),
            "devicePlugin.version",
            "older than 0.15.0",
        ),
        (lambda r: r.update(gpuOperator={"enabled": True}), "gpuOperator.enabled", "both own GPUs"),
        (
            lambda r: r["cluster"].update(kubernetesVersion="1.29"),
            "cluster.kubernetesVersion",
            "1.30 or newer",
        ),
        (lambda r: r.update(cloud="ack"), "gpuPools[0].vmSize", "AKS only (cloud 'aks')"),
        # The AKS system pool's name.
        (lambda r: r["gpuPools"][1].update(name="system"), "gpuPools[1].name", "system pool"),
        # devicePlugin.values: the component's own checks, with their paths.
        (
            lambda r: r.update(devicePlugin={"values": {"config": "x"}}),
            "devicePlugin.values.config",
            "must be a mapping",
        ),
        (
            lambda r: r.update(devicePlugin={"values": {"config": {"default": "nope"}}}),
            "devicePlugin.values.config.default",
            "'nope' names no config",
        ),
        (
            lambda r: r.update(devicePlugin={"values": {"config": {"map": "cm"}}}),
            "devicePlugin.values.config.map",
            "must map config names",
        ),
        (
            lambda r: r.update(devicePlugin={"values": {"gfd": {"enabeld": True}}}),
            "devicePlugin.values.gfd.enabeld",
            "not a chart key",
        ),
        # Workload namespaces: Kubernetes' own, and the platform's.
        *(
            (
                lambda r, name=name: r["workloads"][0].update(name=name),
                "workloads[0].name",
                "Kubernetes system namespace",
            )
            for name in ("default", "kube-system", "kube-public", "kube-node-lease", "kube-x")
        ),
        *(
            (
                lambda r, name=name: r["workloads"][0].update(name=name),
                "workloads[0].name",
                f"the platform's own namespace ({key})",
            )
            for name, key in (
                ("nvidia-device-plugin", "devicePlugin.namespace"),
                ("gpu-operator", "gpuOperator.namespace"),
                ("gpu-readiness", "driverCheck.namespace"),
            )
        ),
        (
            lambda r: r.update(gpuOperator={"namespace": "kube-system"}),
            "gpuOperator.namespace",
            "Kubernetes system namespace",
        ),
        # GFD stays on with the device plugin (BP-14; the mandatory pack policy checks it).
        (lambda r: r.update(devicePlugin={"gfd": False}), "devicePlugin.gfd", "BP-14"),
        (
            lambda r: r.update(devicePlugin={"values": {"gfd": {"enabled": False}}}),
            "devicePlugin.values.gfd.enabled",
            "BP-14",
        ),
        # API server ranges are CIDRs (host bits allowed, as AKS accepts them).
        (
            lambda r: r["cluster"].update(apiServer={"authorizedIpRanges": ["10.0.0.0/8", "x"]}),
            "cluster.apiServer.authorizedIpRanges[1]",
            "not a CIDR",
        ),
        (
            lambda r: r["cluster"].update(apiServer={"authorizedIpRanges": ["10.0.0.1/33"]}),
            "cluster.apiServer.authorizedIpRanges[0]",
            "not a CIDR: '10.0.0.1/33'",
        ),
    ],
)
def test_each_rule_names_its_path(mutate: Any, path: str, fragment: str) -> None:
    found = problems(mutate)
    assert any(p == path and fragment in m for p, m in found), found


def test_one_error_lists_every_problem() -> None:
    def many(r: dict[str, Any]) -> None:
        r["bogus"] = True
        r["gpuPools"][0]["osSku"] = "AzureLinux"
        r["gpuPools"][1]["nvme"] = True
        r["gpuPools"].append({"name": "Bad!", "count": -1})
        r["devicePlugin"] = {"version": "0.9.0"}

    paths = {p for p, _ in problems(many)}
    assert {
        "bogus",
        "gpuPools[0].osSku",
        "gpuPools[1].nvme",
        "gpuPools[2].name",
        "gpuPools[2].count",
        "devicePlugin.version",
    } <= paths
    with pytest.raises(ConfigError) as err:
        load_platform({"cloud": "aks"})
    assert str(err.value).startswith("invalid stack config")


def test_unknown_choices_are_listed() -> None:
    found = problems(lambda r: r["gpuPools"][1].update(vmSize="Standard_NC4as_T4_v9"))
    message = dict(found)["gpuPools[1].vmSize"]
    assert "Standard_ND96asr_v4" in message and "Standard_NC4as_T4_v3" in message


def test_quota_beyond_the_cluster_is_a_warning() -> None:
    raw = copy.deepcopy(BASE)
    raw["workloads"][0]["gpuQuota"] = 1000
    platform = load_platform(raw)
    assert any("more than the cluster can ever offer" in w for w in platform.warnings)


# --- Accepted neighbours of the rules above --------------------------------------------------


@pytest.mark.parametrize(
    "mutate",
    [
        # A default naming one of our configs (a pool's), or one the user adds to the map.
        lambda r: r.update(devicePlugin={"values": {"config": {"default": "t4"}}}),
        lambda r: r.update(
            devicePlugin={
                "values": {"config": {"map": {"mine": "version: v1\n"}, "default": "mine"}}
            }
        ),
        # GFD may be off when the plugin is (the GPU Operator brings its own).
        lambda r: r.update(
            devicePlugin={"enabled": False, "gfd": False}, gpuOperator={"enabled": True}
        ),
        lambda r: r["cluster"].update(
            apiServer={"authorizedIpRanges": ["203.0.113.7", "198.51.100.9/24", "2001:db8::/32"]}
        ),
        lambda r: r["workloads"][0].update(name="kubeflow"),
        lambda r: r["gpuPools"][1].update(name="systemgpu"),
    ],
)
def test_neighbours_of_refused_values_are_accepted(mutate: Any) -> None:
    raw = copy.deepcopy(BASE)
    mutate(raw)
    load_platform(raw)


def test_existing_cluster_may_name_its_pool_system() -> None:
    raw = copy.deepcopy(BASE)
    raw.update(cloud="existing", cluster={"context": "lab"})
    raw["gpuPools"][1]["name"] = "system"  # no system pool of ours to collide with
    assert "system" in load_platform(raw).pools


def test_explicit_platform_namespace_is_blamed_not_the_workload() -> None:
    found = problems(lambda r: r.update(driverCheck={"namespace": "gpu-training"}))
    assert found == [
        ("driverCheck.namespace", "'gpu-training' is also a workload namespace (workloads[0])")
    ]


@pytest.mark.parametrize(
    ("stack", "changes", "blamed", "named"),
    [
        # The reported case: the plugin's namespace is the ACK MPS checks' namespace.
        (
            "ack-dev",
            {"devicePlugin": {"namespace": "gpu-readiness-mps"}},
            "devicePlugin.namespace",
            "driverCheck.namespace + '-mps'",
        ),
        # Readiness set explicitly: it is blamed, whichever of its namespaces collides.
        (
            "ack-dev",
            {"driverCheck": {"namespace": "nvidia-device-plugin"}},
            "driverCheck.namespace",
            "devicePlugin.namespace",
        ),
        (
            "ack-dev",
            {"driverCheck": {"namespace": "gpu"}, "devicePlugin": {"namespace": "gpu-mps"}},
            "driverCheck.namespace",
            "devicePlugin.namespace",
        ),
        # The GPU Operator's namespace when it replaces the plugin (Azure).
        (
            "dev",
            {
                "devicePlugin": {"enabled": False},
                "gpuOperator": {"enabled": True, "namespace": "gpu-readiness-mps"},
            },
            "gpuOperator.namespace",
            "driverCheck.namespace + '-mps'",
        ),
    ],
)
def test_platform_namespaces_in_use_are_distinct(
    stack: str, changes: dict[str, Any], blamed: str, named: str
) -> None:
    from tests.conftest import stack_raw

    raw = stack_raw(stack)
    raw.update(changes)
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    (problem,) = err.value.problems
    assert problem[0] == blamed
    assert named in problem[1] and "each needs its own namespace" in problem[1]


def test_unused_gpu_layer_namespace_may_match_another() -> None:
    # The operator is off: its namespace is never created, so it collides with nothing.
    raw = copy.deepcopy(BASE)
    raw["gpuOperator"] = {"namespace": "gpu-readiness-mps"}
    assert load_platform(raw).settings.gpu_operator.namespace == "gpu-readiness-mps"


def test_pool_workload_types_are_the_workloads_allowed_on_each_pool() -> None:
    raw = copy.deepcopy(BASE)
    raw["gpuPools"].append(
        {
            "name": "shared",
            "vmSize": "Standard_NC4as_T4_v3",
            "count": 1,
            "sharing": {"mode": "timeSlicing", "replicas": 2},
        }
    )
    raw["workloads"] += [
        {"name": "gpu-serve", "type": "inference", "gpuQuota": 1, "pools": ["t4", "shared"]},
        {"name": "gpu-lab", "type": "interactive", "gpuQuota": 1, "pools": ["shared"]},
    ]
    platform = load_platform(raw)
    assert dict(platform.pool_workload_types()) == {
        "mig": ["training"],  # unlisted workloads get every unshared pool
        "t4": ["inference", "training"],
        "shared": ["inference", "interactive"],
    }


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev"])
def test_pool_workload_types_agree_with_workload_pools(stack: str) -> None:
    from tests.conftest import stack_raw

    platform = load_platform(stack_raw(stack))
    expected = {
        name: sorted(
            {
                wl.type
                for wl in platform.settings.workloads
                if name in {pf.name for pf in platform.workload_pools(wl)}
            }
        )
        for name in platform.pools
    }
    assert dict(platform.pool_workload_types()) == expected


def test_device_plugin_values_problems_list_with_the_others() -> None:
    def many(r: dict[str, Any]) -> None:
        r["devicePlugin"] = {"values": {"config": {"default": "nope", "map": "cm"}, "x": 1}}
        r["gpuPools"][1]["osSku"] = "AzureLinux"  # an unrelated problem elsewhere

    paths = [p for p, _ in problems(many)]
    assert {
        "devicePlugin.values.x",
        "devicePlugin.values.config.map",
        "devicePlugin.values.config.default",
    } <= set(paths)


# --- The config rules and the NvidiaDevicePlugin component agree on devicePlugin.values ------


@pytest.mark.parametrize(
    "values",
    [
        {},
        {"config": "x"},
        {"config": None},
        {"config": {}},
        {"config": {"default": "nope"}},
        {"config": {"default": ["t4"]}},
        {"config": {"default": None}},
        {"config": {"default": "t4"}},
        {"config": {"default": "mig"}},
        {"config": {"map": "cm"}},
        {"config": {"map": {"mine": "version: v1\n"}, "default": "mine"}},
        {"config": {"map": {"mine": "version: v1\n"}}, "gfd": {"enabled": True}},
        {"toleration": []},
    ],
)
def test_config_rules_and_component_agree_on_values(values: dict[str, Any]) -> None:
    from gpu_platform.components.nvidia.device_plugin import DevicePluginValuesError, chart_values
    from gpu_platform.settings import DevicePluginSettings

    raw = copy.deepcopy(BASE)
    raw["devicePlugin"] = {"values": values}
    try:
        load_platform(raw)
        config_ok = True
    except ConfigError as err:
        assert all(p.startswith("devicePlugin.values") for p, _ in err.problems), err.problems
        config_ok = False
    pools = list(load_platform(copy.deepcopy(BASE)).pools.values())
    try:
        chart_values(DevicePluginSettings(values=values), pools)
        component_ok = True
    except DevicePluginValuesError:
        component_ok = False
    assert config_ok == component_ok


# --- cluster.kubeconfigPath (cloud existing) --------------------------------------------------


def existing(kubeconfig_path: str) -> dict[str, Any]:
    raw = copy.deepcopy(BASE)
    raw.update(cloud="existing", cluster={"kubeconfigPath": kubeconfig_path})
    return raw


def test_kubeconfig_path_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError) as err:
        load_platform(existing(str(missing)))
    assert err.value.problems == [
        ("cluster.kubeconfigPath", f"no kubeconfig file at {str(missing)!r}")
    ]


@pytest.mark.parametrize("kind", ["directory", "binary"])
def test_kubeconfig_path_that_cannot_be_read_is_refused(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "kubeconfig"
    if kind == "directory":
        target.mkdir()
    else:
        target.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ConfigError) as err:
        load_platform(existing(str(target)))
    assert [p for p, _ in err.value.problems] == ["cluster.kubeconfigPath"]


def test_readable_kubeconfig_path_is_accepted() -> None:
    kubeconfig = ROOT / "tests" / "data" / "kubeconfig.yaml"
    platform = load_platform(existing(str(kubeconfig)))
    assert platform.settings.cloud == "existing"
    assert isinstance(platform.settings.cluster, ExistingClusterSettings)
    assert platform.settings.cluster.kubeconfig_path == str(kubeconfig)


def test_existing_cluster_names_the_key_when_the_file_vanished(tmp_path: Path) -> None:
    from gpu_platform.components.existing.cluster import read_kubeconfig

    missing = str(tmp_path / "gone.yaml")
    # The config and the component check the file first; gone after that, the key is named.
    with pytest.raises(pulumi.RunError, match=r"cluster\.kubeconfigPath: cannot read .*gone\.yaml"):
        read_kubeconfig(missing)


# --- ACK -----------------------------------------------------------------------------------


def test_gpu_operator_is_refused_on_ack() -> None:
    from tests.conftest import stack_raw

    raw = stack_raw("ack-dev")
    raw["devicePlugin"] = {"enabled": False}
    raw["gpuOperator"] = {"enabled": True}
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    assert [(p, "driver" in m) for p, m in err.value.problems] == [("gpuOperator.enabled", True)]


def test_ack_gpu_pool_named_like_the_system_pool_is_refused() -> None:
    from tests.conftest import stack_raw

    raw = stack_raw("ack-dev")
    raw["gpuPools"][1]["name"] = "system"
    raw["workloads"] = [w for w in raw["workloads"] if w.get("pools") != ["t4"]]
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    assert ("gpuPools[1].name", "'system' is the name of the cluster's system pool") in (
        err.value.problems
    )


# --- GPU facts come from gpu_facts ---------------------------------------------------------


def test_config_choices_are_the_gpu_facts() -> None:
    from gpu_facts.aks.mig import AKS_MIG_PROFILES
    from gpu_facts.capacity import ACK_SHARING_MODES, DEVICE_PLUGIN_SHARING_MODES
    from gpu_platform.plan.ack.pools import ACK_MODES
    from gpu_platform.plan.gpu_pools import mig_problems
    from gpu_platform.plan.pools import PLUGIN_MODES
    from gpu_platform.settings import SharingSettings
    from tests.pools import gpu_pool

    # AKS's MIG names are AKS's pools' rule (plan.aks.pools), which lists them when refusing.
    message = dict(
        mig_problems(
            "aks",
            gpu_pool(
                {
                    "name": "p",
                    "count": 1,
                    "vmSize": "Standard_ND96asr_v4",
                    "mig": {"profile": "MIG5g"},
                }
            ),
        )
    )["mig.profile"]
    assert all(profile in message for profile in AKS_MIG_PROFILES)
    assert set(ACK_MODES.values()) == ACK_SHARING_MODES
    assert set(PLUGIN_MODES.values()) == DEVICE_PLUGIN_SHARING_MODES
    # Every sharing.mode a user can write means something on ACK and/or to the device plugin.
    modes = set(get_args(SharingSettings.model_fields["mode"].annotation))
    assert modes == set(ACK_MODES) | set(PLUGIN_MODES)


def test_the_old_readiness_key_is_read_as_driver_check_with_a_warning() -> None:
    raw = copy.deepcopy(BASE)
    raw["readiness"] = {"minDriverMajor": 550}
    platform = load_platform(raw)
    assert platform.settings.driver_check.min_driver_major == 550
    assert (
        "readiness: is the old name of driverCheck: (read as driverCheck; rename the key)"
        in platform.warnings
    )
    # Its problems name the key as written.
    found = problems(lambda r: r.update(readiness={"minDriverMajor": 3}))
    assert [path for path, _ in found] == ["readiness.minDriverMajor"]
    both = problems(lambda r: r.update(readiness={}, driverCheck={}))
    assert both == [("readiness", "the old name of driverCheck; give only driverCheck")]


@pytest.mark.parametrize(("former", "today"), sorted(FORMER_CLOUD_NAMES.items()))
def test_a_former_cloud_name_is_read_as_todays_with_a_warning(former: str, today: str) -> None:
    """0.1's ``cloud: azure`` and ``alicloud`` are read as ``aks`` and ``ack`` for one release."""
    from tests.conftest import stack_raw

    stack = {"aks": "dev", "ack": "ack-dev"}[today]
    raw = stack_raw(stack)
    raw["cloud"] = former
    platform = load_platform(raw)
    assert platform.settings == load_platform(stack_raw(stack)).settings
    assert (
        f"cloud: {former} is the old name of {today} (read as {today}; write cloud: {today})"
        in (platform.warnings)
    )
