"""An AKS GPU pool, the NVIDIA device plugin and GPU metrics, from Python: a platform engineer's
own program.

No stack config schema, no ``settings`` or ``stack_config``: each component takes its own typed
args (``AksClusterArgs``, ``AksGpuNodePoolArgs``, ``NvidiaDevicePluginArgs``,
``DcgmExporterArgs``), and a bad value
fails with a ``pulumi.InputPropertiesError`` naming the property (``pool.mig.profile``) before
anything is created.

Config (all optional, ``pulumi config set <key> <value>``):

- ``existingClusterName`` and ``existingResourceGroup``: add the pool to that AKS cluster, and
  reach it through your current kubeconfig context (``az aks get-credentials``); unset: create
  a cluster named ``clusterName`` (default ``gpu-example``) in ``location`` (default
  ``westeurope``).
- ``vmSize``: GPU VM size of the pool (default ``Standard_NC4as_T4_v3``, one T4).
- ``maxNodes``: the pool autoscales from zero to this many nodes (default 2).

A cluster created here also gets a small untainted CPU pool (``AksCpuNodePool``): its system
pool is tainted ``CriticalAddonsOnly`` and the GPU pool ``nvidia.com/gpu``, so without it a pod
that needs no GPU would never schedule.

``python -m gpu_platform.offline_preview --program examples/aks-gpu-pool`` runs it on the mock
engine with the policy pack.
"""

import pulumi
import pulumi_kubernetes as k8s

from gpu_platform import (
    AksCluster,
    AksCpuNodePool,
    AksGpuNodePool,
    DcgmExporter,
    GpuPoolArgs,
    NvidiaDevicePlugin,
)

config = pulumi.Config()
existing_cluster = config.get("existingClusterName")

cluster_name: pulumi.Input[str]
resource_group: pulumi.Input[str]
provider: k8s.Provider
if existing_cluster:
    cluster_name = existing_cluster
    resource_group = config.require("existingResourceGroup")
    # Your current kubeconfig context: the cluster's own credentials stay with you.
    provider = k8s.Provider("cluster")
else:
    name = config.get("clusterName") or "gpu-example"
    cluster = AksCluster(
        name,
        {
            "name": name,
            "location": config.get("location") or "westeurope",
            "resource_group": {"name": f"rg-{name}"},
            "sku_tier": "Free",
            "system_pool": {"count": 2},
        },
    )
    cluster_name, resource_group, provider = (
        cluster.cluster_name,
        cluster.resource_group_name,
        cluster.provider,
    )
    AksCpuNodePool(
        "cpu-general",
        {
            "pool": {
                "name": "general",
                "vm_size": "Standard_D4ds_v5",
                "autoscale": {"min": 1, "max": 3},
            },
            "cluster_name": cluster_name,
            "resource_group_name": resource_group,
        },
    )
    pulumi.export("kubeconfig", cluster.kubeconfig)

pool: GpuPoolArgs = {
    "name": "t4",
    "vm_size": config.get("vmSize") or "Standard_NC4as_T4_v3",
    "autoscale": {"min": 0, "max": config.get_int("maxNodes") or 2},
}
gpu_pool = AksGpuNodePool(
    "gpu-t4",
    {
        "pool": pool,
        "cluster_name": cluster_name,
        "resource_group_name": resource_group,
        "workload_types": ["inference"],
    },
)

# The in-cluster layer waits for the cluster (through the provider), not for the pool: its
# DaemonSets reach the GPU nodes as they join, and a pool that fails to create leaves them in place.
in_cluster = pulumi.ResourceOptions(providers={"kubernetes": provider})
# One config per pool, selected by the node label the pool carries; GFD from the same chart.
NvidiaDevicePlugin("device-plugin", {"pools": [pool], "cloud": "aks", "gfd": True}, in_cluster)
# GPU metrics on the pool's nodes, every GPU attributed to its pod (prometheus.io annotations;
# let your Prometheus' namespace in with ``scraper_namespaces``).
DcgmExporter("gpu-metrics", {"pools": [pool], "cloud": "aks"}, in_cluster)

pulumi.export("clusterName", cluster_name)
pulumi.export("gpuPool", gpu_pool.facts)
