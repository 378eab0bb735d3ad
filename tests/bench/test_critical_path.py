"""The modelled `up` critical path (bench/critical_path.py) on small hand-made graphs."""

from __future__ import annotations

import pytest

from bench.critical_path import (
    CHECK_TYPE,
    DURATIONS,
    ESTIMATE,
    Chain,
    critical_path,
    duration,
    finish_times,
    plan_timing,
    unavoidable_chain,
)


def test_finish_times_take_the_latest_prerequisite() -> None:
    graph = {"cluster": [], "pool-a": ["cluster"], "pool-b": ["cluster"], "check": ["pool-a"]}
    cost = {"cluster": 8, "pool-a": 10, "pool-b": 12, "check": 3}
    assert finish_times(graph, cost) == {"cluster": 8, "pool-a": 18, "pool-b": 20, "check": 21}


def test_critical_path_is_the_longest_chain() -> None:
    graph = {"a": [], "b": ["a"], "c": ["a"], "d": ["b", "c"]}
    cost = {"a": 1, "b": 5, "c": 2, "d": 1}
    assert critical_path(graph, cost) == Chain(7, ("a", "b", "d"))
    assert critical_path({}, {}) == Chain(0.0, ())


def test_a_chart_waiting_for_every_pool_lengthens_the_path() -> None:
    # Before: the plugin waited for both pools, and the check for the plugin.
    cost = {"cluster": 8, "pool-a": 10, "pool-b": 10, "plugin": 2, "check-a": 3}
    before = {
        "cluster": [],
        "pool-a": ["cluster"],
        "pool-b": ["cluster"],
        "plugin": ["cluster", "pool-a", "pool-b"],
        "check-a": ["plugin", "pool-a"],
    }
    after = {**before, "plugin": ["cluster"]}
    checks = {"pool-a": ["check-a"], "pool-b": []}
    assert critical_path(before, cost).minutes == 23
    assert unavoidable_chain(before, cost, checks) == Chain(21, ("cluster", "pool-a", "check-a"))
    assert critical_path(after, cost) == unavoidable_chain(after, cost, checks)


def test_a_cycle_is_an_error() -> None:
    with pytest.raises(ValueError, match="cycle"):
        finish_times({"a": ["b"], "b": ["a"]}, {})


def test_edges_to_unknown_nodes_are_ignored() -> None:
    assert finish_times({"a": ["elsewhere"]}, {"a": 1}) == {"a": 1}


def test_durations_say_where_they_come_from() -> None:
    assert DURATIONS[CHECK_TYPE].minutes == 3
    for item in DURATIONS.values():
        assert item.source
    assert duration("gpu-platform:index:NvidiaDevicePlugin").minutes == 0
    assert duration("pulumi:providers:kubernetes").minutes == 0
    assert duration("kubernetes:core/v1:Namespace").source.startswith(ESTIMATE)
    assert duration("aws:ec2/vpc:Vpc").minutes > 0


def test_plan_timing_finds_pools_and_their_checks_in_a_plan() -> None:
    def res(urn: str, typ: str, parent: str | None = None, deps: tuple[str, ...] = ()) -> dict:
        return {"urn": urn, "type": typ, "name": urn, "parent": parent, "dependsOn": list(deps)}

    resources = [
        res("aks", "azure-native:containerservice:ManagedCluster"),
        res("gp", "gpu-platform:index:AksGpuNodePool"),
        res("pool", "azure-native:containerservice:AgentPool", "gp", ("aks",)),
        res("dc", "gpu-platform:index:DriverCheck"),
        res("ns", "kubernetes:core/v1:Namespace", "dc", ("aks",)),
        res("job", CHECK_TYPE, "dc", ("ns", "pool")),
        res("release", "kubernetes:helm.sh/v3:Release", None, ("aks",)),
    ]
    timing = plan_timing("t", resources)
    assert timing.unavoidable.path == ("aks", "pool", "job")
    assert timing.critical.minutes == timing.unavoidable.minutes == 21
    assert timing.at_floor
    assert timing.as_dict()["critical_path"][-1] == f"{CHECK_TYPE} job"
