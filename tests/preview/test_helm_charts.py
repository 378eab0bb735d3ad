"""Helm charts found, pulled into the cache and rendered as the v4 Chart does (Helm's Go SDK;
no cluster, and no network but a chart repository served from this process)."""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.offline_preview import helm_charts
from gpu_platform.offline_preview.helm_charts import (
    HELM_SDK,
    ChartBoundExceeded,
    ChartRef,
    ChartRenderError,
    ChartStore,
    ChartUnavailable,
    merge_values,
    post_render,
    render,
)
from tests.conftest import ROOT

CHART = ROOT / "tests" / "fixtures" / "charts" / "gpu-device-plugin"
"""Our device-plugin-shaped chart: two DaemonSets, a CRD and one of its objects, a hook."""


def kinds(objects: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(o["kind"], o["metadata"]["name"]) for o in objects]


def test_a_chart_renders_as_the_v4_chart_does_crds_first_no_hooks_no_notes() -> None:
    objects = render(CHART, release="dp", namespace="gpu", values={"gfd": {"enabled": True}})
    assert kinds(objects) == [
        ("CustomResourceDefinition", "sharingconfigs.gpu.example.org"),
        ("DaemonSet", "dp"),
        ("DaemonSet", "dp-gpu-feature-discovery"),
        ("ServiceAccount", "dp"),
        ("SharingConfig", "dp-default"),
    ]
    assert {o["metadata"].get("namespace") for o in objects[1:]} == {"gpu"}
    assert objects[1]["spec"]["template"]["spec"]["containers"][0]["image"] == (
        "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"  # the chart's appVersion
    )


def test_values_hooks_and_crds_as_asked() -> None:
    objects = render(
        CHART,
        release="dp",
        namespace="gpu",
        values={"namespaceOverride": "nv", "sharing": {"replicas": 4.0}},
        include_crds=False,
        include_hooks=True,  # a v3 Release installs its hooks
    )
    assert kinds(objects) == [  # by template file
        ("DaemonSet", "dp"),
        ("Job", "dp-pre-install-check"),
        ("ServiceAccount", "dp"),
        ("SharingConfig", "dp-default"),
    ]
    assert {o["metadata"]["namespace"] for o in objects} == {"nv"}
    assert objects[3]["spec"] == {"replicas": 4}  # an engine's 4.0 renders as Helm renders 4


def test_a_chart_that_fails_to_render_says_why(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    (broken / "templates").mkdir(parents=True)
    (broken / "Chart.yaml").write_text("apiVersion: v2\nname: broken\nversion: 1.0.0\n")
    (broken / "templates" / "cm.yaml").write_text('{{ required "set image.tag" .Values.x }}\n')
    with pytest.raises(ChartRenderError, match=r"set image\.tag"):
        render(broken, release="b", namespace="n", values={})


def test_values_coalesce_as_helm_merges_them() -> None:
    base = {"gfd": {"enabled": False, "resources": {"cpu": "1"}}, "tolerations": [{"a": 1}]}
    override = {"gfd": {"enabled": True}, "tolerations": []}
    assert merge_values(base, override) == {
        "gfd": {"enabled": True, "resources": {"cpu": "1"}},
        "tolerations": [],
    }


@pytest.mark.parametrize(
    ("chart", "name"),
    [
        ("nvdp/nvidia-device-plugin", "nvidia-device-plugin"),
        ("oci://ghcr.io/nvidia/k8s-device-plugin", "k8s-device-plugin"),
        ("https://example.org/charts/dcgm-exporter-4.8.2.tgz", "dcgm-exporter"),
        ("./charts/gpu-device-plugin/", "gpu-device-plugin"),
    ],
)
def test_a_charts_bare_name(chart: str, name: str) -> None:
    assert ChartRef(chart).name == name


def test_the_post_renderer_rewrites_the_manifest() -> None:
    script = (
        "import sys, yaml; docs = list(yaml.safe_load_all(sys.stdin)); "
        "[d['metadata'].setdefault('labels', {}).update(team='ml') for d in docs]; "
        "print(yaml.safe_dump_all(docs))"
    )
    objects = post_render(
        [{"kind": "Pod", "metadata": {"name": "p"}}], sys.executable, ["-c", script]
    )
    assert objects == [{"kind": "Pod", "metadata": {"name": "p", "labels": {"team": "ml"}}}]
    with pytest.raises(ChartRenderError, match="exited 3"):
        post_render([], sys.executable, ["-c", "raise SystemExit(3)"])


# --- Where a chart comes from ------------------------------------------------------------------


def offline(tmp_path: Path, *search: Path) -> ChartStore:
    return ChartStore(search, tmp_path / "cache", network=False)


def test_a_local_folder_or_archive_is_the_chart(tmp_path: Path) -> None:
    store = offline(tmp_path)
    assert store.locate(ChartRef("gpu-device-plugin"), CHART.parent) == CHART
    archive = Path(helm_charts.helm_sdk().package(CHART, destination=tmp_path))
    assert store.locate(ChartRef(archive.name), tmp_path) == archive
    assert kinds(render(archive, release="a", namespace="n", values={}))[1] == ("DaemonSet", "a")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ChartUnavailable, match=r"a folder without a Chart\.yaml"):
        store.locate(ChartRef("empty"), tmp_path)


def test_a_copy_the_user_gives_wins_over_the_repository(tmp_path: Path) -> None:
    given = tmp_path / "given"
    given.mkdir()
    (given / "gpu-device-plugin-0.3.0").symlink_to(CHART)
    ref = ChartRef("gpu-device-plugin", "0.3.0", "https://charts.invalid/gpu")
    assert offline(tmp_path, given).locate(ref, tmp_path) == given / "gpu-device-plugin-0.3.0"


@pytest.mark.parametrize(
    ("ref", "fragment"),
    [
        (ChartRef("gpu-device-plugin"), "no chart folder or archive 'gpu-device-plugin'"),
        (ChartRef("gpu", "1.0.0", "https://charts.invalid"), "pulling is switched off"),
        (ChartRef("oci://registry.invalid/gpu", "1.0.0"), "pulling is switched off"),
        (ChartRef("nowhere/gpu"), "no repository 'nowhere' in Helm's configuration"),
    ],
)
def test_a_chart_that_cannot_be_had_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: ChartRef, fragment: str
) -> None:
    monkeypatch.setenv("HELM_REPOSITORY_CONFIG", str(tmp_path / "repositories.yaml"))
    with pytest.raises(ChartUnavailable, match=fragment):
        offline(tmp_path).locate(ref, tmp_path)


@pytest.fixture
def repository(tmp_path: Path) -> Iterator[str]:
    """A Helm chart repository (index.yaml and the packaged chart) on a local port."""
    served = tmp_path / "served"
    served.mkdir()
    helm = helm_charts.helm_sdk()
    helm.package(CHART, destination=served)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    helm.repo_index_generate(served, base_url=url)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def test_a_pinned_chart_is_pulled_once_into_the_cache(
    tmp_path: Path, repository: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ChartStore((), tmp_path / "cache")
    ref = ChartRef("gpu-device-plugin", "0.3.0", repository)
    pulled = store.locate(ref, tmp_path)
    assert (
        pulled.is_relative_to(tmp_path / "cache") and pulled.name == "gpu-device-plugin-0.3.0.tgz"
    )
    assert kinds(render(pulled, release="r", namespace="n", values={}))[1] == ("DaemonSet", "r")

    # Later runs read the cache, even offline; so does a repository alias Helm knows.
    assert offline(tmp_path).locate(ref, tmp_path) == pulled
    config = tmp_path / "repositories.yaml"
    config.write_text(f"repositories:\n- name: ours\n  url: {repository}\n")
    monkeypatch.setenv("HELM_REPOSITORY_CONFIG", str(config))
    alias = ChartRef("ours/gpu-device-plugin", "0.3.0")
    assert offline(tmp_path).locate(alias, tmp_path) == pulled


def test_a_pull_writes_only_into_our_cache(
    tmp_path: Path, repository: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Helm writes the repository's index into its cache as it pulls: into ours. Helm's
    default cache is a file here, so a write there would fail the pull."""
    monkeypatch.setenv("GPU_PLATFORM_CACHE", str(tmp_path / "ours"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
    monkeypatch.setenv("HELM_CACHE_HOME", str(tmp_path / "not-a-folder" / "helm"))
    (tmp_path / "not-a-folder").write_text("")
    monkeypatch.setattr(helm_charts.HelmWorker, "_current", None)  # one started with this env
    store = ChartStore((), tmp_path / "ours" / "charts")
    try:
        pulled = store.locate(ChartRef("gpu-device-plugin", "0.3.0", repository), tmp_path)
    finally:
        helm_charts.stop_helm_worker()
    assert pulled.is_relative_to(tmp_path / "ours")
    assert (tmp_path / "ours" / "helm" / "repository").is_dir()


def test_a_chart_the_repository_lacks_is_unavailable(tmp_path: Path, repository: str) -> None:
    store = ChartStore((), tmp_path / "cache")
    with pytest.raises(ChartUnavailable, match="pulling it failed"):
        store.locate(ChartRef("gpu-device-plugin", "9.9.9", repository), tmp_path)


def test_constraints_pin_the_helm_sdk_installed_on_first_use() -> None:
    assert HELM_SDK in (ROOT / "constraints.txt").read_text().splitlines()


@pytest.mark.slow
def test_helm_sdk_installs_into_a_folder_a_fresh_interpreter_imports(tmp_path: Path) -> None:
    """Where the SDK is not installed (a runtime-only install), it is installed on first use,
    from uv's cache when it holds the wheel; the wheel's three copies of the native library
    are one file and two links to it, and the library loads through them."""
    target = tmp_path / "python" / "helm-python-sdk"
    helm_charts._install_helm_sdk(target)
    done = subprocess.run(
        [sys.executable, "-I", "-c", "import sys; sys.path.append(sys.argv[1]); "
         "import helm_python; from helm_python import _native; "
         "print(helm_python.__version__, _native.helm_c_version())", str(target)],
        capture_output=True,
        text=True,
        check=True,
    )  # fmt: skip
    assert done.stdout.split()[0] == HELM_SDK.split("==")[1]
    lib = target / "helm_python" / "lib"
    files = [p.name for p in lib.iterdir() if not p.is_symlink()]
    links = {p.name: p.readlink().as_posix() for p in lib.iterdir() if p.is_symlink()}
    assert files == ["libhelm_c.so.0.2.2"]
    assert links == {"libhelm_c.so": files[0], "libhelm_c.so.0": files[0]}


def test_repeated_files_become_links_to_one(tmp_path: Path) -> None:
    (tmp_path / "lib.so.1.0").write_bytes(b"native")
    (tmp_path / "lib.so").write_bytes(b"native")
    (tmp_path / "other.so").write_bytes(b"another")
    helm_charts._link_copies(tmp_path)
    assert (tmp_path / "lib.so").readlink().as_posix() == "lib.so.1.0"
    assert not (tmp_path / "lib.so.1.0").is_symlink()
    assert not (tmp_path / "other.so").is_symlink()
    assert (tmp_path / "lib.so").read_bytes() == b"native"


def test_without_uv_or_pip_the_helm_sdk_is_not_installed_and_the_reason_says_how(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A virtualenv uv made has no pip; with uv off the PATH, `python -m pip` only said "No
    module named pip". Now nothing is run, and the reason gives the command that installs it."""
    monkeypatch.setattr(helm_charts, "find_uv", lambda: None)
    monkeypatch.setattr(helm_charts.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ChartUnavailable) as err:
        helm_charts._install_helm_sdk(tmp_path / "sdk")
    assert f"uv pip install --python {sys.executable} {HELM_SDK}" in str(err.value)
    assert "no uv on the PATH, no pip in" in str(err.value)
    assert not (tmp_path / "sdk.partial").exists()


@pytest.mark.parametrize(
    ("uv", "importable", "expected"),
    [
        ("/x/uv", {"uv", "pip"}, ["/x/uv", "pip", "install"]),
        (None, {"uv", "pip"}, [sys.executable, "-m", "uv", "pip", "install"]),
        (None, {"pip"}, [sys.executable, "-m", "pip", "install"]),
    ],
)
def test_the_installer_is_uv_first_then_pip(
    monkeypatch: pytest.MonkeyPatch, uv: str | None, importable: set[str], expected: list[str]
) -> None:
    monkeypatch.setattr(helm_charts, "find_uv", lambda: uv)
    monkeypatch.setattr(
        helm_charts.importlib.util,
        "find_spec",
        lambda name: object() if name in importable else None,
    )
    installer = helm_charts._installer()
    assert installer is not None and installer[: len(expected)] == expected


class _AbortingWorker(helm_charts.HelmWorker):
    """A worker that dies as Go's runtime does at its memory bound: ``said`` on stderr, then
    SIGABRT."""

    def __init__(self, said: str) -> None:
        script = f"import os, sys; sys.stdin.readline(); sys.stderr.write({said!r}); os.abort()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", script],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._stderr, self._stderr_head = bytearray(), bytearray()
        self._drain = threading.Thread(target=self._keep_stderr, daemon=True)
        self._drain.start()


@pytest.mark.parametrize(
    "said",
    [
        "fatal error: out of memory\n",
        "runtime: cannot allocate memory\n",
        # The heap took the rest of the bound: the next thread's stack cannot be mapped.
        "runtime/cgo: pthread_create failed: Resource temporarily unavailable\nSIGABRT: abort\n",
    ],
)
def test_a_worker_ending_at_its_memory_bound_names_the_bound(said: str) -> None:
    worker = _AbortingWorker(said)
    with pytest.raises(ChartBoundExceeded, match="Helm needed more than its memory bound of"):
        worker.call({"render": {}}, 10.0)
    assert worker.process.returncode == -6


def test_a_worker_ending_otherwise_says_what_it_said() -> None:
    worker = _AbortingWorker("panic: something else\n")
    with pytest.raises(ChartRenderError, match=r"exit status -6\): panic: something else"):
        worker.call({"render": {}}, 10.0)
