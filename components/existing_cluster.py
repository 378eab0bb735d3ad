"""An existing cluster (GKE, EKS, on-prem, kind) reached with a kubeconfig."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

import pulumi
import pulumi_kubernetes as k8s


class ExistingClusterArgs(TypedDict, total=False):
    cluster_name: str
    """Name of the cluster in outputs."""
    kubeconfig_path: str | None
    """A kubeconfig file; read at deploy time and kept secret."""
    kubeconfig: pulumi.Input[str] | None
    """Kubeconfig contents (from the secret config key ``kubeconfig``); wins over the path."""
    context: str | None
    """Kubeconfig context."""


def read_kubeconfig(path: str) -> str:
    """The kubeconfig file's text. The config rules check the file first; if it went missing
    since, a ``RunError`` names the key (Pulumi prints it without a traceback)."""
    try:
        return Path(path).expanduser().read_text()
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise pulumi.RunError(f"cluster.kubeconfigPath: cannot read {path!r}: {reason}") from None


class ExistingCluster(pulumi.ComponentResource):
    """A Kubernetes provider for a cluster we do not create. The kubeconfig stays secret."""

    cluster_name: pulumi.Output[str]
    """The cluster's name in outputs."""
    kubeconfig: pulumi.Output[str]
    """The kubeconfig (secret), or empty when the provider falls back to $KUBECONFIG."""
    provider: k8s.Provider
    """Provider for everything deployed into the cluster."""

    def __init__(
        self, name: str, args: ExistingClusterArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        contents: pulumi.Input[str] | None = args.get("kubeconfig")
        path = args.get("kubeconfig_path")
        if contents is None and path:
            contents = read_kubeconfig(path)
        super().__init__("gpu-platform:cluster:ExistingCluster", name, None, opts)
        # Without contents the provider reads $KUBECONFIG itself, at deploy time.
        secret = pulumi.Output.secret(contents) if contents is not None else None
        self.provider = k8s.Provider(
            f"{name}-k8s",
            kubeconfig=secret,
            context=args.get("context"),
            opts=pulumi.ResourceOptions(parent=self),
        )
        self.cluster_name = pulumi.Output.from_input(args.get("cluster_name") or name)
        self.kubeconfig = pulumi.Output.secret(contents if contents is not None else "")
        self.register_outputs({"clusterName": self.cluster_name, "kubeconfig": self.kubeconfig})
