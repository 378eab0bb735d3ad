"""The probe pods of ``--active`` (verify.active): what each asks for and runs, and how a
probe's output is judged. The runs themselves: tests/stacks/test_verify_active.py."""

from __future__ import annotations

from gpu_facts.vendors import AMD, NVIDIA
from gpu_platform.verify.active import (
    FOUND,
    MISSING,
    ProbePool,
    claim_template,
    probe_pods,
    probe_script,
)


def test_three_probes_pinned_to_the_pool() -> None:
    pool = ProbePool("a100", NVIDIA, "nvidia.com/mig-1g.5gb", "cuda@sha256:x")
    pods = probe_pods(pool, "gpu-platform-verify-abc")
    assert [p["metadata"]["name"] for p in pods] == ["a100-gpu", "a100-no-gpu", "a100-one-of-two"]
    for pod in pods:
        spec = pod["spec"]
        assert spec["nodeSelector"] == {"gpu-platform.io/pool": "a100"}
        assert spec["tolerations"] == [
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
        ]
        assert spec["restartPolicy"] == "Never" and spec["automountServiceAccountToken"] is False
    gpu, none, two = (p["spec"]["containers"] for p in pods)
    assert gpu[0]["resources"] == {"limits": {"nvidia.com/mig-1g.5gb": "1"}}
    assert "resources" not in none[0]
    assert [("resources" in c) for c in two] == [True, False]
    assert gpu[0]["command"][-1].endswith("; nvidia-smi -L")


def test_what_a_probe_runs() -> None:
    nvidia = probe_script(NVIDIA, tool=False)
    assert nvidia == (
        f'if ls /dev/nvidia[0-9]* >/dev/null 2>&1; then echo "{FOUND}"; else echo "{MISSING}"; fi'
    )
    assert probe_script(AMD, tool=True).endswith("; amd-smi list")
    assert "/dev/dri/renderD*" in probe_script(AMD, tool=False)


def test_a_dra_pool_asks_through_the_official_tests_claim() -> None:
    pool = ProbePool("h100", NVIDIA, "nvidia.com/gpu", "cuda@sha256:x", "gpu.nvidia.com")
    template = claim_template(pool, "ns")
    assert template["apiVersion"] == "resource.k8s.io/v1"
    assert template["spec"]["spec"]["devices"]["requests"] == [
        {"name": "single-accelerator", "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 1}}
    ]
    gpu, none, two = probe_pods(pool, "ns")
    claims = [{"name": "gpu", "resourceClaimTemplateName": "h100-accelerator-claim-template"}]
    assert gpu["spec"]["resourceClaims"] == claims and two["spec"]["resourceClaims"] == claims
    assert "resourceClaims" not in none["spec"]
    assert gpu["spec"]["containers"][0]["resources"] == {"claims": [{"name": "gpu"}]}
    assert "resources" not in two["spec"]["containers"][1]
    assert pool.variant.startswith("DRA claim variant") and pool.variant.endswith(
        "(gpu.nvidia.com)"
    )
