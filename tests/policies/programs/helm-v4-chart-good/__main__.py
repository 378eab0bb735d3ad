"""A team's device plugin installed as a Helm v4 Chart from a chart folder in its repository,
with its values: in its own namespace, with GPU Feature Discovery, the chart's CRDs skipped
(installed by the platform team).
"""

import pulumi
import pulumi_kubernetes as k8s

namespace = k8s.core.v1.Namespace("nvidia-device-plugin", metadata={"name": "nvidia-device-plugin"})
k8s.helm.v4.Chart(
    "gpu-device-plugin",
    chart="../../../fixtures/charts/gpu-device-plugin",
    namespace="nvidia-device-plugin",
    values={"gfd": {"enabled": True}, "image": {"tag": "v0.17.0"}},
    opts=pulumi.ResourceOptions(depends_on=[namespace]),
)
