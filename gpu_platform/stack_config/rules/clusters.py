"""Rules of the cluster on every cloud: the Kubernetes version, an existing cluster's
kubeconfig file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from gpu_facts.device_plugin_chart import version_tuple
from gpu_platform.settings import MIN_KUBERNETES, ExistingClusterSettings

from .base import ConfigUnderCheck, Problem, Rule


def kubernetes_version(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    version = getattr(cfg.settings.cluster, "kubernetes_version", None)
    if version is not None and version_tuple(version) < version_tuple(MIN_KUBERNETES):
        yield "cluster.kubernetesVersion", f"must be {MIN_KUBERNETES} or newer"


def existing_kubeconfig(cfg: ConfigUnderCheck) -> Iterator[Problem]:
    cluster = cfg.settings.cluster
    if isinstance(cluster, ExistingClusterSettings) and cluster.kubeconfig_path is not None:
        unreadable = _unreadable(cluster.kubeconfig_path)
        if unreadable is not None:
            yield "cluster.kubeconfigPath", unreadable


def _unreadable(path: str) -> str | None:
    """Why a kubeconfig file cannot be read, or None when it can."""
    file = Path(path).expanduser()
    if not file.is_file():
        return f"no kubeconfig file at {path!r}"
    try:
        file.read_text()  # as the ExistingCluster component reads it
    except OSError as err:
        return f"cannot read {path!r}: {err.strerror or err}"
    except UnicodeDecodeError:
        return f"{path!r} is not a text file"
    return None


RULES: tuple[Rule, ...] = (kubernetes_version, existing_kubeconfig)
