"""What make verify reads from the cluster, each list once (readiness.snapshot)."""

from __future__ import annotations

from typing import cast

from gpu_platform.verify.cluster import ClusterReader
from gpu_platform.verify.snapshot import read_snapshot
from tests.readiness.recorded import RecordedReader, recorded_expectations


def test_one_read_per_list_and_only_the_namespaces_it_needs() -> None:
    exp = recorded_expectations()
    reader = RecordedReader()
    steps: list[str] = []
    snap = read_snapshot(cast(ClusterReader, reader), exp, steps.append)
    assert len(reader.calls) == len(set(reader.calls)), "a list read twice"
    assert len(steps) <= len(reader.calls)
    # Nodes per pool, by the pool label.
    assert {name: len(nodes) for name, nodes in snap.pool_nodes.items()} == {"a100": 2, "t4": 1}
    # The plugin's DaemonSets serve both pools; pods are read where those DaemonSets live.
    assert all(snap.pool_daemons[pool.name] for pool in exp.pools)
    assert "pods kube-system" not in reader.calls
    assert set(snap.namespaces) == {ns.name for ns in exp.namespaces}
    assert all(snap.namespaces.values())


def test_a_missing_namespace_is_not_read_further() -> None:
    exp = recorded_expectations()
    reader = RecordedReader()
    reader.kinds["namespaces"] = [
        n for n in reader.kinds["namespaces"] if n["metadata"]["name"] != "gpu-training"
    ]
    snap = read_snapshot(cast(ClusterReader, reader), exp, lambda step: None)
    assert snap.namespaces["gpu-training"] is None
    assert "networkpolicies gpu-training" not in reader.calls
    assert "gpu-training" not in snap.quotas
