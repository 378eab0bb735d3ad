"""Only ACK MPS pods (they ask aliyun.com/gpu-mem) share the host's IPC, and they must.

Both directions, as the in-cluster admission policy: ``hostIPC`` without GPU memory is a
scheduler bypass; GPU memory without ``hostIPC`` is an MPS client that cannot reach the MPS
control daemon, so the pod does not start (ACK "MPS-based GPU sharing"). ACK's cGPU and
share modes also hand out ``aliyun.com/gpu-mem`` without MPS: a program on such pools turns
the second rule off (``gpuMemRequiresHostIpc: false``) or exempts the namespace.
"""

from __future__ import annotations

from gpu_policy_support.pod_specs import pod_gpu_resources, pod_spec
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, resource_policy
from gpu_policy_support.props import is_true
from pulumi_policy import EnforcementLevel, ResourceValidationArgs, Severity

from gpu_facts.scheduling import ALIYUN_GPU_MEM

REQUIRE_FOR_GPU_MEM = "gpuMemRequiresHostIpc"

INFO = PolicyInfo(
    name="host-ipc-only-for-gpu-mem-pods",
    description=(
        f"A pod sets hostIPC: true exactly when it asks for {ALIYUN_GPU_MEM}: ACK MPS clients "
        f"need the host IPC namespace to reach the MPS daemon (without it they do not start); "
        f"any other pod must not share it."
    ),
    practices=("BP-16", "BP-17"),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Remove hostIPC, or ask for {ALIYUN_GPU_MEM} if the pod is an MPS client; the MPS "
        f"control daemon's namespace is exempt by default (exemptNamespaces)."
    ),
    config={
        REQUIRE_FOR_GPU_MEM: {
            "type": "boolean",
            "default": True,
            "description": (
                f"Pods that ask for {ALIYUN_GPU_MEM} must set hostIPC (ACK MPS); false on "
                "clusters whose gpu-mem pools are cGPU or share, not MPS."
            ),
        }
    },
)


def check(args: ResourceValidationArgs, config: Config, report: Report) -> None:
    spec = pod_spec(args.resource_type, args.props)
    if spec is None:
        return
    host_ipc = is_true(spec.get("hostIPC"))
    gpu_mem = ALIYUN_GPU_MEM in pod_gpu_resources(spec)
    if host_ipc and not gpu_mem:
        report(f"'{args.name}' sets hostIPC: true without asking for {ALIYUN_GPU_MEM}.")
    elif gpu_mem and not host_ipc and config.get(REQUIRE_FOR_GPU_MEM, True) is not False:
        report(
            f"'{args.name}' asks for {ALIYUN_GPU_MEM} without hostIPC: true: as an ACK MPS "
            "client it cannot reach the MPS control daemon, and the pod does not start.",
            fix=(
                "Set hostIPC: true in the pod spec; on gpu-mem pools that are cGPU or share, "
                f"not MPS, set {REQUIRE_FOR_GPU_MEM}: false or exempt the namespace."
            ),
        )


POLICY = resource_policy(INFO, check)
