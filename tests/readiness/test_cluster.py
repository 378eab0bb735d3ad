"""Read-only list and get calls, in pages, every failure one clear line (readiness.cluster)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import urllib3
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from gpu_platform.verify.cluster import ClusterError, ClusterReader, _kubeconfig_paths, connect


class _Answer:
    def __init__(self, body: dict[str, Any]) -> None:
        self.data = json.dumps(body).encode()


@pytest.fixture
def reader() -> ClusterReader:
    return ClusterReader(
        client.ApiClient(client.Configuration(host="https://api.lab")), page_size=2
    )


def test_lists_are_read_in_pages(reader: ClusterReader) -> None:
    pages = {None: (["a", "b"], "p2"), "p2": (["c"], None)}
    seen: list[dict[str, Any]] = []

    def method(**kwargs: Any) -> _Answer:
        seen.append(kwargs)
        names, token = pages[kwargs.get("_continue")]
        return _Answer(
            {"items": [{"metadata": {"name": n}} for n in names], "metadata": {"continue": token}}
        )

    items = reader._list("list nodes", method, label_selector="x=y")
    assert [i["metadata"]["name"] for i in items] == ["a", "b", "c"]
    assert [s["limit"] for s in seen] == [2, 2] and seen[0]["label_selector"] == "x=y"


@pytest.mark.parametrize(
    ("error", "says"),
    [
        (ApiException(status=401, reason="Unauthorized"), "rejected the credentials (401"),
        (
            ApiException(status=403, reason="Forbidden"),
            "not allowed to list nodes at https://api.lab",
        ),
        (ApiException(status=0, reason="Connection refused"), "cannot reach the API server"),
        (urllib3.exceptions.MaxRetryError(None, "/", "Connection refused"), "Connection refused"),
    ],
)
def test_failures_are_one_line(reader: ClusterReader, error: Exception, says: str) -> None:
    def method(**kwargs: Any) -> _Answer:
        raise error

    with pytest.raises(ClusterError) as raised:
        reader._list("list nodes", method)
    assert says in str(raised.value)
    assert "\n" not in str(raised.value)


def test_kubeconfig_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given = tmp_path / "config"
    assert _kubeconfig_paths(given) == [given]
    monkeypatch.setenv("KUBECONFIG", f"{tmp_path}/a:{tmp_path}/b")
    assert _kubeconfig_paths(None) == [tmp_path / "a", tmp_path / "b"]
    with pytest.raises(ClusterError, match="no file at"):
        connect(None, None)
    given.write_text("{not: [yaml")
    with pytest.raises(ClusterError, match="kubeconfig: "):
        connect(given, None)
