"""Per-type logging on the live cluster: AKS's agent, ACK's log config per namespace
(verify.log_collection)."""

from __future__ import annotations

from typing import Any, cast

from gpu_platform.plan.ack.observability import CONTAINER_LOGS as ACK_LOGS
from gpu_platform.plan.aks.observability import CONTAINER_LOGS as AKS_LOGS
from gpu_platform.verify.cluster import ClusterReader
from gpu_platform.verify.expectations import LogExpectation
from gpu_platform.verify.log_collection import log_rows


class _Reader:
    def __init__(self, sets: list[dict[str, Any]], configs: list[dict[str, Any]]) -> None:
        self.sets, self.configs = sets, configs

    def daemonsets(self, namespace: str) -> list[dict[str, Any]]:
        assert namespace == "kube-system"
        return self.sets

    def aliyun_log_configs(self, namespace: str) -> list[dict[str, Any]]:
        assert namespace == "kube-system"
        return self.configs


def _read(sets: list[dict[str, Any]], configs: list[dict[str, Any]]) -> ClusterReader:
    return cast(ClusterReader, _Reader(sets, configs))


def _agent(ready: int) -> dict[str, Any]:
    status = {"desiredNumberScheduled": 4, "numberReady": ready}
    return {"metadata": {"name": "ama-logs", "namespace": "kube-system"}, "status": status}


def _config(name: str, regex: str) -> dict[str, Any]:
    inputs = [{"type": "service_docker_stdout", "detail": {"K8sNamespaceRegex": regex}}]
    spec = {"logstore": name, "logtailConfig": {"inputDetail": {"plugin": {"inputs": inputs}}}}
    return {"metadata": {"name": name}, "spec": spec}


def test_aks_agent_ready_and_the_rules_namespaces_named() -> None:
    logs = LogExpectation(AKS_LOGS, ("gpu-training",))
    (row,) = log_rows(_read([_agent(4)], []), logs)
    assert (row.subject, row.status) == ("daemonset/kube-system/ama-logs", "pass")
    assert "its data collection rule collects gpu-training" in row.expected
    assert log_rows(_read([_agent(3)], []), logs)[0].status == "fail"
    assert log_rows(_read([], []), logs)[0].found.startswith("not found")
    assert log_rows(_read([], []), None) == []


def test_ack_one_log_config_per_namespace() -> None:
    logs = LogExpectation(ACK_LOGS, ("a", "b", "c"))
    rows = log_rows(_read([], [_config("a-stdout", "^a$"), _config("b-stdout", "^other$")]), logs)
    assert [(r.subject, r.status) for r in rows] == [
        ("namespace/a", "pass"),
        ("namespace/b", "fail"),
        ("namespace/c", "fail"),
    ]
    assert rows[2].found == "no AliyunLogConfig c-stdout in kube-system: its logs are not collected"
