"""The device plugin and a team's GPU workload as static manifests, done right, through the
v1 yaml.ConfigGroup (files and a glob).
"""

import pulumi_kubernetes as k8s

k8s.yaml.ConfigGroup("gpu", files=["../../../fixtures/manifests/good/*.yml"])
