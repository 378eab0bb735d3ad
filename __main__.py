"""gpu-platform: a GPU-ready Kubernetes cluster built the way the best-practice guides say.

Validate the stack config first: a bad ``Pulumi.<stack>.yaml`` stops here, before any
resource is registered, with one error naming every bad key.
"""

import pulumi

from gpu_platform.components.platform import GpuPlatform
from gpu_platform.stack_config import load_from_pulumi

platform_config = load_from_pulumi()
platform = GpuPlatform(pulumi.get_stack(), platform_config)

pulumi.export("clusterName", platform.cluster_name)
pulumi.export("kubeconfig", platform.kubeconfig)
pulumi.export("gpuCapacity", platform.gpu_capacity)
pulumi.export("namespaces", platform.namespaces)
pulumi.export("sharedGpuWarnings", platform.shared_gpu_warnings)
for key, value in platform.cluster_outputs.items():
    pulumi.export(key, value)
