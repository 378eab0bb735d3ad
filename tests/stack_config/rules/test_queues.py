"""The queues section's rules (stack_config.rules.queues) ask plan.queues.queue_problems and put
its paths under ``queues``; Kueue's namespace is one of the platform's own."""

from __future__ import annotations

from typing import Any

from gpu_platform.plan.queues import queue_problems
from gpu_platform.stack_config.rules.queues import queues
from tests.stack_config.rules.subjects import problems, subject


def _queues(**fields: Any) -> Any:
    def change(raw: dict[str, Any]) -> None:
        raw["queues"] = fields

    return change


def test_the_queues_dev_stack_passes() -> None:
    assert list(queues(subject("queues-dev"))) == []


def test_a_stack_without_queues_has_nothing_to_check() -> None:
    assert list(queues(subject("dev"))) == []


def test_the_plan_rules_message_under_queues() -> None:
    cfg = subject("queues-dev", _queues(version="0.18.6", types={"research": {}}))
    assert cfg.settings.queues is not None
    expected = queue_problems(cfg.settings.queues, cfg.sound_pools.values(), cfg.settings.workloads)
    assert list(queues(cfg)) == [(f"queues.{path}", message) for path, message in expected]
    assert [path for path, _ in queues(cfg)] == ["queues.version", "queues.types.research"]


def test_the_whole_config_names_the_bad_queue_keys() -> None:
    found = problems("queues-dev", _queues(types={"research": {"borrow": "yes"}}))
    assert [path for path, _ in found] == ["queues.types.research.borrow"]


def test_kueues_namespace_may_not_be_a_workload_or_another_platform_namespace() -> None:
    found = problems("queues-dev", _queues(namespace="gpu-metrics"))
    assert any(
        "queues.namespace" in path and "gpu-metrics" in message for path, message in found
    ), found
    found = problems("queues-dev", _queues(namespace="gpu-training"))
    assert any("gpu-training" in message for _, message in found), found
