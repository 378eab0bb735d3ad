"""DriverCheck: the generated script run for real, and the Jobs on the mock engine."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pulumi
import pytest
from pydantic import ValidationError

from gpu_facts.scheduling import GPU_NAMESPACE_LABEL, MPS_HOST_IPC_LABEL
from gpu_platform.components.driver_check import (
    CHECK_APP,
    OLD_TYPE_TOKEN,
    TYPE_TOKEN,
    DriverCheck,
    amd_check_script,
    check_script,
)
from gpu_platform.components.gpu_admission_policy import GpuAdmissionPolicy
from gpu_platform.offline_preview import ProgramRun, RecordedResource, run_policies
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from gpu_platform.plan.driver_checks import checked_pools
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.settings import DriverCheckSettings
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_platform.verify.nvidia_smi import NvidiaSmiError, parse_driver_version
from gpu_policies.registry import policies
from tests.components import platforms
from tests.components.incluster_args import check_args, pools_args
from tests.components.input_errors import paths
from tests.conftest import by_type, one, run
from tests.k8s_schema import assert_valid_manifest, manifest_of

DATA = Path(__file__).parents[1] / "data" / "nvidia_smi"
JOB = "kubernetes:batch/v1:Job"
CRON_JOB = "kubernetes:batch/v1:CronJob"
NAMESPACE = "kubernetes:core/v1:Namespace"

# A stand-in for nvidia-smi: prints a recorded sample and exits with the recorded status.
FAKE_NVIDIA_SMI = """#!/bin/sh
if [ "${1:-}" = "-L" ]; then cat "$FAKE_LIST"; exit "${FAKE_LIST_EXIT:-0}"; fi
cat "$FAKE_TABLE"
exit "${FAKE_EXIT:-0}"
"""


def run_check(
    tmp_path: Path,
    table: str,
    *,
    min_major: int = 535,
    mig_profile: str | None = None,
    exit_code: int = 0,
    gpu_list: str = "a100_mig_list.txt",
) -> subprocess.CompletedProcess[str]:
    """Run the generated script with /bin/sh and a fake nvidia-smi first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "nvidia-smi"
    fake.write_text(FAKE_NVIDIA_SMI)
    fake.chmod(0o755)
    env = {
        "PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "FAKE_TABLE": str(DATA / table),
        "FAKE_LIST": str(DATA / gpu_list),
        "FAKE_EXIT": str(exit_code),
    }
    script = check_script("gpus", min_major, mig_profile)
    return subprocess.run(
        ["/bin/sh", "-c", script], env=env, capture_output=True, text=True, timeout=30, check=False
    )


def test_new_driver_passes(tmp_path: Path) -> None:
    result = run_check(tmp_path, "h100_table.txt")
    assert result.returncode == 0, result.stderr
    assert "OK pool=gpus: driver 550.54.15 (major 550 >= 535)" in result.stdout


def test_old_driver_fails(tmp_path: Path) -> None:
    result = run_check(tmp_path, "t4_old_driver_table.txt")
    assert result.returncode == 1
    assert "FAIL pool=gpus: driver 470.82.01 is older than major version 535" in result.stderr


def test_minimum_is_inclusive(tmp_path: Path) -> None:
    assert run_check(tmp_path, "h100_table.txt", min_major=550).returncode == 0
    assert run_check(tmp_path, "h100_table.txt", min_major=551).returncode == 1


def test_failure_output_fails_with_the_tools_message(tmp_path: Path) -> None:
    # nvidia-smi exits 9 when it cannot talk to the driver.
    result = run_check(tmp_path, "failure_no_driver.txt", exit_code=9)
    assert result.returncode == 1
    assert "nvidia-smi failed: NVIDIA-SMI has failed" in result.stderr


def test_failure_text_with_exit_zero_still_fails(tmp_path: Path) -> None:
    result = run_check(tmp_path, "failure_version_mismatch.txt")
    assert result.returncode == 1
    assert "no driver version" in result.stderr


def test_missing_nvidia_smi_fails(tmp_path: Path) -> None:
    script = check_script("gpus", 535)
    result = subprocess.run(
        ["/bin/sh", "-c", script],
        env={"PATH": str(tmp_path)},  # no nvidia-smi, no sed: the first call fails
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 1
    assert "nvidia-smi failed" in result.stderr


def test_mig_pool_needs_a_device_of_its_profile(tmp_path: Path) -> None:
    ok = run_check(tmp_path, "h100_table.txt", mig_profile="3g.20gb")
    assert ok.returncode == 0, ok.stderr
    assert "MIG 3g.20gb" in ok.stdout
    missing = run_check(tmp_path, "h100_table.txt", mig_profile="4g.20gb")
    assert missing.returncode == 1
    assert "no MIG 4g.20gb device listed by nvidia-smi -L" in missing.stderr


@pytest.mark.parametrize(
    ("table", "exit_code"),
    [
        ("h100_table.txt", 0),
        ("t4_old_driver_table.txt", 0),
        ("failure_no_driver.txt", 9),
        ("failure_version_mismatch.txt", 0),
    ],
)
@pytest.mark.parametrize("min_major", [470, 535, 550, 560])
def test_script_agrees_with_the_python_parser(
    tmp_path: Path, table: str, exit_code: int, min_major: int
) -> None:
    try:
        expected = parse_driver_version((DATA / table).read_text()).at_least(min_major)
    except NvidiaSmiError:
        expected = False
    result = run_check(tmp_path, table, min_major=min_major, exit_code=exit_code)
    assert (result.returncode == 0) == expected, result.stderr


def test_pool_name_is_quoted_in_the_script() -> None:
    assert "pool='a b'" in check_script("a b", 535)
    assert "min_major=535" in check_script("p", 535)


# --- Jobs on the mock engine ---------------------------------------------------------------


platform = platforms.loaded  # the default platform of these tests, changed by a mutation


def always_on(raw: dict[str, Any]) -> None:
    """The ACK platform with every GPU pool autoscaled from 1: each always has a node to check."""
    for pool in raw["gpuPools"]:
        pool["autoscale"]["min"] = 1


def ack_always_on(mutate: Any = None) -> ResolvedPlatform:
    def both(raw: dict[str, Any]) -> None:
        always_on(raw)
        if mutate is not None:
            mutate(raw)

    return platform(platforms.ack_mps_and_whole_gpus(), both)


def checks_run(p: ResolvedPlatform) -> ProgramRun:
    return run(lambda: DriverCheck("check", check_args(p)))


def jobs_by_pool(result: ProgramRun) -> dict[str, dict[str, Any]]:
    return {
        job.inputs["metadata"]["labels"]["gpu-platform.io/pool"]: job.inputs
        for job in by_type(result, JOB)
    }


def test_one_job_per_pool_on_its_nodes_with_one_gpu() -> None:
    result = checks_run(platform())
    jobs = jobs_by_pool(result)
    assert set(jobs) == {"a100", "t4"}
    expected_resource = {"a100": "nvidia.com/mig-3g.20gb", "t4": "nvidia.com/gpu.shared"}
    for pool, job in jobs.items():
        assert job["metadata"]["name"] == f"{CHECK_APP}-{pool}"
        assert job["metadata"]["namespace"] == "gpu-readiness"
        pod = job["spec"]["template"]["spec"]
        assert pod["nodeSelector"] == {"gpu-platform.io/pool": pool}
        assert pod["tolerations"] == [
            {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
        ]
        assert pod["restartPolicy"] == "Never"
        (container,) = pod["containers"]
        assert container["image"] == "nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04"
        assert container["resources"]["limits"][expected_resource[pool]] == "1"
        assert container["command"][:2] == ["/bin/sh", "-c"]
        assert "min_major=535" in container["command"][2]
    assert (
        "profile=3g.20gb" in jobs["a100"]["spec"]["template"]["spec"]["containers"][0]["command"][2]
    )
    assert "profile=" not in jobs["t4"]["spec"]["template"]["spec"]["containers"][0]["command"][2]


def test_job_security_context_is_restricted() -> None:
    result = checks_run(platform())
    for job in jobs_by_pool(result).values():
        pod = job["spec"]["template"]["spec"]
        assert pod["automountServiceAccountToken"] is False
        assert pod["securityContext"] == {
            "runAsNonRoot": True,
            "runAsUser": 65534,
            "runAsGroup": 65534,
            "seccompProfile": {"type": "RuntimeDefault"},
        }
        assert pod["containers"][0]["securityContext"] == {
            "privileged": False,
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": True,
            "runAsNonRoot": True,
            "capabilities": {"drop": ["ALL"]},
            "seccompProfile": {"type": "RuntimeDefault"},
        }
    namespace = one(result, NAMESPACE)
    assert namespace.inputs["metadata"]["name"] == "gpu-readiness"
    assert namespace.inputs["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == (
        "restricted"
    )


def test_jobs_are_valid_kubernetes_objects_and_replace_by_delete() -> None:
    def once(raw: dict[str, Any]) -> None:
        raw.pop("driverCheck", None)

    result = checks_run(platform(mutate=once))
    for job in by_type(result, JOB):
        assert_valid_manifest(manifest_of(job))
        # Fixed name + immutable template: a change must delete before it creates.
        assert job.delete_before_replace
        assert job.inputs["spec"]["activeDeadlineSeconds"] == 1800
        assert job.inputs["metadata"]["annotations"] == {"pulumi.com/timeoutSeconds": "1800"}
    assert by_type(result, CRON_JOB) == []


def test_schedule_adds_a_cron_job_per_pool() -> None:
    def scheduled(raw: dict[str, Any]) -> None:
        raw["driverCheck"] = {"schedule": "0 6 * * *", "minDriverMajor": 550}

    result = checks_run(platform(mutate=scheduled))
    crons = by_type(result, CRON_JOB)
    assert len(crons) == 2
    jobs = jobs_by_pool(result)
    for cron in crons:
        assert_valid_manifest(manifest_of(cron))
        spec = cron.inputs["spec"]
        assert spec["schedule"] == "0 6 * * *"
        assert spec["concurrencyPolicy"] == "Forbid"
        pool = cron.inputs["metadata"]["labels"]["gpu-platform.io/pool"]
        assert spec["jobTemplate"]["spec"] == jobs[pool]["spec"]
        assert (
            "min_major=550"
            in spec["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]["command"][2]
        )


MPS_NAMESPACE = "gpu-readiness-mps"
RESTRICTED_POD = {
    "runAsNonRoot": True,
    "runAsUser": 65534,
    "runAsGroup": 65534,
    "seccompProfile": {"type": "RuntimeDefault"},
}
RESTRICTED_CONTAINER = {
    "privileged": False,
    "allowPrivilegeEscalation": False,
    "readOnlyRootFilesystem": True,
    "runAsNonRoot": True,
    "capabilities": {"drop": ["ALL"]},
    "seccompProfile": {"type": "RuntimeDefault"},
}


def namespaces_by_name(result: ProgramRun) -> dict[str, RecordedResource]:
    return {ns.inputs["metadata"]["name"]: ns for ns in by_type(result, NAMESPACE)}


def test_ack_mps_pool_is_checked_in_its_own_namespace_with_host_ipc() -> None:
    p = ack_always_on()
    assert p.pools["a10mps"].sharing == "ackMps"
    assert [pool.name for pool in checked_pools(list(p.pools.values()))] == ["a10mps", "t4"]
    result = checks_run(p)
    jobs = jobs_by_pool(result)
    assert set(jobs) == {"a10mps", "t4"}
    mps_job = jobs["a10mps"]
    assert mps_job["metadata"] == {
        "name": f"{CHECK_APP}-a10mps",
        "namespace": MPS_NAMESPACE,
        "labels": {"app.kubernetes.io/name": CHECK_APP, "gpu-platform.io/pool": "a10mps"},
        "annotations": {"pulumi.com/timeoutSeconds": "1800"},
    }
    pod = mps_job["spec"]["template"]["spec"]
    (container,) = pod.pop("containers")
    assert pod == {
        "restartPolicy": "Never",
        "automountServiceAccountToken": False,
        "hostIPC": True,  # ACK starts no gpu-mem pod on an MPS node without it
        "nodeSelector": {"gpu-platform.io/pool": "a10mps"},
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
        "securityContext": RESTRICTED_POD,
    }
    limits = {"aliyun.com/gpu-mem": "1", "cpu": "100m", "memory": "64Mi"}
    assert container["resources"] == {"limits": limits, "requests": limits}
    assert container["securityContext"] == RESTRICTED_CONTAINER
    assert container["command"] == ["/bin/sh", "-c", check_script("a10mps", 535)]
    # The whole-GPU pool keeps the restricted namespace and no hostIPC.
    t4 = jobs["t4"]
    assert t4["metadata"]["namespace"] == "gpu-readiness"
    assert "hostIPC" not in t4["spec"]["template"]["spec"]
    assert t4["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"] == {
        "nvidia.com/gpu": "1",
        "cpu": "100m",
        "memory": "64Mi",
    }


def test_the_renamed_component_keeps_its_deployed_checks() -> None:
    # DriverCheck was DriverReadinessCheck: the alias to the old type token lets a deployed
    # stack's check (and its Jobs, whose URNs hold the parent's type) be updated, not replaced.
    result = run(lambda: DriverCheck("check", check_args(platform())))
    check = one(result, TYPE_TOKEN)
    assert check.aliases == [check.urn.replace(TYPE_TOKEN, OLD_TYPE_TOKEN)]
    assert OLD_TYPE_TOKEN == "gpu-platform:gpu:DriverReadinessCheck"


def test_mps_namespace_is_privileged_and_outside_the_gpu_admission_policy() -> None:
    p = ack_always_on()

    def program() -> None:
        check = DriverCheck("check", check_args(p))
        GpuAdmissionPolicy("admission", {})
        pulumi.export("namespace", check.namespace)
        pulumi.export("mps_namespace", check.mps_namespace)

    monitor = RecordingMonitor(PreviewMocks())
    result = run(program, monitor=monitor)
    assert result.outputs == {"namespace": "gpu-readiness", "mps_namespace": MPS_NAMESPACE}
    # The component's registered outputs use camelCase keys, like every other component's.
    registered = monitor.registered_outputs[one(result, "gpu-platform:index:DriverCheck").urn]
    assert registered["namespace"] == "gpu-readiness"
    assert registered["mpsNamespace"] == MPS_NAMESPACE
    assert set(registered) == {"namespace", "mpsNamespace", "jobs"}
    namespaces = namespaces_by_name(result)
    assert set(namespaces) == {"gpu-readiness", MPS_NAMESPACE}
    mps = namespaces[MPS_NAMESPACE]
    check = one(result, "gpu-platform:index:DriverCheck")
    assert mps.parent == check.urn
    # Pod Security has no level that allows hostIPC alone: privileged, for our Jobs only.
    assert mps.inputs["metadata"]["labels"] == {
        "pod-security.kubernetes.io/enforce": "privileged",
        "app.kubernetes.io/part-of": "gpu-platform",
    }
    assert namespaces["gpu-readiness"].inputs["metadata"]["labels"][
        "pod-security.kubernetes.io/enforce"
    ] == ("restricted")
    # The in-cluster admission policy selects GPU workload namespaces by label only; this one
    # carries neither that label nor the MPS hostIPC exception label.
    (policy,) = [
        r
        for r in by_type(
            result, "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"
        )
        if not r.name.endswith("-claims-policy")
    ]
    selector = policy.inputs["spec"]["matchConstraints"]["namespaceSelector"]
    assert set(selector) == {"matchLabels"}
    labels = mps.inputs["metadata"]["labels"]
    assert not all(labels.get(k) == v for k, v in selector["matchLabels"].items())
    assert GPU_NAMESPACE_LABEL not in labels
    assert MPS_HOST_IPC_LABEL not in labels
    for resource in by_type(result, NAMESPACE) + by_type(result, JOB):
        assert_valid_manifest(manifest_of(resource))


def test_the_pack_is_clean_on_the_mps_checks() -> None:
    def scheduled(raw: dict[str, Any]) -> None:
        raw["driverCheck"] = {"schedule": "0 6 * * *"}

    result = checks_run(ack_always_on(scheduled))
    crons = {
        cron.inputs["metadata"]["labels"]["gpu-platform.io/pool"]: cron
        for cron in by_type(result, CRON_JOB)
    }
    assert crons["a10mps"].inputs["metadata"]["namespace"] == MPS_NAMESPACE
    assert crons["a10mps"].inputs["spec"]["jobTemplate"]["spec"]["template"]["spec"]["hostIPC"]
    assert crons["t4"].inputs["metadata"]["namespace"] == "gpu-readiness"
    for cron in crons.values():
        assert_valid_manifest(manifest_of(cron))
    # host-ipc-only-for-gpu-mem-pods allows hostIPC because the pod asks for gpu-mem.
    assert run_policies(result.resources, policies()) == []


def test_no_mps_namespace_without_an_mps_pool() -> None:
    for p in (platform(), platform(platforms.aks_mig_and_time_slicing())):
        result = checks_run(p)
        assert set(namespaces_by_name(result)) == {"gpu-readiness"}
        assert all(
            "hostIPC" not in job["spec"]["template"]["spec"]
            for job in jobs_by_pool(result).values()
        )


def test_no_mps_namespace_when_the_mps_pool_has_no_nodes() -> None:
    def mps_fixed_at_zero(raw: dict[str, Any]) -> None:
        pool = raw["gpuPools"][0]
        del pool["autoscale"]
        pool["count"] = 0

    p = ack_always_on(mps_fixed_at_zero)
    assert p.pools["a10mps"].capacity.max_nodes == 0
    result = checks_run(p)
    assert set(jobs_by_pool(result)) == {"t4"}
    assert set(namespaces_by_name(result)) == {"gpu-readiness"}


def test_check_namespace_leaves_room_for_the_mps_namespace() -> None:
    long_name = "r" * 60  # a valid namespace; with "-mps" it would be 64 characters
    with pytest.raises(ConfigError) as err:
        platform(
            platforms.ack_mps_and_whole_gpus(),
            lambda raw: raw.__setitem__("driverCheck", {"namespace": long_name}),
        )
    assert [path for path, _ in err.value.problems] == ["driverCheck.namespace"]
    assert "at most 59 characters" in err.value.problems[0][1]


def test_workload_cannot_take_the_mps_checks_namespace() -> None:
    def clash(raw: dict[str, Any]) -> None:
        raw["workloads"][0]["name"] = "gpu-readiness-mps"

    with pytest.raises(ConfigError) as err:
        platform(platforms.ack_mps_and_whole_gpus(), clash)
    assert (
        "workloads[0].name",
        "'gpu-readiness-mps' is the platform's own namespace (driverCheck.namespace)",
    ) in err.value.problems


def test_fixed_pool_of_zero_nodes_gets_no_job() -> None:
    # Its Job could never schedule: `pulumi up` would wait out the timeout, then fail.
    p = platform(mutate=lambda raw: raw["gpuPools"][1].update(count=0))
    assert p.pools["t4"].capacity.max_nodes == 0
    assert set(jobs_by_pool(checks_run(p))) == {"a100"}


def test_no_check_at_all_when_every_pool_is_fixed_at_zero() -> None:
    def no_nodes(raw: dict[str, Any]) -> None:
        for pool in raw["gpuPools"]:
            pool["count"] = 0

    assert checked_pools(list(platform(mutate=no_nodes).pools.values())) == []


def test_autoscaled_pool_from_zero_gets_no_job() -> None:
    # The AKS t4 pool scales 0..3: the Azure autoscaler's scale-from-zero template knows
    # nvidia.com/gpu, never the pool's nvidia.com/gpu.shared, so a check pod would stay pending
    # and fail `pulumi up`; and a CronJob on a pool it can scale would power up a GPU node on
    # every schedule. `make verify` checks the driver of the nodes that exist.
    p = platform(platforms.aks_mig_and_time_slicing())
    assert p.pools["t4"].pool.autoscale is not None
    assert p.pools["t4"].capacity.min_nodes == 0
    assert [pool.name for pool in checked_pools(list(p.pools.values()))] == ["a100mig"]
    assert set(jobs_by_pool(checks_run(p))) == {"a100mig"}


def test_autoscaled_pool_from_one_keeps_its_job_and_cron_job() -> None:
    def from_one(raw: dict[str, Any]) -> None:
        raw["gpuPools"][1]["autoscale"]["min"] = 1
        raw["driverCheck"] = {"schedule": "0 6 * * *"}

    p = platform(platforms.aks_mig_and_time_slicing(), from_one)
    result = checks_run(p)
    jobs = jobs_by_pool(result)
    assert set(jobs) == {"a100mig", "t4"}
    assert jobs["t4"]["spec"]["activeDeadlineSeconds"] == 1800
    crons = {
        c.inputs["metadata"]["labels"]["gpu-platform.io/pool"] for c in by_type(result, CRON_JOB)
    }
    assert crons == {"a100mig", "t4"}


def test_no_check_and_no_mps_namespace_when_every_pool_scales_from_zero() -> None:
    # The ACK platform as written: both GPU pools scale from zero.
    pools = list(platform(platforms.ack_mps_and_whole_gpus()).pools.values())
    assert [pool.capacity.min_nodes for pool in pools] == [0, 0]
    assert checked_pools(pools) == []


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"image": "nvcr.io/nvidia/cuda"}, "pin the image"),
        ({"image": "nvidia/cuda:latest"}, "pin the image"),
        ({"image": "nvidia/cuda@sha256:abc"}, "digest must be"),
        ({"minDriverMajor": 300}, "greater than or equal to 400"),
    ],
)
def test_bad_driver_check_settings_are_refused(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        DriverCheckSettings.model_validate(settings)


@pytest.mark.parametrize(
    "settings",
    [
        {"image": "localhost:5000/cuda:12.4.1-base-ubuntu22.04"},
        {"image": "nvidia/cuda@sha256:" + "a" * 64},
        {"schedule": "@daily"},
        {"schedule": "*/30 * * * 1-5"},
    ],
)
def test_good_driver_check_settings(settings: dict[str, Any]) -> None:
    DriverCheckSettings.model_validate(settings)


def test_check_namespaces_deny_all_traffic() -> None:
    """The checks run nvidia-smi and nothing else: no pod in their namespaces needs a network."""
    result = checks_run(ack_always_on())
    policies = by_type(result, "kubernetes:networking.k8s.io/v1:NetworkPolicy")
    assert sorted((p.inputs["metadata"]["namespace"], p.name) for p in policies) == [
        ("gpu-readiness", "check-namespace-default-deny-all"),
        ("gpu-readiness-mps", "check-mps-namespace-default-deny-all"),
    ]
    for policy in policies:
        assert policy.inputs["metadata"]["name"] == "default-deny-all"
        assert policy.inputs["spec"] == {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}
        assert policy.parent is not None and policy.parent.endswith("DriverCheck::check")
        assert_valid_manifest(manifest_of(policy))


def test_bad_check_args_name_every_bad_property_and_register_nothing() -> None:
    p = platform()
    pools = pools_args(p)
    pools[1] = {**pools[1], "autoscale": {"min": 3, "max": 1}}
    del pools[1]["count"]
    args = check_args(
        p,
        image="nvidia/cuda:latest",
        schedule="every day",
        min_driver_major=300,
        namespace="x" * 60,
    )
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError, match="pin the image") as err:
        run(lambda: DriverCheck("check", {**args, "pools": pools}), monitor=monitor)
    assert paths(err.value) == [
        "pools[1].autoscale.min",
        "minDriverMajor",
        "image",
        "namespace",
        "schedule",  # Kubernetes' cron syntax: plan.schedules, after the schema
    ]
    assert monitor.recorded == []


def test_check_args_refuse_an_unknown_property() -> None:
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: DriverCheck("check", {**check_args(platform()), "min_driver": 1}))  # type: ignore[typeddict-unknown-key]
    assert paths(err.value) == ["minDriver"]


def test_check_defaults_from_pools_alone() -> None:
    result = run(lambda: DriverCheck("check", {"pools": pools_args(platform())}))
    defaults = DriverCheckSettings()
    for job in by_type(result, "kubernetes:batch/v1:Job"):
        assert job.inputs["metadata"]["namespace"] == defaults.namespace
        container = job.inputs["spec"]["template"]["spec"]["containers"][0]
        assert container["image"] == defaults.image
    assert by_type(result, "kubernetes:batch/v1:CronJob") == []


def test_each_job_waits_for_its_own_node_pool_only() -> None:
    def program() -> None:
        base = pulumi.CustomResource("test:index:NodePool", "a100-pool")
        other = pulumi.CustomResource("test:index:NodePool", "t4-pool")
        args = check_args(platform(), node_pools={"a100": base.id, "t4": other.id})
        DriverCheck("check", args)

    result = run(program)
    pool_urns = {r.name: r.urn for r in by_type(result, "test:index:NodePool")}
    jobs = {
        job.inputs["metadata"]["labels"]["gpu-platform.io/pool"]: job
        for job in by_type(result, JOB)
    }
    for pool, job in jobs.items():
        assert (
            job.inputs["metadata"]["annotations"]["gpu-platform.io/node-pool"] == f"{pool}-pool-id"
        )
        assert set(job.dependencies) & set(pool_urns.values()) == {pool_urns[f"{pool}-pool"]}
    # The namespace and its policy wait for no pool.
    for r in [
        *by_type(result, NAMESPACE),
        *by_type(result, "kubernetes:networking.k8s.io/v1:NetworkPolicy"),
    ]:
        assert not set(r.dependencies) & set(pool_urns.values())


def test_node_pools_must_name_pools_of_the_args() -> None:
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(lambda: DriverCheck("check", check_args(platform(), node_pools={"h100": "x"})))
    assert paths(err.value) == ["nodePools.h100"]


def test_a_node_pool_id_known_only_after_apply_leaves_the_jobs_judgeable() -> None:
    # On a new stack's first preview the pool's ID is unknown: so is the Job's annotation, and
    # nothing else; the pack still judges every check Job.
    def program() -> None:
        pool = pulumi.CustomResource("test:index:NodePool", "a100-pool", {"poolId": None})
        unknown = pool.poolId  # type: ignore[attr-defined]
        DriverCheck("check", check_args(platform(), node_pools={"a100": unknown}))

    result = run(program)
    (job,) = [j for j in by_type(result, JOB) if j.name == "check-a100"]
    assert repr(job.inputs["metadata"]["annotations"]["gpu-platform.io/node-pool"]) == "[unknown]"
    violations = run_policies(result.resources, policies())
    assert [v for v in violations if "check-" in (v.urn or "")] == []


# --- AMD pools: amd-smi on a ROCm image, root without capabilities, its own namespace --------

AMD_DATA = Path(__file__).parents[1] / "data" / "amd_smi"
FAKE_AMD_SMI = """#!/bin/sh
if [ "${1:-}" = "version" ]; then cat "$FAKE_VERSION"; exit 0; fi
cat "$FAKE_STATIC"
exit "${FAKE_EXIT:-0}"
"""


def run_amd_check(
    tmp_path: Path, static: str, *, exit_code: int = 0, tool: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run the generated AMD script with /bin/sh and a fake amd-smi first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    if tool:
        fake = bin_dir / "amd-smi"
        fake.write_text(FAKE_AMD_SMI)
        fake.chmod(0o755)
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "FAKE_STATIC": str(AMD_DATA / static),
        "FAKE_VERSION": str(AMD_DATA / "version.txt"),
        "FAKE_EXIT": str(exit_code),
    }
    return subprocess.run(
        ["/bin/sh", "-c", amd_check_script("mi300x")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_amd_driver_passes_and_prints_its_version(tmp_path: Path) -> None:
    result = run_amd_check(tmp_path, "static_driver.txt")
    assert result.returncode == 0, result.stderr
    assert "OK pool=mi300x: amdgpu driver 6.12.12" in result.stdout
    assert "ROCm version: 6.4.0" in result.stdout


@pytest.mark.parametrize(
    ("static", "exit_code", "tool", "message"),
    [
        ("static_driver_other.txt", 0, True, "the GPU driver is radeon, not amdgpu"),
        ("static_driver_no_version.txt", 0, True, "no driver version in the amd-smi output"),
        ("static_driver.txt", 2, True, "amd-smi static --driver failed"),
        ("static_driver.txt", 0, False, "amd-smi is not in the check image"),
    ],
)
def test_amd_check_fails_loudly(
    tmp_path: Path, static: str, exit_code: int, tool: bool, message: str
) -> None:
    result = run_amd_check(tmp_path, static, exit_code=exit_code, tool=tool)
    assert result.returncode == 1
    assert f"FAIL pool=mi300x: {message}" in result.stderr


def test_amd_pool_is_checked_with_amd_smi_from_its_own_namespace() -> None:
    result = checks_run(platform(platforms.aks_amd_and_nvidia()))
    jobs = jobs_by_pool(result)
    assert set(jobs) == {"mi300x"}  # the t4 pool scales from zero: no check
    job = jobs["mi300x"]
    assert job["metadata"]["namespace"] == "gpu-readiness-amd"
    pod = job["spec"]["template"]["spec"]
    assert pod["nodeSelector"] == {"gpu-platform.io/pool": "mi300x"}
    assert pod["tolerations"] == [
        {"key": "amd.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
    ]
    (container,) = pod["containers"]
    assert container["name"] == "amd-smi"
    assert container["image"] == "docker.io/rocm/dev-ubuntu-22.04:6.4.1"
    assert container["resources"]["limits"]["amd.com/gpu"] == "1"
    assert "amd-smi static --driver" in container["command"][2]
    # Root, the owner of AMD's device nodes, with nothing else of root's.
    assert pod["securityContext"] == {
        "runAsNonRoot": False,
        "runAsUser": 0,
        "runAsGroup": 0,
        "seccompProfile": {"type": "RuntimeDefault"},
    }
    assert container["securityContext"] == {
        "privileged": False,
        "allowPrivilegeEscalation": False,
        "readOnlyRootFilesystem": True,
        "runAsNonRoot": False,
        "capabilities": {"drop": ["ALL"]},
        "seccompProfile": {"type": "RuntimeDefault"},
    }
    assert container["env"] == [{"name": "HOME", "value": "/tmp"}]
    assert pod["volumes"] == [{"name": "scratch", "emptyDir": {}}]
    namespaces = namespaces_by_name(result)
    labels = namespaces["gpu-readiness-amd"].inputs["metadata"]["labels"]
    assert labels["pod-security.kubernetes.io/enforce"] == "baseline"
    assert GPU_NAMESPACE_LABEL not in labels
    assert_valid_manifest(manifest_of(one(result, JOB)))
    assert run_policies(result.resources, policies()) == []


def test_no_amd_namespace_without_an_amd_pool() -> None:
    names = set(namespaces_by_name(checks_run(platform())))
    assert names == {"gpu-readiness"}


def test_workload_cannot_take_the_amd_checks_namespace() -> None:
    raw = platforms.aks_amd_and_nvidia()
    raw["workloads"][0]["name"] = "gpu-readiness-amd"
    with pytest.raises(ConfigError, match="'gpu-readiness-amd' is the platform's own namespace"):
        load_platform(raw)


# --- DRA pools ------------------------------------------------------------------------------


def test_a_dra_pool_check_claims_a_device_and_asks_for_the_dra_drivers_minimum() -> None:
    """The DRA platform's MIG DRA pool (one node) is checked like any pool, but claims its
    device from its own template (tests/components/nvidia/test_dra_driver.py follows it through
    GpuPlatform) and fails below driver 565, which NVIDIA's DRA driver needs, though
    driverCheck's minimum is 535; the device-plugin pool keeps its resource and 535."""
    jobs = jobs_by_pool(checks_run(platform(platforms.aks_dra_and_device_plugin())))
    assert set(jobs) == {"a100mig", "a100dramig"}
    dra = jobs["a100dramig"]["spec"]["template"]["spec"]
    assert dra["resourceClaims"] == [
        {"name": "gpu", "resourceClaimTemplateName": f"{CHECK_APP}-a100dramig"}
    ]
    assert "min_major=565" in dra["containers"][0]["command"][2]
    plugin = jobs["a100mig"]["spec"]["template"]["spec"]
    assert "resourceClaims" not in plugin
    assert plugin["containers"][0]["resources"]["limits"]["nvidia.com/mig-1g.5gb"] == "1"
    assert "min_major=535" in plugin["containers"][0]["command"][2]
