"""gpu_facts.pod_templates: one row per pod-bearing kind, each with its paths and its source."""

from __future__ import annotations

import re

from gpu_facts.pod_templates import ANY, BUILTIN_GROUPS, POD_BEARING_KINDS, pod_bearing_kind


def test_one_row_per_group_and_kind() -> None:
    keys = [(k.group, k.kind) for k in POD_BEARING_KINDS]
    assert len(keys) == len(set(keys))
    operators = [k.label for k in POD_BEARING_KINDS if not k.builtin]
    assert len(operators) == len(set(operators))
    # Kubernetes' own kinds share a label across their groups' versions (extensions/v1beta1).
    assert {k.label for k in POD_BEARING_KINDS if k.group == "extensions"} <= {
        k.label for k in POD_BEARING_KINDS if k.group == "apps"
    }


def test_every_operator_row_names_its_source_at_a_tag() -> None:
    for kind in POD_BEARING_KINDS:
        assert kind.paths and kind.versions, kind.label
        if not kind.builtin:
            assert "." in kind.group, kind.label  # a CRD's group is a domain
            assert re.search(r"@v?\d|@knative-v", kind.source), kind.label


def test_only_cluster_wide_runtimes_and_templates_are_cluster_scoped() -> None:
    scoped = {k.kind for k in POD_BEARING_KINDS if k.cluster_scoped}
    assert scoped == {"ClusterTrainingRuntime", "ClusterServingRuntime", "ClusterWorkflowTemplate"}


def test_paths_read_as_the_notes_write_them() -> None:
    ray = pod_bearing_kind("ray.io", "RayService")
    assert ray is not None
    assert [str(p) for p in ray.paths] == [
        "spec.rayClusterConfig.headGroupSpec.template",
        "spec.rayClusterConfig.workerGroupSpecs[*].template",
    ]
    pytorch = pod_bearing_kind("kubeflow.org", "PyTorchJob")
    assert pytorch is not None and pytorch.paths[0].keys == (
        "spec",
        "pytorchReplicaSpecs",
        ANY,
        "template",
    )


def test_kinds_are_told_apart_by_their_group() -> None:
    volcano = pod_bearing_kind("batch.volcano.sh", "Job")
    batch = pod_bearing_kind("batch", "Job")
    assert volcano is not None and batch is not None
    assert (volcano.label, batch.label) == ("Job.batch.volcano.sh", "Job")
    assert batch.group in BUILTIN_GROUPS and volcano.group not in BUILTIN_GROUPS
    assert pod_bearing_kind("core", "Service") is None
