"""Hostile charts: Helm renders in a worker held to the run's deadline, a memory bound and a
size of answer, and a chart archive is capped as Helm caps it. A template that loops, renders
gigabytes or inflates past 100 MiB, and a post-renderer that never ends or never stops
writing, each ends with the limit named: exit 3 past ``--timeout`` (naming the chart or the
post-renderer), a mandatory notice past a size or memory bound (exit 1)."""

from __future__ import annotations

import gzip
import io
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpu_platform.offline_preview import helm_charts
from gpu_platform.offline_preview.deadline import PreviewTimedOut, RunDeadline
from gpu_platform.offline_preview.engine import ProgramRun, RecordedResource
from gpu_platform.offline_preview.helm_charts import ChartStore
from gpu_platform.offline_preview.rendered_releases import RELEASE, render_releases

from .processes import running
from .remote_components import build_one, one_notice

CHART_YAML = "apiVersion: v2\nname: hostile\nversion: 0.1.0\n"
LOOP = (
    "{{- range $i := until 2000 }}{{- range $j := until 2000 }}{{- range $k := until 2000 }}"
    "{{- end }}{{- end }}{{- end }}\n"
)
"""Eight billion iterations of nothing: forever, in next to no memory."""
HOG = "# {{ range $i := until 20000000 }}" + "x" * 60 + "{{ end }}\n"
"""1.2 GB of rendered text."""
SPILL = "# {{ range $i := until 40000 }}" + "x" * 60 + "{{ end }}\n"
"""2.4 MB of rendered text: past the answer's cap these tests set (1 MiB)."""
FOREVER = [sys.executable, "-c", "import time\nwhile True: time.sleep(0.05)"]
ENDLESS = [sys.executable, "-c", "import sys\nwhile True: sys.stdout.write('#' * 65536)"]


@dataclass(frozen=True)
class HostileChart:
    name: str
    template: str
    post_renderer: list[str] | None = None


def _chart(folder: Path, template: str) -> None:
    (folder / "chart" / "templates").mkdir(parents=True)
    (folder / "chart" / "Chart.yaml").write_text(CHART_YAML)
    (folder / "chart" / "templates" / "t.yaml").write_text(template)


def _inputs(post_renderer: list[str] | None = None) -> dict[str, object]:
    inputs: dict[str, object] = {"chart": "chart", "namespace": "team"}
    if post_renderer:
        inputs["postRenderer"] = {"command": post_renderer[0], "args": post_renderer[1:]}
    return inputs


@pytest.fixture(autouse=True)
def own_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Helm worker of these tests' bounds, stopped after each (it may be killed anyway)."""
    monkeypatch.setattr(helm_charts, "HELM_MEMORY_BYTES", 256 * 1024 * 1024)
    monkeypatch.setattr(helm_charts, "RENDER_MAX_BYTES", 1024 * 1024)
    monkeypatch.setattr(helm_charts.HelmWorker, "_current", None)
    yield
    helm_charts.stop_helm_worker()


PAST_THE_DEADLINE = [
    HostileChart("a template that loops", LOOP),
    HostileChart("a post-renderer that never ends", "{}\n", FOREVER),
]
DOING = {
    "a template that loops": "rendering Helm chart chart (release 'c')",
    "a post-renderer that never ends": f"running the post-renderer {sys.executable}",
}


@pytest.mark.parametrize("case", PAST_THE_DEADLINE, ids=[c.name for c in PAST_THE_DEADLINE])
def test_the_runs_deadline_ends_a_render_and_names_it(case: HostileChart, tmp_path: Path) -> None:
    _chart(tmp_path, case.template)
    command = case.post_renderer
    if command:  # on its own: on a loaded machine the render can take the deadline first
        run = lambda: helm_charts.post_render([], command[0], command[1:], RunDeadline(0.5))  # noqa: E731
    else:
        run = lambda: build_one("chart", _inputs(), tmp_path, deadline=RunDeadline(0.5))  # noqa: E731
    with pytest.raises(PreviewTimedOut) as err:
        run()
    assert str(err.value) == (
        "the preview did not finish within 0.5 s (--timeout SECONDS allows more): "
        + DOING[case.name]
    )


PAST_A_BOUND = [
    HostileChart("a template of gigabytes", HOG),
    HostileChart("a render past the answer's cap", SPILL),
    HostileChart("a post-renderer that never stops writing", "{}\n", ENDLESS),
]
BOUND = {
    "a template of gigabytes": "Helm needed more than its memory bound of 256 MiB",
    "a render past the answer's cap": "Helm's answer is larger than 1 MiB",
    "a post-renderer that never stops writing": f"the post-renderer {sys.executable} wrote "
    "more than 1048576 bytes",
}


@pytest.mark.parametrize("case", PAST_A_BOUND, ids=[c.name for c in PAST_A_BOUND])
def test_a_render_past_a_bound_is_a_mandatory_notice_naming_it(
    case: HostileChart, tmp_path: Path
) -> None:
    _chart(tmp_path, case.template)
    _, notices = build_one("chart", _inputs(case.post_renderer), tmp_path)
    level, message = one_notice(notices)
    assert level == "mandatory"
    assert f"Helm chart 'chart' (unpinned) does not render: {BOUND[case.name]}" in message


def test_a_post_renderer_leaves_nothing_running(tmp_path: Path) -> None:
    """A post-renderer that answers, then leaves a process holding its output open (and one
    that detached itself): both are killed once it has ended, and the render is its answer."""
    pids = tmp_path / "pids"
    script = (
        f"sleep 60 & echo $! >> {pids}; "
        f"setsid sh -c 'sleep 60 >/dev/null 2>&1 & echo $! >> {pids}' </dev/null; cat"
    )
    objects = helm_charts.post_render([{"kind": "ConfigMap"}], "sh", ["-c", script])
    assert objects == [{"kind": "ConfigMap"}]
    for pid in pids.read_text().split():
        assert not running(int(pid))


CASES = [
    *PAST_THE_DEADLINE,
    *PAST_A_BOUND,
    HostileChart("a post-renderer that leaves processes running", ""),
    HostileChart("a gzip bomb", ""),
    HostileChart("a Helm v3 Release that loops", LOOP),
    HostileChart("a Helm v3 Release from a repository with credentials", ""),
]
"""Every hostile chart here (the last four are built by their own tests)."""


def test_a_gzip_bomb_past_helms_own_cap_is_refused_by_helm(tmp_path: Path) -> None:
    """101 MiB of template in a 100 KB archive: Helm's loader stops at 100 MiB
    (``MaxDecompressedChartSize``), in the worker, before rendering anything."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as tar:
        for name, content in (
            ("bomb/Chart.yaml", CHART_YAML.encode()),
            ("bomb/templates/t.yaml", b"# " + b"x" * (helm_charts.MAX_CHART_BYTES + 1024**2)),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    (tmp_path / "bomb-0.1.0.tgz").write_bytes(gzip.compress(data.getvalue(), 9))
    _, notices = build_one("chart", {"chart": "bomb-0.1.0.tgz"}, tmp_path)
    level, message = one_notice(notices)
    assert level == "mandatory"
    assert f"decompressed chart is larger than the maximum size {helm_charts.MAX_CHART_BYTES}" in (
        message
    )


def test_after_a_killed_worker_the_next_chart_renders(tmp_path: Path) -> None:
    _chart(tmp_path, LOOP)
    with pytest.raises(PreviewTimedOut):
        build_one("chart", _inputs(), tmp_path, deadline=RunDeadline(0.3))
    (tmp_path / "chart" / "templates" / "t.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n"
    )
    run, notices = build_one("chart", _inputs(), tmp_path)
    assert (notices, [r.name for r in run.resources][1:]) == ([], ["c:team/ok"])


def _release(inputs: dict[str, object]) -> ProgramRun:
    release = RecordedResource(
        urn=f"urn:pulumi:test::team::{RELEASE}::r",
        type=RELEASE,
        name="r",
        custom=True,
        parent=None,
        inputs=inputs,
    )
    return ProgramRun("team", "test", [release], {})


def test_a_helm_v3_release_renders_within_the_same_bounds(tmp_path: Path) -> None:
    """The pack renders a v3 Release's chart too: the same deadline, the same fetch bounds and
    masks as a v4 Chart's."""
    _chart(tmp_path, LOOP)
    store = ChartStore((), tmp_path / ".chart-cache", network=True)
    with pytest.raises(PreviewTimedOut, match=r"rendering Helm chart chart \(release 'r'\)"):
        render_releases(_release(_inputs()), tmp_path, None, store, RunDeadline(0.5))
    remote = {"chart": "gpu", "version": "1.0.0",
              "repositoryOpts": {"repo": "http://ci:s3cr3t-pass@127.0.0.1:9/charts"}}  # fmt: skip
    (notice,) = render_releases(_release(remote), tmp_path, None, store).notices
    assert "http://[redacted]@127.0.0.1:9/charts" in notice.message
    assert "s3cr3t" not in notice.message
