"""Each mistake reported once: what a rule read decides whether its problem follows from
another (stack_config/rules/follow_on.py), on the views and on whole stacks."""

from __future__ import annotations

import copy
from typing import Any, cast

import pytest

from gpu_platform.settings import AksClusterSettings, GpuPoolSettings, PlatformSettings
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_platform.stack_config.rules.follow_on import (
    Found,
    ReadLog,
    Recorded,
    RecordedMapping,
    UnsoundPart,
    related,
    run_recorded,
    without_consequences,
)
from tests.pools import gpu_pool
from tests.robustness.stack_mutations import raw_config

POOL = gpu_pool({"name": "t4", "vmSize": "Standard_NC4as_T4_v3", "count": 1, "labels": {"a": "b"}})


def test_a_recorded_model_logs_each_field_read_by_its_key_path() -> None:
    log = ReadLog()
    pool = cast(GpuPoolSettings, Recorded(POOL, "gpuPools[2]", log))
    assert isinstance(pool, GpuPoolSettings)
    assert (pool.vm_size, pool.labels) == ("Standard_NC4as_T4_v3", {"a": "b"})
    assert pool.upgrade.max_surge == "1"  # through a model to its field: only the field
    assert pool.mig is None
    assert log.keys == {
        "gpuPools[2].vmSize",
        "gpuPools[2].labels",
        "gpuPools[2].upgrade.maxSurge",
        "gpuPools[2].mig",
    }


def test_a_refused_part_cannot_be_read() -> None:
    settings = PlatformSettings.model_construct(cloud="aks", gpu_pools=[POOL])  # type: ignore[call-arg]
    log = ReadLog()
    view = cast(
        PlatformSettings,
        Recorded(settings, "", log, {"cluster"}, {"gpu_pools": (["gpuPools[1]"], ["gpuPools[0]"])}),
    )
    with pytest.raises(UnsoundPart, match="cluster failed validation"):
        isinstance(view.cluster, AksClusterSettings)
    (pool,) = view.gpu_pools
    assert pool.name == "t4"
    assert log.keys == {"gpuPools[1].name"}
    assert log.missing == {"gpuPools[0]"}  # the list read misses the pool the schema refused


def test_a_pool_mapping_reads_its_missing_pools_unless_a_name_it_has_is_looked_up() -> None:
    log = ReadLog()
    pools = RecordedMapping({"t4": 1}, ["gpuPools[1]", "cluster.clusterSpec"], log)
    assert "t4" in pools and pools["t4"] == 1
    assert log.missing == set()
    assert "a100" not in pools
    assert log.missing == {"gpuPools[1]", "cluster.clusterSpec"}
    log.clear()
    assert list(pools) == ["t4"]
    assert log.missing == {"gpuPools[1]", "cluster.clusterSpec"}


def test_a_rule_that_reads_a_refused_part_keeps_what_it_found_before() -> None:
    def rule() -> Any:
        yield ("a", "first")
        raise UnsoundPart("cluster")

    found, complete = run_recorded(rule, ReadLog(), 0)
    assert ([f.problem for f in found], complete) == ([("a", "first")], False)


def test_a_problem_keeps_the_reads_of_its_own_list_item_only() -> None:
    log = ReadLog()

    def rule() -> Any:
        log.read("cpuPools[0].vmSize", "cluster.location")
        log.read("cpuPools[1].vmSize")
        yield ("cpuPools[1].osDiskType", "too big")

    (found,), _ = run_recorded(rule, log, 0)
    assert found.reads == {"cluster.location", "cpuPools[1].vmSize"}


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("gpuPools[1]", "gpuPools[1].name", True),
        ("gpuPools[1]", "gpuPools[10]", False),
        ("cluster", "cluster.name", True),
        ("cluster.name", "cluster.names", False),
        ("a.b", "a.b", True),
    ],
)
def test_related_key_paths(a: str, b: str, expected: bool) -> None:
    assert related(a, b) is related(b, a) is expected


def test_consequences_are_left_out() -> None:
    spec = Found(
        ("cluster.clusterSpec", "must be ack.standard or ack.pro.<size>"),
        frozenset({"cluster.clusterSpec"}),
        rule=1,
    )
    pro = Found(
        ("cluster.clusterSpec", "needs ACK Pro"),
        frozenset({"cloud", "gpuPools[0].sharing.mode", "cluster.clusterSpec"}),
        rule=0,
    )
    quota = Found(
        ("workloads[0].gpuQuota.x", "no pool exposes x"), missing=frozenset({"gpuPools[0]"}), rule=2
    )
    vpc = Found(
        ("cluster.vpc", "give node vSwitches"),
        frozenset({"cluster.clusterSpec", "cluster.vpc.cidr"}),
        rule=1,
    )
    pods = Found(
        ("cluster.vpc", "Terway needs pod vSwitches"),
        frozenset({"cluster.clusterSpec", "cluster.vpc.cidr", "cluster.vpc.podVswitches"}),
        rule=1,
    )
    assert without_consequences([pro, spec, quota, vpc, pods, spec]) == [
        spec.problem,
        vpc.problem,
        pods.problem,
    ]


def load(raw: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    return err.value.problems


def test_a_pool_named_t4_is_one_problem_not_three() -> None:
    raw = raw_config("dev")
    raw["gpuPools"][1]["name"] = "T4"
    # Not also "no GPU pool named 't4'" nor "no pool exposes nvidia.com/gpu.shared".
    assert [path for path, _ in load(raw)] == ["gpuPools[1].name"]


def test_an_invalid_value_in_prod_exits_like_dev_every_problem_once() -> None:
    for stack in ("dev", "prod"):
        raw = raw_config(stack)
        raw["cluster"]["systemPool"]["osDiskType"] = "ephemeral"
        assert load(raw) == [
            ("cluster.systemPool.osDiskType", "Input should be 'Ephemeral' or 'Managed'")
        ]


def test_an_invalid_ack_edition_is_not_also_not_ack_pro_nor_a_quota_no_pool_offers() -> None:
    raw = raw_config("ack-dev")
    raw["cluster"]["clusterSpec"] = "ack.pro"
    assert load(raw) == [
        ("cluster.clusterSpec", "must be ack.standard or ack.pro.<size> (e.g. ack.pro.small)")
    ]


def test_an_invalid_cloud_is_not_also_an_invalid_cluster() -> None:
    raw = raw_config("prod")
    raw["cloud"] = "gcp"
    assert load(raw) == [("cloud", "Input should be 'aks', 'ack' or 'existing'")]


def test_problems_of_different_keys_are_all_reported() -> None:
    raw = raw_config("ack-dev")
    raw["cluster"].update(clusterSpec="ack.standard", serviceCidr="10.0.0.0/20")
    raw["ackGpuSharing"].pop("mpsControlVersion")
    raw["workloads"][0]["name"] = "kube-ml"
    keys = [path for path, _ in load(raw)]
    assert keys == [
        "cluster.clusterSpec",
        "cluster.serviceCidr",
        "ackGpuSharing.mpsControlVersion",
        "workloads[0].name",
    ]


def test_a_valid_config_is_checked_without_recording(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_recording(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("recorded a valid config")

    monkeypatch.setattr(Recorded, "__init__", no_recording)
    assert load_platform(copy.deepcopy(raw_config("prod"))).settings.cloud == "aks"
