"""The dra-dev stack with ``queues: {}``: DRA pools' devices queued through Kueue's
deviceClassMappings. The preview is clean; the DRA namespace's ClusterQueue quotas each DRA
pool's flavour under its DeviceClass's quota key, from ``gpuQuota``; Kueue's configuration maps
each class the pools publish to that key; a team's queued claim pod passes the pack, a
queue-less one does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpu_facts.dra import device_class_quota_key
from gpu_facts.kueue import QUEUE_NAME_LABEL
from gpu_platform.offline_preview import PreviewResult
from gpu_platform.offline_preview.cli import EXIT_OK, preview
from gpu_platform.offline_preview.engine import RecordedResource
from gpu_platform.offline_preview.policy_runner import run_policies
from gpu_policies.registry import policies
from tests.conftest import ROOT, by_type

pytestmark = pytest.mark.slow

STACK = "dra-queues"
CLUSTER_QUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue"
RELEASE = "kubernetes:helm.sh/v3:Release"
GPU_KEY = device_class_quota_key("gpu.nvidia.com")
MIG_KEY = device_class_quota_key("mig.nvidia.com")


@pytest.fixture(scope="module")
def dra_queues(tmp_path_factory: pytest.TempPathFactory) -> PreviewResult:
    """``Pulumi.dra-dev.yaml`` with ``queues: {}``, previewed as its own stack."""
    stack_file = yaml.safe_load((ROOT / "Pulumi.dra-dev.yaml").read_text())
    stack_file["config"]["gpu-platform:queues"] = {}
    path: Path = tmp_path_factory.mktemp("dra-queues") / f"Pulumi.{STACK}.yaml"
    path.write_text(yaml.safe_dump(stack_file))
    return preview(ROOT, stack=STACK, config_file=path)


def _cluster_queue(result: PreviewResult, name: str) -> dict[str, Any]:
    (found,) = [
        r.inputs["spec"]
        for r in by_type(result.run, CLUSTER_QUEUE)
        if r.inputs["metadata"]["name"] == name
    ]
    return found


def _quotas(spec: dict[str, Any]) -> dict[str, dict[str, int]]:
    return {
        flavor["name"]: {r["name"]: r["nominalQuota"] for r in flavor["resources"]}
        for group in spec["resourceGroups"]
        for flavor in group["flavors"]
    }


def test_previews_clean(dra_queues: PreviewResult) -> None:
    assert dra_queues.exit_code == EXIT_OK
    assert dra_queues.violations == []


def test_the_dra_namespaces_queue_quotas_its_devices_per_class(dra_queues: PreviewResult) -> None:
    """gpu-dra's gpuQuota (gpu.nvidia.com 2, mig.nvidia.com 28) on its two DRA pools' flavours;
    the other types' queues cover the devices at 0, so they cannot claim them."""
    dra = _quotas(_cluster_queue(dra_queues, "dra"))
    assert dra["h100dra"][GPU_KEY] == 2
    assert dra["a100dramig"][MIG_KEY] == 28
    assert dra["h100dra"].get(MIG_KEY, 0) == 0
    training = _quotas(_cluster_queue(dra_queues, "training"))
    assert set(training) == {"a100mig"}
    assert training["a100mig"].get(GPU_KEY, 0) == 0


def test_kueue_maps_each_published_class_to_its_quota_key(dra_queues: PreviewResult) -> None:
    (kueue,) = [r.inputs for r in by_type(dra_queues.run, RELEASE) if r.inputs["name"] == "kueue"]
    config = yaml.safe_load(kueue["values"]["managerConfig"]["controllerManagerConfigYaml"])
    assert config["resources"]["deviceClassMappings"] == [
        {"name": GPU_KEY, "deviceClassNames": ["gpu.nvidia.com"]},
        {"name": MIG_KEY, "deviceClassNames": ["mig.nvidia.com"]},
    ]


def _claim_job(queue: str | None) -> RecordedResource:
    """A team's Job in gpu-dra claiming one H100 through the namespace's template, labelled by
    its workload type, tolerating nothing itself."""
    labels = {QUEUE_NAME_LABEL: queue} if queue else {}
    props = {
        "metadata": {"name": "infer", "namespace": "gpu-dra", "labels": labels},
        "spec": {
            "template": {
                "metadata": {"labels": {"workload": "dra"}},
                "spec": {
                    "restartPolicy": "Never",
                    "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "gpu-h100"}],
                    "containers": [
                        {
                            "name": "infer",
                            "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                            "resources": {"claims": [{"name": "gpu"}]},
                        }
                    ],
                },
            }
        },
    }
    job = "kubernetes:batch/v1:Job"
    urn = f"urn:pulumi:{STACK}::team::{job}::infer"
    return RecordedResource(urn, job, "infer", True, None, props, outputs=props)


def test_a_queued_claim_pod_passes_and_a_queue_less_one_is_flagged(
    dra_queues: PreviewResult,
) -> None:
    """Queued to the dra ClusterQueue, the claim pod is admitted to the h100dra flavour (the one
    with quota of its class), which adds the GPU toleration; without a queue it bypasses the
    queue and tolerates nothing."""
    stack = list(dra_queues.run.resources)
    assert run_policies([*stack, _claim_job("dra")], policies()) == []
    bare = {v.policy for v in run_policies([*stack, _claim_job(None)], policies())}
    assert bare == {"gpu-workloads-name-a-queue", "gpu-workloads-tolerate-gpu-taint"}
