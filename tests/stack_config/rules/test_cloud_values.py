"""The stack config refuses what the cloud or Kubernetes would (``stack_config.rules.cloud_values``
and the rules that ask ``plan.names``, ``plan.zones``, ``plan.kubernetes_versions``,
``plan.kubeconfigs``): the four stacks' own files, mutated, each refusal with its exact key path
and message and nothing else reported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.plan.aks.cluster import aks_cluster_value_problems
from gpu_platform.plan.problems import under
from gpu_platform.settings import AksClusterSettings
from gpu_platform.stack_config import load_platform
from gpu_platform.stack_config.rules.cloud_values import cluster_values, driver_check_schedule
from tests.conftest import ROOT
from tests.stack_config.rules.subjects import problems, raw, subject

Raw = dict[str, Any]
Mutation = Callable[[Raw], object]


def cluster(**changes: Any) -> Mutation:
    return lambda r: r["cluster"].update(changes)


AKS_NAME = (
    "AKS cluster names are 1-63 characters: letters, digits, '-' and '_', starting and ending "
    "with a letter or digit (Azure's rule for Microsoft.ContainerService/managedClusters)"
)
DNS_PREFIX = (
    "the platform uses the cluster name as its dnsPrefix, which AKS takes as 1-54 letters, "
    "digits and '-', starting and ending with a letter or digit (no '_' or '.')"
)
RG_NAME = (
    "resource group names are 1-90 characters: letters, digits, '_', '-', '.', '(' and ')', "
    "not ending with '.' (Azure's rule for Microsoft.Resources/resourceGroups)"
)
ACK_NAME = (
    "ACK cluster names are 1-63 characters: letters, digits and '-', not starting with '-' "
    "(Alibaba Cloud's rule for CreateCluster)"
)
LABEL_NAME = (
    "1-63 characters: letters, digits, '-', '_' and '.', starting and ending with a letter or "
    "digit (keys are [prefix/]name: an optional DNS subdomain prefix and one '/')"
)
LABEL_VALUE = (
    "Kubernetes label values are at most 63 characters: letters, digits, '-', '_' and '.', "
    "starting and ending with a letter or digit (or empty)"
)
RESERVED = (
    "label domain is reserved for Kubernetes' own components (and the kubelet refuses it on "
    "nodes); choose another prefix"
)
AKS_VERSIONS = (
    "https://learn.microsoft.com/azure/aks/supported-kubernetes-versions, as of 2026-08-05"
)
CRON = (
    "Kubernetes takes five fields (minute 0-59, hour 0-23, day of month 1-31, month 1-12 or "
    "jan-dec, day of week 0-6 or sun-sat), each *, n or a-b with an optional /step, or a comma "
    "list of them; or @hourly, @daily, @weekly, @monthly, @yearly, @every <duration>"
)


@pytest.mark.parametrize("stack", ["dev", "prod", "ack-dev", "existing"])
def test_the_four_stacks_pass(stack: str) -> None:
    load_platform(raw(stack))


# --- AKS ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (cluster(name="gpu dev!"), [("cluster.name", f"'gpu dev!': {AKS_NAME}")]),
        (cluster(name="g" * 64), [("cluster.name", f"'{'g' * 64}' (64 characters): {AKS_NAME}")]),
        (cluster(name="gpu_dev"), [("cluster.name", f"'gpu_dev': {DNS_PREFIX}")]),
        (cluster(name="g" * 55), [("cluster.name", f"'{'g' * 55}' (55 characters): {DNS_PREFIX}")]),
        (
            cluster(resourceGroup={"name": "rg/gpu#dev."}),
            [("cluster.resourceGroup.name", f"'rg/gpu#dev.': {RG_NAME}")],
        ),
        (
            cluster(tags={f"t{i}": "x" for i in range(51)}),
            [("cluster.tags", "51 tags; Azure takes at most 50 per resource")],
        ),
        (
            cluster(tags={"cost<center": "ml", "owner": "o" * 257}),
            [
                (
                    "cluster.tags.cost<center",
                    "Azure tag names must not contain '<' (none of <>%&\\?/ or a control "
                    "character)",
                ),
                ("cluster.tags.owner", "Azure tag values are at most 256 characters, not 257"),
            ],
        ),
        (
            cluster(kubernetesVersion="1.99"),
            [
                (
                    "cluster.kubernetesVersion",
                    "Kubernetes 1.99 is not a release AKS offers: the newest it lists is 1.36 "
                    f"({AKS_VERSIONS}); one minor past it is taken with a warning",
                )
            ],
        ),
        (
            cluster(kubernetesVersion="1.33"),
            [
                (
                    "cluster.kubernetesVersion",
                    "AKS runs 1.33 only under long-term support (Premium tier and supportPlan "
                    "AKSLongTermSupport), which the platform does not set: use one of 1.34, 1.35, "
                    f"1.36 ({AKS_VERSIONS})",
                )
            ],
        ),
        (
            cluster(kubernetesVersion="1.35.x"),
            [
                (
                    "cluster.kubernetesVersion",
                    "'1.35.x' is not a version AKS takes: major.minor (e.g. 1.35: AKS picks the "
                    "newest patch) or major.minor.patch",
                )
            ],
        ),
    ],
)
def test_aks_cluster_values(mutate: Mutation, expected: list[tuple[str, str]]) -> None:
    assert problems("dev", mutate) == expected


def test_aks_entra_group_ids_are_guids() -> None:
    def groups(r: Raw) -> None:
        r["cluster"]["entraId"]["adminGroupObjectIds"].append("ml-admins")

    assert problems("prod", groups) == [
        (
            "cluster.entraId.adminGroupObjectIds[1]",
            "'ml-admins' (9 characters): an Entra object ID is a GUID: 8-4-4-4-12 hexadecimal "
            "digits, e.g. 00000000-0000-0000-0000-000000000000",
        )
    ]


def test_a_version_one_minor_past_the_list_is_taken_with_a_warning() -> None:
    platform = load_platform(raw("dev", cluster(kubernetesVersion="1.37")))
    assert platform.warnings[-1] == (
        "cluster.kubernetesVersion: Kubernetes 1.37 is newer than the newest AKS release the "
        f"platform knows (1.36: {AKS_VERSIONS}, read 2026-11-25); if AKS does not offer it yet "
        "the cluster is refused at deploy time"
    )


def test_gpu_and_cpu_pool_labels_follow_kubernetes_syntax() -> None:
    def labels(r: Raw) -> None:
        r["gpuPools"][1]["labels"] = {"team name!": "ml", "role/": "x", "size": "v" * 64}
        r["cpuPools"][0]["labels"] = {"node-role.kubernetes.io/gateway": "", "ok.example/x": "y"}

    assert problems("dev", labels) == [
        (
            "gpuPools[1].labels.team name!",
            f"'team name!' is not a Kubernetes label key: its name 'team name!' must be "
            f"{LABEL_NAME}",
        ),
        (
            "gpuPools[1].labels.role/",
            "'role/' is not a Kubernetes label key: the name after the prefix is empty",
        ),
        ("gpuPools[1].labels.size", f"'{'v' * 64}' (64 characters): {LABEL_VALUE}"),
        ("cpuPools[0].labels.node-role.kubernetes.io/gateway", f"the kubernetes.io {RESERVED}"),
    ]


def test_bad_pool_labels_raise_no_follow_on_errors() -> None:
    # The pool stays sound: the workload that lists it and its quota are not faulted too.
    def label(r: Raw) -> None:
        r["gpuPools"][1]["labels"] = {"bad key": "x"}

    assert [path for path, _ in problems("dev", label)] == ["gpuPools[1].labels.bad key"]


def test_gpu_pool_zones_on_aks() -> None:
    def zones(r: Raw) -> None:
        r["gpuPools"][0]["zones"] = ["4"]
        r["gpuPools"][1]["zones"] = ["1", "2", "2"]

    assert problems("prod", zones) == [
        ("gpuPools[0].zones[0]", "AKS zones are 1, 2, 3, not '4'"),
        ("gpuPools[1].zones[2]", "zone '2' is listed twice"),
    ]


def test_zones_in_a_region_without_zones() -> None:
    no_zones = (
        "westus has no availability zones "
        "(https://learn.microsoft.com/azure/reliability/regions-list): leave zones out for a "
        "regional pool"
    )
    assert problems("prod", cluster(location="westus")) == [
        ("gpuPools[0].zones", no_zones),
        ("cpuPools[0].zones", no_zones),
    ]

    # Without zones, the same region is fine.
    def regional(r: Raw) -> None:
        r["cluster"]["location"] = "westus"
        for pool in (*r["gpuPools"], *r["cpuPools"]):
            pool.pop("zones", None)

    load_platform(raw("prod", regional))


def test_pool_names_state_the_rule() -> None:
    rule = (
        "node pool names are 1-12 lowercase letters and digits, starting with a letter (AKS's "
        "rule for Microsoft.ContainerService/managedClusters/agentPools, kept on every cloud)"
    )
    # (Whether the workloads that list the old name are faulted too is not this rule's.)
    found = problems("dev", lambda r: r["gpuPools"][1].update(name="T4"))
    assert ("gpuPools[1].name", f"'T4': {rule}") in found
    found = problems("ack-dev", lambda r: r["cpuPools"][0].update(name="general-cpu-pool"))
    assert found == [("cpuPools[0].name", f"'general-cpu-pool' (16 characters): {rule}")]


def test_namespace_and_logging_values_on_workloads() -> None:
    def logging(r: Raw) -> None:
        r["workloads"][0]["logging"] = {"labels": {"team": "a b"}, "annotations": {"x y": "z"}}

    assert problems("dev", logging) == [
        ("workloads[0].logging.labels.team", f"'a b': {LABEL_VALUE}"),
        (
            "workloads[0].logging.annotations.x y",
            f"'x y' is not a Kubernetes annotation key: its name 'x y' must be {LABEL_NAME}",
        ),
    ]
    namespace = (
        "Kubernetes namespace names are RFC 1123 labels: 1-63 characters, lowercase letters, "
        "digits and '-', starting and ending with a letter or digit"
    )
    assert problems("dev", lambda r: r["workloads"][0].update(name="GPU_Training")) == [
        ("workloads[0].name", f"'GPU_Training': {namespace}")
    ]
    assert problems("dev", lambda r: r["workloads"][1].update(type="inference-")) == [
        ("workloads[1].type", "String should match pattern '^[a-z]([a-z0-9-]{0,29}[a-z0-9])?$'")
    ]


# --- ACK ---------------------------------------------------------------------------------


def test_ack_cluster_values() -> None:
    assert problems("ack-dev", cluster(name="-gpu ack/dev")) == [
        ("cluster.name", f"'-gpu ack/dev': {ACK_NAME}")
    ]
    assert problems("ack-dev", cluster(tags={"aliyun-team": "ml", "env": "see http://x"})) == [
        ("cluster.tags.aliyun-team", "Alibaba Cloud refuses a tag name starting with 'aliyun'"),
        ("cluster.tags.env", "Alibaba Cloud refuses a tag value containing 'http://'"),
    ]
    assert problems("ack-dev", cluster(tags={f"t{i}": "x" for i in range(21)})) == [
        ("cluster.tags", "21 tags; Alibaba Cloud takes at most 20 per resource")
    ]
    assert problems("ack-dev", cluster(auditLogProject="Audit_Logs")) == [
        (
            "cluster.auditLogProject",
            "'Audit_Logs': Simple Log Service project names are 3-63 lowercase letters, digits "
            "and '-', starting and ending with a letter or digit (Alibaba Cloud's rule for "
            "CreateProject)",
        )
    ]


def test_ack_vswitch_ids() -> None:
    def existing(r: Raw) -> None:
        vpc = r["cluster"]["vpc"]
        vpc.update(vpcId="vpc-bp1lab", vswitchIds=["vsw-lab-node"], podVswitchIds=["vsw-bp1pod"])
        vpc.pop("vswitches")
        vpc.pop("podVswitches")

    assert problems("ack-dev", existing) == [
        (
            "cluster.vpc.vswitchIds[0]",
            "'vsw-lab-node': a vSwitch ID starts with 'vsw-' followed by lowercase letters and "
            "digits (the alicloud provider's rule for vswitch_ids)",
        )
    ]


def test_ack_versions_in_acks_own_form() -> None:
    pinned = cluster(kubernetesVersion="1.33.3-aliyun.1", autoUpgradeChannel="none")
    assert load_platform(raw("ack-dev", pinned)).warnings == load_platform(raw("ack-dev")).warnings
    assert problems("ack-dev", cluster(kubernetesVersion="1.99", autoUpgradeChannel="none")) == [
        (
            "cluster.kubernetesVersion",
            "Kubernetes 1.99 is not a release ACK offers: the newest it lists is 1.35 "
            "(https://www.alibabacloud.com/help/en/ack/product-overview/"
            "support-for-kubernetes-versions, as of 2026-03-17); one minor past it is taken "
            "with a warning",
        )
    ]


def test_ack_gpu_pool_zones_are_honoured_or_refused() -> None:
    load_platform(raw("ack-dev", lambda r: r["gpuPools"][0].update(zones=["cn-hangzhou-j"])))
    assert problems("ack-dev", lambda r: r["gpuPools"][0].update(zones=["cn-hangzhou-k"])) == [
        (
            "gpuPools[0].zones[0]",
            "no node vSwitch in zone 'cn-hangzhou-k'; zones of cluster.vpc.vswitches: "
            "cn-hangzhou-i, cn-hangzhou-j",
        )
    ]


# --- existing cluster ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schedule", "why"),
    [
        ("99 99 99 99 99", "minute: 99 is above 59 (in '99')"),
        ("a b c d e", "minute: 'a' is not a number"),
        ("0 6 * * 7", "day of week: 7 is above 6 (in '7')"),
        ("@daily at 6", "unknown descriptor '@daily at 6'"),
    ],
)
def test_the_driver_check_schedule_is_kubernetes_cron(schedule: str, why: str) -> None:
    assert problems("existing", lambda r: r["driverCheck"].update(schedule=schedule)) == [
        ("driverCheck.schedule", f"{schedule!r} is not a cron schedule: {why}. {CRON}")
    ]


@pytest.mark.parametrize("schedule", ["@hourly", "*/30 6-18 * * mon-fri", "0 6 1,15 jan-jun ?"])
def test_kubernetes_schedules_are_taken(schedule: str) -> None:
    load_platform(raw("existing", lambda r: r["driverCheck"].update(schedule=schedule)))


def test_a_time_zone_in_the_schedule_is_refused() -> None:
    assert problems("existing", lambda r: r["driverCheck"].update(schedule="TZ=UTC 0 6 * * *")) == [
        (
            "driverCheck.schedule",
            "'TZ=UTC 0 6 * * *': Kubernetes refuses TZ= and CRON_TZ= in a CronJob's schedule "
            '("use timeZone field instead"); the checks run in the controller manager\'s time '
            "zone",
        )
    ]


def test_the_kubeconfig_file_and_context(tmp_path: Path) -> None:
    good = ROOT / "tests" / "data" / "kubeconfig.yaml"
    # existing names its context (onprem-a100), which the file has.
    load_platform(raw("existing", cluster(kubeconfigPath=str(good))))
    assert problems("existing", cluster(kubeconfigPath=str(good), context="lab")) == [
        ("cluster.context", f"no context 'lab' in {str(good)!r}; its contexts: onprem-a100")
    ]
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n")
    assert problems("existing", cluster(kubeconfigPath=str(pod))) == [
        (
            "cluster.kubeconfigPath",
            f"{str(pod)!r} is not a kubeconfig "
            "(https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/)"
            ": kind 'Pod', apiVersion 'v1', not Config, v1",
        )
    ]


def test_existing_clusters_take_hand_set_kubernetes_labels_and_no_zones() -> None:
    def labels(r: Raw) -> None:
        r["gpuPools"][0]["labels"] = {"node-role.kubernetes.io/gpu": ""}

    load_platform(raw("existing", labels))
    assert problems("existing", lambda r: r["gpuPools"][0].update(zones=["1"])) == [
        (
            "gpuPools[0].zones",
            "AKS and ACK only (cloud 'aks', 'ack'); on cloud 'existing' remove it",
        )
    ]


def test_the_cluster_rule_is_plans_under_cluster() -> None:
    """The AksCluster component asks plan.aks.cluster too: the same messages."""

    def bad(r: Raw) -> None:
        r["cluster"].update(name="gpu_dev", tags={"a<b": "x"})

    cfg = subject("dev", bad)
    assert isinstance(cfg.settings.cluster, AksClusterSettings)
    found = list(cluster_values(cfg))
    assert found and found == under("cluster", aks_cluster_value_problems(cfg.settings.cluster))
    assert list(driver_check_schedule(subject("dev"))) == []
