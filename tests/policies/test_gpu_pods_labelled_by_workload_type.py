"""gpu-pods-labelled-by-workload-type: GPU pods in a workload namespace carry its type, on every
kind whose pod labels the program writes."""

from __future__ import annotations

import pytest

from .claim_fixtures import CLAIM_SHAPES, claim_workload
from .crd_fixtures import CLUSTER_SCOPED, GPU_FREE, Inexpressible
from .harness import Case, assert_case
from .pod_fixtures import KINDS, mutated, without_gpus
from .stack_fixtures import governed, many_namespaces_stack, namespace, walks_once

POLICY = "gpu-pods-labelled-by-workload-type"
NO_POD_LABELS = frozenset(
    {
        "TrainJob.trainer.kubeflow.org",
        "LLMInferenceService.serving.kserve.io",
        "LLMInferenceServiceConfig.serving.kserve.io",
    }
)
"""Kinds that write no pod labels (a TrainJob's pod is its runtime's; an LLMInferenceService's
pod specs have no metadata): the policy has nothing to judge there."""


def _every_kind() -> list[Case]:
    cases = []
    for kind in KINDS:
        if kind in GPU_FREE:  # asks for no GPU: not a GPU pod, whatever its labels
            res = mutated(kind, without_gpus, pod_labels={"workload": "inference"})
            cases.append(Case(POLICY, f"{kind}-no-gpu", (res, *governed("gpu-training"))))
            continue
        labelled = mutated(kind, lambda _: None)
        cases.append(Case(POLICY, f"{kind}-labelled", (labelled, *governed("gpu-training"))))
        other = mutated(kind, lambda _: None, pod_labels={"workload": "inference"})
        if kind in NO_POD_LABELS | CLUSTER_SCOPED:
            cases.append(Case(POLICY, f"{kind}-not-judged", (other, *governed("gpu-training"))))
            continue
        cases.append(
            Case(
                POLICY,
                f"{kind}-other-type",
                (other, *governed("gpu-training")),
                ("runs GPU pods in the 'gpu-training' namespace (workload: training)",),
            )
        )
    return cases


def _claim_pods() -> list[Case]:
    """Pods that get their GPU through a claim (DRA) are GPU pods too, in every claim shape."""
    cases = []
    for kind in KINDS:
        if kind in NO_POD_LABELS | CLUSTER_SCOPED:
            continue
        for shape in CLAIM_SHAPES:
            try:
                labelled = claim_workload(kind, shape)
                other = claim_workload(kind, shape, pod_labels={"workload": "inference"})
            except Inexpressible:
                continue
            context = governed("gpu-training")
            cases.append(Case(POLICY, f"{kind}-claim-{shape}-labelled", (*labelled, *context)))
            cases.append(
                Case(
                    POLICY,
                    f"{kind}-claim-{shape}-other-type",
                    (*other, *context),
                    ("runs GPU pods in the 'gpu-training' namespace (workload: training)",),
                )
            )
    return cases


CASES: list[Case] = [
    *_every_kind(),
    *_claim_pods(),
    Case(
        POLICY,
        "deployment-message",
        (
            mutated("Deployment", lambda _: None, pod_labels={"workload": "inference"}),
            *governed("gpu-training"),
        ),
        (
            "'trainer-deployment' runs GPU pods in the 'gpu-training' namespace (workload: "
            "training) without the label workload: training (its labels: app=trainer, "
            "workload=inference). Fix: Label the pod workload: training",
        ),
    ),
    # A namespace without a workload type, or not declared: nothing to compare with.
    Case(
        POLICY,
        "namespace-without-type",
        (
            mutated("Deployment", lambda _: None, pod_labels={"workload": "x"}),
            namespace("gpu-training", {"gpu-platform.io/gpu-workloads": "true"}),
        ),
    ),
    Case(
        POLICY,
        "undeclared-namespace",
        (mutated("Deployment", lambda _: None, pod_labels={"workload": "x"}),),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_walks_the_resources_once() -> None:
    walks_once(POLICY, many_namespaces_stack())
