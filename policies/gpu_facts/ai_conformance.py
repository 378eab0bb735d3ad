"""The CNCF Kubernetes AI Conformance requirements for Kubernetes 1.36 that concern
accelerators, and the ones that do not.

Sources: cncf/k8s-ai-conformance @b2c89690 ``docs/AIConformance-1.36.yaml`` (the newest list,
frozen at 1.36's release freeze; the same ids in kubernetes-sigs/ai-conformance @af907ca8
``conformance-versions/KubernetesAIConformance-1.36.yaml``) and its only automated test,
``TestSecureAcceleratorAccess`` (kubernetes-sigs/ai-conformance ``test/ai_conformance_test.go``:
a pod with a claim on ``gpu.nvidia.com`` must print ``RESULT: ACCELERATOR_FOUND``, one without
and the second container of a pod whose first has the claim ``RESULT: ACCELERATOR_MISSING``;
it fails unless ``resource.k8s.io/v1`` ResourceSlices exist). ``dra_support`` is not in the
1.36 list (core conformance covers DRA since 1.35).
"""

from __future__ import annotations

from dataclasses import dataclass

VERSION = "1.36"
OFFICIAL_TEST = "TestSecureAcceleratorAccess"


@dataclass(frozen=True, slots=True)
class Requirement:
    id: str
    level: str
    """``MUST`` or ``SHOULD``."""
    summary: str
    accelerators: bool
    """Whether it is about accelerators (the rest is the cluster's, outside make verify)."""


REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement(
        "driver_runtime_management",
        "SHOULD",
        "a verifiable check that accelerator drivers and runtime are installed right",
        True,
    ),
    Requirement(
        "gpu_sharing",
        "SHOULD",
        "a static sharing strategy (MIG as schedulable resources, or time-slicing)",
        True,
    ),
    Requirement(
        "virtualized_accelerator", "SHOULD", "vGPU devices exposed like fractional GPUs", True
    ),
    Requirement("ai_inference", "MUST", "a Gateway API implementation with weighted splits", False),
    Requirement("advanced_inference_ingress", "SHOULD", "a Gateway API Inference Extension", False),
    Requirement("high_performance_networking", "SHOULD", "multi-NIC networking, via DRA", False),
    Requirement("disaggregated_inference", "SHOULD", "a prefill/decode-split serving stack", False),
    Requirement("gang_scheduling", "MUST", "an all-or-nothing scheduler works (Kueue...)", True),
    Requirement(
        "cluster_autoscaling",
        "MUST",
        "an autoscaler scales accelerator node groups on pending accelerator pods",
        True,
    ),
    Requirement(
        "pod_autoscaling", "MUST", "HPA works for accelerator pods, custom metrics too", True
    ),
    Requirement(
        "accelerator_metrics",
        "MUST",
        "per-accelerator utilisation and memory on a standard endpoint",
        True,
    ),
    Requirement(
        "ai_service_metrics", "MUST", "workload metrics scraped (Prometheus format)", False
    ),
    Requirement(
        "secure_accelerator_access",
        "MUST",
        "accelerators only through the device plugin or DRA, isolated between workloads",
        True,
    ),
    Requirement("robust_controller", "MUST", "an AI operator with CRDs and webhooks works", False),
)
