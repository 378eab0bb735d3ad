"""Kueue's queues as the pack reads them (gpu_policy_support.queues): the objects in any version,
the queue a workload names, and its pods as Kueue admits them to each flavour."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pulumi_policy import PolicyResource
from pulumi_policy.proxy import unknown_checking_proxy

from gpu_facts.scheduling import Taint
from gpu_policy_support.queues import (
    Flavor,
    Queues,
    admitted_specs,
    eligible,
    kueue_kind,
    quantity,
    queue_name,
    queueable,
)
from gpu_policy_support.stack_index import index_by_type
from tests.policies.harness import Res, opts
from tests.policies.queue_fixtures import (
    CLUSTER_QUEUE,
    cluster_queue,
    flavor,
    local_queue,
    queued,
    queued_namespace,
    queues,
)


def resources(*declared: Res) -> list[PolicyResource]:
    return [
        PolicyResource(
            r.type, unknown_checking_proxy(r.props), r.urn, r.name, opts(), None, None, [], {}
        )
        for r in declared
    ]


def read(*declared: Res) -> Queues:
    return Queues.of(index_by_type(resources(*declared)))


def test_kueues_kinds_in_any_version() -> None:
    assert kueue_kind("kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue") == "ClusterQueue"
    assert kueue_kind("kubernetes:kueue.x-k8s.io/v1beta1:LocalQueue") == "LocalQueue"
    assert kueue_kind("kubernetes:batch/v1:Job") is None
    assert kueue_kind("azure-native:containerservice:AgentPool") is None


def test_quotas_as_numbers() -> None:
    assert quantity(8) == Decimal(8)
    assert quantity("8") == Decimal(8)
    assert quantity("2Gi") is None
    assert quantity(True) is None and quantity(None) is None


def test_the_program_s_queues() -> None:
    found = read(*queues(), queued_namespace("gpu-inference", "inference"))
    assert list(found.flavors) == ["t4"]
    assert found.flavors["t4"].node_labels == {"gpu-platform.io/pool": "t4"}
    assert found.cluster_queues["training"].cohort == "gpu-platform"
    assert found.cluster_queues["training"].quotas["t4"]["nvidia.com/gpu"].nominal == 4
    assert found.queued_namespaces == {"gpu-training": ["training"], "gpu-inference": ["inference"]}
    assert [f.name for f in found.flavors_of("gpu-training", "training") or []] == ["t4"]


def test_a_v1beta1_cluster_queue_names_its_cohort_cohort() -> None:
    old = cluster_queue()
    spec = dict(old.props["spec"])
    spec["cohort"] = spec.pop("cohortName")
    v1beta1 = Res(CLUSTER_QUEUE.replace("v1beta2", "v1beta1"), "old", {**old.props, "spec": spec})
    assert read(v1beta1).cluster_queues["training"].cohort == "gpu-platform"


def test_flavours_of_a_queue_the_program_lacks_are_unknown() -> None:
    assert read(flavor(), cluster_queue()).flavors_of("gpu-training", "training") is None
    assert read(cluster_queue(), local_queue()).flavors_of("gpu-training", "training") is None
    assert read(*queues()).flavors_of("gpu-training", "other") is None


def test_a_flavour_holds_what_its_queue_has_or_may_borrow() -> None:
    training = cluster_queue(quotas={"t4": {"nvidia.com/gpu": 0}})
    inference = cluster_queue("inference", quotas={"t4": {"nvidia.com/gpu": 4}})
    assert read(flavor(), training, inference).may_hold("training", "t4", "nvidia.com/gpu")
    assert not read(flavor(), training).may_hold("training", "t4", "nvidia.com/gpu")
    no_borrowing = cluster_queue(quotas={"t4": {"nvidia.com/gpu": 0}}, borrowing_limit=0)
    assert not read(flavor(), no_borrowing, inference).may_hold("training", "t4", "nvidia.com/gpu")
    assert not read(flavor(), training, inference).may_hold(
        "training", "t4", "nvidia.com/mig-1g.5gb"
    )


def test_where_each_kind_names_its_queue() -> None:
    for kind in ("Job", "CronJob", "ReplicaSet", "JobSet.jobset.x-k8s.io", "Pod"):
        res = queued(kind)
        assert queue_name(res.type, res.props) == "training", kind
        plain = queued(kind, queue=None)
        assert queue_name(plain.type, plain.props) is None, kind


def test_which_kinds_kueue_queues() -> None:
    assert queueable("kubernetes:batch/v1:Job")
    assert queueable("kubernetes:leaderworkerset.x-k8s.io/v1:LeaderWorkerSet")
    assert queueable("kubernetes:apps/v1:ReplicaSet")  # through its pods
    assert not queueable("kubernetes:apps/v1:DaemonSet")
    assert not queueable("kubernetes:serving.kserve.io/v1beta1:InferenceService")
    assert not queueable("kubernetes:core/v1:Namespace")


def _admissions(owner: Res, *declared: Res, spec: dict[str, Any] | None = None) -> list[Any]:
    index = index_by_type(resources(owner, *declared))
    (resource,) = [r for r in index[owner.type] if r.name == owner.name]
    pod = spec if spec is not None else owner.props["spec"]["template"]["spec"]
    return admitted_specs(pod, resource, Queues.of(index), ["nvidia.com/gpu"])


def test_admitted_to_a_flavour_the_pod_gets_its_labels_and_tolerations() -> None:
    (admitted,) = _admissions(queued("Job"), *queues())
    assert admitted.flavor.name == "t4"
    assert admitted.spec["nodeSelector"] == {"gpu-platform.io/pool": "t4"}
    assert [t["key"] for t in admitted.spec["tolerations"]] == ["nvidia.com/gpu"]
    assert "flavour 't4' of ClusterQueue 'training'" in admitted.where()


def test_a_toleration_the_pod_has_is_not_added_twice() -> None:
    job = queued("Job", {**queued("Job").props["spec"]["template"]["spec"]})
    spec = {
        **job.props["spec"]["template"]["spec"],
        "tolerations": [dict(flavor().props["spec"]["tolerations"][0])],
    }
    (admitted,) = _admissions(job, *queues(), spec=spec)
    assert len(admitted.spec["tolerations"]) == 1


def test_a_flavour_whose_labels_the_pods_selector_contradicts_cannot_take_it() -> None:
    job = queued("Job")
    spec = {
        **job.props["spec"]["template"]["spec"],
        "nodeSelector": {"gpu-platform.io/pool": "a100"},
    }
    (admitted,) = _admissions(job, *queues(), spec=spec)
    assert admitted.flavor is None  # judged as written: Kueue would leave it pending


def test_an_unqueued_or_unknown_queue_pod_is_judged_as_written() -> None:
    assert [a.flavor for a in _admissions(queued("Job", queue=None), *queues())] == [None]
    assert [a.flavor for a in _admissions(queued("Job"))] == [None]


def test_a_local_queue_named_default_is_the_queue_of_a_workload_that_names_none() -> None:
    """LocalQueue defaulting (always on from Kueue 0.19): the namespace's ``default`` queue for
    a kind Kueue queues; a DaemonSet is not read as defaulted; a named queue wins."""
    job, daemonset = queued("Job", queue=None), queued("DaemonSet", queue=None)
    defaulting = read(local_queue(name="default"))
    assert defaulting.queue_of(job.type, job.props) == "default"
    assert defaulting.queue_of(daemonset.type, daemonset.props) is None
    named = queued("Job", queue="training")
    assert defaulting.queue_of(named.type, named.props) == "training"
    assert read(local_queue()).queue_of(job.type, job.props) is None
    assert read(queued_namespace(queue="default")).queue_of(job.type, job.props) == "default"


def _flavour(
    labels: dict[str, str],
    taints: tuple[Taint, ...] = (),
    tolerations: tuple[dict[str, Any], ...] = (),
) -> Flavor:
    (resource,) = resources(flavor())
    return Flavor("f", labels, tolerations, taints, resource)


def _affinity(*terms: dict[str, Any]) -> dict[str, Any]:
    required = {"nodeSelectorTerms": list(terms)}
    return {
        "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}}
    }


def _term(key: str, operator: str, *values: str) -> dict[str, Any]:
    return {"matchExpressions": [{"key": key, "operator": operator, "values": list(values)}]}


def test_a_flavour_is_eligible_as_kueues_flavour_assigner_matches_it() -> None:
    """flavorassigner.go checkFlavorForPodSets: the pod's placement on the flavour's own label
    keys admits its labels, and its nodeTaints are tolerated by the pod's or its tolerations."""
    t4 = _flavour({"pool": "t4"})
    assert eligible({}, t4)
    assert eligible({"nodeSelector": {"zone": "a"}}, t4)  # another key: not the flavour's
    assert not eligible({"nodeSelector": {"pool": "a100"}}, t4)
    assert eligible(_affinity(_term("pool", "In", "t4", "a100")), t4)
    assert not eligible(_affinity(_term("pool", "NotIn", "t4")), t4)
    # Terms are ORed; a term left with no requirement on the flavour's keys matches any.
    assert eligible(_affinity(_term("pool", "In", "a100"), _term("zone", "In", "a")), t4)
    assert not eligible(_affinity(_term("pool", "In", "a100"), _term("pool", "In", "v100")), t4)
    spot = Taint("spot", "true", "NoSchedule")
    tainted = _flavour({"pool": "t4"}, taints=(spot,))
    assert not eligible({}, tainted)
    assert eligible({"tolerations": [{"key": "spot", "operator": "Exists"}]}, tainted)
    tolerating = _flavour(
        {"pool": "t4"}, taints=(spot,), tolerations=({"key": "spot", "operator": "Exists"},)
    )
    assert eligible({}, tolerating)
    assert eligible({}, _flavour({}, taints=(Taint("spot", "true", "PreferNoSchedule"),)))
