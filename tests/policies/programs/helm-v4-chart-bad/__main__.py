"""A team's device plugin installed as a Helm v4 Chart from a chart folder in its repository,
with its values: into kube-system, GPU Feature Discovery left off (the chart's default).
The chart's objects are made by the provider at preview time; the pack judges them there.
"""

import pulumi_kubernetes as k8s

k8s.helm.v4.Chart(
    "gpu-device-plugin",
    chart="../../../fixtures/charts/gpu-device-plugin",
    namespace="kube-system",
    values={"sharing": {"replicas": 2}},
)
