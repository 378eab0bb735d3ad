"""An ACK GPU pool's own rules and machine (plan.ack.pools)."""

from __future__ import annotations

from gpu_platform.plan.ack.pools import (
    ACK_MODES,
    NO_MIG_ON_ACK,
    ack_machine,
    ack_machine_problems,
    ack_mig_problems,
    ack_sharing,
)
from gpu_platform.settings import AckGpuPoolSettings

A10 = {"name": "a", "count": 1, "instanceType": "ecs.gn7i-c8g1.2xlarge"}


def test_the_machine_is_the_ecs_type_of_the_catalogue() -> None:
    machine = ack_machine(AckGpuPoolSettings.model_validate(A10))
    assert (machine.gpu_model.name, machine.gpus_per_node, machine.nvme_cache) == ("A10", 1, False)
    bad = AckGpuPoolSettings.model_validate({**A10, "instanceType": "ecs.g7.xlarge"})
    [(path, message)] = ack_machine_problems(bad)
    assert path == "instanceType" and message.endswith("(a GPU pool needs a type with GPUs)")


def test_no_mig_and_acks_own_sharing_modes() -> None:
    mig = AckGpuPoolSettings.model_validate({**A10, "mig": {"profile": "MIG1g"}})
    assert list(ack_mig_problems(mig)) == [("mig", NO_MIG_ON_ACK)]
    assert {mode: ack_sharing(mode) for mode in ACK_MODES} == {
        "mps": "ackMps",
        "cgpu": "ackCgpu",
        "share": "ackShare",
    }
    assert ack_sharing("timeSlicing") == "timeSlicing"
