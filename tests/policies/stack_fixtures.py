"""Stack-shaped fixtures: GPU namespaces with their NetworkPolicy and quota, Helm releases of the
device plugin and other charts, ACK clusters with MPS pools; and a resource list that counts
how often a stack policy walks it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pulumi_policy import PolicyResource, StackValidationArgs, StackValidationPolicy
from pulumi_policy.proxy import unknown_checking_proxy

from .harness import Res, opts, policy_named

NS = "kubernetes:core/v1:Namespace"
NP = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
QUOTA = "kubernetes:core/v1:ResourceQuota"
RELEASE = "kubernetes:helm.sh/v3:Release"
CHART = "kubernetes:helm.sh/v4:Chart"
ACK_CLUSTER = "alicloud:cs/managedKubernetes:ManagedKubernetes"
ACK_POOL = "alicloud:cs/nodePool:NodePool"


def namespace(name: str, labels: dict[str, str] | None = None) -> Res:
    labels = {"workload": "training"} if labels is None else labels
    return Res(NS, name, {"metadata": {"name": name, "labels": labels}})


def deny_all(ns: str, **spec_changes: Any) -> Res:
    spec: dict[str, Any] = {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}
    spec.update(spec_changes)
    return Res(
        NP, f"{ns}-deny-all", {"metadata": {"name": "deny-all", "namespace": ns}, "spec": spec}
    )


def quota(ns: str, hard: dict[str, Any] | None = None) -> Res:
    hard = {"requests.nvidia.com/gpu": "8"} if hard is None else hard
    return Res(
        QUOTA, f"{ns}-gpu", {"metadata": {"name": "gpu", "namespace": ns}, "spec": {"hard": hard}}
    )


def governed(ns: str) -> tuple[Res, ...]:
    return (namespace(ns), deny_all(ns), quota(ns))


def plugin(
    version: str | None = "0.20.0",
    gfd: Any = True,
    ns: str | None = "nvidia-device-plugin",
    **extra: Any,
) -> Res:
    props: dict[str, Any] = {
        "chart": "nvidia-device-plugin",
        "repositoryOpts": {"repo": "https://nvidia.github.io/k8s-device-plugin"},
        "values": {"gfd": {"enabled": gfd}, "migStrategy": "mixed", **extra},
    }
    if version is not None:
        props["version"] = version
    if ns is not None:
        props["namespace"] = ns
    return Res(RELEASE, "device-plugin", props)


def release(
    name: str, chart: str, values: dict[str, Any] | None = None, type_: str = RELEASE
) -> Res:
    return Res(
        type_, name, {"chart": chart, "version": "1.0.0", "namespace": name, "values": values or {}}
    )


def operator_release(chart: str, version: str) -> Res:
    """An operator installed by the stack from its chart, pinned (KAITO's ``workspace``,
    NVIDIA's ``k8s-nim-operator``)."""
    props = {"chart": chart, "version": version, "namespace": "operators", "values": {}}
    return Res(RELEASE, chart, props)


def ack(spec: str | None, mps: bool = True, depends: bool = True) -> tuple[Res, ...]:
    cluster_props: dict[str, Any] = {"name": "ack"}
    if spec is not None:
        cluster_props["clusterSpec"] = spec
    labels = [{"key": "ack.node.gpu.schedule", "value": "mps"}] if mps else []
    pool = Res(
        ACK_POOL,
        "a10-mps",
        {"clusterId": "ack-id", "instanceTypes": ["ecs.gn7i-c8g1.2xlarge"], "labels": labels},
        depends_on=("ack",) if depends else (),
    )
    return (Res(ACK_CLUSTER, "ack", cluster_props), pool)


class CountingList(list[PolicyResource]):
    """A resource list that counts how often a policy walks it."""

    walks = 0

    def __iter__(self) -> Iterator[PolicyResource]:
        self.walks += 1
        return super().__iter__()


def counted(resources: Iterable[Res]) -> CountingList:
    """``resources`` as the PolicyResources a stack policy gets, in a CountingList."""
    return CountingList(
        PolicyResource(
            r.type,
            unknown_checking_proxy(r.props),
            r.urn,
            r.name,
            opts(delete_before_replace=r.delete_before_replace),
            None,
            None,
            [],
            {},
        )
        for r in resources
    )


def walks_once(policy_name: str, resources: Iterable[Res]) -> None:
    """The stack policy reports nothing on ``resources`` and walks the list exactly once."""
    walked = counted(resources)
    found: list[str] = []
    policy = policy_named(policy_name)
    assert isinstance(policy, StackValidationPolicy)
    assert policy.validate is not None

    def report(message: str, urn: str | None = None) -> None:
        found.append(message)

    policy.validate(StackValidationArgs(walked, config={}), report)
    assert found == []
    assert walked.walks == 1


def many_namespaces_stack() -> list[Res]:
    """50 governed GPU namespaces, the device plugin release and an ACK Pro MPS stack."""
    resources: list[Res] = []
    for i in range(50):
        resources.extend(governed(f"ns-{i}"))
    resources.extend([plugin(), *ack("ack.pro.small")])
    return resources


DAEMON_SET = "kubernetes:apps/v1:DaemonSet"


def plugin_daemonset(
    name: str = "nvidia-device-plugin-daemonset",
    image: str = "nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
    namespace: str | None = "nvidia-device-plugin",
    command: list[str] | None = None,
    parent: str | None = None,
) -> Res:
    """A DaemonSet running the plugin's image, as the project's static manifest writes it
    (no command), or GFD / a helper with ``command``."""
    container: dict[str, Any] = {"name": "main", "image": image}
    if command is not None:
        container["command"] = command
    metadata: dict[str, Any] = {"name": name}
    if namespace is not None:
        metadata["namespace"] = namespace
    labels = {"name": name}
    spec = {
        "selector": {"matchLabels": labels},
        "template": {
            "metadata": {"labels": labels},
            "spec": {
                "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}],
                "containers": [container],
            },
        },
    }
    return Res(DAEMON_SET, name, {"metadata": metadata, "spec": spec}, parent=parent)


def gfd_daemonset(image: str = "nvcr.io/nvidia/k8s-device-plugin:v0.17.0") -> Res:
    return plugin_daemonset("gpu-feature-discovery", image, command=["gpu-feature-discovery"])


def exporter_daemonset(
    tolerations: list[dict[str, Any]] | None = None,
    env: list[dict[str, Any]] | None = None,
    *,
    args: list[str] | None = None,
    node_selector: dict[str, str] | None = None,
    name: str = "dcgm-exporter",
    image: str = "nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-ubuntu22.04",
    parent: str | None = None,
) -> Res:
    """dcgm-exporter as a plain DaemonSet (NVIDIA's static manifest, plus what is given)."""
    container: dict[str, Any] = {"name": "exporter", "image": image, "env": env or []}
    if args is not None:
        container["args"] = args
    spec: dict[str, Any] = {"containers": [container]}
    if tolerations is not None:
        spec["tolerations"] = tolerations
    if node_selector is not None:
        spec["nodeSelector"] = node_selector
    labels = {"app.kubernetes.io/name": name}
    return Res(
        DAEMON_SET,
        name,
        {
            "metadata": {"name": name, "namespace": "gpu-metrics"},
            "spec": {
                "selector": {"matchLabels": labels},
                "template": {"metadata": {"labels": labels}, "spec": spec},
            },
        },
        parent=parent,
    )
