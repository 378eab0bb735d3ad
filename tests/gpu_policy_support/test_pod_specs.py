"""pod_specs: which types bear pods (any version; a kind is known by its group too), and every
pod of a resource, named by where it sits."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pulumi_policy.proxy import UNKNOWN_OBJECT_VALUE, UnknownValueError, unknown_checking_proxy

from gpu_policy_support.pod_specs import is_cluster_scoped, pod_bearing, pod_sites, pod_spec
from tests.policies.crd_fixtures import CPU_TEMPLATE
from tests.policies.pod_fixtures import gpu_pod_spec, wrap


@pytest.mark.parametrize(
    ("type_token", "label"),
    [
        ("kubernetes:core/v1:Pod", "Pod"),
        ("kubernetes:extensions/v1beta1:Deployment", "Deployment"),
        ("kubernetes:batch/v1beta1:CronJob", "CronJob"),
        ("kubernetes:ray.io/v1alpha1:RayCluster", "RayCluster.ray.io"),
        ("kubernetes:kubeflow.org/v2beta1:MPIJob", "MPIJob.kubeflow.org"),
        ("kubernetes:batch.volcano.sh/v1alpha1:Job", "Job.batch.volcano.sh"),
        ("kubernetes:serving.knative.dev/v1:Service", "Service.serving.knative.dev"),
    ],
)
def test_a_kind_is_known_by_its_group_in_any_version(type_token: str, label: str) -> None:
    kind = pod_bearing(type_token)
    assert kind is not None and kind.label == label


@pytest.mark.parametrize(
    "type_token",
    [
        "kubernetes:core/v1:Service",  # not Knative's Service
        "kubernetes:example.com/v1:RayCluster",  # another group's kind of the same name
        "kubernetes:monitoring.coreos.com/v1:PodMonitor",
        "kubernetes:apps/v1:DeploymentPatch",
        "aws:eks/nodeGroup:NodeGroup",
    ],
)
def test_other_types_bear_no_pods(type_token: str) -> None:
    assert pod_bearing(type_token) is None
    assert pod_sites(type_token, {"spec": {"template": {"spec": gpu_pod_spec()}}}) == []


def test_kubernetes_own_kinds_have_one_unnamed_pod() -> None:
    res = wrap("Deployment", gpu_pod_spec())
    (site,) = pod_sites(res.type, res.props)
    assert (site.where, site.spec, site.named("trainer")) == ("", gpu_pod_spec(), "'trainer'")


def test_every_template_of_a_custom_resource_is_a_pod_named_by_its_path() -> None:
    res = wrap("RayJob.ray.io", gpu_pod_spec())
    res.props["spec"]["submitterPodTemplate"] = copy.deepcopy(CPU_TEMPLATE)
    sites = pod_sites(res.type, res.props)
    assert [s.where for s in sites] == [
        "spec.rayClusterSpec.headGroupSpec.template",
        "spec.rayClusterSpec.workerGroupSpecs[gpu].template",
        "spec.submitterPodTemplate",
    ]
    assert sites[1].spec == gpu_pod_spec()
    assert sites[1].named("ray") == "'ray' (spec.rayClusterSpec.workerGroupSpecs[gpu].template)"


def test_map_values_and_unnamed_list_items_are_walked() -> None:
    res = wrap("PyTorchJob.kubeflow.org", gpu_pod_spec())
    assert [s.where for s in pod_sites(res.type, res.props)] == [
        "spec.pytorchReplicaSpecs.Master.template",
        "spec.pytorchReplicaSpecs.Worker.template",
    ]
    jobset = wrap("JobSet.jobset.x-k8s.io", gpu_pod_spec())
    jobset.props["spec"]["replicatedJobs"][0].pop("name")
    assert [s.where for s in pod_sites(jobset.type, jobset.props)] == [
        "spec.replicatedJobs[0].template.spec.template"
    ]


def test_an_absent_optional_template_is_no_pod() -> None:
    res = wrap("LeaderWorkerSet.leaderworkerset.x-k8s.io", gpu_pod_spec())
    del res.props["spec"]["leaderWorkerTemplate"]["leaderTemplate"]
    assert [s.where for s in pod_sites(res.type, res.props)] == [
        "spec.leaderWorkerTemplate.workerTemplate"
    ]


def test_pod_spec_is_for_kubernetes_own_kinds_only() -> None:
    volcano = wrap("Job.batch.volcano.sh", gpu_pod_spec())
    assert pod_spec(volcano.type, volcano.props) is None
    job = wrap("Job", gpu_pod_spec())
    assert pod_spec(job.type, job.props) == gpu_pod_spec()
    assert pod_spec(job.type, {}) == {}


def test_cluster_wide_runtimes_are_cluster_scoped() -> None:
    assert is_cluster_scoped("kubernetes:serving.kserve.io/v1alpha1:ClusterServingRuntime")
    assert not is_cluster_scoped("kubernetes:serving.kserve.io/v1alpha1:ServingRuntime")
    assert not is_cluster_scoped("kubernetes:core/v1:ConfigMap")


def test_an_unknown_template_list_raises_the_analyzers_error() -> None:
    """As for a Deployment's unknown template: the runner reports "can't run policy"."""
    props: dict[str, Any] = {"spec": {"workerGroupSpecs": UNKNOWN_OBJECT_VALUE}}
    with pytest.raises(UnknownValueError):
        pod_sites("kubernetes:ray.io/v1:RayCluster", unknown_checking_proxy(props))
