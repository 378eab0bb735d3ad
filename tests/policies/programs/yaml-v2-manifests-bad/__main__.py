"""NVIDIA's getting-started steps as a Pulumi program: the device plugin's static manifest
through the yaml/v2 ConfigFile, and a GPU test pod through a yaml/v2 ConfigGroup (files, and
inline YAML). Both are remote components: the provider reads the files at preview time.
"""

import pulumi_kubernetes as k8s

k8s.yaml.v2.ConfigFile(
    "nvidia-device-plugin", file="../../../fixtures/manifests/nvidia-device-plugin.yml"
)
k8s.yaml.v2.ConfigGroup("gpu-pod", files=["../../../fixtures/manifests/gpu-pod.yml"])
