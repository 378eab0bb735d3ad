"""The Kubernetes provider's remote components built offline as the provider builds them: each
object a child of its component, named and typed as the provider names them, through its
provider; what cannot be built gets a notice, never silence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpu_platform.offline_preview import RecordedResource, Secret, helm_charts
from gpu_platform.offline_preview.cli import EXIT_OK, main
from gpu_platform.offline_preview.engine import ProgramRun, run_callable
from gpu_platform.offline_preview.helm_charts import ChartStore
from gpu_platform.offline_preview.kubernetes_components import (
    NOTICE,
    build_components,
    child_urn,
)
from gpu_platform.offline_preview.policy_runner import Violation
from gpu_platform.offline_preview.user_mocks import UserMocks
from tests.conftest import ROOT
from tests.reference import reference

FIXTURES = ROOT / "tests" / "fixtures"
CHART = "charts/gpu-device-plugin"
"""Relative to FIXTURES, the programs' folder here."""


def build(
    program: Any, tmp_path: Path, mocks: UserMocks | None = None, *search: Path
) -> tuple[ProgramRun, list[Violation]]:
    run = run_callable(program)
    store = ChartStore(search, tmp_path / "cache", network=False)
    return build_components(run, FIXTURES, mocks, store)


def children(run: ProgramRun, component: str) -> dict[tuple[str, str], RecordedResource]:
    """A component's children by (kind, name): a chart's DaemonSet and ServiceAccount often
    share a name."""
    (parent,) = [r for r in run.resources if r.name == component and r.remote]
    return {(r.type.rsplit(":", 1)[1], r.name): r for r in run.resources if r.parent == parent.urn}


def test_a_chart_is_its_rendered_objects_under_it(tmp_path: Path) -> None:
    def program() -> None:
        provider = k8s.Provider("k8s", kubeconfig="{}")
        k8s.helm.v4.Chart(
            "dp",
            chart=CHART,
            namespace="gpu",
            values={"gfd": {"enabled": True}},
            opts=pulumi.ResourceOptions(provider=provider),
        )

    run, notices = build(program, tmp_path)

    assert notices == []
    made = children(run, "dp")
    assert {(r.type, name) for (_, name), r in made.items()} == {
        (
            "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition",
            "dp:sharingconfigs.gpu.example.org",
        ),
        ("kubernetes:apps/v1:DaemonSet", "dp:gpu/dp"),
        ("kubernetes:apps/v1:DaemonSet", "dp:gpu/dp-gpu-feature-discovery"),
        ("kubernetes:core/v1:ServiceAccount", "dp:gpu/dp"),
        ("kubernetes:gpu.example.org/v1:SharingConfig", "dp:gpu/dp-default"),
    }  # the pre-install hook is not made, as under Pulumi
    plugin = made["DaemonSet", "dp:gpu/dp"]
    assert plugin.custom and not plugin.remote
    assert plugin.urn == (
        "urn:pulumi:test::gpu-platform::kubernetes:helm.sh/v4:Chart"
        "$kubernetes:apps/v1:DaemonSet::dp:gpu/dp"
    )
    assert plugin.provider.endswith("$pulumi:providers:kubernetes::k8s::k8s-id")  # the chart's
    assert plugin.inputs["apiVersion"] == "apps/v1" and plugin.inputs["kind"] == "DaemonSet"
    assert plugin.outputs["metadata"] == plugin.inputs["metadata"]
    # The object of the chart's CRD waits for it; the chart said to keep it on uninstall.
    config = made["SharingConfig", "dp:gpu/dp-default"]
    crd = made["CustomResourceDefinition", "dp:sharingconfigs.gpu.example.org"]
    assert config.dependencies == [crd.urn]
    assert config.retain_on_delete and not plugin.retain_on_delete
    assert config.inputs["spec"] == {"replicas": 1.0}  # numbers as the engine carries them
    # Parents come before children in the plan, as for any component.
    order = [r.name for r in run.resources]
    assert order.index("dp") < order.index("dp:gpu/dp")


def test_chart_options_release_name_prefix_crds_and_await(tmp_path: Path) -> None:
    def program() -> None:
        k8s.helm.v4.Chart(
            "dp",
            chart=CHART,
            name="plugin",
            resource_prefix="",
            skip_crds=True,
            skip_await=True,
        )

    run, notices = build(program, tmp_path)

    assert notices == []
    made = children(run, "dp")
    # The release's name, no prefix, the default namespace; the chart's CRD skipped.
    assert sorted(made) == [
        ("DaemonSet", "default/plugin"),
        ("ServiceAccount", "default/plugin"),
        ("SharingConfig", "default/plugin-default"),
    ]
    annotations = made["DaemonSet", "default/plugin"].inputs["metadata"]["annotations"]
    assert annotations == {"pulumi.com/skipAwait": "true"}
    assert made["SharingConfig", "default/plugin-default"].dependencies == []


def test_values_win_over_values_files_and_the_provider_gives_the_namespace(
    tmp_path: Path,
) -> None:
    values_file = tmp_path / "values.yaml"
    values_file.write_text("gfd: {enabled: true}\nsharing: {replicas: 2}\n")

    def program() -> None:
        provider = k8s.Provider("team", kubeconfig="{}", namespace="team-gpu")
        k8s.helm.v4.Chart(
            "dp",
            chart=CHART,
            value_yaml_files=[
                pulumi.FileAsset(str(values_file)),
                pulumi.StringAsset("sharing: {replicas: 3}\n"),
            ],
            values={"sharing": {"replicas": 4}},
            opts=pulumi.ResourceOptions(provider=provider),
        )

    run, notices = build(program, tmp_path)

    assert notices == []
    made = children(run, "dp")
    assert ("DaemonSet", "dp:team-gpu/dp-gpu-feature-discovery") in made  # the first file's
    assert made["SharingConfig", "dp:team-gpu/dp-default"].inputs["spec"] == {"replicas": 4.0}


def test_yaml_v2_files_globs_inline_yaml_and_objects(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: gpu}\n")
    (tmp_path / "b.yaml").write_text(
        "apiVersion: v1\nkind: Secret\nmetadata: {name: token, namespace: gpu}\n"
        "stringData: {token: s3cr3t}\n"
    )

    def program() -> None:
        k8s.yaml.v2.ConfigGroup(
            "group",
            files=[str(tmp_path / "*.yaml")],
            yaml="apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: gpu}\n",
            objs=[{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}],
        )
        k8s.yaml.v2.ConfigFile("file", file=str(tmp_path / "a.yaml"), resource_prefix="pre")

    run, notices = build(program, tmp_path)

    assert notices == []
    group = children(run, "group")
    assert sorted(group) == [
        ("ConfigMap", "group:gpu/cm"),
        ("Namespace", "group:gpu"),
        ("Pod", "group:default/p"),
        ("Secret", "group:gpu/token"),
    ]
    secret = group["Secret", "group:gpu/token"]
    assert isinstance(secret.inputs["stringData"], Secret)  # never plain text from raw YAML
    assert group["ConfigMap", "group:gpu/cm"].dependencies == [group["Namespace", "group:gpu"].urn]
    assert sorted(children(run, "file")) == [("Namespace", "pre:gpu")]


def test_mocked_outputs_reach_the_objects_of_a_component(tmp_path: Path) -> None:
    def program() -> None:
        k8s.yaml.v2.ConfigGroup(
            "g", objs=[{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}}]
        )

    mocks = UserMocks(resources={"kubernetes:core/v1:Service": {"status": {"x": 1}}})
    run, _ = build(program, tmp_path, mocks)
    assert children(run, "g")["Service", "g:default/s"].outputs["status"] == {"x": 1}


def notice_of(notices: list[Violation], component: str) -> Violation:
    (found,) = [n for n in notices if n.urn and n.urn.endswith(f"::{component}")]
    assert found.policy == NOTICE
    return found


def test_what_cannot_be_had_is_an_advisory_notice_not_silence(tmp_path: Path) -> None:
    def program() -> None:
        k8s.helm.v4.Chart(
            "remote",
            chart="nvidia-device-plugin",
            version="0.20.0",
            repository_opts={"repo": "https://nvidia.github.io/k8s-device-plugin"},
        )
        k8s.helm.v4.Chart("missing", chart="./charts/nothing-here")
        k8s.yaml.v2.ConfigFile("url", file="http://127.0.0.1:9/deployments/static/plugin.yml")
        k8s.yaml.v2.ConfigFile("gone", file="manifests/nothing-here.yml")
        k8s.helm.v4.Chart(
            "later",
            chart=CHART,
            namespace=pulumi.Output.from_input("x").apply(
                # Named by the API server at create: unknown in a preview.
                lambda _: (
                    k8s.core.v1.Namespace("ns", metadata={"generateName": "ns-"}).metadata.name
                )
            ),
        )

    run, notices = build(program, tmp_path)

    assert {n.enforcement for n in notices} == {"advisory"} and len(notices) == 5
    remote = notice_of(notices, "remote").message
    assert remote.startswith(
        "Helm v4 Chart 'remote': Helm chart 'nvidia-device-plugin' 0.20.0 from "
        "https://nvidia.github.io/k8s-device-plugin could not be had: not in the cache"
    )
    assert (
        "Its objects were not judged: its own inputs were, as a Helm v3 Release's are "
        "(chart, version, namespace, values)." in remote
    )
    assert "$GPU_PLATFORM_CHARTS" in remote
    assert (
        "no chart folder or archive './charts/nothing-here'"
        in notice_of(notices, "missing").message
    )
    assert "fetching http://127.0.0.1:9/" in notice_of(notices, "url").message
    assert "reading manifests/nothing-here.yml failed" in notice_of(notices, "gone").message
    assert notice_of(notices, "later").message == (
        "Helm v4 Chart 'later': inputs known only after apply (namespace), so the provider "
        "cannot build it during a preview, offline or not: its objects were not judged: its "
        "own inputs were, as a Helm v3 Release's are (chart, version, namespace, values)."
    )
    assert not [r for r in run.resources if r.parent and "::later" in r.parent]


def test_what_the_provider_would_fail_on_is_a_mandatory_notice(tmp_path: Path) -> None:
    def program() -> None:
        k8s.yaml.v2.ConfigGroup("unnamed", yaml="apiVersion: v1\nkind: Pod\nmetadata: {}\n")
        k8s.yaml.v2.ConfigGroup("garbled", yaml="a: [unclosed\n")
        k8s.helm.v4.Chart("values", chart=CHART, values={"image": "not-a-map"})

    _, notices = build(program, tmp_path)

    assert {n.enforcement for n in notices} == {"mandatory"} and len(notices) == 3
    assert "require a .metadata.name" in notice_of(notices, "unnamed").message
    assert "decoding YAML" in notice_of(notices, "garbled").message
    values = notice_of(notices, "values").message
    assert "does not render" in values and "A real `pulumi preview` fails on it" in values


def test_the_v1_yaml_components_are_answered_and_build_themselves() -> None:
    """v1 ``yaml.ConfigFile`` is Python: it asks the provider (``kubernetes:yaml:decode``) for
    the objects and registers them itself, named ``<namespace>/<name>``."""

    def program() -> None:
        k8s.yaml.ConfigFile("plugin", file=str(FIXTURES / "manifests" / "nvidia-device-plugin.yml"))

    run = run_callable(program)
    (daemonset,) = [r for r in run.resources if r.type == "kubernetes:apps/v1:DaemonSet"]
    assert daemonset.name == "kube-system/nvidia-device-plugin-daemonset"
    assert daemonset.parent and daemonset.parent.endswith("kubernetes:yaml:ConfigFile::plugin")


def test_child_urns_follow_the_mock_engines_type_chain() -> None:
    parent = "urn:pulumi:dev::p::pulumi:pulumi:Stack$kubernetes:helm.sh/v4:Chart::c"
    assert child_urn(parent, "kubernetes:core/v1:Pod", "c:ns/p") == (
        "urn:pulumi:dev::p::kubernetes:helm.sh/v4:Chart$kubernetes:core/v1:Pod::c:ns/p"
    )


def test_the_notice_shows_in_the_preview_and_changes_no_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(
        "import pulumi_kubernetes as k8s\n"
        "k8s.helm.v4.Chart('dcgm', chart='oci://registry.invalid/dcgm-exporter', version='4.8.2')\n"
    )
    monkeypatch.setenv("GPU_PLATFORM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("GPU_PLATFORM_CHARTS", str(tmp_path / "charts"))

    assert main(["--program", str(tmp_path)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "! offline-preview: Helm v4 Chart 'dcgm': Helm chart 'oci://registry.invalid/" in out
    assert "1 advisory policy violations" in out


def test_nvidias_chart_through_a_v4_chart_is_judged_by_what_it_renders(tmp_path: Path) -> None:
    """NVIDIA's own chart (from ../shared/reference): in kube-system without GPU Feature
    Discovery, its rendered plugin DaemonSet is what the pack judges."""
    from gpu_platform.offline_preview import run_policies
    from gpu_policies.registry import policies

    chart = reference("nvidia-device-plugin-0.20.0")

    def program() -> None:
        k8s.helm.v4.Chart(
            "nvdp",
            chart="nvidia-device-plugin",
            version="0.20.0",
            repository_opts={"repo": "https://nvidia.github.io/k8s-device-plugin"},
            namespace="kube-system",
            values={"gfd": {"enabled": False}},
        )

    run, notices = build(program, tmp_path, None, chart.parent)

    assert notices == []
    assert ("DaemonSet", "nvdp:kube-system/nvdp-nvidia-device-plugin") in children(run, "nvdp")
    found = {
        (v.policy, v.message.split(". Fix:")[0])
        for v in run_policies(run.resources, policies())
        if v.enforcement == "mandatory"
    }
    daemonset = (
        "Device plugin DaemonSet 'nvdp:kube-system/nvdp-nvidia-device-plugin' "
        "(nvcr.io/nvidia/k8s-device-plugin:v0.20.0)"
    )
    assert found == {
        (
            "device-plugin-release-current-with-gfd",
            f"{daemonset} runs without GPU Feature Discovery (no DaemonSet runs "
            "gpu-feature-discovery from the plugin's image)",
        ),
        (
            "device-plugin-release-current-with-gfd",
            f"{daemonset} runs in the shared namespace 'kube-system'",
        ),
    }


def test_a_local_chart_without_helms_sdk_asks_for_the_sdk_not_a_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_sdk() -> Any:
        raise helm_charts.ChartUnavailable("Helm's SDK (x) is not installed: install it")

    monkeypatch.setattr(helm_charts, "helm_sdk_dir", no_sdk)
    monkeypatch.setattr(helm_charts.HelmWorker, "_current", None)  # a new worker would start

    def program() -> None:
        k8s.helm.v4.Chart("dp", chart=CHART, namespace="gpu")

    _, notices = build(program, tmp_path)
    message = notice_of(notices, "dp").message
    assert "could not be rendered: Helm's SDK (x) is not installed: install it." in message
    assert message.endswith(
        "Fix: install Helm's SDK as said, then preview again: the chart itself is here."
    )
    assert "local copy" not in message
