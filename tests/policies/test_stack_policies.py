"""Stack policies: GPU namespaces, device plugin releases, ACK MPS pools."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pulumi_policy import PolicyResource, StackValidationArgs, StackValidationPolicy
from pulumi_policy.proxy import unknown_checking_proxy

from .harness import Case, Res, assert_case, messages, opts, policy_named, violations

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


DENY = "gpu-namespaces-deny-all-network-policy"
QUOTA_POLICY = "gpu-namespaces-have-gpu-quota"
PLUGIN = "device-plugin-release-current-with-gfd"
OWNER = "single-device-plugin-owner"
MPS = "ack-mps-pools-need-ack-pro"
NO_DENY = "has no deny-all NetworkPolicy"
NO_QUOTA = "has no ResourceQuota on a GPU resource"

CASES: list[Case] = [
    Case(DENY, "governed", governed("gpu-training") + governed("gpu-inference")),
    Case(
        DENY,
        "gpu-label",
        (namespace("ml", {"gpu-platform.io/gpu-workloads": "true"}), deny_all("ml")),
    ),
    Case(DENY, "plain-namespace", (namespace("tools", {"team": "x"}),)),
    Case(
        DENY,
        "exempt-namespace",
        (namespace("gpu-training"),),
        config={"exemptNamespaces": ["gpu-training"]},
    ),
    Case(DENY, "missing", (namespace("gpu-training"),), (f"'gpu-training' {NO_DENY}",)),
    Case(
        DENY, "other-namespace", (namespace("gpu-training"), deny_all("gpu-inference")), (NO_DENY,)
    ),
    Case(
        DENY, "ingress-only", (namespace("a"), deny_all("a", policyTypes=["Ingress"])), (NO_DENY,)
    ),
    Case(
        DENY,
        "selects-some-pods",
        (namespace("a"), deny_all("a", podSelector={"matchLabels": {"app": "x"}})),
        (NO_DENY,),
    ),
    Case(
        DENY,
        "allows-ingress",
        (namespace("a"), deny_all("a", ingress=[{"from": [{"podSelector": {}}]}])),
        (NO_DENY,),
    ),
    Case(DENY, "allows-egress", (namespace("a"), deny_all("a", egress=[{}])), (NO_DENY,)),
    Case(QUOTA_POLICY, "governed", governed("gpu-training")),
    Case(
        QUOTA_POLICY,
        "mig-quota",
        (namespace("a"), quota("a", {"requests.nvidia.com/mig-1g.5gb": "14"})),
    ),
    Case(
        QUOTA_POLICY,
        "gpu-mem-quota",
        (namespace("a"), quota("a", {"requests.aliyun.com/gpu-mem": "64"})),
    ),
    Case(QUOTA_POLICY, "missing", (namespace("gpu-training"),), (f"'gpu-training' {NO_QUOTA}",)),
    Case(
        QUOTA_POLICY, "cpu-only", (namespace("a"), quota("a", {"requests.cpu": "8"})), (NO_QUOTA,)
    ),
    Case(
        QUOTA_POLICY,
        "limits-key",
        (namespace("a"), quota("a", {"limits.nvidia.com/gpu": "8"})),
        (NO_QUOTA,),
    ),
    Case(QUOTA_POLICY, "wrong-namespace", (namespace("a"), quota("b")), (NO_QUOTA,)),
    Case(PLUGIN, "current", (plugin(),)),
    Case(PLUGIN, "minimum", (plugin("0.15.0"),)),
    Case(PLUGIN, "v-prefix", (plugin("v0.17.1"),)),
    Case(
        PLUGIN,
        "repo-prefixed",
        (Res(RELEASE, "p", {**plugin().props, "chart": "nvdp/nvidia-device-plugin"}),),
    ),
    Case(PLUGIN, "no-plugin", (release("other", "ingress-nginx"),)),
    Case(PLUGIN, "old", (plugin("0.14.5"),), ("older than 0.15.0",)),
    Case(PLUGIN, "unpinned", (plugin(None),), ("does not pin a chart version",)),
    Case(PLUGIN, "not-a-version", (plugin("stable"),), ("older than 0.15.0",)),
    Case(PLUGIN, "gfd-off", (plugin(gfd=False),), ("gfd.enabled",)),
    Case(
        PLUGIN,
        "gfd-unset",
        (Res(RELEASE, "p", {**plugin().props, "values": {}}),),
        ("gfd.enabled",),
    ),
    Case(PLUGIN, "default-namespace", (plugin(ns=None),), ("shared namespace 'default'",)),
    Case(
        PLUGIN, "v4-chart-old", (Res(CHART, "p", plugin("0.14.0").props),), ("older than 0.15.0",)
    ),
    Case(
        PLUGIN,
        "separate-gfd",
        (plugin(), release("gfd", "gpu-feature-discovery")),
        ("installs GPU Feature Discovery separately",),
    ),
    Case(OWNER, "plugin-only", (plugin(),)),
    Case(OWNER, "operator-only", (release("gpu-operator", "gpu-operator"),)),
    Case(
        OWNER,
        "operator-without-plugin",
        (plugin(), release("gpu-operator", "gpu-operator", {"devicePlugin": {"enabled": False}})),
    ),
    Case(
        OWNER,
        "plugin-disabled",
        (plugin(devicePlugin={"enabled": False}), release("gpu-operator", "gpu-operator")),
    ),
    Case(OWNER, "both", (plugin(), release("gpu-operator", "gpu-operator")), ("2 owners",)),
    Case(
        OWNER,
        "operator-plugin-on",
        (plugin(), release("op", "nvidia/gpu-operator", {"devicePlugin": {"enabled": True}})),
        ("'op' (gpu-operator)",),
    ),
    Case(OWNER, "two-plugins", (plugin(), Res(RELEASE, "p2", plugin().props)), ("2 owners",)),
    Case(MPS, "pro", ack("ack.pro.small")),
    Case(MPS, "standard-no-mps", ack("ack.standard", mps=False)),
    Case(MPS, "no-cluster-in-stack", ack("ack.standard")[1:]),
    Case(MPS, "standard", ack("ack.standard"), ("MPS needs ACK Pro",)),
    Case(MPS, "spec-unset", ack(None), ("unset (ack.standard)",)),
    Case(
        MPS,
        "only-cluster-no-dependency",
        ack("ack.standard", depends=False),
        ("MPS needs ACK Pro",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.policy}/{c.id}")
def test_case(case: Case) -> None:
    assert_case(case)


def test_violations_point_at_the_offending_resource() -> None:
    ns = namespace("gpu-training")
    found = violations(policy_named(DENY), (ns,))
    assert [urn for _, urn in found] == [ns.urn]
    pool = ack("ack.standard")[1]
    assert [urn for _, urn in violations(policy_named(MPS), ack("ack.standard"))] == [pool.urn]


def test_namespace_exemption_by_resource_name() -> None:
    case = Case(
        QUOTA_POLICY, "x", (namespace("gpu-training"),), config={"exemptNames": ["gpu-training"]}
    )
    assert messages(case) == []


def test_mps_pool_follows_its_own_cluster_among_several() -> None:
    pro = Res(ACK_CLUSTER, "pro", {"clusterSpec": "ack.pro.small"})
    std = Res(ACK_CLUSTER, "std", {"clusterSpec": "ack.standard"})
    pool = ack("ack.pro.small")[1]
    on_pro = Res(ACK_POOL, "on-pro", pool.props, depends_on=("pro",))
    on_std = Res(ACK_POOL, "on-std", pool.props, depends_on=("std",))
    found = violations(policy_named(MPS), (pro, std, on_pro, on_std))
    assert [urn for _, urn in found] == [on_std.urn]


class CountingList(list[PolicyResource]):
    """A resource list that counts how often a policy walks it."""

    walks = 0

    def __iter__(self) -> Iterator[PolicyResource]:
        self.walks += 1
        return super().__iter__()


@pytest.mark.parametrize("name", [DENY, QUOTA_POLICY, PLUGIN, OWNER, MPS])
def test_stack_policies_walk_the_resources_once(name: str) -> None:
    """Linear time: each stack policy indexes the resources by type in one pass."""
    resources: list[Res] = []
    for i in range(50):
        resources.extend(governed(f"ns-{i}"))
    resources.extend([plugin(), *ack("ack.pro.small")])
    counted = CountingList(
        PolicyResource(
            r.type, unknown_checking_proxy(r.props), r.urn, r.name, opts(), None, None, [], {}
        )
        for r in resources
    )
    found: list[str] = []

    def report(message: str, urn: str | None = None) -> None:
        found.append(message)

    policy = policy_named(name)
    assert isinstance(policy, StackValidationPolicy)
    assert policy.validate is not None
    policy.validate(StackValidationArgs(counted, config={}), report)
    assert found == []
    assert counted.walks == 1
