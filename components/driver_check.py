"""DriverCheck: per GPU pool with a node, a Job failing on an old driver (BP-05).

Each Job lands on one node of its pool (pool label, GPU taint tolerated), takes one unit of the
pool's GPU resource so the device plugin must hand out a device, and runs a generated POSIX-sh
check around ``nvidia-smi``: driver major version at least the configured minimum, and on MIG
pools a MIG device of the pool's profile. Pulumi waits for a Job to complete, so a failing
check fails ``pulumi up``. An optional CronJob repeats the check. Only pools whose minimum
node count is at least 1 get a check (``plan.driver_checks.checked_pools``; why:
docs/device-plugin.md).

The check runs as UID 65534, not as the CUDA image's default root: ``nvidia-smi`` only reads
the device nodes the NVIDIA runtime mounts (mode 0666 by default), so the pod passes Pod
Security ``restricted``. A node whose driver sets a stricter ``NVreg_DeviceFileMode`` fails the
check, loudly.

ACK MPS pools are checked too, from a second namespace (``<driverCheck.namespace>-mps``): on an
MPS node a pod that asks for ``aliyun.com/gpu-mem`` fails to start unless it sets
``hostIPC: true``, and Pod Security has no level that allows hostIPC alone (``baseline``
forbids it), so that namespace enforces ``privileged``. It holds the MPS check Jobs and nothing
else; they keep everything else of ``restricted`` (non-root, no privilege, no capabilities,
RuntimeDefault seccomp). ``nvidia-smi`` talks to the driver through NVML, not CUDA, so the
check is not an MPS client.

AMD pools are checked from a third namespace (``<driverCheck.namespace>-amd``, Pod Security
``baseline``): AMD's device nodes (``/dev/kfd``, ``/dev/dri/renderD*``) belong to root and the
``render`` group, whose GID differs between node images, so ``amd-smi`` opens them as root. The
check keeps everything else of ``restricted`` (no capabilities at all, no privilege escalation,
read-only root filesystem, RuntimeDefault seccomp): root without capabilities opens only what
root owns.
"""

import shlex
from typing import NotRequired, TypedDict

import pulumi
import pulumi_kubernetes as k8s
from pulumi_kubernetes.networking import v1 as net
from pydantic import ValidationError

from gpu_facts.scheduling import GPU_TAINT_EFFECT, POOL_LABEL
from gpu_platform.plan.dra_claims import pool_shape
from gpu_platform.plan.driver_checks import (
    CHECK_DEADLINE_SECONDS,
    checked_pools,
    gpu_resource,
    min_driver_major,
)
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.plan.schedules import schedule_problem
from gpu_platform.settings import DriverCheckSettings

from .errors import Problem, property_path, raise_if_any, shape_problems, validation_problems
from .gpu_workload_namespace import DENY_ALL_POLICY, claim_template_spec, deny_all_spec
from .helm_release import system_namespace
from .outputs import known_after
from .pool_args import DEFAULT_CLOUD, GpuPoolArgs, validate_gpu_pools_args
from .recorded_inputs import recorded_inputs
from .type_tokens import formerly, type_token

TYPE_TOKEN = type_token("DriverCheck")
OLD_TYPE_TOKEN = "gpu-platform:gpu:DriverReadinessCheck"
"""The component's type token in 0.1.0, as ``DriverReadinessCheck`` (aliased)."""
CHECK_APP = "gpu-driver-check"
"""``app.kubernetes.io/name`` of every check Job and CronJob."""
CLAIM = "gpu"
"""The pod's claim on a DRA pool's device (from ``claim_template_name``)."""
NODE_POOL_ANNOTATION = "gpu-platform.io/node-pool"
"""On a check Job: the cloud node pool it checks (its ID makes the Job wait for that pool)."""
NOBODY = 65534
SCRATCH = "/tmp"
SCRATCH_VOLUME = k8s.core.v1.VolumeArgs(
    name="scratch", empty_dir=k8s.core.v1.EmptyDirVolumeSourceArgs()
)


def claim_template_name(pool: PoolFacts) -> str:
    """The ResourceClaimTemplate a DRA pool's check claims one device from: one device of the
    pool's shape (``plan.dra_claims.pool_shape``), in the check's namespace."""
    return f"{CHECK_APP}-{pool.name}"


class DriverCheckArgs(TypedDict):
    """Driver checks of GPU pools: minimum driver, image, schedule, namespace, pools."""

    pools: list[GpuPoolArgs]
    """GPU pools of the cluster; each that always has a node (``count`` or ``autoscale.min``
    at least 1) gets one check Job (and CronJob)."""
    cloud: NotRequired[str]
    """Cloud of the pools: ``aks``, ``ack`` or ``existing`` (default): decides what a
    pool's ``sharing.mode`` means (ACK MPS pools are checked from their own namespace)."""
    min_driver_major: NotRequired[int]
    """Lowest acceptable NVIDIA driver major version, 400 or more (default 535)."""
    schedule: NotRequired[str]
    """Cron schedule to repeat the check (``0 6 * * *`` or ``@daily``); unset: run once."""
    image: NotRequired[str]
    """Image of the check, with ``nvidia-smi``, pinned to a tag other than ``latest`` or to a
    digest (BP-19; default a CUDA base image)."""
    amd_image: NotRequired[str]
    """Image of the AMD pools' check, with ``amd-smi``, pinned (default a ROCm 6.4 image)."""
    namespace: NotRequired[str]
    """Namespace of the check Jobs, Pod Security ``restricted`` (default ``gpu-readiness``); ACK
    MPS pools' checks use ``<namespace>-mps``, AMD pools' ``<namespace>-amd``, so at most 59
    characters."""
    node_pools: NotRequired[dict[str, pulumi.Input[str]]]
    """Pool name -> the ID of the cloud node pool behind it. The pool's check Job carries it as
    the annotation ``gpu-platform.io/node-pool``, so the Job waits for its own node pool and
    nothing else does: a pool that fails to create holds back only its own check."""


def validate_driver_check_args(
    name: str, args: DriverCheckArgs
) -> tuple[DriverCheckSettings, list[PoolFacts]]:
    """The args as settings and the checked pools' facts, or one ``InputPropertiesError``
    naming every bad property."""
    # A wrong shape (an unknown or missing property) makes the rest meaningless.
    raise_if_any("DriverCheck", name, shape_problems(args, DriverCheckArgs))
    pools, problems = validate_gpu_pools_args(
        args.get("cloud", DEFAULT_CLOUD), args["pools"], "pools"
    )
    settings: DriverCheckSettings | None = None
    try:
        settings = DriverCheckSettings.model_validate(
            {
                k: v
                for k, v in args.items()
                if k in ("min_driver_major", "schedule", "image", "amd_image", "namespace")
            }
        )
    except ValidationError as err:
        problems += validation_problems(err)
    schedule = args.get("schedule")  # judged even when other settings are refused
    if isinstance(schedule, str) and (schedule_error := schedule_problem(schedule)) is not None:
        problems.append(("schedule", schedule_error))
    problems += resource_problems(args["pools"], pools)
    names = {pool["name"] for pool in args["pools"] if isinstance(pool, dict)}
    problems += [
        (f"nodePools.{name}", "not one of the pools")
        for name in args.get("node_pools", {})
        if name not in names
    ]
    raise_if_any("DriverCheck", name, problems)
    assert settings is not None
    return settings, checked_pools(pools)


def resource_problems(args: list[GpuPoolArgs], pools: list[PoolFacts]) -> list[Problem]:
    """A check takes one unit of its pool's one GPU resource: a checked pool must have one (a
    DRA pool's check claims a device instead)."""
    index = {pool["name"]: i for i, pool in enumerate(args)}
    problems: list[Problem] = []
    for pool in checked_pools(pools):
        if pool.uses_dra:
            continue
        try:
            gpu_resource(pool)
        except ValueError as err:
            problems.append((property_path("pools", index[pool.name]), str(err)))
    return problems


def check_script(pool: str, min_driver_major: int, mig_profile: str | None = None) -> str:
    """The check as a POSIX-sh script: exit 0 only for a new-enough driver (and MIG device)."""
    lines = [
        "set -u",
        f"pool={shlex.quote(pool)}",
        f"min_major={int(min_driver_major)}",
        'fail() { printf "FAIL pool=%s: %s\\n" "$pool" "$1" >&2; exit 1; }',
        'if ! out="$(nvidia-smi 2>&1)"; then fail "nvidia-smi failed: $out"; fi',
        "printf '%s\\n' \"$out\"",
        'version="$(printf \'%s\\n\' "$out"'
        " | sed -n 's/.*Driver Version: *\\([0-9][0-9.]*\\).*/\\1/p' | head -n 1)\"",
        'case "$version" in',
        "  [0-9]*.[0-9]*) ;;",
        '  *) fail "no driver version in the nvidia-smi output" ;;',
        "esac",
        'major="${version%%.*}"',
        'if [ "$major" -lt "$min_major" ]; then',
        '  fail "driver $version is older than major version $min_major"',
        "fi",
    ]
    if mig_profile is not None:
        lines += [
            f"profile={shlex.quote(mig_profile)}",
            'if ! devices="$(nvidia-smi -L 2>&1)"; then fail "nvidia-smi -L failed: $devices"; fi',
            "printf '%s\\n' \"$devices\"",
            'if ! printf \'%s\\n\' "$devices" | grep -q -F "MIG $profile "; then',
            '  fail "no MIG $profile device listed by nvidia-smi -L"',
            "fi",
        ]
    lines.append(
        'printf "OK pool=%s: driver %s (major %s >= %s)\\n"'
        ' "$pool" "$version" "$major" "$min_major"'
    )
    return "\n".join(lines) + "\n"


def amd_check_script(pool: str) -> str:
    """The AMD check as a POSIX-sh script: exit 0 only when ``amd-smi`` reports the amdgpu
    driver with a version (``amd-smi static --driver`` prints ``NAME: amdgpu`` and
    ``VERSION: <x>`` under ``DRIVER:`` per GPU); ``amd-smi version`` adds the ROCm version."""
    lines = [
        "set -u",
        f"pool={shlex.quote(pool)}",
        'fail() { printf "FAIL pool=%s: %s\\n" "$pool" "$1" >&2; exit 1; }',
        'command -v amd-smi >/dev/null 2>&1 || fail "amd-smi is not in the check image"',
        'if ! out="$(amd-smi static --driver 2>&1)"; then',
        '  fail "amd-smi static --driver failed: $out"',
        "fi",
        "printf '%s\\n' \"$out\"",
        'name="$(printf \'%s\\n\' "$out"'
        " | sed -n 's/^ *NAME: *\\([^ ]*\\).*/\\1/p' | head -n 1)\"",
        'version="$(printf \'%s\\n\' "$out"'
        " | sed -n 's/^ *VERSION: *\\([0-9][0-9.]*\\).*/\\1/p' | head -n 1)\"",
        '[ "$name" = amdgpu ] || fail "the GPU driver is ${name:-unnamed}, not amdgpu"',
        'case "$version" in',
        "  [0-9]*.[0-9]*) ;;",
        '  *) fail "no driver version in the amd-smi output" ;;',
        "esac",
        "amd-smi version 2>&1 || true",
        'printf "OK pool=%s: amdgpu driver %s\\n" "$pool" "$version"',
    ]
    return "\n".join(lines) + "\n"


def job_spec(pool: PoolFacts, settings: DriverCheckSettings) -> k8s.batch.v1.JobSpecArgs:
    """The check Job's spec for one pool (with hostIPC on an ACK MPS pool, as root on an AMD
    pool: see the module)."""
    labels = {"app.kubernetes.io/name": CHECK_APP, POOL_LABEL: pool.name}
    limits = {"cpu": "100m", "memory": "64Mi"}
    # One device of the pool: its extended resource, or on a DRA pool a claim from its template.
    claims = None
    if pool.uses_dra:
        claims = [
            k8s.core.v1.PodResourceClaimArgs(
                name=CLAIM, resource_claim_template_name=claim_template_name(pool)
            )
        ]
    else:
        limits[gpu_resource(pool)] = "1"
    amd = pool.is_amd
    user = 0 if amd else NOBODY
    if amd:
        name, image, script = "amd-smi", settings.amd_image, amd_check_script(pool.name)
    else:
        name, image = "nvidia-smi", settings.image
        minimum = min_driver_major(pool, settings.min_driver_major)
        script = check_script(pool.name, minimum, pool.mig_profile)
    return k8s.batch.v1.JobSpecArgs(
        backoff_limit=1,
        active_deadline_seconds=CHECK_DEADLINE_SECONDS,
        template=k8s.core.v1.PodTemplateSpecArgs(
            metadata=k8s.meta.v1.ObjectMetaArgs(labels=labels),
            spec=k8s.core.v1.PodSpecArgs(
                restart_policy="Never",
                automount_service_account_token=False,
                host_ipc=True if pool.is_ack_mps else None,
                resource_claims=claims,
                node_selector={POOL_LABEL: pool.name},
                tolerations=[
                    k8s.core.v1.TolerationArgs(
                        key=pool.vendor.taint_key, operator="Exists", effect=GPU_TAINT_EFFECT
                    )
                ],
                security_context=k8s.core.v1.PodSecurityContextArgs(
                    run_as_non_root=not amd,
                    run_as_user=user,
                    run_as_group=user,
                    seccomp_profile=k8s.core.v1.SeccompProfileArgs(type="RuntimeDefault"),
                ),
                # amd-smi writes its logs under $HOME: a scratch directory, the root stays
                # read-only.
                volumes=[SCRATCH_VOLUME] if amd else None,
                containers=[
                    k8s.core.v1.ContainerArgs(
                        name=name,
                        image=image,
                        command=["/bin/sh", "-c", script],
                        env=[k8s.core.v1.EnvVarArgs(name="HOME", value=SCRATCH)] if amd else None,
                        volume_mounts=(
                            [k8s.core.v1.VolumeMountArgs(name="scratch", mount_path=SCRATCH)]
                            if amd
                            else None
                        ),
                        resources=k8s.core.v1.ResourceRequirementsArgs(
                            limits=limits,
                            requests=dict(limits),
                            claims=[k8s.core.v1.ResourceClaimArgs(name=CLAIM)] if claims else None,
                        ),
                        security_context=k8s.core.v1.SecurityContextArgs(
                            privileged=False,
                            allow_privilege_escalation=False,
                            read_only_root_filesystem=True,
                            run_as_non_root=not amd,
                            capabilities=k8s.core.v1.CapabilitiesArgs(drop=["ALL"]),
                            seccomp_profile=k8s.core.v1.SeccompProfileArgs(type="RuntimeDefault"),
                        ),
                    )
                ],
            ),
        ),
    )


class DriverCheck(pulumi.ComponentResource):
    """Driver checks: a namespace (and one for ACK MPS pools), and per GPU pool that always has
    a node a Job (and a CronJob when scheduled)."""

    namespace: pulumi.Output[str]
    """Namespace of the checks (Pod Security ``restricted``)."""
    mps_namespace: pulumi.Output[str | None]
    """Namespace of the ACK MPS pools' checks (Pod Security ``privileged`` for hostIPC), None
    without an MPS pool."""
    amd_namespace: pulumi.Output[str | None]
    """Namespace of the AMD pools' checks (Pod Security ``baseline``: root), None without an
    AMD pool."""
    jobs: pulumi.Output[dict[str, str]]
    """Pool name -> name of its check Job."""

    def __init__(
        self,
        name: str,
        args: DriverCheckArgs,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        # Validate everything before the first resource exists: bad input changes nothing.
        settings, pools = validate_driver_check_args(name, args)
        specs = {pool.name: job_spec(pool, settings) for pool in pools}
        mps_name = settings.mps_namespace if any(pool.is_ack_mps for pool in pools) else None
        amd_name = settings.amd_namespace if any(pool.is_amd for pool in pools) else None
        # Named DriverReadinessCheck until the rename: the alias keeps deployed checks (and
        # their Jobs, whose URNs hold the parent's type) from being replaced.
        super().__init__(
            TYPE_TOKEN,
            name,
            recorded_inputs(args, leave_out=("node_pools",)),
            formerly(OLD_TYPE_TOKEN, opts),
        )

        namespace = system_namespace(f"{name}-namespace", settings.namespace, self, "restricted")
        # Only our MPS checks run here: Pod Security cannot allow hostIPC alone.
        mps = (
            system_namespace(f"{name}-mps-namespace", mps_name, self, "privileged")
            if mps_name is not None
            else None
        )
        # Only our AMD checks run here: as root (the device nodes' owner), without capabilities.
        amd = (
            system_namespace(f"{name}-amd-namespace", amd_name, self, "baseline")
            if amd_name is not None
            else None
        )
        # Namespace names are the configured strings, known on a new cluster's first preview
        # (components/helm_release.py); depends_on orders creation.
        homes = {"default": (settings.namespace, namespace, "namespace")}
        if mps is not None and mps_name is not None:
            homes["mps"] = (mps_name, mps, "mps-namespace")
        if amd is not None and amd_name is not None:
            homes["amd"] = (amd_name, amd, "amd-namespace")
        # The checks need no network at all (BP-08 applied to our own namespaces too).
        for home_name, home_ns, suffix in homes.values():
            net.NetworkPolicy(
                f"{name}-{suffix}-{DENY_ALL_POLICY}",
                metadata=k8s.meta.v1.ObjectMetaArgs(name=DENY_ALL_POLICY, namespace=home_name),
                spec=deny_all_spec(),
                opts=pulumi.ResourceOptions(parent=self, depends_on=[home_ns]),
            )
        jobs: dict[str, str] = {}
        node_pools = args.get("node_pools", {})
        for pool in pools:
            job_name = f"{CHECK_APP}-{pool.name}"
            home_name, home_ns, _ = homes[
                "mps" if pool.is_ack_mps else "amd" if pool.is_amd else "default"
            ]
            metadata = k8s.meta.v1.ObjectMetaArgs(
                name=job_name,
                namespace=home_name,
                labels={"app.kubernetes.io/name": CHECK_APP, POOL_LABEL: pool.name},
                annotations={
                    # Pulumi waits for the Job to finish: as long as the Job may run.
                    "pulumi.com/timeoutSeconds": str(CHECK_DEADLINE_SECONDS),
                    **(
                        {NODE_POOL_ANNOTATION: node_pools[pool.name]}
                        if pool.name in node_pools
                        else {}
                    ),
                },
            )
            after: list[pulumi.Resource] = [home_ns]
            if pool.uses_dra:
                after.append(
                    k8s.resource.v1.ResourceClaimTemplate(
                        f"{name}-{pool.name}-claim",
                        metadata=k8s.meta.v1.ObjectMetaArgs(
                            name=claim_template_name(pool), namespace=home_name
                        ),
                        spec=claim_template_spec(pool_shape(pool)),
                        opts=pulumi.ResourceOptions(parent=self, depends_on=[home_ns]),
                    )
                )
            # A Job's template is immutable and its name fixed: replace by delete, then create.
            k8s.batch.v1.Job(
                f"{name}-{pool.name}",
                metadata=metadata,
                spec=specs[pool.name],
                opts=pulumi.ResourceOptions(
                    parent=self, depends_on=after, delete_before_replace=True
                ),
            )
            if settings.schedule is not None:
                k8s.batch.v1.CronJob(
                    f"{name}-{pool.name}-cron",
                    metadata=k8s.meta.v1.ObjectMetaArgs(
                        name=job_name,
                        namespace=home_name,
                        labels={"app.kubernetes.io/name": CHECK_APP, POOL_LABEL: pool.name},
                    ),
                    spec=k8s.batch.v1.CronJobSpecArgs(
                        schedule=settings.schedule,
                        concurrency_policy="Forbid",
                        successful_jobs_history_limit=1,
                        failed_jobs_history_limit=3,
                        job_template=k8s.batch.v1.JobTemplateSpecArgs(spec=specs[pool.name]),
                    ),
                    opts=pulumi.ResourceOptions(parent=self, depends_on=after),
                )
            jobs[pool.name] = job_name
        self.namespace = known_after(settings.namespace, namespace)
        self.mps_namespace = (
            known_after(mps_name, mps)
            if mps is not None and mps_name is not None
            else pulumi.Output.from_input(None)
        )
        self.amd_namespace = (
            known_after(amd_name, amd)
            if amd is not None and amd_name is not None
            else pulumi.Output.from_input(None)
        )
        self.jobs = pulumi.Output.from_input(jobs)
        self.register_outputs(
            {
                "namespace": self.namespace,
                "mpsNamespace": self.mps_namespace,
                "amdNamespace": self.amd_namespace,
                "jobs": self.jobs,
            }
        )
