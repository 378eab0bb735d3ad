"""The device plugin and a team's GPU workload as static manifests, done right, through a
yaml/v2 ConfigGroup: a glob of files, and a namespace as an object.
"""

import pulumi_kubernetes as k8s

k8s.yaml.v2.ConfigGroup(
    "gpu",
    files=["../../../fixtures/manifests/good/*.yml"],
    objs=[{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "tools"}}],
)
