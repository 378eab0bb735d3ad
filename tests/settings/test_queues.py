"""The queues section (settings.queues): ``{}`` is every documented default."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_facts import kueue
from gpu_platform.settings import PlatformSettings
from gpu_platform.settings.queues import QueuesSettings, QueueTypeSettings
from tests.conftest import stack_raw


def test_an_empty_section_takes_every_default() -> None:
    settings = QueuesSettings.model_validate({})
    assert (settings.version, settings.namespace) == (
        kueue.DEFAULT_VERSION,
        kueue.DEFAULT_NAMESPACE,
    )
    assert settings.cohort == "gpu-platform"
    assert settings.queueing_strategy == "BestEffortFIFO"
    assert settings.types == {}
    assert settings.pending_alert_minutes == 30
    assert settings.metrics_readers is None


def test_no_section_no_queues() -> None:
    raw = stack_raw("dev")
    assert PlatformSettings.model_validate(raw).queues is None
    assert PlatformSettings.model_validate({**raw, "queues": {}}).queues == QueuesSettings()


def test_type_defaults_reclaim_what_was_lent_and_never_preempt_to_borrow() -> None:
    policy = QueueTypeSettings()
    assert policy.borrow is None  # resolved per type: plan.queues.type_policy
    assert (policy.reclaim_within_cohort, policy.borrow_within_cohort) == ("Any", "Never")
    assert policy.within_cluster_queue == "LowerPriority"


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        ({"types": {"training": {"lendingLimitPercent": 101}}}, "lendingLimitPercent"),
        ({"types": {"training": {"borrowingLimitPercent": -1}}}, "borrowingLimitPercent"),
        ({"types": {"training": {"reclaimWithinCohort": "Always"}}}, "reclaimWithinCohort"),
        ({"queueingStrategy": "FIFO"}, "queueingStrategy"),
        ({"pendingAlertMinutes": 0}, "pendingAlertMinutes"),
        ({"metricsReaders": ["ama-metrics"]}, "metricsReaders"),
        ({"cohort": "Not A Label"}, "cohort"),
        ({"typo": 1}, "typo"),
    ],
)
def test_bad_values_are_refused_by_their_key(raw: dict[str, object], where: str) -> None:
    with pytest.raises(ValidationError) as err:
        QueuesSettings.model_validate(raw)
    assert where in str(err.value)


def test_a_metrics_reader_is_namespace_and_service_account() -> None:
    settings = QueuesSettings.model_validate({"metricsReaders": ["monitoring/prometheus-k8s"]})
    assert settings.metrics_readers == ["monitoring/prometheus-k8s"]
