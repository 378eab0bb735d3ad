"""MPS control daemons a stack runs itself: pods whose container runs NVIDIA's control daemon
(``nvidia-cuda-mps-control``, or the device plugin image as ``mps-control-daemon``) or that carry
ACK's daemon label (``gpu_facts.nvidia.mps``). A daemon a release of NVIDIA's device plugin chart or
ACK's ``ack-mps-control`` chart rendered belongs to that chart, which sets its priority."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from pulumi_policy import PolicyResource

from gpu_facts.ack.addons import MPS_CONTROL_CHART
from gpu_facts.nvidia.device_plugin_chart import CHART_NAME
from gpu_facts.nvidia.mps import (
    ACK_MPS_DAEMON_LABEL,
    MPS_CONTROL_COMMAND,
    PLUGIN_MPS_DAEMON_COMMAND,
)

from .device_plugin_daemonsets import rendered_by_chart
from .pod_specs import PodSite, containers
from .policy_factory import Config
from .props import items, mapping
from .stack_index import stack_pods

DAEMON_CHARTS = frozenset({CHART_NAME, MPS_CONTROL_CHART})
"""Charts whose releases run the daemon with the priority they set."""


def _runs_daemon(spec: Mapping[str, object]) -> bool:
    for container in containers(spec):
        if container.where != "containers":
            continue
        words = [
            w
            for key in ("command", "args")
            for w in items(container.spec.get(key))
            if isinstance(w, str)
        ]
        if any(MPS_CONTROL_COMMAND in w for w in words) or PLUGIN_MPS_DAEMON_COMMAND in words:
            return True
    return False


def is_mps_daemon(site: PodSite) -> bool:
    key, value = ACK_MPS_DAEMON_LABEL
    return mapping(site.labels).get(key) == value or _runs_daemon(site.spec)


def own_mps_daemons(
    index: Mapping[str, list[PolicyResource]], config: Config
) -> Iterator[tuple[PolicyResource, PodSite]]:
    """Every MPS control daemon pod of the stack but those a daemon chart's release rendered."""
    for resource, site in stack_pods(index, config):
        if is_mps_daemon(site) and not rendered_by_chart(resource, DAEMON_CHARTS):
            yield resource, site
