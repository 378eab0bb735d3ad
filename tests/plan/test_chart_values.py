"""Where our GPU DaemonSets land and how user values merge over ours (plan.chart_values)."""

from __future__ import annotations

from gpu_platform.plan.chart_values import gpu_node_affinity, gpu_tolerations, merge_values


def test_affinity_requires_the_plugins_labels_or_names_pools() -> None:
    terms = gpu_node_affinity()["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][
        "nodeSelectorTerms"
    ]
    assert [e["key"] for e in terms[0]["matchExpressions"]] == [
        "nvidia.com/gpu.present",
        "nvidia.com/device-plugin.config",
    ]
    named = gpu_node_affinity(["b", "a"])["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"
    ]["nodeSelectorTerms"]
    assert named[1] == {
        "matchExpressions": [
            {"key": "gpu-platform.io/pool", "operator": "In", "values": ["a", "b"]}
        ]
    }


def test_tolerations_are_the_gpu_taint_only() -> None:
    assert gpu_tolerations() == [
        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    ]


def test_merge_is_helms() -> None:
    ours = {"a": {"b": 1, "c": [1]}, "d": 1}
    merged = merge_values(ours, {"a": {"c": [2], "e": 3}, "d": {"x": 1}})
    assert merged == {"a": {"b": 1, "c": [2], "e": 3}, "d": {"x": 1}}
    assert ours == {"a": {"b": 1, "c": [1]}, "d": 1}  # ours untouched
