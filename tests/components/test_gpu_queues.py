"""GpuQueues: Kueue from its pinned chart in a deny-all namespace, the queue objects of
``plan.queues``, Kueue's metrics scraped, and the queue admission policy with the CEL of
``gpu_queue_admission_cel`` (evaluated in ``test_gpu_queue_admission_cel``)."""

from __future__ import annotations

from typing import Any

from gpu_facts import kueue
from gpu_facts.kueue import QUEUE_NAMESPACE_LABEL
from gpu_facts.network_policy import is_deny_all
from gpu_platform.components.gpu_queue_admission_cel import JUDGED_KINDS, VALIDATIONS, VARIABLES
from gpu_platform.components.gpu_queues import GpuQueues, GpuQueuesArgs
from gpu_platform.plan.queue_controller import controller_values
from gpu_platform.plan.queues import queues_plan
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.components.incluster_args import pools_args
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import by_type, one, run, run_once

RELEASE = "kubernetes:helm.sh/v3:Release"
NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
POLICY = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"
BINDING = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"
FLAVOR = "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor"
CLUSTER_QUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue"
LOCAL_QUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue"


def queue_args(**fields: Any) -> GpuQueuesArgs:
    """``platforms.aks_queued``'s queues as ``GpuPlatform`` passes them, ``fields`` over them."""
    platform = load_platform(platforms.aks_queued())
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
        "cloud": "aks",
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
    platform = load_platform(platforms.aks_queued())
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


def test_the_registered_policy_carries_the_modules_cel() -> None:
    """What GpuQueues registers is ``gpu_queue_admission_cel``'s CEL, as its tests evaluate it."""
    spec = one(queues(), POLICY).inputs["spec"]
    assert spec["variables"] == [{"name": v.name, "expression": v.expression} for v in VARIABLES]
    assert [(v["expression"], v["message"]) for v in spec["validations"]] == [
        (v.expression, v.message) for v in VALIDATIONS
    ]


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


def test_its_args_are_its_recorded_inputs() -> None:
    """What make verify --plan reads of it (components/recorded_inputs.py)."""
    (component,) = [r for r in queues().resources if r.type == "gpu-platform:index:GpuQueues"]
    assert set(component.inputs) == {"pools", "namespaces", "cloud"}
    assert [ns["name"] for ns in component.inputs["namespaces"]] == [
        ns["name"] for ns in queue_args()["namespaces"]
    ]
