"""Stack config validation: every rule, with its message and its key path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from stack_config import ConfigError, load_platform

BASE: dict[str, Any] = {
    "cloud": "azure",
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
        (lambda r: r.update(cloud="gcp"), "cloud", "azure"),
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
        (lambda r: r.update(cloud="alicloud"), "gpuPools[0].vmSize", "use instanceType"),
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
        load_platform({"cloud": "azure"})
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
