"""Helm v3 Releases rendered offline: the objects ``pulumi up`` will install go to the pack (not
the plan), hooks included; verdicts on them are reported on the release, saying so; a release
whose chart cannot be had gets the v4 Chart's notice and is judged by its values."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pulumi
import pulumi_kubernetes as k8s
import pytest

from gpu_platform.components.type_tokens import PACKAGE
from gpu_platform.offline_preview import run_policies
from gpu_platform.offline_preview.engine import ProgramRun, run_callable
from gpu_platform.offline_preview.helm_charts import ChartStore, ChartUnavailable
from gpu_platform.offline_preview.kubernetes_components import NOTICE
from gpu_platform.offline_preview.rendered_releases import (
    OWN_COMPONENTS,
    RenderedReleases,
    render_releases,
)
from gpu_policies.registry import policies
from tests.conftest import ROOT, stack_preview
from tests.reference import reference

FIXTURES = ROOT / "tests" / "fixtures"
INFERENCE = "charts/gpu-inference"
TOLERATE = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]


def rendered(
    program: Callable[[], None], tmp_path: Path, *search: Path
) -> tuple[ProgramRun, RenderedReleases]:
    run = run_callable(program)
    store = ChartStore(search, tmp_path / "cache", network=False)
    return run, render_releases(run, FIXTURES, None, store)


def inference(values: dict[str, object]) -> None:
    namespace = k8s.core.v1.Namespace("llm", metadata={"name": "llm"})
    k8s.helm.v3.Release(
        "qwen",
        chart=INFERENCE,
        namespace="llm",
        values=values,
        opts=pulumi.ResourceOptions(depends_on=[namespace]),
    )


def test_a_release_is_rendered_for_the_pack_with_its_hooks_not_into_the_plan(
    tmp_path: Path,
) -> None:
    run, made = rendered(lambda: inference({"tolerations": TOLERATE}), tmp_path)
    (release,) = [r for r in run.resources if r.type == "kubernetes:helm.sh/v3:Release"]
    assert made.notices == []
    assert {(r.type, r.name) for r in made.objects} == {
        ("kubernetes:apps/v1:Deployment", "qwen:llm/qwen"),
        ("kubernetes:core/v1:Service", "qwen:llm/qwen"),
        ("kubernetes:core/v1:Pod", "qwen:llm/qwen-smoke-test"),  # helm install runs hooks
    }
    assert {r.parent for r in made.objects} == {release.urn}
    assert not {r.urn for r in made.objects} & {r.urn for r in run.resources}
    deployment = next(r for r in made.objects if r.type.endswith(":Deployment"))
    container = deployment.inputs["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == "vllm/vllm-openai:v0.6.3"
    assert container["resources"]["limits"] == {"nvidia.com/gpu": 1.0}


def test_a_gpu_chart_whose_pods_lack_the_toleration_is_reported_on_its_release(
    tmp_path: Path,
) -> None:
    run, made = rendered(lambda: inference({"podLabels": {"workload": "inference"}}), tmp_path)
    found = made.attribute(run_policies([*run.resources, *made.objects], policies()))
    (release,) = [r for r in run.resources if r.type == "kubernetes:helm.sh/v3:Release"]
    tolerate = [v for v in found if v.policy == "gpu-workloads-tolerate-gpu-taint"]
    assert [(v.enforcement, v.urn) for v in tolerate] == [("mandatory", release.urn)]
    assert tolerate[0].message.startswith(
        "From the rendered Helm v3 Release 'qwen' (Deployment 'qwen:llm/qwen', which `pulumi "
        "up` will install; a real preview does not show it): 'qwen:llm/qwen' asks for "
        "nvidia.com/gpu but does not tolerate the GPU taint of its nodes"
    )
    with_toleration = {"tolerations": TOLERATE, "podLabels": {"workload": "inference"}}
    run, made = rendered(lambda: inference(with_toleration), tmp_path)
    found = made.attribute(run_policies([*run.resources, *made.objects], policies()))
    assert "gpu-workloads-tolerate-gpu-taint" not in {v.policy for v in found}


def test_a_release_not_had_gets_the_notice_and_is_judged_by_its_values(tmp_path: Path) -> None:
    def program() -> None:
        k8s.helm.v3.Release(
            "nvdp",
            chart="nvidia-device-plugin",
            version="0.14.1",
            namespace="kube-system",
            repository_opts={"repo": "https://nvidia.github.io/k8s-device-plugin"},
        )

    run, made = rendered(program, tmp_path)
    (notice,) = made.notices
    assert (notice.policy, notice.enforcement) == (NOTICE, "advisory")
    assert notice.message.startswith(
        "Helm v3 Release 'nvdp': Helm chart 'nvidia-device-plugin' 0.14.1 from "
        "https://nvidia.github.io/k8s-device-plugin could not be had: not in the cache"
    )
    assert (
        "Its objects were not judged: the release is judged by its chart, version and values "
        "alone, as under a real preview." in notice.message
    )
    assert made.objects == []
    found = run_policies(run.resources, policies())
    assert {v.policy for v in found} >= {"device-plugin-release-current-with-gfd"}


def test_a_release_whose_chart_fails_to_render_fails_at_up_as_it_says(tmp_path: Path) -> None:
    """A real preview only loads a v3 Release's chart (the provider's Check); Helm renders it at
    install. A template that fails is mandatory, and the notice says it is `pulumi up` that
    fails, not that a real preview does."""
    chart = tmp_path / "failing"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: failing\nversion: 0.1.0\n")
    (chart / "templates" / "cm.yaml").write_text('{{ fail "a token is required" }}\n')

    def program() -> None:
        k8s.helm.v3.Release("broken", chart=str(chart), namespace="apps")

    _, made = rendered(program, tmp_path)
    (notice,) = made.notices
    assert (notice.policy, notice.enforcement) == (NOTICE, "mandatory")
    assert "does not render: execution error" in notice.message
    assert "a token is required. `pulumi up` fails on it" in notice.message
    assert "real `pulumi preview` fails" not in notice.message


def test_a_v4_chart_not_had_is_judged_by_its_own_inputs(tmp_path: Path) -> None:
    """Its values say the plugin runs without GPU Feature Discovery, in kube-system: the
    release policy reads them, as a v3 Release's."""
    from gpu_platform.offline_preview.kubernetes_components import build_components

    def program() -> None:
        k8s.helm.v4.Chart(
            "nvdp",
            chart="nvidia-device-plugin",
            version="0.20.0",
            namespace="kube-system",
            repository_opts={"repo": "https://nvidia.github.io/k8s-device-plugin"},
            values={"gfd": {"enabled": False}},
        )

    store = ChartStore((), tmp_path / "cache", network=False)
    run, notices = build_components(run_callable(program), FIXTURES, None, store)
    assert [n.policy for n in notices] == [NOTICE]
    messages = [
        v.message
        for v in run_policies(run.resources, policies())
        if v.policy == "device-plugin-release-current-with-gfd"
    ]
    assert any("gfd.enabled" in m for m in messages), messages
    assert any("kube-system" in m for m in messages), messages


def test_our_stacks_releases_render_from_the_reference_charts_and_pass(tmp_path: Path) -> None:
    """The device plugin and dcgm-exporter charts our dev stack pins, rendered with our values:
    every object they will install passes the pack."""
    charts = tmp_path / "charts"
    charts.mkdir()
    for name in ("nvidia-device-plugin-0.20.0", "dcgm-exporter-4.8.2"):
        (charts / name).symlink_to(reference(name), target_is_directory=True)
    run = stack_preview("dev").run
    made = render_releases(run, ROOT, None, ChartStore((charts,), tmp_path / "cache", False))
    assert made.notices == []
    kinds = {r.type.rsplit(":", 1)[-1] for r in made.objects}
    assert "DaemonSet" in kinds
    assert made.attribute(run_policies([*run.resources, *made.objects], policies())) == []


# --- Our own components' releases: rendered from a chart at hand, never pulled ----------------

TEAM_REPO = "https://charts.gpu-team.invalid"


class Wrapper(pulumi.ComponentResource):
    """A component of ``token`` that installs the inference chart from a repository, pinned:
    gpu-platform's own (``gpu-platform:index:...``) or a team's."""

    def __init__(self, name: str, token: str) -> None:
        super().__init__(token, name)
        k8s.helm.v3.Release(
            f"{name}-release",
            chart="gpu-inference",
            version="0.4.0",
            namespace="llm",
            repository_opts={"repo": TEAM_REPO},
            values={"podLabels": {"workload": "inference"}},  # no GPU toleration
            opts=pulumi.ResourceOptions(parent=self),
        )
        self.register_outputs({})


@pytest.fixture
def no_pulls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every chart the preview tries to pull, refused as offline (recorded, in order)."""
    pulled: list[str] = []

    def refuse(self: ChartStore, ref: object, chart_ref: str, *_: object) -> Path:
        pulled.append(chart_ref)
        raise ChartUnavailable("offline (the test's)")

    monkeypatch.setattr(ChartStore, "_pull", refuse)
    return pulled


def wrapped(token: str, tmp_path: Path, *search: Path) -> tuple[ProgramRun, RenderedReleases]:
    run = run_callable(lambda: Wrapper("inference", token))
    store = ChartStore(search, tmp_path / "cache", network=True)
    return run, render_releases(run, FIXTURES, None, store)


def test_the_own_components_prefix_is_our_type_tokens() -> None:
    assert f"{PACKAGE}:" == OWN_COMPONENTS


def test_a_release_of_ours_without_its_chart_at_hand_is_not_pulled_nor_noticed(
    tmp_path: Path, no_pulls: list[str]
) -> None:
    """The pack judges its values (the release policies); the tests render it from the
    reference charts: offline, our stacks' previews stay clean and fetch nothing."""
    _, made = wrapped("gpu-platform:index:InferenceServer", tmp_path)
    assert (made.notices, made.objects, no_pulls) == ([], [], [])


def test_a_release_of_ours_with_its_chart_at_hand_is_rendered_and_judged(
    tmp_path: Path, no_pulls: list[str]
) -> None:
    charts = tmp_path / "charts"
    charts.mkdir()
    (charts / "gpu-inference-0.4.0").symlink_to(FIXTURES / INFERENCE, target_is_directory=True)
    run, made = wrapped("gpu-platform:index:InferenceServer", tmp_path, charts)
    (release,) = [r for r in run.resources if r.type == "kubernetes:helm.sh/v3:Release"]
    assert made.notices == [] and no_pulls == []
    assert {r.parent for r in made.objects} == {release.urn}
    found = made.attribute(run_policies([*run.resources, *made.objects], policies()))
    tolerate = [v for v in found if v.policy == "gpu-workloads-tolerate-gpu-taint"]
    assert [(v.enforcement, v.urn) for v in tolerate] == [("mandatory", release.urn)]


def test_a_teams_release_in_its_own_component_is_pulled_and_noticed_when_not_had(
    tmp_path: Path, no_pulls: list[str]
) -> None:
    run, made = wrapped("team:index:InferenceServer", tmp_path)
    (release,) = [r for r in run.resources if r.type == "kubernetes:helm.sh/v3:Release"]
    assert no_pulls == ["gpu-inference"]
    (notice,) = made.notices
    assert (notice.policy, notice.enforcement, notice.urn) == (NOTICE, "advisory", release.urn)
    assert "could not be had: offline (the test's)" in notice.message


def test_the_dev_stack_previews_clean_and_fetches_nothing_without_its_charts(
    tmp_path: Path, no_pulls: list[str]
) -> None:
    """``make preview STACK=dev`` on a machine without network or cached charts: the device
    plugin's and dcgm-exporter's releases are judged by their values, with no notice."""
    run = stack_preview("dev").run
    made = render_releases(run, ROOT, None, ChartStore((), tmp_path / "cache", network=True))
    assert (made.notices, made.objects, no_pulls) == ([], [], [])
