"""GpuWorkloadNamespace on the mock engine: labels, exact NetworkPolicies, GPU quota keys."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pulumi
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpu_facts.scheduling import MPS_HOST_IPC_LABEL
from gpu_platform.components.gpu_workload_namespace import GpuWorkloadNamespace
from gpu_platform.components.platform import GpuPlatform
from gpu_platform.offline_preview import ProgramRun
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from gpu_platform.plan.namespaces import (
    gpu_quota,
    mps_host_ipc,
    pod_security_level,
    workload_problems,
)
from gpu_platform.plan.pools import PoolFacts, resolve_pool
from gpu_platform.settings import WorkloadSettings
from gpu_platform.stack_config import ConfigError, load_platform
from tests.components import platforms
from tests.components.incluster_args import namespace_args
from tests.components.input_errors import paths
from tests.conftest import by_type, one, run
from tests.pools import gpu_pool

NAMESPACE = "kubernetes:core/v1:Namespace"
NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
QUOTA = "kubernetes:core/v1:ResourceQuota"
LIMIT_RANGE = "kubernetes:core/v1:LimitRange"
COMPONENT = "gpu-platform:index:GpuWorkloadNamespace"


def azure_pool(**kwargs: Any) -> PoolFacts:
    return resolve_pool("aks", gpu_pool(kwargs))


def ack_pool(**kwargs: Any) -> PoolFacts:
    return resolve_pool("ack", gpu_pool(kwargs))


MIG_MIXED = azure_pool(
    name="mig", vmSize="Standard_ND96asr_v4", count=2, mig={"profile": "MIG1g", "strategy": "mixed"}
)
MIG_SINGLE = azure_pool(
    name="migs",
    vmSize="Standard_ND96asr_v4",
    count=1,
    mig={"profile": "MIG3g", "strategy": "single"},
)
PLAIN = azure_pool(name="h100", vmSize="Standard_NC40ads_H100_v5", count=2)
SHARED = azure_pool(
    name="t4",
    vmSize="Standard_NC4as_T4_v3",
    autoscale={"min": 0, "max": 3},
    sharing={"mode": "timeSlicing", "replicas": 4},
)
SHARED_NOT_RENAMED = azure_pool(
    name="t4plain",
    vmSize="Standard_NC4as_T4_v3",
    count=1,
    sharing={"mode": "timeSlicing", "replicas": 2, "renameByDefault": False},
)
ACK_MPS = ack_pool(
    name="mps", instanceType="ecs.gn7i-c8g1.2xlarge", count=2, sharing={"mode": "mps"}
)
ACK_CGPU = ack_pool(
    name="cgpu", instanceType="ecs.gn7i-c8g1.2xlarge", count=1, sharing={"mode": "cgpu"}
)
AMD = azure_pool(name="mi300x", vmSize="Standard_ND96isr_MI300X_v5", count=2)
"""2 nodes of 8 MI300X: 16 amd.com/gpu."""


def workload(**kwargs: Any) -> WorkloadSettings:
    data: dict[str, Any] = {"name": "gpu-training", "type": "training", "gpuQuota": 8}
    return WorkloadSettings.model_validate({**data, **kwargs})


def run_namespace(
    wl: WorkloadSettings, pools: Sequence[PoolFacts], cluster: Sequence[str] | None = None
) -> ProgramRun:
    args = namespace_args(wl, list(pools), list(cluster) if cluster is not None else None)
    return run(lambda: GpuWorkloadNamespace("train", args))


def policies(result: ProgramRun) -> dict[str, dict[str, Any]]:
    return {r.inputs["metadata"]["name"]: r.inputs["spec"] for r in by_type(result, NETWORK_POLICY)}


def labels(result: ProgramRun) -> dict[str, str]:
    return one(result, NAMESPACE).inputs["metadata"]["labels"]


def hard(result: ProgramRun) -> dict[str, str]:
    return one(result, QUOTA).inputs["spec"]["hard"]


# --- Namespace labels (BP-07, BP-09) and Pod Security --------------------------------------


def psa(enforce: str) -> dict[str, str]:
    prefix = "pod-security.kubernetes.io/"
    return {
        f"{prefix}enforce": enforce,
        f"{prefix}enforce-version": "latest",
        f"{prefix}warn": "restricted",
        f"{prefix}warn-version": "latest",
        f"{prefix}audit": "restricted",
        f"{prefix}audit-version": "latest",
    }


def test_training_namespace_labels_are_exact() -> None:
    result = run_namespace(workload(), [MIG_MIXED])
    assert labels(result) == {
        "workload": "training",
        "gpu-platform.io/gpu-workloads": "true",
        **psa("baseline"),
    }
    assert one(result, NAMESPACE).inputs["metadata"]["name"] == "gpu-training"
    assert "annotations" not in one(result, NAMESPACE).inputs["metadata"]


def test_a_queued_namespace_names_its_local_queue() -> None:
    args = {**namespace_args(workload(), [MIG_MIXED]), "local_queue": "training"}
    result = run(lambda: GpuWorkloadNamespace("train", args))  # type: ignore[arg-type]
    assert labels(result)["gpu-platform.io/local-queue"] == "training"


def test_inference_is_restricted_and_config_wins() -> None:
    inference = workload(name="gpu-inference", type="inference")
    assert labels(run_namespace(inference, [PLAIN])) == {
        "workload": "inference",
        "gpu-platform.io/gpu-workloads": "true",
        **psa("restricted"),
    }
    custom = workload(type="batch", podSecurity="restricted")
    assert labels(run_namespace(custom, [PLAIN]))["pod-security.kubernetes.io/enforce"] == (
        "restricted"
    )
    assert pod_security_level(workload(type="batch"), [PLAIN]) == "baseline"


def test_logging_labels_and_annotations_are_added() -> None:
    wl = workload(
        logging={
            "labels": {"logging.example.com/pipeline": "gpu", "team": "ml"},
            "annotations": {"fluentbit.io/parser": "json"},
        }
    )
    result = run_namespace(wl, [MIG_MIXED])
    assert labels(result) == {
        "logging.example.com/pipeline": "gpu",
        "team": "ml",
        "workload": "training",
        "gpu-platform.io/gpu-workloads": "true",
        **psa("baseline"),
    }
    assert one(result, NAMESPACE).inputs["metadata"]["annotations"] == {
        "fluentbit.io/parser": "json"
    }


def test_ack_mps_namespace_gets_the_hostipc_exception_and_nothing_more() -> None:
    wl = workload(name="gpu-mps", type="inference", gpuQuota=48)
    result = run_namespace(wl, [ACK_MPS])
    assert labels(result) == {
        "workload": "inference",
        "gpu-platform.io/gpu-workloads": "true",
        MPS_HOST_IPC_LABEL: "required",
        **psa("privileged"),
    }
    # Without MPS pools there is no exception; with MPS beside cGPU, hostIPC is optional.
    assert mps_host_ipc([ACK_CGPU]) is None
    assert mps_host_ipc([MIG_MIXED, PLAIN]) is None
    assert mps_host_ipc([ACK_MPS, ACK_CGPU]) == "allowed"
    assert MPS_HOST_IPC_LABEL not in labels(run_namespace(workload(), [ACK_CGPU]))


# --- NetworkPolicies (BP-08) ---------------------------------------------------------------

DENY_ALL = {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}
DNS = {
    "podSelector": {},
    "policyTypes": ["Egress"],
    "egress": [
        {
            "to": [
                {
                    "namespaceSelector": {
                        "matchLabels": {"kubernetes.io/metadata.name": "kube-system"}
                    }
                }
            ],
            "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}],
        }
    ],
}


def by_name(namespace: str) -> dict[str, Any]:
    return {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": namespace}}}


def test_default_is_deny_all_plus_dns_only() -> None:
    assert policies(run_namespace(workload(), [MIG_MIXED])) == {
        "default-deny-all": DENY_ALL,
        "allow-dns-egress": DNS,
    }


def test_without_grants_only_the_deny_all_exists() -> None:
    result = run_namespace(workload(traffic={"dns": False}), [MIG_MIXED])
    assert policies(result) == {"default-deny-all": DENY_ALL}


def test_every_grant_is_its_own_named_policy() -> None:
    wl = workload(
        traffic={
            "egressCidrs": ["10.20.0.0/16", "192.168.1.10/32"],
            "egressNamespaces": ["datasets"],
            "ingressNamespaces": ["gateway", "monitoring"],
            "sameNamespace": True,
        }
    )
    every_pod: dict[str, Any] = {"podSelector": {}}
    assert policies(run_namespace(wl, [MIG_MIXED])) == {
        "default-deny-all": DENY_ALL,
        "allow-dns-egress": DNS,
        "allow-same-namespace": {
            "podSelector": {},
            "policyTypes": ["Ingress", "Egress"],
            "ingress": [{"from": [every_pod]}],
            "egress": [{"to": [every_pod]}],
        },
        "allow-egress-cidrs": {
            "podSelector": {},
            "policyTypes": ["Egress"],
            "egress": [
                {
                    "to": [
                        {"ipBlock": {"cidr": "10.20.0.0/16"}},
                        {"ipBlock": {"cidr": "192.168.1.10/32"}},
                    ]
                }
            ],
        },
        "allow-egress-namespaces": {
            "podSelector": {},
            "policyTypes": ["Egress"],
            "egress": [{"to": [by_name("datasets")]}],
        },
        "allow-ingress-namespaces": {
            "podSelector": {},
            "policyTypes": ["Ingress"],
            "ingress": [{"from": [by_name("gateway"), by_name("monitoring")]}],
        },
    }


def test_training_and_inference_do_not_reach_each_other() -> None:
    platform = load_platform(platforms.existing_mig_and_time_slicing())
    result = run(lambda: GpuPlatform("existing", platform))
    peers = {
        r.inputs["metadata"]["namespace"]: r.inputs["spec"]
        for r in by_type(result, NETWORK_POLICY)
        if r.inputs["metadata"]["name"] != "default-deny-all"
    }
    # Neither namespace names the other anywhere in what it allows.
    text = {ns: repr(spec) for ns, spec in peers.items()}
    assert "gpu-inference" not in text["gpu-training"]
    assert "gpu-training" not in text["gpu-inference"]
    deny = [
        r
        for r in by_type(result, NETWORK_POLICY)
        if r.inputs["metadata"]["name"] == "default-deny-all"
    ]
    # Every namespace the platform creates denies all by default: the workloads', the driver
    # checks', the GPU metrics' and the device plugin's.
    created = {
        r.inputs["metadata"]["name"] for r in by_type(result, "kubernetes:core/v1:Namespace")
    }
    assert {r.inputs["metadata"]["namespace"] for r in deny} == created
    assert sorted(r.inputs["metadata"]["namespace"] for r in deny) == [
        "gpu-inference",
        "gpu-metrics",
        "gpu-readiness",
        "gpu-training",
        "nvidia-device-plugin",
    ]
    assert all(r.inputs["spec"] == DENY_ALL for r in deny)


# --- ResourceQuota and LimitRange (BP-09) --------------------------------------------------


@pytest.mark.parametrize(
    ("pools", "quota", "expected"),
    [
        ([MIG_MIXED], 8, {"requests.nvidia.com/mig-1g.5gb": "8"}),
        ([MIG_SINGLE], 8, {"requests.nvidia.com/gpu": "8"}),
        ([PLAIN], 2, {"requests.nvidia.com/gpu": "2"}),
        ([SHARED], 16, {"requests.nvidia.com/gpu.shared": "16"}),
        ([SHARED_NOT_RENAMED], 4, {"requests.nvidia.com/gpu": "4"}),
        ([ACK_MPS], 48, {"requests.aliyun.com/gpu-mem": "48"}),
        (
            [MIG_MIXED, PLAIN],
            4,
            {"requests.nvidia.com/mig-1g.5gb": "4", "requests.nvidia.com/gpu": "4"},
        ),
        (
            [MIG_MIXED, PLAIN],
            {"nvidia.com/mig-1g.5gb": 56},
            {"requests.nvidia.com/mig-1g.5gb": "56", "requests.nvidia.com/gpu": "0"},
        ),
    ],
    ids=[
        "mig-mixed",
        "mig-single",
        "plain",
        "shared",
        "shared-not-renamed",
        "ack-gpu-mem",
        "two-pools",
        "per-resource-map",
    ],
)
def test_gpu_quota_keys_follow_the_pools(
    pools: list[PoolFacts], quota: Any, expected: dict[str, str]
) -> None:
    result = run_namespace(workload(gpuQuota=quota), pools)
    assert hard(result) == {
        **expected,
        "requests.cpu": "64",
        "requests.memory": "512Gi",
        "pods": "100",
    }
    # Kubernetes accepts only the requests. form for extended resources.
    assert not [k for k in hard(result) if k.startswith("limits.")]


def test_cluster_gpu_resources_outside_the_namespace_pools_are_pinned_at_zero() -> None:
    cluster = ["nvidia.com/mig-1g.5gb", "nvidia.com/gpu.shared"]
    assert gpu_quota(workload(), [MIG_MIXED], cluster) == {
        "requests.nvidia.com/gpu.shared": "0",
        "requests.nvidia.com/mig-1g.5gb": "8",
    }


ALL_POOLS = [MIG_MIXED, MIG_SINGLE, PLAIN, SHARED, SHARED_NOT_RENAMED, ACK_MPS, ACK_CGPU, AMD]


@given(
    pools=st.lists(st.sampled_from(ALL_POOLS), min_size=1, unique_by=lambda pf: pf.name),
    amount=st.integers(min_value=0, max_value=10_000),
)
def test_quota_covers_every_resource_the_pools_expose(pools: list[PoolFacts], amount: int) -> None:
    cluster = sorted({r for pf in ALL_POOLS for r in pf.capacity.per_node})
    quota = gpu_quota(workload(gpuQuota=amount), pools, cluster)
    offered = {r for pf in pools for r in pf.capacity.per_node}
    assert set(quota) == {f"requests.{r}" for r in cluster}
    for resource in cluster:
        assert quota[f"requests.{resource}"] == (str(amount) if resource in offered else "0")


def test_compute_quota_and_container_defaults_from_config() -> None:
    wl = workload(
        quota={"cpu": "32", "memory": "256Gi", "pods": 40},
        defaults={"cpu": "250m", "memory": "512Mi"},
    )
    result = run_namespace(wl, [PLAIN])
    assert hard(result) == {
        "requests.nvidia.com/gpu": "8",
        "requests.cpu": "32",
        "requests.memory": "256Gi",
        "pods": "40",
    }
    limit_range = one(result, LIMIT_RANGE).inputs
    assert limit_range["metadata"] == {"name": "container-defaults", "namespace": "gpu-training"}
    assert limit_range["spec"] == {
        "limits": [
            {
                "type": "Container",
                "default": {"cpu": "250m", "memory": "512Mi"},
                "defaultRequest": {"cpu": "250m", "memory": "512Mi"},
            }
        ]
    }


# --- Component conventions ------------------------------------------------------------------


def test_children_are_named_parented_and_namespaced() -> None:
    wl = workload(traffic={"ingressNamespaces": ["gateway"]})
    result = run_namespace(wl, [MIG_MIXED])
    component = one(result, COMPONENT)
    children = [r for r in result.resources if r is not component]
    assert sorted(r.name for r in children) == [
        "train-allow-dns-egress",
        "train-allow-ingress-namespaces",
        "train-default-deny-all",
        "train-limits",
        "train-namespace",
        "train-quota",
    ]
    assert all(r.parent == component.urn for r in children)
    namespaced = [r for r in children if r.type != NAMESPACE]
    assert all(r.inputs["metadata"]["namespace"] == "gpu-training" for r in namespaced)
    # They take the namespace name from the Namespace, so the engine creates it first.
    ns_urn = one(result, NAMESPACE).urn
    assert all(ns_urn in r.dependencies for r in namespaced)
    assert all(r.inputs["metadata"].get("name") for r in children)


def test_platform_builds_one_namespace_per_workload_and_one_admission_policy() -> None:
    platform = load_platform(platforms.existing_mig_and_time_slicing())
    result = run(lambda: GpuPlatform("existing", platform))
    namespaces = {
        r.inputs["metadata"]["name"]: r
        for r in by_type(result, NAMESPACE)
        if r.inputs["metadata"]["labels"].get("gpu-platform.io/gpu-workloads") == "true"
    }
    assert set(namespaces) == {"gpu-training", "gpu-inference"}
    one(result, "gpu-platform:index:GpuAdmissionPolicy")
    quotas = {
        r.inputs["metadata"]["namespace"]: r.inputs["spec"]["hard"] for r in by_type(result, QUOTA)
    }
    # The existing cluster: training gets the MIG pool only, inference the shared T4 pool only.
    assert quotas["gpu-training"]["requests.nvidia.com/mig-3g.20gb"] == "8"
    assert quotas["gpu-training"]["requests.nvidia.com/gpu.shared"] == "0"
    assert quotas["gpu-inference"]["requests.nvidia.com/gpu.shared"] == "16"
    assert quotas["gpu-inference"]["requests.nvidia.com/mig-3g.20gb"] == "0"


def test_platform_exports_the_namespace_names() -> None:
    platform = load_platform(platforms.existing_mig_and_time_slicing())

    def program() -> None:
        import pulumi

        pulumi.export("namespaces", GpuPlatform("existing", platform).namespaces)

    assert run(program).outputs["namespaces"] == ["gpu-training", "gpu-inference"]


# --- Bad input: a clear error, nothing registered -------------------------------------------


@pytest.mark.parametrize(
    ("wl", "pools", "path", "fragment"),
    [
        (
            workload(logging={"labels": {"workload": "x"}}),
            [PLAIN],
            "logging.labels.workload",
            "set by the platform",
        ),
        (
            workload(logging={"labels": {"pod-security.kubernetes.io/enforce": "privileged"}}),
            [PLAIN],
            "logging.labels.pod-security.kubernetes.io/enforce",
            "set by the platform",
        ),
        (
            workload(logging={"annotations": {"gpu-platform.io/x": "y"}}),
            [PLAIN],
            "logging.annotations.gpu-platform.io/x",
            "set by",
        ),
        (
            workload(logging={"labels": {"bad key!": "x"}}),
            [PLAIN],
            "logging.labels.bad key!",
            "not a Kubernetes",
        ),
        (
            workload(logging={"labels": {"team": "a b"}}),
            [PLAIN],
            "logging.labels.team",
            "'a b': Kubernetes label values are at most 63 characters",
        ),
        (
            workload(traffic={"egressCidrs": ["10.0.0.1/8"]}),
            [PLAIN],
            "traffic.egressCidrs[0]",
            "not a CIDR",
        ),
        (workload(podSecurity="restricted"), [ACK_MPS], "podSecurity", "hostIPC"),
    ],
    ids=["type-label", "psa-label", "own-domain", "key-syntax", "value-syntax", "cidr", "mps-psa"],
)
def test_bad_input_raises_and_registers_nothing(
    wl: WorkloadSettings, pools: list[PoolFacts], path: str, fragment: str
) -> None:
    errors: list[pulumi.InputPropertiesError] = []

    def program() -> None:
        try:
            GpuWorkloadNamespace("bad", namespace_args(wl, pools))
        except pulumi.InputPropertiesError as err:
            errors.append(err)

    assert run(program).resources == []
    assert len(errors) == 1
    assert errors[0].message.startswith(f"GpuWorkloadNamespace 'bad': {path}: ")
    assert paths(errors[0]) == [path]
    assert fragment in errors[0].message


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"gpu_quota": -1}, ["gpuQuota"]),
        ({"gpu_quota_per_resource": {"nvidia.com/gpu": 2}}, ["gpuQuota"]),  # both given
        ({"gpu_quota": None}, ["gpuQuota"]),
        ({"name": "Gpu_Training", "pod_security": "open"}, ["name", "podSecurity"]),
        ({"quota": {"cpu": "lots", "pods": 0}}, ["quota.cpu", "quota.pods"]),
        ({"traffic": {"egress_cidrs": ["10.0.0.1/8"], "dns": "yes"}}, ["traffic.dns"]),
        ({"cloud": "gcp"}, ["cloud"]),
        ({"workload": {}}, ["workload"]),  # the old shape: refused, not ignored
        ({"local_queue": "Training Queue"}, ["localQueue"]),
    ],
)
def test_bad_args_name_every_bad_property(change: dict[str, Any], expected: list[str]) -> None:
    args: dict[str, Any] = {**namespace_args(workload(), [PLAIN]), **change}
    if args.get("gpu_quota", 0) is None:
        del args["gpu_quota"]
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: GpuWorkloadNamespace("bad", args), monitor=monitor)  # type: ignore[arg-type]
    assert paths(err.value) == expected
    assert monitor.recorded == []


def test_bad_per_resource_quota_and_pool_are_named() -> None:
    args = namespace_args(workload(gpuQuota={"nvidia.com/gpu": 2}), [PLAIN])
    args["gpu_quota_per_resource"] = {"nvidia.com/gpu": -2}
    args["pools"] = [{**args["pools"][0], "vm_size": "Standard_D2s_v3"}]
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: GpuWorkloadNamespace("bad", args))
    assert paths(err.value) == ["pools[0].vmSize", "gpuQuotaPerResource.nvidia.com/gpu"]


def test_config_rules_report_workload_problems_with_their_paths() -> None:
    raw = platforms.existing_mig_and_time_slicing()
    raw["workloads"][0]["logging"] = {"labels": {"workload": "x"}}
    raw["workloads"][1]["traffic"] = {"egressCidrs": ["10.1.2.3/16"]}
    with pytest.raises(ConfigError) as err:
        load_platform(raw)
    paths = [path for path, _ in err.value.problems]
    assert "workloads[0].logging.labels.workload" in paths
    assert "workloads[1].traffic.egressCidrs[0]" in paths


def test_mps_pod_security_rule_both_ways() -> None:
    assert workload_problems(workload(podSecurity="baseline"), [ACK_MPS], "w") == [
        (
            "w.podSecurity",
            "pods on ACK MPS pools need hostIPC: true, which Pod Security 'baseline' refuses; "
            "leave podSecurity unset (privileged, the admission policy enforces the rest of "
            "baseline)",
        )
    ]
    assert workload_problems(workload(podSecurity="baseline"), [ACK_CGPU], "w") == []
    assert workload_problems(workload(), [ACK_MPS], "w") == []


# --- AMD pools: amd.com/gpu in the quota, never in the LimitRange ----------------------------


def test_amd_namespace_quota_counts_amd_gpus_and_pins_nvidia_ones_at_zero() -> None:
    result = run_namespace(workload(gpuQuota=8), [AMD], ["amd.com/gpu", "nvidia.com/gpu"])
    assert {k: v for k, v in hard(result).items() if "com/" in k} == {
        "requests.amd.com/gpu": "8",
        "requests.nvidia.com/gpu": "0",
    }
    limit_range = one(result, LIMIT_RANGE).inputs["spec"]["limits"]
    # No GPU resource in the LimitRange: a max would become every container's default limit.
    assert [sorted(item) for item in limit_range] == [["default", "defaultRequest", "type"]]
    assert not [r for item in limit_range for r in item["default"] if "/" in r]


def test_nvidia_namespace_pins_amd_gpus_at_zero() -> None:
    assert gpu_quota(workload(gpuQuota=2), [PLAIN], ["amd.com/gpu", "nvidia.com/gpu"]) == {
        "requests.amd.com/gpu": "0",
        "requests.nvidia.com/gpu": "2",
    }


# --- DRA pools: claim templates per shape, quotas on device classes ------------------------

CLAIM_TEMPLATE = "kubernetes:resource.k8s.io/v1:ResourceClaimTemplate"
H100_DRA = azure_pool(
    name="h100dra",
    vmSize="Standard_NC40ads_H100_v5",
    autoscale={"min": 0, "max": 2},
    allocation="dra",
)
A100_DRA_MIG = azure_pool(
    name="a100dramig",
    vmSize="Standard_ND96asr_v4",
    count=1,
    allocation="dra",
    mig={"profile": "MIG1g"},
)
GPU_CLASSES = ["gpu.nvidia.com", "mig.nvidia.com", "vfio.gpu.nvidia.com"]


def run_dra_namespace(wl: WorkloadSettings, pools: Sequence[PoolFacts]) -> ProgramRun:
    args = namespace_args(wl, list(pools))
    args["cluster_device_classes"] = GPU_CLASSES
    return run(lambda: GpuWorkloadNamespace("train", args))


def dra_namespace_run() -> tuple[dict[str, str], dict[str, str]]:
    """A namespace on both DRA pools: its labels and quota (the admission tests read them)."""
    result = run_dra_namespace(workload(gpuQuota=4), [H100_DRA, A100_DRA_MIG])
    return labels(result), hard(result)


def test_dra_namespace_gets_a_template_per_shape_and_quotas_per_class() -> None:
    result = run_dra_namespace(
        workload(gpuQuota={"gpu.nvidia.com": 2, "mig.nvidia.com": 28}), [H100_DRA, A100_DRA_MIG]
    )
    templates = {r.inputs["metadata"]["name"]: r.inputs for r in by_type(result, CLAIM_TEMPLATE)}
    assert sorted(templates) == ["gpu-h100", "mig-1g-5gb"]
    gpu = templates["gpu-h100"]
    assert gpu["metadata"]["namespace"] == "gpu-training"
    (request,) = gpu["spec"]["spec"]["devices"]["requests"]
    assert request == {
        "name": "gpu",
        "exactly": {
            "deviceClassName": "gpu.nvidia.com",
            "allocationMode": "ExactCount",
            "count": 1,
            "selectors": [
                {
                    "cel": {
                        "expression": "device.attributes['gpu.nvidia.com'].productName"
                        ".matches('(^|[^A-Za-z0-9])H100([^A-Za-z0-9]|$)')"
                    }
                }
            ],
        },
    }
    (mig,) = templates["mig-1g-5gb"]["spec"]["spec"]["devices"]["requests"]
    assert mig["exactly"]["deviceClassName"] == "mig.nvidia.com"
    assert mig["exactly"]["selectors"] == [
        {"cel": {"expression": "device.attributes['gpu.nvidia.com'].profile == '1g.5gb'"}}
    ]
    # The quota: the configured numbers, 0 for the class neither pool publishes; no
    # extended-resource key for a DRA pool (its nodes advertise none).
    assert {k: v for k, v in hard(result).items() if "nvidia" in k} == {
        "gpu.nvidia.com.deviceclass.resource.k8s.io/devices": "2",
        "mig.nvidia.com.deviceclass.resource.k8s.io/devices": "28",
        "vfio.gpu.nvidia.com.deviceclass.resource.k8s.io/devices": "0",
    }
    assert {k: v for k, v in labels(result).items() if k.startswith("device-class.")} == {
        "device-class.gpu-platform.io/gpu.nvidia.com": "capped",
        "device-class.gpu-platform.io/mig.nvidia.com": "capped",
        "device-class.gpu-platform.io/vfio.gpu.nvidia.com": "capped",
    }


def test_a_device_plugin_namespace_in_a_dra_cluster_claims_nothing() -> None:
    result = run_dra_namespace(workload(gpuQuota=8), [PLAIN])
    assert by_type(result, CLAIM_TEMPLATE) == []
    quota = hard(result)
    assert quota["requests.nvidia.com/gpu"] == "8"
    for device_class in GPU_CLASSES:
        assert quota[f"{device_class}.deviceclass.resource.k8s.io/devices"] == "0"


def test_one_number_caps_every_class_the_pools_publish() -> None:
    quota = hard(run_dra_namespace(workload(gpuQuota=3), [H100_DRA]))
    assert quota["gpu.nvidia.com.deviceclass.resource.k8s.io/devices"] == "3"
    assert quota["mig.nvidia.com.deviceclass.resource.k8s.io/devices"] == "0"


def test_outside_a_dra_cluster_nothing_changes() -> None:
    result = run_namespace(workload(gpuQuota=8), [PLAIN])
    assert by_type(result, CLAIM_TEMPLATE) == []
    assert not any("deviceclass" in key for key in hard(result))
    assert not any(key.startswith("device-class.") for key in labels(result))
