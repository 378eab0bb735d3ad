"""A GKE cluster with an L4 GPU node pool and GPU workloads.

GKE installs the NVIDIA driver (``gpu_driver_installation_config``) and its own device plugin,
taints GPU nodes ``nvidia.com/gpu=present:NoSchedule`` and adds the matching toleration to
pods that ask for GPUs: the program deploys no device plugin and no toleration.

    .venv/bin/python -m gpu_platform.offline_preview --program examples/gke-gpu-team
"""

import pulumi
import pulumi_gcp as gcp
import pulumi_kubernetes as k8s

config = pulumi.Config()
zone = config.get("zone") or "us-central1-a"
project = gcp.organizations.get_client_config().project

cluster = gcp.container.Cluster(
    "gpu",
    location=zone,
    initial_node_count=1,
    remove_default_node_pool=True,
    deletion_protection=False,
    release_channel=gcp.container.ClusterReleaseChannelArgs(channel="REGULAR"),
    workload_identity_config=gcp.container.ClusterWorkloadIdentityConfigArgs(
        workload_pool=f"{project}.svc.id.goog"
    ),
)

gcp.container.NodePool(
    "l4-pool",
    cluster=cluster.name,
    location=zone,
    autoscaling=gcp.container.NodePoolAutoscalingArgs(min_node_count=0, max_node_count=2),
    node_config=gcp.container.NodePoolNodeConfigArgs(
        machine_type="g2-standard-8",
        guest_accelerators=[
            gcp.container.NodePoolNodeConfigGuestAcceleratorArgs(
                type="nvidia-l4",
                count=1,
                gpu_driver_installation_config=gcp.container.NodePoolNodeConfigGuestAcceleratorGpuDriverInstallationConfigArgs(
                    gpu_driver_version="LATEST"
                ),
            )
        ],
        oauth_scopes=["https://www.googleapis.com/auth/cloud-platform"],
        labels={"workload": "gpu"},
    ),
)


def kubeconfig(args: list) -> str:
    name, endpoint, ca = args
    return f"""apiVersion: v1
kind: Config
clusters:
- name: {name}
  cluster:
    certificate-authority-data: {ca}
    server: https://{endpoint}
contexts:
- name: {name}
  context: {{cluster: {name}, user: {name}}}
current-context: {name}
users:
- name: {name}
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: gke-gcloud-auth-plugin
      provideClusterInfo: true
"""


provider = k8s.Provider(
    "gke",
    kubeconfig=pulumi.Output.all(
        cluster.name, cluster.endpoint, cluster.master_auth.cluster_ca_certificate
    ).apply(kubeconfig),
)
namespace = k8s.core.v1.Namespace(
    "inference", metadata={"name": "inference"}, opts=pulumi.ResourceOptions(provider=provider)
)
in_namespace = pulumi.ResourceOptions(provider=provider, depends_on=[namespace])
on_l4 = {"cloud.google.com/gke-accelerator": "nvidia-l4"}

k8s.apps.v1.Deployment(
    "llm",
    metadata={"name": "llm", "namespace": "inference"},
    spec={
        "replicas": 1,
        "selector": {"matchLabels": {"app": "llm"}},
        "template": {
            "metadata": {"labels": {"app": "llm"}},
            "spec": {
                "nodeSelector": on_l4,
                "containers": [
                    {
                        "name": "server",
                        "image": "vllm/vllm-openai:v0.6.3",
                        "resources": {"limits": {"nvidia.com/gpu": 1}},
                    }
                ],
            },
        },
    },
    opts=in_namespace,
)

k8s.batch.v1.Job(
    "cuda-smoke-test",
    metadata={"name": "cuda-smoke-test", "namespace": "inference"},
    spec={
        "template": {
            "spec": {
                "restartPolicy": "Never",
                "nodeSelector": on_l4,
                "containers": [
                    {
                        "name": "nvidia-smi",
                        "image": "nvidia/cuda:12.4.1-base-ubuntu22.04",
                        "command": ["nvidia-smi"],
                        "resources": {"limits": {"nvidia.com/gpu": 1}},
                    }
                ],
            }
        }
    },
    opts=in_namespace,
)

pulumi.export("clusterEndpoint", cluster.endpoint)
