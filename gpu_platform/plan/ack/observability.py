"""How ACK collects container logs: Logtail, by one ``AliyunLogConfig`` per namespace into the
namespace's SLS logstore (``plan.observability.logstore_name``), so none when none is named."""

from __future__ import annotations

from ..clouds import ContainerLogs

CONTAINER_LOGS = ContainerLogs("aliyunLogConfigs", every_namespace_when_none_named=False)
