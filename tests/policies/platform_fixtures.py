"""Platform-shaped stacks for the cross-layer policies: GPU pools, the device plugin release
with per-pool configs, driver checks, workloads and NVMe cache volumes, in the wire shape."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import yaml

from gpu_facts.scheduling import (
    ACK_GPU_SCHEDULE_LABEL,
    AMD_NODE_TAINT,
    AMD_TAINT_KEY,
    DEVICE_PLUGIN_CONFIG_LABEL,
    GPU_PRESENT_LABEL,
    GPU_TAINT,
    GPU_TAINT_KEY,
    POOL_LABEL,
)
from gpu_platform.plan.nvidia.dra_driver import dra_driver_values

from .harness import Res
from .pod_fixtures import container, gpu_pod_spec, wrap
from .stack_fixtures import governed

AGENT_POOL = "azure-native:containerservice:AgentPool"
ACK_NODE_POOL = "alicloud:cs/nodePool:NodePool"
RELEASE = "kubernetes:helm.sh/v3:Release"
STORAGE_CLASS = "kubernetes:storage.k8s.io/v1:StorageClass"
PVC = "kubernetes:core/v1:PersistentVolumeClaim"
NVME_PROVISIONER = "localdisk.csi.acstor.io"
A100_MIG_SIZE = "Standard_ND96asr_v4"
"""8x A100 40GB: MIG1g is 1g.5gb."""
T4_SIZE = "Standard_NC4as_T4_v3"
MI300X_SIZE = "Standard_ND96isr_MI300X_v5"
"""8x AMD Instinct MI300X: 8 amd.com/gpu per node."""
DEVICE_CONFIG = "kubernetes:amd.com/v1alpha1:DeviceConfig"
A10_ECS = "ecs.gn7i-c8g1.2xlarge"


def pool_labels(name: str, config_label: bool = True) -> dict[str, str]:
    labels = {GPU_PRESENT_LABEL: "true", POOL_LABEL: name}
    if config_label:
        labels[DEVICE_PLUGIN_CONFIG_LABEL] = name
    return labels


def aks_pool(
    name: str, vm_size: str = T4_SIZE, profile: str | None = None, config_label: bool = True
) -> Res:
    props: dict[str, Any] = {
        "agentPoolName": name,
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "vmSize": vm_size,
        "count": 1,
        "nodeTaints": [GPU_TAINT],
        "nodeLabels": pool_labels(name, config_label),
    }
    if profile is not None:
        props["gpuInstanceProfile"] = profile
    return Res(AGENT_POOL, f"pool-{name}", props, delete_before_replace=True)


def amd_pool(name: str = "mi300x", **changes: Any) -> Res:
    """An AKS pool of MI300X as ours: AMD's taint, our pool label only, no GPU driver."""
    props: dict[str, Any] = {
        "agentPoolName": name,
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "vmSize": MI300X_SIZE,
        "count": 1,
        "osSKU": "Ubuntu",
        "nodeTaints": [str(AMD_NODE_TAINT)],
        "nodeLabels": {POOL_LABEL: name},
        "gpuProfile": {"driver": "None"},
        **changes,
    }
    return Res(AGENT_POOL, f"pool-{name}", props, delete_before_replace=True)


def amd_tolerations() -> list[dict[str, str]]:
    return [{"key": AMD_TAINT_KEY, "operator": "Exists", "effect": "NoSchedule"}]


def device_config(name: str = "mi300x", selector: dict[str, str] | None = None, **spec: Any) -> Res:
    """Our DeviceConfig of one AMD pool: plugin, labeller and exporter tolerating AMD's taint."""
    tolerations = amd_tolerations()
    body: dict[str, Any] = {
        "selector": {POOL_LABEL: name} if selector is None else selector,
        "driver": {"enable": True, "tolerations": tolerations},
        "devicePlugin": {
            "enableDevicePlugin": True,
            "devicePluginArguments": {"resource_naming_strategy": "single"},
            "devicePluginTolerations": tolerations,
            "nodeLabellerTolerations": tolerations,
        },
        "metricsExporter": {"enable": True, "port": 5000, "tolerations": tolerations},
        **spec,
    }
    props = {"metadata": {"name": name, "namespace": "amd-gpu-operator"}, "spec": body}
    return Res(DEVICE_CONFIG, f"dc-{name}", props)


def ack_pool(name: str, schedule: str | None = None, config_label: bool = False) -> Res:
    labels = pool_labels(name, config_label)
    if schedule is not None:
        labels[ACK_GPU_SCHEDULE_LABEL] = schedule
    props = {
        "clusterId": "c-123",
        "nodePoolName": name,
        "instanceTypes": [A10_ECS],
        "labels": [{"key": k, "value": v} for k, v in labels.items()],
    }
    return Res(ACK_NODE_POOL, f"pool-{name}", props)


def plain(strategy: str = "none") -> dict[str, Any]:
    return {"version": "v1", "flags": {"migStrategy": strategy}}


def shared(
    mode: str = "timeSlicing",
    *,
    rename: bool | None = True,
    fail: bool | None = True,
    resource: str = "nvidia.com/gpu",
    strategy: str = "none",
    resource_rename: str | None = None,
) -> dict[str, Any]:
    """A sharing config; ``rename`` is renameByDefault, ``resource_rename`` the entry's own."""
    entry: dict[str, Any] = {"name": resource, "replicas": 4}
    if resource_rename is not None:
        entry["rename"] = resource_rename
    settings: dict[str, Any] = {"resources": [entry]}
    if rename is not None:
        settings["renameByDefault"] = rename
    if fail is not None:
        settings["failRequestsGreaterThanOne"] = fail
    return {**plain(strategy), "sharing": {mode: settings}}


def plugin_release(
    configs: dict[str, Any] | None = None,
    default: str | None = "plain-default",
    name: str = "device-plugin",
    **values: Any,
) -> Res:
    """The device plugin release with ``configs`` (name -> mapping, or raw YAML text)."""
    configs = {"plain-default": plain()} if configs is None else configs
    documents = {
        key: doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False)
        for key, doc in configs.items()
    }
    config: dict[str, Any] = {"map": documents}
    if default is not None:
        config["default"] = default
    return Res(
        RELEASE,
        name,
        {
            "chart": "nvidia-device-plugin",
            "version": "0.20.0",
            "namespace": "nvidia-device-plugin",
            "values": {"config": config, "gfd": {"enabled": True}, **values},
        },
    )


GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
GPU_NODES_AFFINITY = {
    "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [
                {
                    "matchExpressions": [
                        {"key": GPU_PRESENT_LABEL, "operator": "In", "values": ["true"]},
                        {"key": DEVICE_PLUGIN_CONFIG_LABEL, "operator": "Exists"},
                    ]
                }
            ]
        }
    }
}
"""Where our GPU DaemonSets land: GPU nodes the NVIDIA device plugin serves."""


def exporter_release(
    names: str | None = "nvidia.com/gpu.shared",
    name: str = "gpu-metrics",
    type_: str = RELEASE,
    **values: Any,
) -> Res:
    """A dcgm-exporter release as our DcgmExporter writes it: GPU taint tolerated, on the
    plugin's GPU nodes, told ``names`` (None: no NVIDIA_RESOURCE_NAMES); ``values`` replace
    top-level chart values (``tolerations=None`` drops the key: the chart's default)."""
    env = [] if names is None else [{"name": "NVIDIA_RESOURCE_NAMES", "value": names}]
    merged: dict[str, Any] = {
        "tolerations": [GPU_TOLERATION],
        "affinity": GPU_NODES_AFFINITY,
        "extraEnv": env,
        **values,
    }
    return Res(
        type_,
        name,
        {
            "chart": "dcgm-exporter",
            "version": "4.8.2",
            "namespace": "gpu-metrics",
            "values": {k: v for k, v in merged.items() if v is not None},
        },
    )


def workload(resource: str, kind: str = "Deployment", namespace: str = "gpu-training") -> Res:
    """The compliant GPU workload of ``kind`` asking one ``resource``."""
    spec = copy.deepcopy(gpu_pod_spec())
    container(spec)["resources"] = {"limits": {resource: 1}}
    return wrap(kind, spec, namespace)


def driver_check(
    pool: str,
    kind: str = "Job",
    *,
    selector: dict[str, str] | None = None,
    command: str = "nvidia-smi",
    tolerate: bool = True,
    resource: str = "nvidia.com/gpu",
    taint_key: str = GPU_TAINT_KEY,
) -> Res:
    """A driver check of ``pool``: nvidia-smi on the pool's nodes, GPU taint tolerated."""
    spec = copy.deepcopy(gpu_pod_spec())
    container(spec)["resources"] = {"limits": {resource: 1}}
    container(spec)["command"] = ["/bin/sh", "-c", f"{command} && echo ok"]
    spec["nodeSelector"] = {POOL_LABEL: pool} if selector is None else selector
    spec["tolerations"] = [{"key": taint_key, "operator": "Exists", "effect": "NoSchedule"}]
    if not tolerate:
        spec["tolerations"] = []
    res = wrap(kind, spec, "gpu-readiness")
    return Res(res.type, f"check-{pool}-{kind.lower()}", res.props)


def amd_driver_check(pool: str = "mi300x", **changes: Any) -> Res:
    """Our AMD check of ``pool``: amd-smi asking one amd.com/gpu, AMD's taint tolerated."""
    options: dict[str, Any] = {
        "command": "amd-smi static --driver",
        "resource": "amd.com/gpu",
        "taint_key": AMD_TAINT_KEY,
        **changes,
    }
    return driver_check(pool, **options)


def storage_class(
    name: str = "gpu-nvme-cache-ephemeral",
    provisioner: str = NVME_PROVISIONER,
    default: bool = False,
) -> Res:
    metadata: dict[str, Any] = {"name": name}
    if default:
        metadata["annotations"] = {"storageclass.kubernetes.io/is-default-class": "true"}
    return Res(STORAGE_CLASS, name, {"metadata": metadata, "provisioner": provisioner})


def claim_spec(storage_class_name: str | None) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "accessModes": ["ReadWriteOnce"],
        "resources": {"requests": {"storage": "500Gi"}},
    }
    if storage_class_name is not None:
        spec["storageClassName"] = storage_class_name
    return spec


def pvc(storage_class_name: str | None = "gpu-nvme-cache-ephemeral", name: str = "cache") -> Res:
    props = {
        "metadata": {"name": name, "namespace": "gpu-training"},
        "spec": claim_spec(storage_class_name),
    }
    return Res(PVC, name, props)


def cache_workload(
    kind: str,
    storage_class_name: str = "gpu-nvme-cache-ephemeral",
    resource: str = "nvidia.com/gpu",
) -> Res:
    """A GPU workload of ``kind`` with the NVMe cache as a generic ephemeral volume."""
    spec = copy.deepcopy(gpu_pod_spec())
    container(spec)["resources"] = {"limits": {resource: 1}}
    spec["volumes"] = [
        {
            "name": "cache",
            "ephemeral": {"volumeClaimTemplate": {"spec": claim_spec(storage_class_name)}},
        }
    ]
    container(spec)["volumeMounts"] = [{"name": "cache", "mountPath": "/cache"}]
    return wrap(kind, spec)


def stateful_set_with_claim(storage_class_name: str = "gpu-nvme-cache-ephemeral") -> Res:
    res = wrap("StatefulSet", gpu_pod_spec())
    props = copy.deepcopy(res.props)
    props["spec"]["volumeClaimTemplates"] = [
        {"metadata": {"name": "cache"}, "spec": claim_spec(storage_class_name)}
    ]
    return Res(res.type, res.name, props)


def dev_like_stack() -> tuple[Res, ...]:
    """A compliant platform like our dev stack: a mixed-MIG A100 pool, a renamed time-sliced
    T4 pool, their configs, a driver check each, the metrics exporter, workloads on both, an
    NVMe cache volume, and the workloads' namespaces with their deny-all NetworkPolicy and GPU
    quota."""
    return (
        aks_pool("a100mig", A100_MIG_SIZE, "MIG1g"),
        aks_pool("t4"),
        plugin_release(
            {"plain-default": plain(), "a100mig": plain("mixed"), "t4": shared()},
        ),
        driver_check("a100mig", resource="nvidia.com/mig-1g.5gb"),
        driver_check("t4", "CronJob", resource="nvidia.com/gpu.shared"),
        workload("nvidia.com/mig-1g.5gb"),
        workload("nvidia.com/gpu.shared", "Job", "gpu-inference"),
        exporter_release(),
        storage_class(),
        cache_workload("Pod", resource="nvidia.com/mig-1g.5gb"),
        *governed("gpu-training"),
        *governed("gpu-inference"),
    )


MIG_1G = "nvidia.com/mig-1g.5gb"
MIG_POOL = aks_pool("a100mig", A100_MIG_SIZE, "MIG1g")
T4_POOL = aks_pool("t4")
ACK_A10 = ack_pool("a10", "mps")
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
AUTOSCALED = {"enableAutoScaling": True, "minCount": 0, "maxCount": 3}
ACK_SCALING = {"scalingConfig": {"enable": True, "minSize": 0, "maxSize": 2, "type": "gpu"}}


def mig_stack(strategy: str = "mixed", global_mig: str | None = None) -> tuple[Res, ...]:
    release = plugin_release({"plain-default": plain(), "a100mig": plain(strategy)})
    if global_mig is not None:
        release.props["values"]["migStrategy"] = global_mig
    return (MIG_POOL, release)


def t4_stack(config: dict[str, object]) -> tuple[Res, ...]:
    return (T4_POOL, plugin_release({"plain-default": plain(), "t4": config}))


def sized(pool: Res, **changes: object) -> Res:
    """``pool`` with its sizing props changed (``None`` drops a prop)."""
    props = {**pool.props, **changes}
    return replace(pool, props={k: v for k, v in props.items() if v is not None})


def inline_gpu_pool(**changes: object) -> Res:
    """A ManagedCluster with a system pool and the t4 GPU pool inline, the latter ``changes``d."""
    gpu = {k: v for k, v in T4_POOL.props.items() if k not in ("resourceGroupName", "resourceName")}
    gpu.pop("agentPoolName")
    gpu = {"name": "t4", "mode": "User", **gpu, **changes}
    system = {"name": "system", "mode": "System", "vmSize": "Standard_D4s_v5", "count": 0}
    return Res(MANAGED_CLUSTER, "aks", {"agentPoolProfiles": [system, gpu]})


def many_workloads_stack() -> list[Res]:
    """The dev-like stack with 100 more workloads: for linear-time checks."""
    resources = list(dev_like_stack())
    for i in range(100):
        res = workload("nvidia.com/mig-1g.5gb")
        resources.append(Res(res.type, f"w{i}", res.props))
    return resources


def dra_release(
    chart: str = "nvidia-dra-driver-gpu", pools: tuple[str, ...] = ("h100dra",), **values: Any
) -> Res:
    """The platform's release of NVIDIA's DRA driver, its GPU kubelet plugin on ``pools``,
    ``values`` over its own."""
    merged = {**dra_driver_values(list(pools), compute_domains=False), **values}
    return Res(
        RELEASE,
        "dra-driver",
        {
            "chart": chart,
            "version": "25.12.0",
            "namespace": "nvidia-dra-driver-gpu",
            "values": merged,
        },
    )
