"""Every fetch the preview makes for a program (a manifest or values file by URL, a chart
archive by URL, a chart from a repository) has its own size cap and deadline, within the run's
``--timeout``: a server on 127.0.0.1 that never answers, drips, never ends or announces a
size it never sends cannot hold the preview or fill its memory. Each case with the notice's
level (advisory: could not be had; mandatory: past a size bound) and the limit and URL it
names, without the URL's credentials."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpu_platform.offline_preview import fetch as fetching
from gpu_platform.offline_preview import helm_charts
from gpu_platform.offline_preview.deadline import PreviewTimedOut, RunDeadline
from gpu_platform.offline_preview.kube_manifests import (
    MANIFEST_MAX_BYTES,
)

from .hostile_server import Served, hostile_server
from .remote_components import build_one, one_notice

CAP = MANIFEST_MAX_BYTES
FETCH_SECONDS = 0.5
"""The deadline of a fetch a test waits out here (60 s in a real run); the others keep a
deadline no answer nears, whatever the machine's load."""


@dataclass(frozen=True)
class HostileFetch:
    name: str
    path: str
    """What the program asks for, after the server's address (``{url}`` stands for it)."""
    level: str
    expected: str
    """In the notice: ``{url}`` stands for the server's address."""
    waited_out: bool = False
    """Whether the case waits for the fetch's deadline (``FETCH_SECONDS``)."""


FETCHES = [
    HostileFetch("a silent server", "/silent", "advisory",
                 "{url}/silent: no complete answer within 0.5 s (its deadline)", True),
    HostileFetch("a drip-feeding server", "/drip", "advisory",
                 "{url}/drip: no complete answer within 0.5 s (its deadline)", True),
    HostileFetch("an answer without end", "/endless", "mandatory",
                 f"{{url}}/endless: more than its cap of {CAP} bytes"),
    HostileFetch("a size past the cap, announced", "/declared-huge", "mandatory",
                 f"{{url}}/declared-huge: 1000000000000 bytes, more than its cap of {CAP}"),
    HostileFetch("no such file", "/missing", "advisory", "{url}/missing: Not Found"),
    HostileFetch("a scheme other than http(s)", "file:///etc/hostname", "advisory",
                 "file:///etc/hostname: only http and https URLs are fetched"),
    HostileFetch("credentials in the URL", "//user:s3cr3t-pass@{host}/missing?token=s3cr3t-token",
                 "advisory", "http://[redacted]@{host}/missing?token=[redacted]: Not Found"),
    HostileFetch("a redirect to ftp", "/redirect-to-ftp", "advisory",
                 "{url}/redirect-to-ftp: redirected to ftp://127.0.0.1/pod.yaml: only http and "
                 "https"),
]  # fmt: skip
CHARTS = [
    HostileFetch("a chart archive without end", "/endless.tgz", "mandatory",
                 "{url}/endless.tgz: more than its cap of 1048576 bytes (Helm's cap on a chart)"),
    HostileFetch("a silent chart repository", "/silent-repo", "advisory",
                 "pulling it did not finish within 0.5 s (its deadline)", True),
    HostileFetch("a repository index without end", "/endless-repo", "mandatory",
                 "pulling it: Helm needed more than its memory bound of 256 MiB"),
    HostileFetch("a repository with credentials", "//user:s3cr3t-pass@{host}/silent-repo",
                 "advisory", "from http://[redacted]@{host}/silent-repo", True),
]  # fmt: skip


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    with hostile_server() as served:
        yield served


def _deadline(case: HostileFetch, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetching, "FETCH_SECONDS", FETCH_SECONDS if case.waited_out else 30.0)


def _url(case: HostileFetch, server: Served) -> str:
    host = server.url.removeprefix("http://")
    if case.path.startswith("//"):
        return "http:" + case.path.format(host=host)
    return case.path if "://" in case.path else server.url + case.path


def _expected(case: HostileFetch, server: Served) -> str:
    return case.expected.format(url=server.url, host=server.url.removeprefix("http://"))


@pytest.mark.parametrize("case", FETCHES, ids=[c.name for c in FETCHES])
def test_a_manifest_fetch_is_bounded_and_names_its_url_and_limit(
    case: HostileFetch, server: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _deadline(case, monkeypatch)
    _, notices = build_one("file", {"file": _url(case, server)}, tmp_path)
    level, message = one_notice(notices)
    assert (level, _expected(case, server) in message) == (case.level, True), message
    assert "s3cr3t" not in message


def test_credentials_in_a_manifest_url_are_sent_as_basic_auth_and_never_shown(
    server: Served, tmp_path: Path
) -> None:
    url = server.url.replace("http://", "http://user:s3cr3t-pass@") + "/pod.yaml?token=t0k3n"
    run, notices = build_one("file", {"file": url}, tmp_path)
    assert notices == []
    assert [r.name for r in run.resources][1:] == ["c:default/fetched"]
    assert server.authorizations[-1] == "Basic dXNlcjpzM2NyM3QtcGFzcw=="  # user:s3cr3t-pass


def test_credentials_go_to_no_other_host_a_redirect_names(server: Served, tmp_path: Path) -> None:
    """As Go's client (the Kubernetes provider's) follows it: the same server, other host name."""
    port = server.url.rsplit(":", 1)[1]
    url = f"http://user:s3cr3t-pass@127.0.0.1:{port}/redirect/localhost:{port}/pod.yaml"
    run, notices = build_one("file", {"file": url}, tmp_path)
    assert notices == []
    assert [r.name for r in run.resources][1:] == ["c:default/fetched"]
    assert server.authorizations[-2:] == ["Basic dXNlcjpzM2NyM3QtcGFzcw==", ""]


@pytest.mark.parametrize("case", CHARTS, ids=[c.name for c in CHARTS])
def test_a_chart_fetch_is_bounded_and_names_its_limit(
    case: HostileFetch, server: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(helm_charts, "MAX_CHART_BYTES", 1024 * 1024)
    monkeypatch.setattr(helm_charts, "HELM_MEMORY_BYTES", 256 * 1024 * 1024)
    monkeypatch.setattr(helm_charts.HelmWorker, "_current", None)  # one with this memory bound
    _deadline(case, monkeypatch)
    url = _url(case, server)
    inputs = (
        {"chart": url}
        if url.endswith(".tgz")
        else {"chart": "gpu", "version": "1.0.0", "repositoryOpts": {"repo": url}}
    )
    _, notices = build_one("chart", inputs, tmp_path)
    level, message = one_notice(notices)
    assert (level, _expected(case, server) in message) == (case.level, True), message
    assert "s3cr3t" not in message
    assert not any("s3cr3t" in str(p) for p in (tmp_path / ".chart-cache").rglob("*"))
    helm_charts.stop_helm_worker()


def test_the_runs_deadline_ends_a_fetch_and_says_what_was_fetched(
    server: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fetching, "FETCH_SECONDS", 60.0)
    with pytest.raises(PreviewTimedOut) as err:
        build_one("file", {"file": f"{server.url}/drip"}, tmp_path, deadline=RunDeadline(0.5))
    assert str(err.value) == (
        "the preview did not finish within 0.5 s (--timeout SECONDS allows more): yaml/v2 "
        f"ConfigFile 'c': fetching {server.url}/drip"
    )
