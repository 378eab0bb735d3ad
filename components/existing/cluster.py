"""An existing cluster (GKE, EKS, on-prem, kind) reached with a kubeconfig."""

from pathlib import Path
from typing import NotRequired, TypedDict

import pulumi
import pulumi_kubernetes as k8s

from gpu_platform.plan.kubeconfigs import kubeconfig_problems

from ..errors import Problem, raise_if_any, shape_problems
from ..type_tokens import formerly, type_token

# No ``from __future__ import annotations``: Pulumi's component analyzer reads these
# annotations at run time.


class ExistingClusterArgs(TypedDict):
    """A cluster we do not create, reached with a kubeconfig (contents, file, or
    $KUBECONFIG)."""

    cluster_name: NotRequired[str]
    """Name of the cluster in outputs (default: the component's name)."""
    kubeconfig_path: NotRequired[str]
    """A kubeconfig file; read at deploy time and kept secret."""
    kubeconfig: NotRequired[pulumi.Input[str]]
    """Kubeconfig contents (secret; the stack's secret config key ``kubeconfig``); wins over
    the path. Neither: the provider reads $KUBECONFIG."""
    context: NotRequired[str]
    """Kubeconfig context (default: the kubeconfig's current context)."""


def input_problems(args: ExistingClusterArgs) -> list[Problem]:
    """Unknown keys and non-text values, with their property paths, and a kubeconfig file
    client-go could not use with the chosen context (``plan.kubeconfigs``; ``kubeconfig`` may
    be an output, so only a file is checked)."""
    problems = shape_problems(args, ExistingClusterArgs)
    if problems:
        return problems
    path, context = args.get("kubeconfig_path"), args.get("context")
    # The contents win over the path; only a file read here can be checked before deploying.
    if not problems and path and args.get("kubeconfig") is None:
        problems += kubeconfig_problems(path, context or None)
    return problems


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
        raise_if_any("ExistingCluster", name, input_problems(args))
        contents: pulumi.Input[str] | None = args.get("kubeconfig")
        path = args.get("kubeconfig_path")
        if contents is None and path:
            contents = read_kubeconfig(path)
        super().__init__(
            type_token("ExistingCluster"),
            name,
            None,
            formerly("gpu-platform:cluster:ExistingCluster", opts),
        )
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
