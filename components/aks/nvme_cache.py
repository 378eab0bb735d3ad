"""NvmeCache: the GPU VMs' local NVMe disks as an ephemeral cache volume (BP-18).

Azure Container Storage (v2, extension type ``microsoft.azurecontainerstoragev2``) is installed
once per cluster as an AKS extension; creating a StorageClass of its local disk CSI driver makes
its installer deploy that driver, which stripes the NVMe data disks of each node. The
StorageClass we add is named ``-ephemeral`` on purpose: the disks belong to the VM, and their
data is lost when a node is deallocated, redeployed, scaled in or re-imaged by a node-image
upgrade. Keep datasets, checkpoints and weights there only as a copy of something stored
elsewhere.

No ``from __future__ import annotations``: the component analyzer reads the args at run time.
"""

from typing import NotRequired, TypedDict

import pulumi
import pulumi_kubernetes as k8s
from pulumi_azure_native import containerservice as aks
from pulumi_azure_native import kubernetesconfiguration as kc

from gpu_facts.aks.storage import (
    ACSTOR_CONFIGURATION_SETTINGS,
    ACSTOR_EXTENSION_NAME,
    ACSTOR_EXTENSION_TYPE,
    ACSTOR_NAMESPACE,
    LOCAL_NVME_PROVISIONER,
    NVME_CACHE_BINDING_MODE,
    NVME_CACHE_RECLAIM_POLICY,
    NVME_CACHE_STORAGE_CLASS,
)

from ..errors import Problem, raise_if_any, shape_problems
from ..type_tokens import formerly, type_token
from .azure_aliases import without_version_aliases

ACSTOR_AUTO_UPGRADE = True
"""No version is pinned (sources in gpu_facts.aks.storage): Microsoft does not support pinning
a minor or patch version of v2 and documents it as upgrading itself; the major version is fixed
by the extension type. An upgrade can briefly interrupt I/O on the cache volumes, which hold
only copies (docs/aks.md)."""
STORAGE_CLASS_NAME = NVME_CACHE_STORAGE_CLASS
"""What a pod's generic ephemeral volume names to get a fast cache on the node's NVMe."""
EPHEMERAL_ANNOTATION = "gpu-platform.io/ephemeral"


class NvmeCacheArgs(TypedDict):
    """Azure Container Storage on an AKS cluster whose GPU pools have local NVMe disks."""

    cluster_name: pulumi.Input[str]
    """Name of the AKS cluster."""
    resource_group_name: pulumi.Input[str]
    """Resource group of the cluster."""
    pools: list[str]
    """GPU pools whose NVMe disks back the cache (for the docs and outputs)."""
    kubernetes_provider: k8s.Provider
    """Provider of the cluster, for the StorageClass."""
    node_pools: NotRequired[list[aks.AgentPool]]
    """The agent pools of those GPU pools: the extension waits for them, as it finds their
    disks once the nodes exist."""


class NvmeCache(pulumi.ComponentResource):
    """Azure Container Storage and an ephemeral local-NVMe StorageClass."""

    storage_class_name: pulumi.Output[str]
    """Name of the ephemeral NVMe StorageClass."""
    pools: pulumi.Output[list[str]]
    """Pools whose local NVMe disks back the StorageClass."""

    def __init__(
        self, name: str, args: NvmeCacheArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        raise_if_any("NvmeCache", name, shape_problems(args, NvmeCacheArgs))
        problems: list[Problem] = []
        if not args["pools"]:
            problems.append(("pools", "name at least one pool with local NVMe disks"))
        raise_if_any("NvmeCache", name, problems)
        super().__init__(
            type_token("NvmeCache"),
            name,
            None,
            formerly("gpu-platform:azure:NvmeCache", without_version_aliases(opts)),
        )
        extension = kc.Extension(
            f"{name}-acstor",
            cluster_name=args["cluster_name"],
            cluster_resource_name="managedClusters",
            cluster_rp="Microsoft.ContainerService",
            resource_group_name=args["resource_group_name"],
            extension_name=ACSTOR_EXTENSION_NAME,
            extension_type=ACSTOR_EXTENSION_TYPE,
            auto_upgrade_minor_version=ACSTOR_AUTO_UPGRADE,
            release_train="stable",
            configuration_settings=dict(ACSTOR_CONFIGURATION_SETTINGS),
            scope=kc.ScopeArgs(cluster=kc.ScopeClusterArgs(release_namespace=ACSTOR_NAMESPACE)),
            opts=pulumi.ResourceOptions(parent=self, depends_on=list(args.get("node_pools", []))),
        )
        storage_class = k8s.storage.v1.StorageClass(
            f"{name}-storageclass",
            metadata=k8s.meta.v1.ObjectMetaArgs(
                name=STORAGE_CLASS_NAME,
                annotations={EPHEMERAL_ANNOTATION: "true"},
            ),
            provisioner=LOCAL_NVME_PROVISIONER,
            volume_binding_mode=NVME_CACHE_BINDING_MODE,
            reclaim_policy=NVME_CACHE_RECLAIM_POLICY,
            allow_volume_expansion=True,
            opts=pulumi.ResourceOptions(
                parent=self, provider=args["kubernetes_provider"], depends_on=[extension]
            ),
        )
        self.storage_class_name = storage_class.metadata.apply(lambda m: m.name or "")
        self.pools = pulumi.Output.from_input(list(args["pools"]))
        self.register_outputs({"storageClassName": self.storage_class_name, "pools": self.pools})
