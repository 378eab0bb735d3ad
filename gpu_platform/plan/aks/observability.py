"""How AKS collects container logs: Container Insights' agent, by a data collection rule that
names the namespaces (``namespaceFilteringMode``), every namespace when it names none."""

from __future__ import annotations

from ..clouds import ContainerLogs

CONTAINER_LOGS = ContainerLogs("containerInsights", every_namespace_when_none_named=True)
