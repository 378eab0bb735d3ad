"""The one list of policies in the pack. Each policy module states the practices (BP-IDs) it
enforces once, in its ``INFO``; the registry reads them from there."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pulumi_policy import ResourceValidationPolicy, StackValidationPolicy

from gpu_policy_support.policy_factory import PolicyInfo

from . import (
    ack_mps_pools_need_ack_pro,
    cluster_queue_quota_within_pools,
    cuda_images_pinned,
    device_classes_map_no_gpu_resource,
    device_plugin_release_current_with_gfd,
    dra_driver_not_beside_device_plugin,
    gpu_clusters_have_untainted_pool,
    gpu_limits_whole_numbers,
    gpu_metrics_exporter_resource_names,
    gpu_namespaces_declared,
    gpu_namespaces_deny_all_network_policy,
    gpu_namespaces_have_gpu_quota,
    gpu_node_pools_tainted,
    gpu_pods_labelled_by_workload_type,
    gpu_pods_not_in_default_namespace,
    gpu_pools_have_driver_check,
    gpu_pools_have_metrics_exporter,
    gpu_workloads_name_a_queue,
    gpu_workloads_tolerate_gpu_taint,
    host_ipc_only_for_gpu_mem_pods,
    mig_pools_no_autoscaling_no_azure_linux,
    mig_pools_replaceable_on_profile_change,
    mig_profile_valid_for_vm_size,
    mps_control_daemon_system_node_critical,
    network_policy_engine_enabled,
    no_nvidia_visible_devices_env,
    no_privileged_gpu_containers,
    node_os_upgrade_channel_set,
    nvme_cache_volumes_ephemeral,
    operator_versions_known,
    pod_gpu_resources_exposed_by_pools,
    queued_claims_kueue_admits,
    resource_flavors_select_gpu_pools,
    shared_gpus_renamed_and_single_request,
    single_device_plugin_owner,
)

Policy = ResourceValidationPolicy | StackValidationPolicy

PACK_NAME = "gpu-platform"


def _pack_version() -> str:
    """The release: VERSION in the pack's folder (the pack loaded from ``policies/``), else the
    installed distribution's (the ``gpu-platform-policies`` wheel, which has no such file)."""
    beside = Path(__file__).resolve().parents[1] / "VERSION"
    if beside.is_file():
        return beside.read_text().strip()
    import importlib.metadata  # here: ~30 ms of import a checkout never needs

    return importlib.metadata.version("gpu-platform-policies")


PACK_VERSION = _pack_version()


class PolicyModule(Protocol):
    """A policy module: its ``INFO`` (name, practices, level...) and its ``POLICY``."""

    # Read-only members, so a module whose POLICY is a ResourceValidationPolicy conforms.
    @property
    def INFO(self) -> PolicyInfo: ...  # noqa: N802
    @property
    def POLICY(self) -> Policy: ...  # noqa: N802


@dataclass(frozen=True, slots=True)
class RegisteredPolicy:
    """A policy and the practices from SPEC.md it enforces (read from its module's INFO)."""

    policy: Policy
    practices: tuple[str, ...]

    @classmethod
    def of(cls, module: PolicyModule) -> RegisteredPolicy:
        return cls(module.POLICY, module.INFO.practices)


MODULES: tuple[PolicyModule, ...] = (
    # Cloud resources: GPU node pools and clusters.
    gpu_node_pools_tainted,
    mig_pools_no_autoscaling_no_azure_linux,
    mig_profile_valid_for_vm_size,
    mig_pools_replaceable_on_profile_change,
    node_os_upgrade_channel_set,
    network_policy_engine_enabled,
    ack_mps_pools_need_ack_pro,
    gpu_clusters_have_untainted_pool,
    # Kubernetes workloads, every pod-bearing kind.
    gpu_workloads_tolerate_gpu_taint,
    gpu_limits_whole_numbers,
    no_nvidia_visible_devices_env,
    no_privileged_gpu_containers,
    cuda_images_pinned,
    host_ipc_only_for_gpu_mem_pods,
    gpu_pods_not_in_default_namespace,
    gpu_pods_labelled_by_workload_type,
    mps_control_daemon_system_node_critical,
    # The stack as a whole.
    gpu_namespaces_deny_all_network_policy,
    gpu_namespaces_have_gpu_quota,
    gpu_namespaces_declared,
    device_plugin_release_current_with_gfd,
    single_device_plugin_owner,
    pod_gpu_resources_exposed_by_pools,
    shared_gpus_renamed_and_single_request,
    gpu_pools_have_driver_check,
    gpu_pools_have_metrics_exporter,
    gpu_metrics_exporter_resource_names,
    nvme_cache_volumes_ephemeral,
    operator_versions_known,
    # Kueue's queues.
    gpu_workloads_name_a_queue,
    cluster_queue_quota_within_pools,
    resource_flavors_select_gpu_pools,
    queued_claims_kueue_admits,
    # Dynamic Resource Allocation.
    device_classes_map_no_gpu_resource,
    dra_driver_not_beside_device_plugin,
)
"""Every policy module of the pack, in registration order."""

REGISTERED: tuple[RegisteredPolicy, ...] = tuple(RegisteredPolicy.of(m) for m in MODULES)


def policies() -> list[Policy]:
    """Every policy of the pack, in registration order."""
    return [entry.policy for entry in REGISTERED]
