"""NVIDIA's getting-started steps as a Pulumi program: the device plugin's static manifest and
a GPU test pod, each through the v1 yaml.ConfigFile (which asks the provider to decode the
file and registers the objects itself).
"""

import pulumi_kubernetes as k8s

k8s.yaml.ConfigFile(
    "nvidia-device-plugin", file="../../../fixtures/manifests/nvidia-device-plugin.yml"
)
k8s.yaml.ConfigFile("gpu-pod", file="../../../fixtures/manifests/gpu-pod.yml")
