"""mps-control-daemon-system-node-critical: a team's own MPS control daemon runs at
system-node-critical; the charts that run it set that themselves."""

from __future__ import annotations

from typing import Any

import pytest

from .crd_fixtures import Inexpressible
from .harness import Case, Res, assert_case
from .pod_fixtures import KINDS, container, mutated, pod_policy_cases
from .stack_fixtures import DAEMON_SET, many_namespaces_stack, release, walks_once

POLICY = "mps-control-daemon-system-node-critical"
EVICTABLE = "runs at priority class 'none', not system-node-critical"
ACK_LABEL = {"app.aliyun.com/name": "mps-control-daemon"}


def mps_daemon(
    priority: str | None = "system-node-critical",
    command: tuple[str, ...] = ("/bin/sh", "-c", "nvidia-cuda-mps-control -d && sleep infinity"),
    labels: dict[str, str] | None = None,
    image: str = "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04",
    parent: str | None = None,
) -> Res:
    """A DaemonSet that runs the MPS control daemon, privileged with the host's IPC and PID
    namespaces as seed 003 runs it."""
    pod: dict[str, Any] = {
        "hostIPC": True,
        "hostPID": True,
        "nodeSelector": {"ack.node.gpu.schedule": "mps"},
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}],
        "containers": [
            {
                "name": "mps-control",
                "image": image,
                "command": list(command),
                "securityContext": {"privileged": True},
            }
        ],
    }
    if priority is not None:
        pod["priorityClassName"] = priority
    template_labels = {"app": "mps-control", **(labels or {})}
    spec = {
        "selector": {"matchLabels": template_labels},
        "template": {"metadata": {"labels": template_labels}, "spec": pod},
    }
    metadata = {"name": "mps-control", "namespace": "kube-system"}
    return Res(DAEMON_SET, "mps-control", {"metadata": metadata, "spec": spec}, parent=parent)


PLUGIN_DAEMON = ("mps-control-daemon",)


def runs_the_daemon(spec: dict[str, Any]) -> None:
    container(spec)["command"] = ["nvidia-cuda-mps-control", "-d"]


def runs_the_daemon_node_critical(spec: dict[str, Any]) -> None:
    runs_the_daemon(spec)
    spec["priorityClassName"] = "system-node-critical"


def _every_kind() -> list[Case]:
    """On every pod-bearing kind: its ordinary workload passes, its pod running the daemon
    without the priority class fails, and with it passes (where the kind can set one)."""
    cases = pod_policy_cases(
        POLICY, [("own-daemon", runs_the_daemon, "not system-node-critical")], gpu_only=False
    )
    for kind in KINDS:
        try:
            critical = mutated(kind, runs_the_daemon_node_critical)
        except Inexpressible:
            continue
        cases.append(Case(POLICY, f"{kind}-own-daemon-node-critical", (critical,)))
    return cases


CASES: list[Case] = [
    *_every_kind(),
    Case(POLICY, "own-daemon-node-critical", (mps_daemon(),)),
    Case(POLICY, "no-daemon", (mutated("DaemonSet", lambda _: None),)),
    # A daemon a chart's release rendered: the chart sets its priority.
    Case(
        POLICY,
        "rendered-by-ack-mps-control",
        (release("ack-mps", "ack-mps-control"), mps_daemon(priority=None, parent="ack-mps")),
    ),
    Case(
        POLICY,
        "rendered-by-nvidia-device-plugin",
        (
            release("nvdp", "nvidia-device-plugin"),
            mps_daemon(
                priority=None,
                command=PLUGIN_DAEMON,
                image="nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
                parent="nvdp",
            ),
        ),
    ),
    Case(POLICY, "own-daemon-evictable", (mps_daemon(priority=None),), (EVICTABLE,)),
    Case(
        POLICY,
        "own-daemon-other-class",
        (mps_daemon(priority="high-priority"),),
        ("runs at priority class 'high-priority', not system-node-critical",),
    ),
    Case(
        POLICY,
        "plugin-image-as-daemon",
        (
            mps_daemon(
                priority=None,
                command=PLUGIN_DAEMON,
                image="nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
            ),
        ),
        (EVICTABLE,),
    ),
    Case(
        POLICY,
        "labelled-as-acks-daemon",
        (mps_daemon(priority=None, command=("/usr/bin/start.sh",), labels=ACK_LABEL),),
        (EVICTABLE,),
    ),
    Case(
        POLICY,
        "daemon-in-a-pod",
        (
            mutated(
                "Pod",
                lambda spec: spec["containers"][0].update(
                    command=["nvidia-cuda-mps-control", "-d"]
                ),
            ),
        ),
        ("MPS control daemon 'trainer-pod' runs at priority class 'none'",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_the_daemon_may_share_the_hosts_ipc_namespace() -> None:
    """host-ipc-only-for-gpu-mem-pods leaves the daemon alone: it needs the host's IPC."""
    assert_case(
        Case(
            "host-ipc-only-for-gpu-mem-pods",
            "daemon",
            (mps_daemon(),),
            config={"exemptNamespaces": []},
        )
    )


def test_walks_the_resources_once() -> None:
    walks_once(POLICY, many_namespaces_stack())
