"""A small AKS plan for `make scan`'s tests: a cluster whose system pool encrypts at host, a GPU
pool that does not (CKV_AZURE_227 fails on it), a hardened Job whose image is tag-pinned (only
CKV_K8S_15 and CKV_K8S_43 fail), a Namespace, and a Helm release the scan cannot see."""

import pulumi
import pulumi_azure_native as azure
import pulumi_kubernetes as k8s

cluster = azure.containerservice.ManagedCluster(
    "aks",
    resource_group_name="rg-scan",
    resource_name_="scan",
    location="westeurope",
    dns_prefix="scan",
    enable_rbac=True,
    disable_local_accounts=True,
    identity=azure.containerservice.ManagedClusterIdentityArgs(
        type=azure.containerservice.ResourceIdentityType.SYSTEM_ASSIGNED
    ),
    network_profile=azure.containerservice.ContainerServiceNetworkProfileArgs(
        network_plugin="azure", network_policy="cilium"
    ),
    agent_pool_profiles=[
        azure.containerservice.ManagedClusterAgentPoolProfileArgs(
            name="system",
            mode="System",
            count=1,
            vm_size="Standard_D4ds_v5",
            enable_encryption_at_host=True,
            max_pods=110,
        )
    ],
)
azure.containerservice.AgentPool(
    "gpu",
    resource_group_name="rg-scan",
    resource_name_="scan",
    agent_pool_name="gpu",
    vm_size="Standard_NC4as_T4_v3",
    count=1,
    max_pods=110,
    opts=pulumi.ResourceOptions(depends_on=[cluster]),
)
provider = k8s.Provider("k8s", kubeconfig=pulumi.Output.secret("apiVersion: v1"))
opts = pulumi.ResourceOptions(provider=provider)
k8s.core.v1.Namespace("ns", metadata=k8s.meta.v1.ObjectMetaArgs(name="checks"), opts=opts)
container = k8s.core.v1.ContainerArgs(
    name="smi",
    image="nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04",
    command=["nvidia-smi"],
    resources=k8s.core.v1.ResourceRequirementsArgs(
        requests={"cpu": "100m", "memory": "64Mi"}, limits={"cpu": "100m", "memory": "64Mi"}
    ),
    security_context=k8s.core.v1.SecurityContextArgs(
        allow_privilege_escalation=False,
        read_only_root_filesystem=True,
        capabilities=k8s.core.v1.CapabilitiesArgs(drop=["ALL"]),
    ),
)
k8s.batch.v1.Job(
    "check",
    metadata=k8s.meta.v1.ObjectMetaArgs(name="check", namespace="checks"),
    spec=k8s.batch.v1.JobSpecArgs(
        template=k8s.core.v1.PodTemplateSpecArgs(
            spec=k8s.core.v1.PodSpecArgs(
                restart_policy="Never",
                automount_service_account_token=False,
                security_context=k8s.core.v1.PodSecurityContextArgs(
                    run_as_non_root=True,
                    run_as_user=65534,
                    run_as_group=65534,
                    seccomp_profile=k8s.core.v1.SeccompProfileArgs(type="RuntimeDefault"),
                ),
                containers=[container],
            )
        )
    ),
    opts=opts,
)
k8s.helm.v3.Release(
    "plugin",
    chart="nvidia-device-plugin",
    version="0.17.0",  # no repository and no local copy: reported as not scanned
    namespace="nvidia-device-plugin",
    opts=opts,
)
