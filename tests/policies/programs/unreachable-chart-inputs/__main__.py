"""A platform team's NVIDIA device plugin as a Helm v4 ``Chart`` of an old release (0.14.5)
from the team's internal mirror of NVIDIA's repository, which the CI that runs the offline
preview cannot reach.

Under ``pulumi preview`` the provider renders the chart and the pack judges its DaemonSets.
Offline, with the chart out of reach, the Chart's own inputs are judged as a Helm v3 Release's
are: as first written it installs into ``kube-system`` without GPU Feature Discovery. Stack
``fixed`` installs a current chart into its own namespace with GFD on; its chart cannot be had
either, so the preview's notice stays, and nothing else.
"""

import pulumi
import pulumi_kubernetes as k8s

fixed = pulumi.Config().get_bool("fixed")
k8s.helm.v4.Chart(
    "nvdp",
    chart="nvidia-device-plugin",
    version="0.17.4" if fixed else "0.14.5",
    namespace="nvidia-device-plugin" if fixed else "kube-system",
    repository_opts={"repo": "https://charts.gpu-team.invalid/nvidia"},
    values={"gfd": {"enabled": bool(fixed)}},
)
