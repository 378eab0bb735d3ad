"""Small team programs (``tests/policies/programs/<case>/``) through the offline preview's CLI,
each with its exact verdicts: the pack judged through its public interface, on the failure
classes of issue 13 (EKS and GKE pools, namespaces, the device plugin as a DaemonSet, moving
CUDA tags, MPS clients). The preview exits 0 or 1 on each, never 3.

In process (``main``), not a subprocess: the same code path as ``python -m offline_preview
--program DIR --format json``, without a second interpreter start per case.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_platform.offline_preview.cli import EXIT_MANDATORY, EXIT_OK, main

PROGRAMS = Path(__file__).resolve().parent / "programs"

Verdict = tuple[str, str, str]
"""(policy, enforcement, a fragment of its message)."""

EXPECTED: dict[str, tuple[int, list[Verdict]]] = {
    # The toleration (Equal "true") matches the pool's taint: no verdict on the workload. The
    # pool's value is not the chart's NFD value, which the team's pack config accepts below.
    "eks-pool-tainted-true": (
        EXIT_MANDATORY,
        [
            (
                "gpu-node-pools-tainted",
                "mandatory",
                "GPU node pool 'gpu' taints nvidia.com/gpu with value 'true', not 'present'",
            )
        ],
    ),
    # GKE taints GPU nodes and tolerates GPU pods itself: nothing to report on the pod. Its
    # pool's GPUs are watched by nothing: no exporter, and no cluster with managed DCGM.
    "gke-pool-untolerated-pod": (
        EXIT_OK,
        [
            (
                "gpu-pools-have-metrics-exporter",
                "advisory",
                "GPU node pool 'l4' (g2-standard-8) has no GPU metrics exporter: the stack runs "
                "no dcgm-exporter",
            )
        ],
    ),
    "unlabelled-gpu-namespace": (
        EXIT_MANDATORY,
        [
            (
                "gpu-namespaces-deny-all-network-policy",
                "mandatory",
                "'team-a' has no deny-all NetworkPolicy",
            ),
            ("gpu-namespaces-have-gpu-quota", "advisory", "'team-a' has no ResourceQuota"),
            (
                "gpu-namespaces-declared",
                "advisory",
                "Namespace 'team-b' runs GPU workloads ('evaluate') but the program does not "
                "declare it",
            ),
        ],
    ),
    "raw-device-plugin-daemonset": (
        EXIT_MANDATORY,
        [
            ("device-plugin-release-current-with-gfd", "mandatory", "older than v0.15.0"),
            (
                "device-plugin-release-current-with-gfd",
                "mandatory",
                "runs without GPU Feature Discovery",
            ),
            (
                "device-plugin-release-current-with-gfd",
                "mandatory",
                "runs in the shared namespace 'kube-system'",
            ),
            ("single-device-plugin-owner", "mandatory", "The device plugin has 2 owners"),
        ],
    ),
    "cuda-moving-tag": (
        EXIT_OK,
        [("cuda-images-pinned", "advisory", "its tag 'server-cuda' moves")],
    ),
    "mps-pod-without-hostipc": (
        EXIT_MANDATORY,
        [
            (
                "host-ipc-only-for-gpu-mem-pods",
                "mandatory",
                "'vector-add' asks for aliyun.com/gpu-mem without hostIPC: true",
            )
        ],
    ),
}


def preview_json(
    program: str, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, list[dict[str, str]]]:
    code = main(["--program", str(PROGRAMS / program), "--format", "json", *extra])
    violations: list[dict[str, str]] = json.loads(capsys.readouterr().out)["violations"]
    return code, violations


def test_every_program_has_its_expected_verdicts() -> None:
    assert {p.name for p in PROGRAMS.iterdir() if (p / "Pulumi.yaml").exists()} == set(EXPECTED)


@pytest.mark.parametrize("program", sorted(EXPECTED))
def test_program_verdicts(program: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, violations = preview_json(program, capsys)
    exit_code, expected = EXPECTED[program]
    assert code == exit_code
    assert len(violations) == len(expected), violations
    for (policy, enforcement, fragment), found in zip(expected, violations, strict=True):
        assert (found["policy"], found["enforcement"]) == (policy, enforcement)
        assert fragment in found["message"], found["message"]
        assert " Fix: " in found["message"]


def test_the_teams_taint_value_in_the_pack_config_clears_the_eks_program(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``requiredTaintValue`` is one setting, given to both taint policies."""
    config = PROGRAMS / "eks-pool-tainted-true" / "policy-config.json"
    code, violations = preview_json("eks-pool-tainted-true", capsys, "--policy-config", str(config))
    assert (code, violations) == (EXIT_OK, [])
