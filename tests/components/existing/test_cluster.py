"""ExistingCluster on the mock engine: the kubeconfig stays secret, from contents or a file,
and bad args are refused with their property paths."""

from pathlib import Path
from typing import Any

import pulumi

from gpu_platform.components.existing.cluster import ExistingCluster, ExistingClusterArgs
from gpu_platform.offline_preview import ProgramRun, Secret
from tests.components.input_errors import reasons, refused
from tests.conftest import ROOT, one, run

PROVIDER = "pulumi:providers:kubernetes"
KUBECONFIG_FILE = ROOT / "tests" / "data" / "kubeconfig.yaml"
KUBECONFIG = KUBECONFIG_FILE.read_text()


def build(args: ExistingClusterArgs) -> ProgramRun:
    def program() -> None:
        cluster = ExistingCluster("existing", args)
        pulumi.export("kubeconfig", cluster.kubeconfig)
        pulumi.export("clusterName", cluster.cluster_name)

    return run(program)


def test_kubeconfig_contents_stay_secret() -> None:
    result = build({"cluster_name": "kind", "kubeconfig": KUBECONFIG, "context": "kind-gpu"})
    provider = one(result, PROVIDER)
    assert isinstance(provider.inputs["kubeconfig"], Secret)
    assert provider.inputs["kubeconfig"].value == KUBECONFIG
    assert provider.inputs["context"] == "kind-gpu"
    assert isinstance(result.outputs["kubeconfig"], Secret)
    assert result.outputs["clusterName"] == "kind"
    # The one component with a credential among its args records none of them
    # (components/recorded_inputs.py): the plan and the state never hold the kubeconfig there.
    assert one(result, "gpu-platform:index:ExistingCluster").inputs == {}


def test_kubeconfig_file_is_read_and_kept_secret() -> None:
    result = build({"kubeconfig_path": str(KUBECONFIG_FILE)})
    provider = one(result, PROVIDER)
    assert isinstance(provider.inputs["kubeconfig"], Secret)
    assert provider.inputs["kubeconfig"].value == KUBECONFIG
    assert result.outputs["clusterName"] == "existing"  # the component's name by default


def test_contents_win_over_the_file(tmp_path: Path) -> None:
    # The path is never read: it does not exist.
    result = build({"kubeconfig": KUBECONFIG, "kubeconfig_path": str(tmp_path / "missing")})
    assert one(result, PROVIDER).inputs["kubeconfig"].value == KUBECONFIG


def test_without_a_kubeconfig_the_provider_reads_the_environment() -> None:
    result = build({})
    assert "kubeconfig" not in one(result, PROVIDER).inputs
    kubeconfig = result.outputs["kubeconfig"]
    assert isinstance(kubeconfig, Secret) and kubeconfig.value == ""


def test_bad_args_name_every_property_path_and_register_nothing() -> None:
    bad: Any = {"cluster_name": 7, "context": ["a"], "kubeconfigFile": "x"}
    err = refused(lambda: ExistingCluster("existing", bad))
    assert reasons(err) == {
        "kubeconfigFile": "unknown property",
        "clusterName": "expected a string, got 7",
        "context": "expected a string, got a list",
    }
