"""Fields of Kubernetes objects read without tracebacks (readiness.objects)."""

from __future__ import annotations

from gpu_platform.verify.objects import count, entries, labels_of, mapping, name_of, text


def test_missing_null_or_mistyped_fields_read_as_empty() -> None:
    node = {"metadata": {"name": "n", "labels": None}, "spec": {"taints": "odd"}, "status": None}
    assert mapping(node, "status", "allocatable") == {}
    assert entries(node, "spec", "taints") == []
    assert text(node, "metadata", "name") == "n" and text(node, "status", "phase") == ""
    assert labels_of(node) == {}
    assert name_of({}) == "?"


def test_values_that_are_there() -> None:
    pod = {
        "metadata": {"labels": {"app": "x", "n": 1}},
        "spec": {"containers": [{"name": "a"}, "junk"]},
        "status": {"restartCount": 3, "ready": True},
    }
    assert entries(pod, "spec", "containers") == [{"name": "a"}]
    assert count(pod, "status", "restartCount") == 3
    assert count(pod, "status", "ready") is None  # a bool is no count
    assert labels_of(pod) == {"app": "x", "n": "1"}
