"""An AKS team's program, written as a library (``team_lib``): it looks up the resource group
and the namespace the platform stack made (``.get(...)``), a quota of the platform stack's
state by URN, and deploys a GPU inference server into that namespace from a component whose
outputs hold its resources.

A real preview reads the looked-up resources from the cloud and the state; offline their
outputs are unknown (or given with ``--mocks``), and the program runs to the end. The namespace
is the platform's, not declared here: its isolation and quota cannot be judged by this
program's preview, which the pack says as an advisory.
"""

import pulumi
from team_lib import InferenceServer, platform_lookups

lookups = platform_lookups("gpu-inference")
server = InferenceServer("embedder", namespace="gpu-inference", after=lookups.namespace)
pulumi.export("location", lookups.resource_group.location)
pulumi.export("namespaceLabels", lookups.namespace.metadata["labels"])
pulumi.export("server", server.deployment.metadata["name"])
