"""A team's AKS program outside our repository: its own ``components`` package and
``settings`` module beside the installed ``gpu_platform``."""

import pulumi
import pulumi_kubernetes as k8s
import settings

from components import TEAM
from gpu_platform import AksGpuNodePool, DcgmExporter, GpuPoolArgs, NvidiaDevicePlugin

config = pulumi.Config()
pool: GpuPoolArgs = {
    "name": settings.POOL_NAME,
    "vm_size": "Standard_NC4as_T4_v3",
    "autoscale": {"min": 0, "max": settings.MAX_NODES},
    "labels": {"team": TEAM},
}
gpu = AksGpuNodePool(
    "gpu",
    {
        "cluster_name": config.require("clusterName"),
        "resource_group_name": "rg-team",
        "pool": pool,
    },
)
in_cluster = pulumi.ResourceOptions(provider=k8s.Provider("cluster"))
NvidiaDevicePlugin("plugin", {"pools": [pool], "cloud": "aks"}, in_cluster)
DcgmExporter("metrics", {"pools": [pool], "cloud": "aks"}, in_cluster)
pulumi.export("poolName", gpu.pool_name)
