"""Rules of the cluster on every cloud (stack_config.rules.clusters)."""

from __future__ import annotations

from pathlib import Path

from gpu_platform.stack_config.rules.clusters import existing_kubeconfig, kubernetes_version
from tests.stack_config.rules.subjects import Raw, subject


def test_kubernetes_version_from_1_30() -> None:
    def old(raw: Raw) -> None:
        raw["cluster"]["kubernetesVersion"] = "1.29"

    assert list(kubernetes_version(subject("dev", old))) == [
        ("cluster.kubernetesVersion", "must be 1.30 or newer")
    ]
    assert list(kubernetes_version(subject("dev"))) == []


def test_an_existing_clusters_kubeconfig_file_must_be_readable(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope")
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00")

    def kubeconfig(path: str):
        return lambda raw: raw["cluster"].update(kubeconfigPath=path)

    assert list(existing_kubeconfig(subject("byo", kubeconfig(missing)))) == [
        ("cluster.kubeconfigPath", f"no kubeconfig file at {missing!r}")
    ]
    [(_, message)] = existing_kubeconfig(subject("byo", kubeconfig(str(binary))))
    assert message.endswith("is not a text file")
    good = tmp_path / "config"
    good.write_text("apiVersion: v1\n")
    assert list(existing_kubeconfig(subject("byo", kubeconfig(str(good))))) == []
