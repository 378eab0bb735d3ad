"""A Job that shares one GPU through ACK MPS with GPU-memory isolation (BP-16).

It runs in a GPU workload namespace of the gpu-platform ACK stack whose pools include the MPS
pool (``gpu-training`` on ``ack-dev``), and asks for GPU memory, not whole GPUs: 7 GiB of
``aliyun.com/gpu-mem`` as a limit (BP-03). Pods on MPS nodes must share the host's IPC
namespace to reach the MPS control daemon (without ``hostIPC: true`` they fail to start);
nothing else is relaxed: no privileged container, no ``NVIDIA_VISIBLE_DEVICES`` (BP-17).

``python -m gpu_platform.offline_preview --program examples/ack-mps-job`` runs it on the mock
engine with the policy pack.
"""

import pulumi
import pulumi_kubernetes as k8s

from gpu_facts.scheduling import ALIYUN_GPU_MEM, GPU_TAINT_EFFECT, GPU_TAINT_KEY

config = pulumi.Config()
namespace = config.get("namespace") or "gpu-training"
gpu_mem_gib = config.get_int("gpuMemGiB") or 7

NAME = "mps-sample"
# A CUDA sample pinned to its tag (BP-19): vectorAdd on the GPU slice the pod was given.
IMAGE = "nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda12.5.0"
labels = {"app": NAME, "workload": "training"}

job = k8s.batch.v1.Job(
    NAME,
    metadata=k8s.meta.v1.ObjectMetaArgs(name=NAME, namespace=namespace, labels=labels),
    spec=k8s.batch.v1.JobSpecArgs(
        backoff_limit=2,
        ttl_seconds_after_finished=3600,
        template=k8s.core.v1.PodTemplateSpecArgs(
            metadata=k8s.meta.v1.ObjectMetaArgs(labels=labels),
            spec=k8s.core.v1.PodSpecArgs(
                restart_policy="Never",
                # MPS clients talk to the node's MPS control daemon over host IPC.
                host_ipc=True,
                tolerations=[
                    k8s.core.v1.TolerationArgs(
                        key=GPU_TAINT_KEY, operator="Exists", effect=GPU_TAINT_EFFECT
                    )
                ],
                security_context=k8s.core.v1.PodSecurityContextArgs(
                    run_as_non_root=True,
                    run_as_user=1000,
                    seccomp_profile=k8s.core.v1.SeccompProfileArgs(type="RuntimeDefault"),
                ),
                containers=[
                    k8s.core.v1.ContainerArgs(
                        name=NAME,
                        image=IMAGE,
                        resources=k8s.core.v1.ResourceRequirementsArgs(
                            # Extended resources are limits only; GiB of GPU memory.
                            limits={ALIYUN_GPU_MEM: str(gpu_mem_gib), "cpu": "1", "memory": "2Gi"},
                            requests={"cpu": "500m", "memory": "1Gi"},
                        ),
                        security_context=k8s.core.v1.SecurityContextArgs(
                            allow_privilege_escalation=False,
                            capabilities=k8s.core.v1.CapabilitiesArgs(drop=["ALL"]),
                        ),
                    )
                ],
            ),
        ),
    ),
)

pulumi.export("job", job.metadata.name)
pulumi.export("namespace", namespace)
