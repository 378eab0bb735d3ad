"""Rules of the cluster on every cloud: the Kubernetes version, an existing cluster's
kubeconfig file."""

from __future__ import annotations

from collections.abc import Iterator

from gpu_platform.plan.kubeconfigs import kubeconfig_problems
from gpu_platform.plan.kubernetes_versions import kubernetes_version_problem
from gpu_platform.plan.problems import under
from gpu_platform.settings import ExistingClusterSettings

from .base import ConfigUnderRules, Problem, Rule


def kubernetes_version(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """A version the cloud offers for new clusters (``plan.kubernetes_versions``)."""
    version = getattr(cfg.settings.cluster, "kubernetes_version", None)
    if version is not None and (problem := kubernetes_version_problem(cfg.cloud, version)):
        yield "cluster.kubernetesVersion", problem


def existing_kubeconfig(cfg: ConfigUnderRules) -> Iterator[Problem]:
    """A kubeconfig file client-go can use, with the chosen context (``plan.kubeconfigs``)."""
    cluster = cfg.settings.cluster
    if isinstance(cluster, ExistingClusterSettings) and cluster.kubeconfig_path is not None:
        yield from under("cluster", kubeconfig_problems(cluster.kubeconfig_path, cluster.context))


RULES: tuple[Rule, ...] = (kubernetes_version, existing_kubeconfig)
