"""Raw platform configs for component tests, written for them: the ``gpu-platform:`` keys a
stack file would hold (YAML names, namespace stripped), each as small as its tests allow.

Component tests build their args from these, never from a ``Pulumi.<stack>.yaml``: a change to a
stack file must not break or change a component test (tests/unit/test_component_fixtures.py
holds them to it). Each function returns a fresh dict, so a test may change what it gets.
The stack files are tested as such in ``tests/stacks/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpu_platform.plan.platform import ResolvedPlatform

# --- AKS ------------------------------------------------------------------------------------


def aks_public_cluster() -> dict[str, Any]:
    """An AKS cluster for development: its API server public but limited to one documentation
    range (RFC 5737), Entra ID with Azure RBAC but local accounts kept (the defaults), Free
    tier, two ephemeral-disk system nodes, a Saturday maintenance window."""
    return {
        "name": "gpu-dev",
        "location": "westeurope",
        "resourceGroup": {"name": "rg-gpu-dev"},
        "kubernetesVersion": "1.35",
        "skuTier": "Free",
        "systemPool": {"vmSize": "Standard_D4ds_v5", "count": 2, "osDiskType": "Ephemeral"},
        "apiServer": {"authorizedIpRanges": ["203.0.113.0/24"]},
        "maintenanceWindow": {"day": "Saturday", "startHour": 2, "durationHours": 6},
    }


def aks_hardened_cluster() -> dict[str, Any]:
    """An AKS cluster for production: private API server, Entra ID only (an admin group, local
    accounts disabled), Standard tier, three system nodes, encryption at host, the Azure Policy
    add-on, Defender and ``protect``."""
    return {
        "name": "gpu-prod",
        "location": "westeurope",
        "resourceGroup": {"name": "rg-gpu-prod"},
        "kubernetesVersion": "1.35",
        "skuTier": "Standard",
        "systemPool": {"vmSize": "Standard_D4ds_v5", "count": 3, "osDiskType": "Ephemeral"},
        "entraId": {
            "enabled": True,
            "azureRbac": True,
            "adminGroupObjectIds": ["00000000-0000-0000-0000-00000000a001"],
        },
        "disableLocalAccounts": True,
        "apiServer": {"private": True},
        "maintenanceWindow": {"day": "Sunday", "startHour": 1, "durationHours": 8},
        "encryptionAtHost": True,
        "azurePolicy": True,
        "defender": True,
        "protect": True,
    }


def _general_cpu_pool(**fields: Any) -> dict[str, Any]:
    """The untainted CPU pool ``general`` of D4ds_v5 nodes with ephemeral OS disks."""
    return {
        "name": "general",
        "vmSize": "Standard_D4ds_v5",
        "autoscale": {"min": 1, "max": 3},
        "osDiskType": "Ephemeral",
        "maxPods": 110,
        **fields,
    }


def _a100_mig_pool(**fields: Any) -> dict[str, Any]:
    """An AKS pool of one node of 8x A100 40GB, each split into 7 MIG 1g.5gb instances (mixed
    strategy) for NVIDIA's device plugin."""
    return {
        "name": "a100mig",
        "vmSize": "Standard_ND96asr_v4",
        "count": 1,
        "osDiskType": "Ephemeral",
        "maxPods": 110,
        "mig": {"profile": "MIG1g", "strategy": "mixed"},
        **fields,
    }


def _t4_pool(**fields: Any) -> dict[str, Any]:
    """An AKS pool of one T4 per node, autoscaled from zero."""
    return {
        "name": "t4",
        "vmSize": "Standard_NC4as_T4_v3",
        "osDiskType": "Ephemeral",
        "maxPods": 110,
        "autoscale": {"min": 0, "max": 3},
        **fields,
    }


def _workload(type_: str, gpu_quota: Any, pools: list[str] | None = None) -> dict[str, Any]:
    """A workload namespace ``gpu-<type>`` with its GPU quota, on ``pools`` (or on every pool)."""
    workload = {"name": f"gpu-{type_}", "type": type_, "gpuQuota": gpu_quota}
    return workload if pools is None else {**workload, "pools": pools}


def aks_mig_and_time_slicing() -> dict[str, Any]:
    """An AKS platform serving GPUs through NVIDIA's device plugin two ways: one node of 8x
    A100 40GB split into MIG 1g.5gb instances (mixed strategy, 56 per node) for training, and
    T4s time-sliced 4 ways for inference, with a CPU pool beside them."""
    return {
        "cloud": "aks",
        "cluster": aks_public_cluster(),
        "gpuPools": [
            _a100_mig_pool(
                upgrade={"maxSurge": "1", "drainTimeoutMinutes": 120, "nodeSoakMinutes": 5}
            ),
            _t4_pool(sharing={"mode": "timeSlicing", "replicas": 4}),
        ],
        "cpuPools": [_general_cpu_pool()],
        "workloads": [
            _workload("training", {"nvidia.com/mig-1g.5gb": 56}, ["a100mig"]),
            _workload("inference", {"nvidia.com/gpu.shared": 8}, ["t4"]),
        ],
    }


def aks_hardened() -> dict[str, Any]:
    """The hardened AKS cluster (``aks_hardened_cluster``) with a CPU pool in three zones, two
    nodes always up."""
    return {
        "cloud": "aks",
        "cluster": aks_hardened_cluster(),
        "cpuPools": [_general_cpu_pool(autoscale={"min": 2, "max": 6}, zones=["1", "2", "3"])],
    }


def aks_amd_and_nvidia() -> dict[str, Any]:
    """An AKS platform with AMD GPUs beside NVIDIA ones: one node of 8x MI300X (Ubuntu, local
    NVMe cache) served by AMD's GPU operator v1.5.1 with a driver built into our registry, for
    training; whole T4s through NVIDIA's device plugin for inference."""
    return {
        "cloud": "aks",
        "cluster": aks_public_cluster(),
        "gpuPools": [
            {
                "name": "mi300x",
                "vmSize": "Standard_ND96isr_MI300X_v5",
                "count": 1,
                "osSku": "Ubuntu",
                "osDiskType": "Ephemeral",
                "maxPods": 110,
                "nvme": True,
            },
            _t4_pool(autoscale={"min": 0, "max": 2}),
        ],
        "amdGpuOperator": {
            "version": "v1.5.1",
            "driver": {
                "version": "6.4",
                "image": "gpuamddev.azurecr.io/amd/amdgpu-kmod",
                "imageRegistrySecret": "amd-driver-registry",
            },
        },
        "workloads": [
            _workload("training", {"amd.com/gpu": 8}, ["mi300x"]),
            _workload("inference", {"nvidia.com/gpu": 2}, ["t4"]),
        ],
    }


def aks_queued() -> dict[str, Any]:
    """An AKS platform whose GPUs are queued by Kueue with the documented defaults
    (``queues: {}``): two nodes of 8x A100 40GB as whole GPUs that training (12) and
    inference (4) share through their queues, and time-sliced T4s for inference only."""
    return {
        "cloud": "aks",
        "cluster": aks_public_cluster(),
        "gpuPools": [
            {
                "name": "a100",
                "vmSize": "Standard_ND96asr_v4",
                "count": 2,
                "osDiskType": "Ephemeral",
                "maxPods": 110,
            },
            _t4_pool(sharing={"mode": "timeSlicing", "replicas": 4}),
        ],
        "workloads": [
            _workload("training", {"nvidia.com/gpu": 12}, ["a100"]),
            _workload(
                "inference", {"nvidia.com/gpu": 4, "nvidia.com/gpu.shared": 12}, ["a100", "t4"]
            ),
        ],
        "queues": {},
    }


def aks_dra_and_device_plugin() -> dict[str, Any]:
    """An AKS platform (Kubernetes 1.36) serving GPUs both ways: device-plugin pools (A100 MIG
    1g.5gb for training, time-sliced T4s for inference) beside pools NVIDIA's DRA driver 25.12.0
    serves through ResourceClaims (whole H100 NVLs from zero, and one node of A100 MIG 1g.5gb
    devices) for a ``dra`` workload."""
    return {
        "cloud": "aks",
        "cluster": {**aks_public_cluster(), "kubernetesVersion": "1.36"},
        "gpuPools": [
            _a100_mig_pool(),
            _t4_pool(
                autoscale={"min": 0, "max": 2}, sharing={"mode": "timeSlicing", "replicas": 4}
            ),
            {
                "name": "h100dra",
                "vmSize": "Standard_NC40ads_H100_v5",
                "osDiskType": "Managed",
                "maxPods": 110,
                "allocation": "dra",
                "autoscale": {"min": 0, "max": 2},
            },
            {
                "name": "a100dramig",
                "vmSize": "Standard_ND96asr_v4",
                "count": 1,
                "osDiskType": "Ephemeral",
                "maxPods": 110,
                "allocation": "dra",
                "mig": {"profile": "MIG1g"},
            },
        ],
        "draDriver": {"version": "25.12.0"},
        "workloads": [
            _workload("training", {"nvidia.com/mig-1g.5gb": 56}, ["a100mig"]),
            _workload("inference", {"nvidia.com/gpu.shared": 8}, ["t4"]),
            _workload(
                "dra", {"gpu.nvidia.com": 2, "mig.nvidia.com": 28}, ["h100dra", "a100dramig"]
            ),
        ],
    }


# --- ACK ------------------------------------------------------------------------------------


def ack_pro_cluster() -> dict[str, Any]:
    """An ACK Pro cluster in cn-hangzhou: a VPC of two zones (node and pod vSwitches in each),
    two system nodes, ESSD system disks, auto-upgraded patches, RRSA, the audit log, a 2-hour
    kubeconfig, no deletion protection."""
    return {
        "name": "gpu-ack-dev",
        "region": "cn-hangzhou",
        "clusterSpec": "ack.pro.small",
        "vpc": {
            "cidr": "10.0.0.0/8",
            "vswitches": [
                {"zone": "cn-hangzhou-i", "cidr": "10.1.0.0/16"},
                {"zone": "cn-hangzhou-j", "cidr": "10.2.0.0/16"},
            ],
            "podVswitches": [
                {"zone": "cn-hangzhou-i", "cidr": "10.11.0.0/16"},
                {"zone": "cn-hangzhou-j", "cidr": "10.12.0.0/16"},
            ],
        },
        "serviceCidr": "172.21.0.0/20",
        "systemPool": {"instanceType": "ecs.g7.xlarge", "count": 2},
        "nodeSystemDisk": {"category": "cloud_essd", "sizeGib": 120, "encrypted": False},
        "maintenanceWindow": {"day": "Saturday", "startHour": 18, "durationHours": 6},
        "autoUpgradeChannel": "patch",
        "rrsa": True,
        "auditLog": True,
        "deletionProtection": False,
        "protect": False,
        "kubeconfigMinutes": 120,
        "tags": {"environment": "dev"},
    }


def ack_mps_and_whole_gpus() -> dict[str, Any]:
    """An ACK Pro platform: A10s shared through ACK's MPS (GPU memory in GiB, pinned AI
    installer and MPS control) for training, whole T4s through NVIDIA's device plugin for
    inference, both autoscaled from zero, and a CPU pool."""
    return {
        "cloud": "ack",
        "cluster": ack_pro_cluster(),
        "gpuPools": [
            {
                "name": "a10mps",
                "instanceType": "ecs.gn7i-c8g1.2xlarge",
                "autoscale": {"min": 0, "max": 2},
                "sharing": {"mode": "mps"},
            },
            {
                "name": "t4",
                "instanceType": "ecs.gn6i-c4g1.xlarge",
                "autoscale": {"min": 0, "max": 3},
            },
        ],
        "cpuPools": [
            {"name": "general", "instanceType": "ecs.g7.xlarge", "autoscale": {"min": 1, "max": 3}}
        ],
        "ackGpuSharing": {
            "aiInstallerVersion": "1.8.2",
            "mpsControlVersion": "0.2.0",
            "allowMpsControlChanges": False,
        },
        "workloads": [
            _workload("training", {"aliyun.com/gpu-mem": 48}, ["a10mps"]),
            _workload("inference", {"nvidia.com/gpu": 3}, ["t4"]),
        ],
    }


# --- existing clusters ----------------------------------------------------------------------


def existing_mig_and_time_slicing() -> dict[str, Any]:
    """An existing (on-prem) cluster reached through a kubeconfig context: two nodes of 8x
    A100 40GB split into MIG 3g.20gb (mixed), and four T4 nodes time-sliced 4 ways; training
    may use any pool, inference the T4s only; a daily driver check."""
    return {
        "cloud": "existing",
        "cluster": {"name": "onprem-a100", "context": "onprem-a100"},
        "gpuPools": [
            {
                "name": "a100",
                "gpu": {"model": "A100-40GB", "count": 8},
                "count": 2,
                "mig": {"profile": "3g.20gb", "strategy": "mixed"},
            },
            {
                "name": "t4",
                "gpu": {"model": "T4", "count": 1},
                "count": 4,
                "sharing": {"mode": "timeSlicing", "replicas": 4},
            },
        ],
        "workloads": [
            _workload("training", 8),
            _workload("inference", 16, ["t4"]),
        ],
        "driverCheck": {"schedule": "0 6 * * *"},
    }


def loaded(
    raw: dict[str, Any] | None = None, mutate: Callable[[dict[str, Any]], None] | None = None
) -> ResolvedPlatform:
    """``raw`` (by default ``existing_mig_and_time_slicing``), changed by ``mutate``, loaded as
    the stack config is."""
    from gpu_platform.stack_config import load_platform

    raw = existing_mig_and_time_slicing() if raw is None else raw
    if mutate is not None:
        mutate(raw)
    return load_platform(raw)
