"""Names the scheduler sees: extended resources, the GPU taint and the node labels we rely on."""

from __future__ import annotations

import re
from dataclasses import dataclass

NVIDIA_RESOURCE_DOMAIN = "nvidia.com/"
"""Prefix of the extended resources NVIDIA's device plugin advertises."""
NVIDIA_GPU = "nvidia.com/gpu"
"""Whole GPUs, or MIG instances under the ``single`` strategy."""
NVIDIA_MIG_PREFIX = "nvidia.com/mig-"
"""MIG instances under the ``mixed`` strategy: ``nvidia.com/mig-<profile>``."""
SHARED_SUFFIX = ".shared"
"""Suffix the device plugin adds to shared resources when ``renameByDefault`` is on."""
ALIYUN_GPU_MEM = "aliyun.com/gpu-mem"
"""ACK shared-GPU resource, in GiB of GPU memory."""

GPU_TAINT_KEY = "nvidia.com/gpu"
# The chart's NFD worker tolerates nvidia.com/gpu only with value "present"
# (values.yaml nfd.worker.tolerations); any other value leaves GFD without labels.
GPU_TAINT_VALUE = "present"
GPU_TAINT_EFFECT = "NoSchedule"
GPU_TAINT = f"{GPU_TAINT_KEY}={GPU_TAINT_VALUE}:{GPU_TAINT_EFFECT}"
"""The taint in the ``key=value:Effect`` form AKS ``nodeTaints`` takes."""


@dataclass(frozen=True, slots=True)
class Taint:
    """A node taint; ``str()`` gives the ``key=value:Effect`` form AKS ``nodeTaints`` take."""

    key: str
    value: str
    effect: str

    def __str__(self) -> str:
        value = f"={self.value}" if self.value else ""
        return f"{self.key}{value}:{self.effect}"


GPU_NODE_TAINT = Taint(GPU_TAINT_KEY, GPU_TAINT_VALUE, GPU_TAINT_EFFECT)

GPU_PRESENT_LABEL = "nvidia.com/gpu.present"
"""One of the labels the chart's default node affinity selects on."""
DEVICE_PLUGIN_CONFIG_LABEL = "nvidia.com/device-plugin.config"
"""Selects the named device-plugin config a node uses."""
PLATFORM_LABEL_DOMAIN = "gpu-platform.io"
"""Our own label domain: the platform sets the labels in it (pool, workload types)."""
POOL_LABEL = f"{PLATFORM_LABEL_DOMAIN}/pool"
"""Our label naming the pool a node belongs to."""
ACK_GPU_SCHEDULE_LABEL = "ack.node.gpu.schedule"
"""ACK label that turns on GPU sharing on a node pool (``mps``, ``cgpu``, ``share``)."""
ACK_GPU_SCHEDULE_VALUES: dict[str, str] = {"ackMps": "mps", "ackCgpu": "cgpu", "ackShare": "share"}
"""Value of ``ack.node.gpu.schedule`` per ACK sharing mode: MPS with GPU-memory isolation,
cGPU memory isolation, and sharing without isolation (ACK's GPU-sharing docs)."""
ACK_DEVICE_PLUGIN_OFF = "disabled"
"""``ack.node.gpu.schedule`` value that keeps ACK's own ``ack-nvidia-device-plugin`` off a node.

ACK installs that plugin with every cluster: since Kubernetes 1.32 a DaemonSet selecting
``ack.node.gpu.schedule=default``, a label ACK's node-join script puts on new GPU nodes unless
the pool sets another value (ACK help "Configure and manage the ack-nvidia-device-plugin
component"; ``disabled`` is the value ACK's "Schedule GPUs with DRA" guide uses to turn it off,
and HAMi's ACK guide sets it as a node-pool label). Our whole-GPU and time-sliced pools are
served by the NVIDIA device plugin release instead: one plugin per node."""
ACK_DEVICE_PLUGIN_DAEMONSET_SINCE = "1.32"
"""First Kubernetes version whose ACK device plugin is the label-selected DaemonSet; before it
a static pod on every GPU node, which no label turns off."""
WORKLOAD_LABEL_PREFIX = "workload.gpu-platform.io/"
"""Node label prefix ``workload.gpu-platform.io/<type>=true``: workload types a pool serves."""
WORKLOAD_TYPE_LABEL = "workload"
"""Namespace label that carries the workload type (BP-07): ``workload: training``."""
MPS_HOST_IPC_LABEL = "gpu-platform.io/mps-host-ipc"
"""Namespace label for the ACK MPS exception: ``required`` (every gpu-mem pool of the
namespace is MPS: gpu-mem pods must set ``hostIPC``) or ``allowed`` (some are)."""
MPS_HOST_IPC_REQUIRED = "required"
MPS_HOST_IPC_ALLOWED = "allowed"
NVIDIA_VISIBLE_DEVICES_ENV = "NVIDIA_VISIBLE_DEVICES"
"""The env var that hands a container GPUs behind the scheduler's back (BP-17)."""
NO_GPU_VISIBLE_DEVICES_PATTERN = r"^(none|void)?$|(^|,)void(,|$)"
"""``NVIDIA_VISIBLE_DEVICES`` values that expose no GPU, so setting them is no violation: empty,
``none`` (no GPU, driver libraries still injected), ``void`` (no GPU, the runtime acts like
runc), or a list with ``void`` in it ("void anywhere in the list wins"). NVIDIA's own pods set
``void`` (its DRA driver's chart; CDI specs). Source: NVIDIA/nvidia-container-toolkit v1.20.0
``cmd/nvidia-container-runtime/README.md``, ``internal/config/image/{cuda_image,devices}.go``.
The pack (Python ``re``) and the admission policy (CEL ``matches``, RE2) read this pattern."""
_NO_GPU_VISIBLE_DEVICES = re.compile(NO_GPU_VISIBLE_DEVICES_PATTERN)


def exposes_no_gpu(value: str) -> bool:
    """Whether ``NVIDIA_VISIBLE_DEVICES=value`` exposes no GPU to the container."""
    return _NO_GPU_VISIBLE_DEVICES.search(value) is not None


CUDA_IMAGE_REPOSITORY = "cuda"
"""Last path segment of CUDA image repositories (nvidia/cuda, nvcr.io/nvidia/cuda) (BP-19)."""
AMD_GPU_PREFIX = "amd.com/gpu"
"""AMD's GPU resources (the vendor taint is ``amd.com/gpu`` too)."""
AMD_GPU = "amd.com/gpu"
"""Whole AMD GPUs: what AMD's device plugin advertises under its ``single`` resource naming
strategy (ROCm/k8s-device-plugin ``-resource_naming_strategy``, default ``single``)."""
AMD_TAINT_KEY = "amd.com/gpu"
"""The vendor taint key of AMD GPU nodes (BP-01: ``<vendor>.com/gpu``)."""
AMD_NODE_TAINT = Taint(AMD_TAINT_KEY, GPU_TAINT_VALUE, GPU_TAINT_EFFECT)
"""``amd.com/gpu=present:NoSchedule``: the value matches NVIDIA's, so one toleration form
(``Exists`` on the vendor's key) serves both."""
AMD_COMPUTE_PARTITIONS: tuple[str, ...] = ("spx", "dpx", "qpx", "cpx")
AMD_MEMORY_PARTITIONS: tuple[str, ...] = ("nps1", "nps2", "nps4")
"""Compute and memory partition modes as AMD's device plugin names them under its ``mixed``
strategy, ``amd.com/<compute>_<memory>`` lowercased (ROCm/gpu-operator docs, "Migrating
partitioned-GPU workloads from the device plugin to DRA"; the modes of the operator's default
Device Config Manager profiles: SPX, DPX, QPX, CPX with NPS1, NPS2, NPS4)."""
AMD_PARTITION_PATTERN = (
    rf"^amd\.com/({'|'.join(AMD_COMPUTE_PARTITIONS)})_({'|'.join(AMD_MEMORY_PARTITIONS)})$"
)
"""A partition's resource name, for the pack and the admission policy's CEL alike."""
_AMD_PARTITION = re.compile(AMD_PARTITION_PATTERN)
GFD_LABELS: tuple[str, ...] = ("nvidia.com/gpu.product", "nvidia.com/gpu.count")
"""Labels GPU Feature Discovery writes on every GPU node it inspected; without them GFD never
ran there, and MPS and per-model scheduling silently fail."""
GPU_NAMESPACE_LABEL = "gpu-platform.io/gpu-workloads"
"""Namespace label that puts a namespace under the in-cluster GPU admission policy."""


_GPU_RESOURCES = frozenset({NVIDIA_GPU, NVIDIA_GPU + SHARED_SUFFIX, ALIYUN_GPU_MEM})


def mig_resource(profile: str) -> str:
    """Kubernetes resource name of a MIG profile under the ``mixed`` strategy."""
    return f"{NVIDIA_MIG_PREFIX}{profile}"


def amd_partition_resource(compute: str, memory: str) -> str:
    """The resource of one AMD GPU partition mode under the ``mixed`` strategy."""
    return f"amd.com/{compute.lower()}_{memory.lower()}"


def is_amd_gpu_resource(name: str) -> bool:
    """True for AMD's GPU resources: whole GPUs (``amd.com/gpu*``) and partitions
    (``amd.com/cpx_nps4``). Other ``amd.com/`` resources (AMD's NICs) are no GPUs."""
    return name.startswith(AMD_GPU_PREFIX) or _AMD_PARTITION.match(name) is not None


def is_gpu_resource(name: str) -> bool:
    """True for every extended resource that hands out GPU capacity."""
    return name in _GPU_RESOURCES or name.startswith(NVIDIA_MIG_PREFIX) or is_amd_gpu_resource(name)
