"""Per-type logging on the live cluster: the container logs of each workload namespace are
collected (the AKS guide's per-workload-type logging, BP-07).

- AKS: Container Insights' agent, the ``ama-logs`` DaemonSet in ``kube-system``, ready on every
  node (Microsoft Learn, "Troubleshoot Container insights": ``kubectl get ds ama-logs
  --namespace=kube-system``). Which namespaces it collects is its data collection rule's
  ``namespaceFilteringMode`` and ``namespaces``: an Azure resource, not a Kubernetes object, so
  the row names them and the command that shows the rule.
- ACK: one ``AliyunLogConfig`` per namespace in ``kube-system`` (``logtail-ds`` reads them), named
  after the namespace's logstore, whose stdout input selects exactly that namespace.
"""

from __future__ import annotations

from gpu_facts.ack.addons import LOG_CONFIG_NAMESPACE
from gpu_platform.plan.ack.observability import CONTAINER_LOGS as ACK_LOGS
from gpu_platform.plan.aks.observability import CONTAINER_LOGS as AKS_LOGS
from gpu_platform.plan.observability import logstore_name

from .checks import daemonset_status
from .cluster import ClusterReader, Obj
from .expectations import LogExpectation
from .objects import entries, mapping, name_of, text
from .results import CheckResult, outcome

CHECK = "log-collection"
AKS_AGENT, AKS_AGENT_NAMESPACE = "ama-logs", "kube-system"
"""Container Insights' log agent DaemonSet (Microsoft Learn, above)."""


def _aks(reader: ClusterReader, logs: LogExpectation) -> list[CheckResult]:
    sets = [ds for ds in reader.daemonsets(AKS_AGENT_NAMESPACE) if name_of(ds) == AKS_AGENT]
    subject = f"daemonset/{AKS_AGENT_NAMESPACE}/{AKS_AGENT}"
    listed = ", ".join(logs.namespaces) or "every namespace"
    rule = (
        f"its data collection rule collects {listed} (an Azure resource: az monitor "
        "data-collection rule show, namespaceFilteringMode and namespaces)"
    )
    if not sets:
        found = (
            "not found: Container Insights' agent is not installed (the cluster's monitoring "
            "add-on)"
        )
        return [outcome(CHECK, subject, f"Container Insights' agent ready; {rule}", found, False)]
    row = daemonset_status("Container Insights' agent", sets[0])
    return [outcome(CHECK, subject, f"{row.expected}; {rule}", row.found, row.status == "pass")]


def _selects(config: Obj, namespace: str) -> bool:
    """The config's stdout input selects exactly ``namespace``."""
    plugin = mapping(config, "spec", "logtailConfig", "inputDetail", "plugin")
    return any(
        text(source, "detail", "K8sNamespaceRegex") == f"^{namespace}$"
        for source in entries(plugin, "inputs")
    )


def _ack(reader: ClusterReader, logs: LogExpectation) -> list[CheckResult]:
    configs = {name_of(c): c for c in reader.aliyun_log_configs(LOG_CONFIG_NAMESPACE)}
    rows = []
    for namespace in logs.namespaces:
        name = logstore_name(namespace)
        subject = f"namespace/{namespace}"
        expected = (
            f"AliyunLogConfig {LOG_CONFIG_NAMESPACE}/{name} collecting its containers' stdout "
            "and stderr"
        )
        config = configs.get(name)
        if config is None:
            found = (
                f"no AliyunLogConfig {name} in {LOG_CONFIG_NAMESPACE}: its logs are not collected"
            )
            rows.append(outcome(CHECK, subject, expected, found, False))
        elif not _selects(config, namespace):
            found = f"{name} does not select the namespace (K8sNamespaceRegex ^{namespace}$)"
            rows.append(outcome(CHECK, subject, expected, found, False))
        else:
            logstore = text(config, "spec", "logstore") or name
            rows.append(outcome(CHECK, subject, expected, f"{name} into logstore {logstore}", True))
    return rows


_ROWS = {AKS_LOGS.collector: _aks, ACK_LOGS.collector: _ack}
"""The rows of each cloud's log pipeline (``plan.clouds.CloudPlan.container_logs``)."""


def log_rows(reader: ClusterReader, logs: LogExpectation | None) -> list[CheckResult]:
    """The log-collection rows; none when the stack collects no container logs."""
    if logs is None:
        return []
    return _ROWS[logs.collector.collector](reader, logs)
