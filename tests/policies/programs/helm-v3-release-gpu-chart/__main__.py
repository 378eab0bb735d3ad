"""An inference team's model server installed the way most programs install GPU charts: a Helm
v3 ``Release`` of a chart folder in the team's repository, with values.

The chart ships no toleration, and as first written the values add none: the server's pods ask
for a GPU and stay Pending on a cluster whose GPU nodes are tainted. A real ``pulumi preview``
shows the release's chart and values only; the offline preview renders the chart and judges the
Deployment it will install, reporting it on the release. Stack ``fixed`` (``tolerateGpuTaint:
true``) passes the toleration in the values.
"""

import pulumi
import pulumi_kubernetes as k8s

NAMESPACE = "llm"
config = pulumi.Config()
TOLERATE_GPU = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]

namespace = k8s.core.v1.Namespace(
    "llm", metadata={"name": NAMESPACE, "labels": {"workload": "inference"}}
)
opts = pulumi.ResourceOptions(depends_on=[namespace])
k8s.networking.v1.NetworkPolicy(
    "deny-all",
    metadata={"name": "deny-all", "namespace": NAMESPACE},
    spec={"pod_selector": {}, "policy_types": ["Ingress", "Egress"]},
    opts=opts,
)
k8s.core.v1.ResourceQuota(
    "gpu-quota",
    metadata={"name": "gpu-quota", "namespace": NAMESPACE},
    spec={"hard": {"requests.nvidia.com/gpu": "2"}},
    opts=opts,
)
k8s.helm.v3.Release(
    "qwen",
    chart="../../../fixtures/charts/gpu-inference",
    namespace=NAMESPACE,
    values={
        "model": "Qwen/Qwen2.5-7B-Instruct",
        "podLabels": {"workload": "inference"},
        "tolerations": TOLERATE_GPU if config.get_bool("tolerateGpuTaint") else [],
    },
    opts=opts,
)
