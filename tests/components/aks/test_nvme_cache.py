"""NvmeCache: Azure Container Storage and the ephemeral local-NVMe StorageClass on an AKS
cluster (components/aks/nvme_cache.py; BP-18)."""

from __future__ import annotations

import pulumi
import pulumi_kubernetes as k8s

from gpu_facts.aks.storage import ACSTOR_V1_EXTENSION_TYPE
from gpu_platform.components.aks.gpu_node_pool import AksGpuNodePool
from gpu_platform.components.aks.nvme_cache import (
    LOCAL_NVME_PROVISIONER,
    STORAGE_CLASS_NAME,
    NvmeCache,
)
from tests.components.aks.test_gpu_node_pool import (
    AGENT_POOL,
    EXTENSION,
    STORAGE_CLASS,
    k8s_provider,
    nvme_platform,
    pool_args,
)
from tests.components.input_errors import paths
from tests.conftest import one, run


def test_nvme_cache_installs_azure_container_storage_and_an_ephemeral_class() -> None:
    def program() -> None:
        provider = k8s.Provider("k8s", kubeconfig=pulumi.Output.secret("apiVersion: v1"))
        cache = NvmeCache(
            "plat-nvme",
            {
                "cluster_name": "gpu-dev",
                "resource_group_name": "rg-gpu-dev",
                "pools": ["a100nvme"],
                "kubernetes_provider": provider,
            },
        )
        pulumi.export("storageClass", cache.storage_class_name)

    result = run(program)
    extension = one(result, EXTENSION)
    assert extension.inputs == {
        "clusterName": "gpu-dev",
        "clusterResourceName": "managedClusters",
        "clusterRp": "Microsoft.ContainerService",
        "resourceGroupName": "rg-gpu-dev",
        "extensionName": "acstor",
        # Azure Container Storage v2 (microsoft.azurecontainerstorage is v1, which has no
        # localdisk.csi.acstor.io and no 2.x versions).
        "extensionType": "microsoft.azurecontainerstoragev2",
        "configurationSettings": {"enable-azure-container-storage": "true"},
        # Microsoft supports no minor/patch pin for v2: no version, upgrades on.
        "autoUpgradeMinorVersion": True,
        "releaseTrain": "stable",
        "scope": {"cluster": {"releaseNamespace": "kube-system"}},
    }
    assert extension.inputs["extensionType"] != ACSTOR_V1_EXTENSION_TYPE
    storage_class = one(result, STORAGE_CLASS)
    assert storage_class.inputs["metadata"]["name"] == STORAGE_CLASS_NAME
    assert "ephemeral" in STORAGE_CLASS_NAME
    assert storage_class.inputs["provisioner"] == LOCAL_NVME_PROVISIONER
    assert storage_class.inputs["volumeBindingMode"] == "WaitForFirstConsumer"
    assert storage_class.inputs["reclaimPolicy"] == "Delete"
    assert extension.urn in storage_class.dependencies
    component = one(result, "gpu-platform:index:NvmeCache")
    assert extension.parent == component.urn and storage_class.parent == component.urn
    assert result.outputs["storageClass"] == STORAGE_CLASS_NAME


def test_nvme_cache_waits_for_the_node_pools() -> None:
    def program() -> None:
        provider = k8s_provider()
        pool = AksGpuNodePool("plat-gpu-a100nvme", pool_args(nvme_platform().pools["a100nvme"]))
        NvmeCache(
            "plat-nvme",
            {
                "cluster_name": "gpu-dev",
                "resource_group_name": "rg-gpu-dev",
                "pools": ["a100nvme"],
                "kubernetes_provider": provider,
                "node_pools": [pool.agent_pool],
            },
        )

    result = run(program)
    assert one(result, AGENT_POOL).urn in one(result, EXTENSION).dependencies


def test_nvme_cache_without_pools_is_refused_before_anything_is_registered() -> None:
    caught: list[pulumi.InputPropertiesError] = []

    def program() -> None:
        try:
            NvmeCache(
                "bad",
                {
                    "cluster_name": "c",
                    "resource_group_name": "rg",
                    "pools": [],
                    "kubernetes_provider": k8s_provider(),
                },
            )
        except pulumi.InputPropertiesError as err:
            caught.append(err)

    result = run(program)
    [err] = caught
    assert paths(err) == ["pools"]
    assert [r.type for r in result.resources] == ["pulumi:providers:kubernetes"]
