"""The one list of policies in the pack, each with the practices (BP-IDs) it enforces."""

from __future__ import annotations

from dataclasses import dataclass

from pulumi_policy import ResourceValidationPolicy, StackValidationPolicy

from . import (
    ack_mps_pools_need_ack_pro,
    cuda_images_pinned,
    device_plugin_release_current_with_gfd,
    gpu_limits_whole_numbers,
    gpu_namespaces_deny_all_network_policy,
    gpu_namespaces_have_gpu_quota,
    gpu_node_pools_tainted,
    gpu_pods_not_in_default_namespace,
    gpu_pools_have_driver_check,
    gpu_workloads_tolerate_gpu_taint,
    host_ipc_only_for_gpu_mem_pods,
    mig_pools_no_autoscaling_no_azure_linux,
    mig_pools_replaceable_on_profile_change,
    mig_profile_valid_for_vm_size,
    network_policy_engine_enabled,
    no_nvidia_visible_devices_env,
    no_privileged_gpu_containers,
    node_os_upgrade_channel_set,
    nvme_cache_volumes_ephemeral,
    pod_gpu_resources_exposed_by_pools,
    shared_gpus_renamed_and_single_request,
    single_device_plugin_owner,
)

Policy = ResourceValidationPolicy | StackValidationPolicy

PACK_NAME = "gpu-platform"
PACK_VERSION = "0.1.0"


@dataclass(frozen=True, slots=True)
class RegisteredPolicy:
    """A policy and the practices from SPEC.md it enforces."""

    policy: Policy
    practices: tuple[str, ...]


REGISTERED: tuple[RegisteredPolicy, ...] = (
    # Cloud resources: GPU node pools and clusters.
    RegisteredPolicy(gpu_node_pools_tainted.POLICY, ("BP-01",)),
    RegisteredPolicy(mig_pools_no_autoscaling_no_azure_linux.POLICY, ("BP-12",)),
    RegisteredPolicy(mig_profile_valid_for_vm_size.POLICY, ("BP-10",)),
    RegisteredPolicy(mig_pools_replaceable_on_profile_change.POLICY, ("BP-11",)),
    RegisteredPolicy(node_os_upgrade_channel_set.POLICY, ("BP-06",)),
    RegisteredPolicy(network_policy_engine_enabled.POLICY, ("BP-08",)),
    RegisteredPolicy(ack_mps_pools_need_ack_pro.POLICY, ("BP-16",)),
    # Kubernetes workloads, every pod-bearing kind.
    RegisteredPolicy(gpu_workloads_tolerate_gpu_taint.POLICY, ("BP-02", "BP-04")),
    RegisteredPolicy(gpu_limits_whole_numbers.POLICY, ("BP-03", "BP-04")),
    RegisteredPolicy(no_nvidia_visible_devices_env.POLICY, ("BP-17",)),
    RegisteredPolicy(no_privileged_gpu_containers.POLICY, ("BP-17",)),
    RegisteredPolicy(cuda_images_pinned.POLICY, ("BP-19",)),
    RegisteredPolicy(host_ipc_only_for_gpu_mem_pods.POLICY, ("BP-16", "BP-17")),
    RegisteredPolicy(gpu_pods_not_in_default_namespace.POLICY, ("BP-07",)),
    # The stack as a whole.
    RegisteredPolicy(gpu_namespaces_deny_all_network_policy.POLICY, ("BP-08",)),
    RegisteredPolicy(gpu_namespaces_have_gpu_quota.POLICY, ("BP-09",)),
    RegisteredPolicy(device_plugin_release_current_with_gfd.POLICY, ("BP-14",)),
    RegisteredPolicy(single_device_plugin_owner.POLICY, ("BP-14", "BP-20")),
    RegisteredPolicy(pod_gpu_resources_exposed_by_pools.POLICY, ("BP-13",)),
    RegisteredPolicy(shared_gpus_renamed_and_single_request.POLICY, ("BP-15",)),
    RegisteredPolicy(gpu_pools_have_driver_check.POLICY, ("BP-05",)),
    RegisteredPolicy(nvme_cache_volumes_ephemeral.POLICY, ("BP-18",)),
)


def policies() -> list[Policy]:
    """Every policy of the pack, in registration order."""
    return [entry.policy for entry in REGISTERED]
