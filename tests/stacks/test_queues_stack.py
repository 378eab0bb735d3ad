"""The queues-dev stack (Kueue over an A100 pool training and inference share, and a time-sliced
T4 pool) through the offline preview: clean; each flavour selects and tolerates exactly what its
pool's nodes carry, as the pool component made them; Kueue on CPU nodes only; the queued
namespaces labelled and existing before their LocalQueues; a queued workload of a team passes
the pack, a queue-less one does not."""

from __future__ import annotations

import pytest

from gpu_facts.kueue import QUEUE_NAME_LABEL, QUEUE_NAMESPACE_LABEL
from gpu_platform.offline_preview import PreviewResult
from gpu_platform.offline_preview.cli import EXIT_OK
from gpu_platform.offline_preview.engine import RecordedResource
from gpu_platform.offline_preview.policy_runner import run_policies
from gpu_policies.registry import policies
from gpu_policy_support.node_placement import node_placement
from gpu_policy_support.tolerations import may_schedule, tolerates_taint
from tests.conftest import by_type, one, platform_of, stack_preview, stack_raw
from tests.stacks.test_amd_stack import gpu_pools

pytestmark = pytest.mark.slow

STACK = "queues-dev"
FLAVOR = "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor"
LOCAL_QUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue"
NAMESPACE = "kubernetes:core/v1:Namespace"
RELEASE = "kubernetes:helm.sh/v3:Release"


@pytest.fixture
def queues_dev() -> PreviewResult:
    return stack_preview(STACK)


def test_previews_clean(queues_dev: PreviewResult) -> None:
    assert queues_dev.exit_code == EXIT_OK
    assert queues_dev.violations == []
    # Every quota fits its pools: nothing was shared out.
    assert [w for w in platform_of(stack_raw(STACK)).warnings if "queues" in w] == []


def test_each_flavour_selects_and_tolerates_exactly_its_pools_nodes(
    queues_dev: PreviewResult,
) -> None:
    """The flavour's nodeLabels are the pool's nodes' (and no other pool's), its nodeTaints are
    the pool's taints, and its tolerations tolerate exactly those: read from the recorded
    AgentPools, as the pool component registered them."""
    every = gpu_pools(queues_dev)
    flavors = {
        r.inputs["metadata"]["name"]: r.inputs["spec"] for r in by_type(queues_dev.run, FLAVOR)
    }
    assert sorted(flavors) == ["a100", "t4"]
    for name, spec in flavors.items():
        pool = every[name]
        placement = node_placement({"nodeSelector": spec["nodeLabels"]})
        assert {n for n, p in every.items() if placement.admits(p.labels)} == {name}
        assert [(t["key"], t["value"], t["effect"]) for t in spec["nodeTaints"]] == [
            (t.key, t.value, t.effect) for t in pool.taints
        ]
        assert len(spec["tolerations"]) == len(pool.taints)
        for toleration, taint in zip(spec["tolerations"], pool.taints, strict=True):
            assert tolerates_taint(toleration, taint)
        assert may_schedule(spec["tolerations"], pool.taints)


def test_kueue_runs_on_cpu_nodes_only(queues_dev: PreviewResult) -> None:
    (kueue,) = [r.inputs for r in by_type(queues_dev.run, RELEASE) if r.inputs["name"] == "kueue"]
    tolerations = kueue["values"]["controllerManager"]["tolerations"]
    landing = {n for n, p in gpu_pools(queues_dev).items() if may_schedule(tolerations, p.taints)}
    assert landing == {"system", "general"}


def test_the_queued_namespaces_are_labelled_and_made_first(queues_dev: PreviewResult) -> None:
    run = queues_dev.run
    namespaces = {
        r.inputs["metadata"]["name"]: r
        for r in by_type(run, NAMESPACE)
        if r.inputs["metadata"]["name"] in ("gpu-training", "gpu-inference")
    }
    assert (
        namespaces["gpu-training"].inputs["metadata"]["labels"][QUEUE_NAMESPACE_LABEL] == "training"
    )
    assert (
        namespaces["gpu-inference"].inputs["metadata"]["labels"][QUEUE_NAMESPACE_LABEL]
        == "inference"
    )
    queues = one(run, "gpu-platform:index:GpuQueues")
    # Depending on the namespace components is depending on their children, the Namespaces.
    assert {r.urn for r in namespaces.values()} <= set(queues.dependencies)
    local = {r.inputs["metadata"]["namespace"] for r in by_type(run, LOCAL_QUEUE)}
    assert local == {"gpu-training", "gpu-inference"}


def _team_job(queue: str | None) -> RecordedResource:
    """A team's training Job on the stack: 4 A100s, no toleration of its own."""
    labels = {QUEUE_NAME_LABEL: queue} if queue else {}
    props = {
        "metadata": {"name": "finetune", "namespace": "gpu-training", "labels": labels},
        "spec": {
            "template": {
                "metadata": {"labels": {"workload": "training"}},
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [
                        {
                            "name": "train",
                            "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                            "resources": {"limits": {"nvidia.com/gpu": 4}},
                        }
                    ],
                },
            }
        },
    }
    job = "kubernetes:batch/v1:Job"
    urn = f"urn:pulumi:{STACK}::team::{job}::finetune"
    return RecordedResource(urn, job, "finetune", True, None, props, outputs=props)


def test_a_teams_queued_job_passes_and_a_queue_less_one_is_flagged(
    queues_dev: PreviewResult,
) -> None:
    """Queued, the job needs no toleration (its flavour adds it) and names its queue; without
    the queue name it is flagged twice: it bypasses the queue, and nothing tolerates the taint."""
    stack = list(queues_dev.run.resources)
    assert run_policies([*stack, _team_job("training")], policies()) == []
    bare = {v.policy for v in run_policies([*stack, _team_job(None)], policies())}
    assert bare == {"gpu-workloads-name-a-queue", "gpu-workloads-tolerate-gpu-taint"}
