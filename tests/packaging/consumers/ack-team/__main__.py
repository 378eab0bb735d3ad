"""A team's ACK program outside our repository, in a virtualenv with gpu-platform[alicloud]
only: nothing it imports may need azure-native (which is not even installed)."""

import sys

import pulumi
import settings

from components import TEAM
from gpu_platform import AckGpuNodePool

AckGpuNodePool(
    "gpu",
    {
        "cluster_id": "c0ffee",
        "vswitch_ids": ["vsw-team"],
        "pool": {
            "name": settings.POOL_NAME,
            "instance_type": "ecs.gn6i-c4g1.xlarge",
            "autoscale": {"min": 0, "max": settings.MAX_NODES},
            "labels": {"team": TEAM},
        },
    },
)
pulumi.export("azureNativeImported", "pulumi_azure_native" in sys.modules)
