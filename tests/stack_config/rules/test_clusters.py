"""Rules of the cluster on every cloud (stack_config.rules.clusters): each asks its ``plan``
rule (``plan.kubernetes_versions``, ``plan.kubeconfigs``) and puts it under ``cluster``."""

from __future__ import annotations

from pathlib import Path

from gpu_platform.plan.kubeconfigs import kubeconfig_problems
from gpu_platform.plan.kubernetes_versions import kubernetes_version_problem
from gpu_platform.plan.problems import under
from gpu_platform.stack_config.rules.clusters import existing_kubeconfig, kubernetes_version
from tests.conftest import ROOT
from tests.stack_config.rules.subjects import Raw, subject


def test_kubernetes_version_from_1_30() -> None:
    def old(raw: Raw) -> None:
        raw["cluster"]["kubernetesVersion"] = "1.29"

    problem = kubernetes_version_problem("aks", "1.29")
    assert problem is not None and "must be 1.30 or newer" in problem
    assert list(kubernetes_version(subject("dev", old))) == [("cluster.kubernetesVersion", problem)]
    assert list(kubernetes_version(subject("dev"))) == []


def test_an_existing_clusters_kubeconfig_file_must_be_readable(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope")
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00")

    def kubeconfig(path: str):
        return lambda raw: raw["cluster"].update(kubeconfigPath=path)

    for path in (missing, str(binary)):
        found = list(existing_kubeconfig(subject("existing", kubeconfig(path))))
        assert found and found == under("cluster", kubeconfig_problems(path))
    [(_, message)] = existing_kubeconfig(subject("existing", kubeconfig(str(binary))))
    assert "is not a text file" in message
    good = str(ROOT / "tests" / "data" / "kubeconfig.yaml")
    assert list(existing_kubeconfig(subject("existing", kubeconfig(good)))) == []
