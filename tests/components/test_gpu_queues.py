"""GpuQueues: Kueue from its pinned chart in a deny-all namespace, the queue objects of
``plan.queues``, Kueue's metrics scraped, and the queue admission policy, its CEL evaluated for
real (cel-python, as ``test_gpu_admission_policy`` does) on every kind it judges, both ways."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from gpu_facts import kueue
from gpu_facts.kueue import QUEUE_NAME_LABEL, QUEUE_NAMESPACE_LABEL
from gpu_facts.network_policy import is_deny_all
from gpu_facts.pod_templates import pod_bearing_kind
from gpu_platform.components.gpu_queue_admission_cel import (
    JUDGED_KINDS,
    MAP_COLLECTIONS,
    VALIDATIONS,
)
from gpu_platform.components.gpu_queues import GpuQueues, GpuQueuesArgs
from gpu_platform.plan.queue_controller import controller_values
from gpu_platform.plan.queues import queues_plan
from tests.components.cel_policy import CompiledPolicy, compile_policy, failed_messages
from tests.components.incluster_args import pools_args
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import by_type, one, platform_of, run, run_once, stack_raw
from tests.policies.pod_fixtures import KINDS, gpu_pod_spec, wrap

RELEASE = "kubernetes:helm.sh/v3:Release"
NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
POLICY = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"
BINDING = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"
FLAVOR = "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor"
CLUSTER_QUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue"
LOCAL_QUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue"


def queue_args(**fields: Any) -> GpuQueuesArgs:
    """The queues-dev stack's queues as ``GpuPlatform`` passes them, ``fields`` over them."""
    platform = platform_of(stack_raw("queues-dev"))
    namespaces = []
    for wl in platform.settings.workloads:
        entry: dict[str, Any] = {"name": wl.name, "type": wl.type, "pools": wl.pools}
        entry["gpu_quota_per_resource" if isinstance(wl.gpu_quota, dict) else "gpu_quota"] = (
            wl.gpu_quota
        )
        namespaces.append(entry)
    return {  # type: ignore[typeddict-item, return-value]
        "pools": pools_args(platform),
        "namespaces": namespaces,
        "cloud": "azure",
        **fields,
    }


@run_once
def queues(**fields: Any) -> Any:
    return run(lambda: GpuQueues("q", queue_args(**fields)))


def test_kueue_is_installed_from_its_pinned_oci_chart() -> None:
    release = one(queues(), RELEASE).inputs
    assert release["chart"] == "oci://registry.k8s.io/kueue/charts/kueue"
    assert (release["name"], release["version"], release["namespace"]) == (
        "kueue",
        "0.19.2",
        "kueue-system",
    )
    assert "repositoryOpts" not in release
    assert release["values"] == controller_values("0.19.2", None)


def test_its_namespace_is_restricted_and_denies_all_but_what_the_controller_needs() -> None:
    result = queues(scrape="azureMonitor", scraper_namespaces=["kube-system"])
    namespace = one(result, "kubernetes:core/v1:Namespace").inputs
    assert namespace["metadata"]["name"] == "kueue-system"
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    found = {r.inputs["metadata"]["name"]: r.inputs for r in by_type(result, NETWORK_POLICY)}
    assert sorted(found) == [
        "allow-api-server-egress",
        "allow-scrape",
        "allow-visibility-ingress",
        "allow-webhook-ingress",
        "default-deny-all",
    ]
    assert is_deny_all(found["default-deny-all"])
    unscraped = {r.inputs["metadata"]["name"] for r in by_type(queues(), NETWORK_POLICY)}
    assert "allow-scrape" not in unscraped


def test_one_flavour_per_pool_one_cluster_queue_per_type_one_local_queue_per_namespace() -> None:
    platform = platform_of(stack_raw("queues-dev"))
    assert platform.settings.queues is not None
    plan = queues_plan(platform.settings.queues, platform.pools, platform.settings.workloads)
    result = queues()
    flavors = {r.inputs["metadata"]["name"]: r.inputs["spec"] for r in by_type(result, FLAVOR)}
    assert flavors == {f.name: f.spec() for f in plan.flavors}
    cluster_queues = {
        r.inputs["metadata"]["name"]: r.inputs["spec"] for r in by_type(result, CLUSTER_QUEUE)
    }
    assert cluster_queues == {q.name: q.spec() for q in plan.cluster_queues}
    local = {
        (r.inputs["metadata"]["namespace"], r.inputs["metadata"]["name"]): r.inputs["spec"]
        for r in by_type(result, LOCAL_QUEUE)
    }
    assert local == {
        ("gpu-training", "training"): {"clusterQueue": "training"},
        ("gpu-inference", "inference"): {"clusterQueue": "inference"},
    }
    release = one(result, RELEASE)
    for queue_object in by_type(result, FLAVOR) + by_type(result, LOCAL_QUEUE):
        assert release.urn in queue_object.dependencies, "Kueue's CRDs come with the release"


def test_kueues_metrics_on_aks_a_service_monitor_and_the_collector_may_read_them() -> None:
    result = queues(scrape="azureMonitor", scraper_namespaces=["kube-system"])
    monitor = one(result, "kubernetes:azmonitoring.coreos.com/v1:ServiceMonitor").inputs
    assert monitor["metadata"]["namespace"] == "kueue-system"
    assert monitor["spec"]["endpoints"][0]["scheme"] == "https"
    binding = one(result, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding").inputs
    assert binding["roleRef"]["name"] == kueue.METRICS_READER_ROLE
    assert binding["subjects"] == [
        {"kind": "ServiceAccount", "namespace": "kube-system", "name": "ama-metrics-serviceaccount"}
    ]
    assert not by_type(result, "kubernetes:monitoring.coreos.com/v1:PrometheusRule")


def test_with_the_prometheus_operator_the_charts_monitor_and_our_queue_rules() -> None:
    result = queues(
        scrape="serviceMonitor",
        scraper_namespaces=["monitoring"],
        metrics_readers=["monitoring/prometheus-k8s"],
        pending_alert_minutes=45,
    )
    assert one(result, RELEASE).inputs["values"]["enablePrometheus"] is True
    rule = one(result, "kubernetes:monitoring.coreos.com/v1:PrometheusRule").inputs
    alerts = {r["alert"]: r for g in rule["spec"]["groups"] for r in g["rules"] if "alert" in r}
    assert alerts["KueueGpuRequestsPending"]["for"] == "45m"
    binding = one(result, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding").inputs
    assert binding["subjects"][0]["name"] == "prometheus-k8s"


def test_scrape_modes_kueue_cannot_serve_scrape_nothing() -> None:
    for scrape in ("annotations", "armsPrometheus"):
        result = run(lambda s=scrape: GpuQueues("q", queue_args(scrape=s)))
        assert not by_type(result, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding")
        assert not [r for r in result.resources if r.type.endswith("Monitor")]


def test_the_admission_policy_matches_every_judged_kind_in_the_queued_namespaces() -> None:
    result = queues(admission_action="Warn")
    policy = one(result, POLICY).inputs
    queued = {"matchExpressions": [{"key": QUEUE_NAMESPACE_LABEL, "operator": "Exists"}]}
    assert policy["spec"]["matchConstraints"]["namespaceSelector"] == queued
    assert policy["spec"]["failurePolicy"] == "Fail"
    matched = {
        (group, resource)
        for rule in policy["spec"]["matchConstraints"]["resourceRules"]
        for group in rule["apiGroups"]
        for resource in rule["resources"]
    }
    assert matched == {("" if k.group == "core" else k.group, k.resource) for k in JUDGED_KINDS}
    binding = one(result, BINDING).inputs
    assert binding["spec"]["validationActions"] == ["Warn", "Audit"]
    assert binding["spec"]["matchResources"]["namespaceSelector"] == queued


def test_the_map_collections_are_the_kubeflow_replica_specs() -> None:
    """Every ``*`` of a judged kind's pod paths follows a list, but Kubeflow's replica specs."""
    for judged in JUDGED_KINDS:
        row = pod_bearing_kind(judged.group, judged.kind)
        assert row is not None
        for path in row.paths:
            for before, key in zip(path.keys, path.keys[1:], strict=False):
                if key == "*":
                    assert (before in MAP_COLLECTIONS) == before.endswith("ReplicaSpecs"), path


# --- the policy's CEL, evaluated -------------------------------------------------------------


@cache
def _compiled() -> CompiledPolicy:
    return compile_policy(one(queues(), POLICY).inputs["spec"])


def failed(obj: dict[str, Any], namespace_labels: dict[str, str] | None = None) -> list[str]:
    """Keys of the validations ``obj`` fails in a queued namespace; a CEL error fails the test."""
    labels = {QUEUE_NAMESPACE_LABEL: "training"} if namespace_labels is None else namespace_labels
    namespace = {"metadata": {"name": "gpu-training", "labels": labels}}
    keys = {v.message: v.key for v in VALIDATIONS}
    return [keys[m] for m in failed_messages(_compiled(), obj, namespace)]


def workload(
    label: str, spec: dict[str, Any] | None = None, queue: str | None = None
) -> dict[str, Any]:
    """A workload of ``label`` (``Deployment``, ``JobSet.jobset.x-k8s.io``) as the API server
    admits it, naming ``queue`` where Kueue reads it."""
    res = wrap(label, copy.deepcopy(spec or gpu_pod_spec()))
    obj: dict[str, Any] = {"kind": label.split(".", 1)[0], **copy.deepcopy(res.props)}
    if queue is not None:
        if obj["kind"] == "CronJob":
            obj["spec"]["jobTemplate"].setdefault("metadata", {})["labels"] = {
                QUEUE_NAME_LABEL: queue
            }
        elif obj["kind"] == "ReplicaSet":
            obj["spec"]["template"]["metadata"]["labels"][QUEUE_NAME_LABEL] = queue
        else:
            obj["metadata"]["labels"] = {QUEUE_NAME_LABEL: queue}
    return obj


JUDGED_LABELS = [
    label
    for label in KINDS
    if label
    in {
        k.kind if k.group in ("core", "apps", "batch") else f"{k.kind}.{k.group}"
        for k in JUDGED_KINDS
    }
]
QUEUEABLE = [label for label in JUDGED_LABELS if label != "DaemonSet"]


def test_every_kind_kueue_queues_is_judged() -> None:
    assert {"Job", "Pod", "Deployment", "JobSet.jobset.x-k8s.io", "RayJob.ray.io"} <= set(QUEUEABLE)
    assert {"PyTorchJob.kubeflow.org", "LeaderWorkerSet.leaderworkerset.x-k8s.io"} <= set(QUEUEABLE)
    assert len(JUDGED_LABELS) == len(JUDGED_KINDS)


@pytest.mark.parametrize("label", QUEUEABLE)
def test_a_gpu_workload_naming_its_queue_passes(label: str) -> None:
    assert failed(workload(label, queue="training")) == []


@pytest.mark.parametrize("label", QUEUEABLE)
def test_a_gpu_workload_without_a_queue_is_refused(label: str) -> None:
    assert failed(workload(label)) == ["gpu-queue-name"]


@pytest.mark.parametrize("label", QUEUEABLE)
def test_a_workload_without_a_gpu_needs_no_queue(label: str) -> None:
    cpu = gpu_pod_spec()
    cpu["containers"][0]["resources"] = {"limits": {"cpu": "1"}}
    assert failed(workload(label, cpu)) == []


def test_a_gpu_daemonset_is_refused_even_with_a_queue_name() -> None:
    daemonset = workload("DaemonSet", queue="training")
    daemonset["metadata"]["labels"] = {QUEUE_NAME_LABEL: "training"}
    assert failed(daemonset) == ["gpu-daemonset-unqueued"]


def test_what_a_controller_made_was_judged_as_its_controller() -> None:
    pod = workload("Pod")
    pod["metadata"]["ownerReferences"] = [
        {"apiVersion": "batch/v1", "kind": "Job", "name": "train", "uid": "1", "controller": True}
    ]
    assert failed(pod) == []
    # An owner that is no controller does not excuse the pod.
    pod["metadata"]["ownerReferences"][0]["controller"] = False
    assert failed(pod) == ["gpu-queue-name"]


def test_a_replica_set_names_its_queue_on_its_pods() -> None:
    """A Deployment's ReplicaSet carries the label Kueue's webhook copied into the template."""
    replica_set = workload("ReplicaSet")
    replica_set["metadata"]["labels"] = {QUEUE_NAME_LABEL: "training"}
    assert failed(replica_set) == ["gpu-queue-name"]
    assert failed(workload("ReplicaSet", queue="training")) == []


def test_gpus_in_init_containers_and_amd_gpus_count_too() -> None:
    init = gpu_pod_spec()
    init["initContainers"] = init.pop("containers")
    init["containers"] = [{"name": "side", "image": "busybox:1.36"}]
    assert failed(workload("Job", init)) == ["gpu-queue-name"]
    amd = gpu_pod_spec()
    amd["containers"][0]["resources"] = {"limits": {"amd.com/gpu": 1}}
    assert failed(workload("JobSet.jobset.x-k8s.io", amd)) == ["gpu-queue-name"]


@pytest.mark.parametrize("label", ["Job", "LeaderWorkerSet.leaderworkerset.x-k8s.io", "Pod"])
def test_a_pod_that_claims_devices_is_a_gpu_workload(label: str) -> None:
    """DRA: a claim in a GPU namespace is on a GPU DeviceClass (the claims policy refuses any
    other), and Kueue charges it to the ClusterQueue through deviceClassMappings."""
    claims = gpu_pod_spec()
    claims["containers"][0]["resources"] = {"claims": [{"name": "gpu"}]}
    claims["resourceClaims"] = [{"name": "gpu", "resourceClaimTemplateName": "gpu-a100"}]
    assert failed(workload(label, claims)) == ["gpu-queue-name"]
    assert failed(workload(label, claims, queue="training")) == []
    claims["resourceClaims"] = []
    claims["containers"][0]["resources"] = {}
    assert failed(workload(label, claims)) == []


def test_every_validation_is_seen_refusing() -> None:
    seen = set(failed(workload("Job"))) | set(failed(workload("DaemonSet")))
    assert seen == {v.key for v in VALIDATIONS}


# --- bad input -------------------------------------------------------------------------------


def test_bad_args_name_every_bad_property_and_register_nothing() -> None:
    args = queue_args(
        version="0.18.0",
        scrape="prometheus",
        types={"training": {"reclaim_within_cohort": "Always"}},
    )
    args["namespaces"][0]["pools"] = ["nope"]
    err = refused(lambda: GpuQueues("q", args))
    assert paths(err) == [
        "types.training.reclaimWithinCohort",
        "namespaces[0].pools[0]",
        "scrape",
    ]
    assert reasons(err)["namespaces[0].pools[0]"] == "no pool named 'nope'"


def test_the_plan_rules_run_on_sound_args() -> None:
    err = refused(lambda: GpuQueues("q", queue_args(version="0.18.6")))
    assert paths(err) == ["version"]
    assert reasons(err)["version"].startswith("0.18.6 is older than 0.19.0")


def test_a_namespace_gives_one_quota() -> None:
    args = queue_args()
    args["namespaces"][0]["gpu_quota"] = 2  # beside its per-resource map
    err = refused(lambda: GpuQueues("q", args))
    assert paths(err) == ["namespaces[0].gpuQuota"]
