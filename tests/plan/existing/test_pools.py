"""An existing cluster's GPU pool in its own terms (plan.existing.pools): the GPUs per node or a
machine type of any cloud's catalogue, MIG by NVIDIA's names."""

from __future__ import annotations

import pytest

from gpu_platform.plan.existing.pools import (
    GPU_OR_MACHINE,
    NODES_REQUIRED,
    existing_machine,
    existing_machine_problems,
    existing_mig,
    existing_mig_problems,
)
from gpu_platform.settings import ExistingGpuPoolSettings


def pool(**fields: object) -> ExistingGpuPoolSettings:
    return ExistingGpuPoolSettings.model_validate({"name": "p", "count": 2, **fields})


@pytest.mark.parametrize(
    ("fields", "model", "gpus"),
    [
        ({"gpu": {"model": "H100-80GB", "count": 8}}, "H100-80GB", 8),  # a DGX H100
        ({"machineType": "p5.48xlarge"}, "H100-80GB", 8),  # EKS
        ({"machineType": "a3-highgpu-8g"}, "H100-80GB", 8),  # GKE
        ({"machineType": "g2-standard-24"}, "L4", 2),  # GKE
        ({"machineType": "standard_nd96asr_v4"}, "A100-40GB", 8),  # AKS, in Azure's any case
        ({"machineType": "ecs.gn7i-c8g1.2xlarge"}, "A10", 1),  # ACK
    ],
)
def test_the_nodes_in_their_own_terms(fields: dict[str, object], model: str, gpus: int) -> None:
    p = pool(**fields)
    assert list(existing_machine_problems(p)) == []
    machine = existing_machine(p)
    assert (machine.gpu_model.name, machine.gpus_per_node) == (model, gpus)
    assert not machine.nvme_cache  # the cache is the AKS pools' we create


def test_exactly_one_way_to_say_what_the_nodes_are() -> None:
    assert list(existing_machine_problems(pool())) == [("gpu", NODES_REQUIRED)]
    both = pool(gpu={"model": "T4", "count": 1}, machineType="g4dn.xlarge")
    assert list(existing_machine_problems(both)) == [("", GPU_OR_MACHINE)]
    [(path, _)] = existing_machine_problems(pool(gpu={"model": "T5", "count": 1}))
    assert path == "gpu.model"


def test_mig_is_nvidias_name_of_a_profile_the_gpu_offers() -> None:
    dgx = pool(gpu={"model": "A100-80GB", "count": 8}, mig={"profile": "1g.10gb"})
    assert list(existing_mig_problems(dgx)) == []
    assert existing_mig(dgx, existing_machine(dgx).gpu_model) == "1g.10gb"
    aks_name = pool(gpu={"model": "A100-80GB", "count": 8}, mig={"profile": "MIG1g"})
    [(path, message)] = existing_mig_problems(aks_name)
    assert path == "mig.profile" and "has no MIG profile 'MIG1g'" in message
    l4 = pool(machineType="g2-standard-24", mig={"profile": "1g.10gb"})
    assert list(existing_mig_problems(l4)) == [("mig.profile", "L4 GPUs do not support MIG")]
